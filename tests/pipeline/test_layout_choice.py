"""The serving split is chosen for what the question asks, comparisons name no winner when no
option works, and no ZeRO stage is shown where it shards nothing (expert review, layouts).

Each choice is checked against an independent enumeration of the open splits through the
planner's own checks, not against a number copied from an answer.
"""

from __future__ import annotations

import doctest
from dataclasses import replace

import pytest

from assistant.calculate import calculate, serving_pick
from assistant.calculate.layouts import _layouts, to_plan
from assistant.calculate.outcome import Outcome
from assistant.i18n import text
from assistant.parse import parse
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner import run_checks
from calculators.planner.memory import memory_check
from calculators.planner.plan import Plan
from calculators.planner.suggest_scale import layout_message


def _ask(question: str) -> Outcome:
    return calculate(parse(question))


def _splits(s: Scenario) -> list[tuple[int, float, float]]:
    """(GPUs per replica, all replicas' tokens/s, s per token) of each open split that fits."""
    out = []
    for layout in _layouts(s):
        checks = {c.kind: c for c in run_checks(to_plan(s, **layout), with_min_gpus=False)}
        if checks["memory"].verdict == "fail":
            continue
        plan = to_plan(s, **layout)
        figures = checks["compute"].figures
        rate, step = figures["decode_tokens_per_s_all_replicas"], figures["seconds_per_token"]
        assert isinstance(rate, float)
        assert isinstance(step, float)
        out.append((plan.tensor_parallel * plan.pipeline_parallel, rate, step))
    return out


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(serving_pick).failed == 0


@pytest.mark.parametrize(
    "question",
    [
        "8×MI300X serving Llama-3-70B at 64 concurrent users: what throughput?",
        "8张MI300X部署Llama-3-70B，128路并发，吞吐多少？",
        "Can 8 H100 serve Llama-3-70B to 64 concurrent users?",
        "Can 8 A100 80GB serve Qwen2.5-72B to 32 concurrent users?",
    ],
)
def test_a_stated_load_is_served_on_the_split_with_the_most_tokens_per_second(
    question: str,
) -> None:
    outcome = _ask(question)
    assert outcome.evaluation is not None
    assert outcome.scenario is not None
    plan = outcome.evaluation.plan
    splits = _splits(replace(outcome.scenario, tensor_parallel=None, pipeline_parallel=None))
    best = max(rate for _, rate, _ in splits)
    chosen = outcome.evaluation.checks[1].figures["decode_tokens_per_s_all_replicas"]
    assert isinstance(chosen, float)
    assert chosen >= best * (1 - serving_pick.RATE_TIE)  # within the tie of the best
    assert len(splits) > 1  # there was a choice to make
    said = f"TP={plan.tensor_parallel}"
    assert said in outcome.lead  # the split is part of the answer, and why
    assert "highest aggregate" in outcome.lead or "合计吞吐最高" in outcome.lead


def test_mi300x_is_not_made_slow_by_its_smallest_split() -> None:
    outcome = _ask("8×H100 vs 8×MI300X for Llama-3-70B, 64 concurrent users")
    by_gpu = {o.scenario.gpu: o for o in outcome.options}
    mi300x = by_gpu["MI300X 192GB"]
    assert "speed" in mi300x.wins
    assert (mi300x.scenario.tensor_parallel or 1) > 1  # not 8 replicas of TP=1
    assert "TP=" in outcome.focus  # each option's line says its split


def test_a_stated_split_is_kept() -> None:
    outcome = _ask("8×MI300X serving Llama-3-70B with TP=2 at 64 concurrent users")
    assert outcome.evaluation is not None
    assert outcome.evaluation.plan.tensor_parallel == 2
    assert "highest aggregate" not in outcome.lead


def test_a_latency_target_is_met_with_the_fewest_gpus_per_replica() -> None:
    question = "Serve Llama-3-70B on 8 H100 at 40 tokens/s per user"
    outcome = _ask(question)
    assert outcome.evaluation is not None
    assert outcome.scenario is not None
    target = outcome.scenario.target_seconds_per_token
    assert target == pytest.approx(0.025)
    one_user = replace(outcome.scenario, tensor_parallel=None, pipeline_parallel=None)
    assert one_user.batch_size == 1
    meeting = [(g, step) for g, _, step in _splits(one_user) if step <= target]
    plan = outcome.evaluation.plan
    assert meeting
    assert plan.tensor_parallel * plan.pipeline_parallel == min(g for g, _ in meeting)


def test_with_no_load_the_smallest_split_that_fits_with_headroom_is_kept() -> None:
    outcome = _ask("Can 8 H100 serve Llama-3-70B?")
    assert outcome.evaluation is not None
    assert outcome.evaluation.plan.tensor_parallel == 4  # TP=2 holds 70.6 GB of 72: tight
    assert "Model split" not in outcome.lead
    assert any("smallest split" in a for a in outcome.assumptions)


