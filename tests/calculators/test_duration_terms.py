"""The training time's factors: the schedule's bubble computed once and read from the compute
facts, and the formula and duration sentence showing only the factors that apply (no bubble
term without a pipeline or under a stated, end-to-end MFU; no network term at 100%)."""

from __future__ import annotations

import pytest

from assistant.i18n import text
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.compute_time import pipeline_bubble_fraction
from calculators.planner.compute import compute_check, compute_facts
from calculators.planner.plan import CheckResult, Plan
from calculators.planner.schedule import dualpipe_bubble_fraction

_IB = {"inter_link": lookup_link("InfiniBand NDR"), "nics_per_node": 8}


def _plan(model: str = "Llama-2-7B", **changes: object) -> Plan:
    fields: dict[str, object] = {
        "task": "pretrain",
        "model": lookup_model(model),
        "gpu": lookup_gpu("H100"),
        "gpus": 8,
        "tokens": 1e12,
        "zero_stage": 1,
        "recompute": "selective",
    }
    fields.update(changes)
    return Plan(**fields)  # type: ignore[arg-type]


#: 405B on 8,192 H100 as TP8 x PP16 (Llama 3's layout), 64 micro-batches per pipeline.
_PIPELINED = {
    "gpus": 8192,
    "tensor_parallel": 8,
    "pipeline_parallel": 16,
    "global_batch_tokens": float(64 * 64 * 4096),
    **_IB,
}
#: DeepSeek-V3 as published: PP16, EP64, no TP, DualPipe, 64 micro-batches per pipeline.
_DUALPIPE = {
    "gpu": lookup_gpu("H800"),
    "gpus": 2048,
    "precision": "fp8",
    "recompute": "full",
    "pipeline_parallel": 16,
    "expert_parallel": 64,
    "stages_across_nodes": True,
    "global_batch_tokens": float(128 * 64 * 4096),
    **_IB,
}


def _check(plan: Plan) -> CheckResult:
    return compute_check(plan, compute_facts(plan), memory_fits=True)


def test_the_schedule_bubble_is_one_fact_read_by_the_figures_and_the_sentences() -> None:
    plan = _plan("Llama-3.1-405B", **_PIPELINED, mfu=0.4)
    facts = compute_facts(plan)
    assert facts.pipeline_microbatches == 64
    assert facts.schedule_bubble == pytest.approx(15 / 79)  # (p - 1) / (m + p - 1)
    assert facts.pipeline_bubble == 0.0  # a stated MFU has the bubble inside: not charged
    check = compute_check(plan, facts, memory_fits=True)
    assert check.figures["schedule_bubble"] == facts.schedule_bubble
    said = {m.key: m for m in check.messages}
    assert said["training.mfu_end_to_end"]["bubble"] == facts.schedule_bubble
    assert said["training.pipeline_bubble_assumed"]["bubble"] == facts.schedule_bubble


@pytest.mark.parametrize(
    ("model", "changes", "schedule_bubble"),
    [
        ("Llama-2-7B", {}, 0.0),  # no pipeline
        (
            "Llama-3.1-405B",
            _PIPELINED,
            pipeline_bubble_fraction(pipeline_parallel=16, micro_batches=64),
        ),
        (
            "DeepSeek-V3",
            _DUALPIPE,
            dualpipe_bubble_fraction(pipeline_parallel=16, micro_batches=64, full_recompute=True),
        ),
    ],
)
def test_the_charged_bubble_is_the_schedules_when_no_mfu_is_stated(
    model: str, changes: dict[str, object], schedule_bubble: float
) -> None:
    facts = compute_facts(_plan(model, **changes))
    assert facts.schedule_bubble == pytest.approx(schedule_bubble)
    assert facts.pipeline_bubble == facts.schedule_bubble


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("model", "changes", "bubble", "network", "schedule"),
    [
        # the reported case: "MFU 40%", no pipeline, so neither factor applies
        ("Llama-2-7B", {"mfu": 0.4}, False, False, None),
        # a stated MFU on a pipeline is end to end: still neither
        ("Llama-3.1-405B", {**_PIPELINED, "mfu": 0.4}, False, False, None),
        # one node, no pipeline, traffic hidden: neither
        ("Llama-2-7B", {}, False, False, None),
        # 1F1B on 8,192 H100: the traffic hides under compute, so the bubble alone
        ("Llama-3.1-405B", _PIPELINED, True, False, "(p − 1) / (m + p − 1)"),
        # the same on H800, whose slower NVLink adds TP time on the critical path: both
        ("Llama-3.1-405B", {**_PIPELINED, "gpu": lookup_gpu("H800")}, True, True, "(m + p − 1)"),
        # DualPipe: its own bubble term
        ("DeepSeek-V3", _DUALPIPE, True, None, "(p/2 − 1)(F&B + B − 3W)"),
    ],
)
def test_the_formula_shows_only_the_factors_that_apply(
    lang: str,
    model: str,
    changes: dict[str, object],
    bubble: bool,
    network: bool | None,
    schedule: str | None,
) -> None:
    plan = _plan(model, **changes)
    facts = compute_facts(plan)
    shown = text(_check(plan).formula, lang)  # type: ignore[arg-type]
    assert ("1 − bubble" in shown) is bubble
    assert "0%" not in shown
    assert "100%" not in shown
    if network is None:  # whichever it is, the network term follows the efficiency
        network = facts.network_efficiency < 1
    assert ("η_network" in shown) is network
    if schedule is not None:
        assert schedule in shown
    if not bubble and not network:
        attention = "attention" if lang == "en" else "注意力"
        assert shown.endswith("T = C / (n × peak × MFU)")
        assert attention in shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stated_mfu_duration_divides_by_nothing(lang: str) -> None:
    check = _check(_plan(mfu=0.4))
    duration = text(check.messages[0], lang)  # type: ignore[arg-type]
    assert check.messages[0].key == "training.duration_compute"
    assert "÷" not in duration
    assert "0%" not in duration
    assert "100%" not in duration
    said = " ".join(text(m, lang) for m in check.messages)  # type: ignore[arg-type]
    assert "pipeline bubble (" not in said
    assert "流水线气泡（" not in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pipelined_run_divides_by_its_bubble_and_network(lang: str) -> None:
    plan = _plan("Llama-3.1-405B", **{**_PIPELINED, "gpu": lookup_gpu("H800")})
    facts = compute_facts(plan)
    check = compute_check(plan, facts, memory_fits=True)
    assert check.messages[0].key == "training.duration_factors"
    assert text(check.messages[0], lang).count("÷") == 2  # type: ignore[arg-type]
    assert facts.seconds == pytest.approx(
        facts.compute_seconds / ((1 - facts.pipeline_bubble) * facts.network_efficiency)  # type: ignore[operator]
    )


@pytest.mark.parametrize("key", ["pipeline_bubble", "schedule_bubble"])
def test_both_bubbles_are_shown_as_percentages(key: str) -> None:
    from assistant.render.calc import figure_text

    facts = compute_facts(_plan("Llama-3.1-405B", **_PIPELINED))
    assert figure_text(key, facts.schedule_bubble) == f"{15 / 79:.1%}"  # was "0.19" (no percent)
