"""A stated pipeline degree with the rest of the layout open: the stated PP is kept, TP stays
the planner's to choose (TP=1 included), the experts split over the data-parallel ranks the
layout leaves, and the default batch keeps m >> p micro-batches per pipeline whichever TP is
chosen. DualPipe needs at least 2p micro-batches (deepseek-ai/DualPipe asserts it); fewer
run 1F1B, and its bubble (p - 1) / (m + p - 1) is charged (Narayanan et al. 2021 §2.2.1)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.defaults import resolve
from assistant.calculate.layouts import evaluate_best
from assistant.parse import parse
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.compute_time import pipeline_bubble_fraction
from calculators.planner.compute import compute_facts
from calculators.planner.plan import Evaluation, Plan
from calculators.planner.schedule import dualpipe_bubble_fraction, uses_dualpipe

#: DeepSeek-V3 Table 1: 2.664M H800 GPU-hours of pre-training on 2,048 GPUs = 54.2 days.
REPORTED_DAYS = 2.664e6 / 2048 / 24
DEEPSEEK = {"model": "DeepSeek-V3", "gpu": "H800", "gpu_count": 2048, "tokens": 14.8e12}


def _best(**slots: object) -> Evaluation:
    scenario = Scenario(task="pretrain", **{**DEEPSEEK, **slots})  # type: ignore[arg-type]
    return evaluate_best(resolve(scenario, None, "en").scenario, "en", None)[0]


def _figure(evaluation: Evaluation, key: str) -> float:
    return float(evaluation.check("compute").figures[key])  # type: ignore[arg-type]


def _deepseek_plan(**changes: object) -> Plan:
    fields: dict[str, object] = {
        "task": "pretrain",
        "model": lookup_model("DeepSeek-V3"),
        "gpu": lookup_gpu("H800"),
        "gpus": 2048,
        "tokens": 14.8e12,
        "precision": "fp8",
        "inter_link": lookup_link("InfiniBand NDR"),
        "nics_per_node": 8,
        "zero_stage": 1,
        "recompute": "full",
        "pipeline_parallel": 16,
        "expert_parallel": 64,
        "stages_across_nodes": True,
    }
    fields.update(changes)
    return Plan(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("sequences", "dualpipe"),
    [
        (128 * 8, False),  # m = 8 < 2p = 32: DualPipe cannot run, 1F1B
        (128 * 31, False),  # m = 31: one short of the boundary
        (128 * 32, True),  # m = 32 = 2p: the smallest DualPipe step
        (128 * 64, True),
    ],
)
def test_dualpipe_needs_two_micro_batches_per_stage(sequences: int, dualpipe: bool) -> None:
    plan = _deepseek_plan(global_batch_tokens=float(sequences * 4096))
    facts = compute_facts(plan)
    m = sequences // 128  # 2,048 GPUs / PP 16 = 128 data-parallel pipelines
    assert facts.pipeline_microbatches == m
    assert uses_dualpipe(plan) is dualpipe
    want = (
        dualpipe_bubble_fraction(pipeline_parallel=16, micro_batches=m, full_recompute=True)
        if dualpipe
        else pipeline_bubble_fraction(pipeline_parallel=16, micro_batches=m)
    )
    assert facts.pipeline_bubble == pytest.approx(want)


def test_few_micro_batches_are_charged_the_1f1b_bubble_not_dualpipes() -> None:
    # before: DualPipe's bubble at m = 2, 14 / (4 x 2 + 14) = 64%, with the all-to-all hidden
    facts = compute_facts(_deepseek_plan(global_batch_tokens=float(256 * 4096)))
    assert facts.pipeline_bubble == pytest.approx(15 / 17)  # (p - 1) / (m + p - 1), m = 2


@pytest.mark.parametrize(
    "slots",
    [
        {"pipeline_parallel": 16},  # "PP16, EP64": TP open
        {"pipeline_parallel": 16, "tensor_parallel": 8},  # "TP8, PP16": all stated
    ],
)
def test_a_stated_pipeline_runs_near_the_published_time(slots: dict[str, object]) -> None:
    # before: 172 days (PP16: ZeRO-3, micro-batch 4, 2 micro-batches per pipeline) and
    # 1,555 days (TP8 x PP16: every layout refused for EP=64 on 16 data-parallel ranks, so
    # the experts were replicated and their gradients all-reduced)
    e = _best(**slots)
    assert (e.plan.pipeline_parallel, e.plan.tensor_parallel) == (
        16,
        slots.get("tensor_parallel", e.plan.tensor_parallel),
    )
    data_parallel = 2048 // (16 * e.plan.tensor_parallel)
    assert e.plan.expert_parallel_degree == min(64, data_parallel)
    assert _figure(e, "pipeline_microbatches") >= 4 * 16  # m >> p
    assert _figure(e, "pipeline_bubble") < 0.2
    assert _figure(e, "days") == pytest.approx(REPORTED_DAYS, rel=0.35)


def test_a_stated_expert_degree_is_kept_and_leaves_tp_at_one() -> None:
    # "PP16, EP64": 64-way EP needs 64 data-parallel ranks, so TP=8 (16 ranks) is out and the
    # report's own TP=1 layout runs; before, the EP word was not read and TP=8 cut it to 16
    e = _best(pipeline_parallel=16, expert_parallel=64)
    assert (e.plan.tensor_parallel, e.plan.pipeline_parallel) == (1, 16)
    assert e.plan.expert_parallel_degree == 64
    assert _figure(e, "pipeline_bubble") < 0.2
    assert _figure(e, "days") == pytest.approx(REPORTED_DAYS, rel=0.35)


@pytest.mark.parametrize(
    ("question", "ep"),
    [
        ("Pre-train DeepSeek-V3 on 14.8T tokens with 2048 H800, PP16, EP64: how long?", 64),
        ("DeepSeek-V3 预训练 14.8T token，2048张H800，PP16、EP64，要多久？", 64),
        ("Mixtral-8x7B 预训练 1T token，64张H100，专家并行8", 8),
        ("Pretrain Mixtral-8x7B on 64 H100 over 1T tokens with 4-way expert parallelism", 4),
        ("Pre-train DeepSeek-V3 on 14.8T tokens with 2048 H800: how long?", None),
    ],
)
def test_the_expert_degree_is_read_and_used_as_stated(question: str, ep: int | None) -> None:
    outcome = calculate(parse(question))
    assert parse(question).scenario.expert_parallel == ep
    memory = next(c for c in outcome.checks if c.kind == "memory")
    if ep is not None:
        assert memory.figures["expert_parallel"] == ep


def test_a_stated_expert_degree_the_layout_cannot_hold_is_refused_not_changed() -> None:
    from calculators.errors import CalculatorInputError

    # TP8 x PP16 on 2,048 GPUs leaves 16 data-parallel ranks: 64-way EP does not divide them
    with pytest.raises(CalculatorInputError, match="expert_parallel"):
        _best(tensor_parallel=8, pipeline_parallel=16, expert_parallel=64)


@pytest.mark.parametrize(
    ("slots", "tp", "ep"),
    [
        ({"zero_stage": 1, "pipeline_parallel": 16}, None, 16),  # TP searched: 8 wins
        ({"zero_stage": 1, "pipeline_parallel": 16, "expert_parallel": 64}, 1, 64),
        ({"zero_stage": 1, "tensor_parallel": 8, "pipeline_parallel": 16}, 8, 16),
    ],
)
def test_a_stated_zero_stage_and_pipeline_still_split_the_experts(
    slots: dict[str, object], tp: int | None, ep: int
) -> None:
    # before: ZeRO with a stated PP was one fixed layout, TP=1 and no expert parallelism, so
    # every GPU held all 256 experts of its stages (432 GB per GPU, or 1,555 days at TP8)
    e = _best(**slots)
    assert (e.plan.zero_stage, e.plan.pipeline_parallel) == (1, 16)
    assert e.plan.tensor_parallel == (tp or e.plan.tensor_parallel)
    assert e.plan.expert_parallel_degree == ep
    assert e.check("memory").verdict != "fail"
    assert _figure(e, "days") == pytest.approx(REPORTED_DAYS, rel=0.35)


def test_stating_the_pipeline_costs_little_against_the_free_choice() -> None:
    free, stated = _best(), _best(pipeline_parallel=16)
    assert stated.plan.pipeline_parallel == 16
    assert _figure(stated, "days") <= 1.05 * _figure(free, "days")


def test_the_default_batch_is_grown_for_the_widest_data_parallel_split() -> None:
    scenario = resolve(
        Scenario(task="pretrain", pipeline_parallel=16, **DEEPSEEK),  # type: ignore[arg-type]
        None,
        "en",
    )
    # TP open: sized at TP=1, 128 pipelines x 64 micro-batches, so TP=8 keeps 512
    assert scenario.scenario.batch_size == 4 * 16 * 128
    assert any("whichever tensor-parallel split" in s for s in scenario.assumptions)