@pytest.mark.parametrize(
    ("question", "none", "closest", "needs"),
    [
        # the host RAM is stated: ZeRO-Offload's ~988 GB per node does not fit 256 GB (with
        # none stated it would be a condition, within what such a machine can hold)
        (
            "8×4090 vs 8×L40S for full fine-tune of Llama-3-70B, 256 GB of RAM per machine",
            "Neither option works as asked.",
            "8 × L40S 48GB comes closest",
            "would need: scale to",
        ),
        (
            "8张4090和8张L40S全参微调Llama-3-70B，每台主机内存256 GB，哪个更好？",
            "两个方案都无法按所问完成。",
            "8 张 L40S 48GB 最接近",
            "需要：",
        ),
    ],
)
def test_a_comparison_no_option_passes_names_no_winner(
    question: str, none: str, closest: str, needs: str
) -> None:
    outcome = _ask(question)
    assert outcome.verdict == "infeasible"
    assert outcome.focus.startswith(none)
    assert closest in outcome.focus
    assert outcome.focus.count(needs) == 2  # what each option would need
    assert not any(o.wins for o in outcome.options)
    assert "faster" not in outcome.focus
    assert "更快" not in outcome.focus


def test_which_is_faster_of_two_overrunning_runs_still_names_the_faster_first() -> None:
    outcome = _ask(
        "Which is faster to pretrain a 7B model on 2T tokens: 8 V100 32GB or 8 A100 80GB?"
    )
    assert outcome.focus.startswith("8 × A100")
    assert "is faster" in outcome.focus.split(".")[0]
    # both run past a year: impractical in words, but the year is a default of a comparison,
    # never the verdict (each option works)
    assert outcome.focus.count("impractical (over a year)") == 2
    assert "Neither option works as asked." not in outcome.focus


def test_a_stated_target_is_part_of_each_option() -> None:
    outcome = _ask(
        "8×A100 vs 8×L40S serving Llama-3-70B at 20 tok/s per user for 256 users, which is faster?"
    )
    by_gpu = {o.scenario.gpu: o for o in outcome.options}
    assert by_gpu["L40S 48GB"].verdict == "infeasible"  # 8 x 48 GB cannot hold 256 users


@pytest.mark.parametrize(
    "question",
    [
        "Can 8 H800 pretrain Llama-3-70B on 100B tokens?",
        "8张H800预训练Llama-3-70B，1000亿token，行吗？",
    ],
)
def test_no_zero_stage_is_shown_at_one_data_parallel_replica(question: str) -> None:
    outcome = _ask(question)
    assert outcome.evaluation is not None
    assert outcome.scenario is not None
    plan = outcome.evaluation.plan
    assert plan.gpus == plan.tensor_parallel * plan.pipeline_parallel  # DP = 1
    assert outcome.scenario.zero_stage is None
    note = next(a for a in outcome.assumptions if "ZeRO" in a)
    assert "FSDP" not in note
    assert "ZeRO-" not in note


def test_a_stated_zero_stage_is_kept_at_one_replica() -> None:
    outcome = _ask("Can 8 H100 pretrain Llama-3-70B on 100B tokens with ZeRO-3 and TP=8?")
    assert outcome.scenario is not None
    assert outcome.scenario.zero_stage == 3


def test_at_one_replica_zero_gives_no_sharding_credit() -> None:
    base = Plan(
        task="pretrain",
        model=lookup_model("Llama-3-70B"),
        gpu=lookup_gpu("H100"),
        gpus=8,
        tensor_parallel=8,
        tokens=1e11,
    )
    need = [
        memory_check(base.replace(zero_stage=z), with_min_gpus=False).figures[
            "required_bytes_per_gpu"
        ]
        for z in (0, 1, 2, 3)
    ]
    assert len(set(need)) == 1  # nothing to shard over: every stage needs the same
    assert "ZeRO" not in text(layout_message(base.replace(zero_stage=3)), "en")
    assert layout_message(base.replace(zero_stage=3)).key == "suggest.layout.one_replica"
    two = base.replace(gpus=16, zero_stage=3)  # DP = 2: the stage is shown
    assert layout_message(two).key == "suggest.layout.training"


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Can 8 H100 pretrain Llama-3-70B on 100B tokens with ZeRO-3 and TP=8?", "shards nothing"),
        ("8张H100用ZeRO-3、TP=8预训练Llama-3-70B，1000亿token，行吗？", "不切分任何状态"),
    ],
)
def test_a_stated_zero_stage_at_one_replica_is_said_to_shard_nothing(
    question: str, said: str
) -> None:
    outcome = _ask(question)
    assert outcome.scenario is not None
    assert outcome.scenario.zero_stage == 3
    assert any(said in a and "ZeRO-3" in a for a in outcome.assumptions)
    wider = _ask("Can 16 H100 pretrain Llama-3-70B on 100B tokens with ZeRO-3 and TP=8?")
    assert not any("shards nothing" in a for a in wider.assumptions)  # DP = 2: it shards


def test_when_one_split_fits_the_answer_says_it_is_the_only_one() -> None:
    # 405B in bf16 is 811.7 GB: 202.9 GB per GPU at TP=4 > 172.8 GB usable, so only TP=8
    outcome = _ask("Can 8 MI300X serve Llama-3.1-405B for 128 concurrent users?")
    assert "TP=8, PP=1, 1 replica: the only split that fits." in outcome.lead
    assert "highest aggregate" not in outcome.lead


@pytest.mark.parametrize(
    ("question", "split"),
    [
        (
            "Llama-3.1-8B 用 TP=2 部署在 L40S 上，QPS 20，每个请求输入1000 token"
            "输出200 token，需要几张？",
            2,
        ),
        ("Serve Llama-3.1-70B with TP=4 on A100 80GB: how many GPUs for 30 concurrent users?", 4),
        ("Llama-3.1-405B 用 TP=8 PP=2 推理，需要几张 H100？", 16),
    ],
)
def test_a_count_asked_with_a_stated_split_is_whole_replicas_of_it(
    question: str, split: int
) -> None:
    """A stated TP/PP with the count left open was refused as bad input ("gpus=2: must be a
    multiple of tensor_parallel × pipeline_parallel = 4"): the default count and every count
    tried are whole replicas of the split."""
    outcome = calculate(parse(question))
    assert outcome.verdict != "unknown"
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count % split == 0


def test_a_stated_zero_stage_still_tries_recompute_and_tp() -> None:
    # "ZeRO-3" fixes the stage only: recompute and TP inside the node stay open. 72.7e9 params x
    # 16 B / 16 GPUs = 72.7 GB of states per GPU, so only activations can still shrink.
    from assistant.calculate import calculate
    from assistant.parse import parse

    outcome = calculate(parse("两台H800服务器全参微调Qwen2.5-72B，ZeRO-3"))
    memory = next(c for c in outcome.checks if c.kind == "memory").figures
    assert outcome.scenario is not None
    assert outcome.scenario.zero_stage == 3
    assert memory["recompute"] == "full"
    assert float(memory["required_bytes_per_gpu"]) < 76e9  # was 81.7 GB with no recompute


@pytest.mark.parametrize(
    "question",
    [
        "DeepSeek-R1 给500人同时用，需要几张910B",
        "How many 910B do we need to serve DeepSeek-R1 to 500 concurrent users?",
    ],
)
def test_a_count_is_evaluated_on_a_much_faster_tight_split(question: str) -> None:
    """A count asked for stated users is evaluated on the split that fits, not the roomiest:
    MLA's latent is not split by TP, so TP1 x PP32 has the most headroom; a split that fits
    tightly is preferred only when it decodes each stream at least TIGHT_SPEEDUP times as fast
    (with pipelined micro-batches TP2 x PP16 is about 1.2x TP1 x PP32 here: the roomy one)."""
    outcome = _ask(question)
    s = outcome.scenario
    assert s is not None
    assert s.gpu_count is not None
    step = outcome.evaluation.check("compute").figures["seconds_per_token"]
    assert isinstance(step, float)
    by_split: dict[tuple[int, int], tuple[str, float]] = {}
    for layout in _layouts(replace(s, tensor_parallel=None, pipeline_parallel=None)):
        plan = to_plan(replace(s, tensor_parallel=None, pipeline_parallel=None), **layout)
        checks = {c.kind: c for c in run_checks(plan, with_min_gpus=False)}
        each = checks["compute"].figures["seconds_per_token"]
        assert isinstance(each, float)
        key = (plan.tensor_parallel, plan.pipeline_parallel)
        by_split[key] = (checks["memory"].verdict, each)
    roomy = [v for v in by_split.values() if v[0] == "ok"]
    tight = [v for v in by_split.values() if v[0] == "tight"]
    assert roomy, "an all-ok split exists: the choice is a real tie-break"
    assert tight, "a tight split exists: the rule has something to weigh"
    chosen = by_split[(s.tensor_parallel or 1, s.pipeline_parallel or 1)]
    if chosen[0] == "tight":  # preferred only when much faster than every roomy split
        assert step * serving_pick.TIGHT_SPEEDUP <= min(v[1] for v in roomy)
    else:  # roomy: no tight split was that much faster
        assert min(v[1] for v in tight) * serving_pick.TIGHT_SPEEDUP > min(v[1] for v in roomy)
