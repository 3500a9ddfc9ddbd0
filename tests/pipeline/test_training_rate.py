"""Training-rate questions: tokens/s per GPU, the MFU a measured rate means, and counts asked
as "the minimum number of" (issue 10: the headline answers what was asked).

Hand figures: a training token costs 6 × N + attention FLOPs (Kaplan et al. 2020, Table 1;
Narayanan et al. 2021, §5.1); rate per GPU = dense peak × MFU / FLOPs per token.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.load import read_mfu
from assistant.parse.training_rate import read_tokens_per_second_per_gpu


def _compute(outcome: object, key: str) -> float:
    return next(c for c in outcome.checks if c.kind == "compute").figures[key]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("typed", "rate"),
    [
        ("training: we see 3k tokens/s per gpu", 3000.0),
        ("2500 tok/s/GPU when fine-tuning llama", 2500.0),
        ("训练时每卡每秒2500 token", 2500.0),
        ("serve llama at 1000 tok/s per gpu", None),  # serving: the deployment's target
    ],
)
def test_a_rate_per_gpu_is_read(typed: str, rate: float | None) -> None:
    assert read_tokens_per_second_per_gpu(typed.lower()) == rate


def test_a_rate_beside_mfu_is_not_an_mfu() -> None:
    assert read_mfu("estimate mfu if i get 3000 tokens/s/gpu") is None
    assert read_mfu("at 45% mfu") == pytest.approx(0.45)


def test_tokens_per_second_per_gpu_is_a_rate_not_a_token_count() -> None:
    query = parse(
        "How many tokens per second per GPU should I expect pretraining Llama-2-7B on 8 A100?"
    )
    assert query.asks[0] == "throughput"
    outcome = calculate(query)
    flops_per_token = _compute(outcome, "total_flops") / _compute(outcome, "tokens")
    peak, mfu = _compute(outcome, "peak_flops_per_s"), _compute(outcome, "mfu")
    per_gpu = peak * mfu / flops_per_token
    assert peak == pytest.approx(312e12)  # A100 datasheet, dense BF16
    assert f"{per_gpu:,.0f} tokens/s per GPU" in outcome.lead.split(". ")[0] + "."
    # a rate is no yes/no on a default deadline: nothing here is judged on time
    assert outcome.verdict == "feasible"
    assert "impractical" not in outcome.lead


def test_a_measured_rate_gives_the_mfu_and_the_run_time() -> None:
    outcome = calculate(
        parse("Estimate MFU if I get 3000 tokens/s/GPU training Llama-3-8B on 8 H100")
    )
    flops_per_token = _compute(outcome, "total_flops") / _compute(outcome, "tokens")
    expected = 3000 * flops_per_token / 989.4e12  # H100 SXM dense BF16
    assert 0.14 < expected < 0.19  # 6 × 8.03e9 + attention ≈ 5.5e10 FLOPs per token
    assert _compute(outcome, "mfu") == pytest.approx(expected, rel=1e-6)
    assert outcome.lead.startswith(f"That rate is an MFU of about {expected * 100:.0f}%")
    seconds = _compute(outcome, "tokens") / (3000 * 8)
    assert _compute(outcome, "seconds") == pytest.approx(seconds, rel=0.02)


def test_the_mfu_in_chinese_with_no_rate_is_the_planning_default() -> None:
    outcome = calculate(parse("64张H100预训练13B模型，MFU大概多少"))
    assert outcome.lead.startswith("没有给出实测速度：按这款 GPU 的规划默认值")


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("What's the minimum number of A100 40GB for QLoRA on Llama-2-70B?", 2),
        ("fewest H100s to serve Llama-3.1-405B in FP8", 8),
    ],
)
def test_a_minimum_number_is_a_count(question: str, count: int) -> None:
    query = parse(question)
    assert query.asks[0] == "gpu_count"
    outcome = calculate(query)
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == count


def test_the_tp_degree_needed_with_no_count_is_the_split_of_the_fewest_gpus() -> None:
    # 405B in FP8 = 406 GB of weights: more than 4 x 72 GB usable, so one TP8 replica on 8
    query = parse("What TP degree do I need to serve Llama-3.1-405B FP8 on H100s?")
    assert query.asks[0] == "layout"
    outcome = calculate(query)
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 8
    assert outcome.lead.startswith("Use TP=8, PP=1 on 8 × H100 SXM 80GB (1 replica)")


@pytest.mark.parametrize(
    "question", ["What is MFU?", "MFU是什么意思", "what's the MFU of a run, in general?"]
)
def test_mfu_with_no_run_is_a_concept(question: str) -> None:
    assert "mfu" not in parse(question).asks


def test_the_mfu_asked_of_the_previous_run_is_its_mfu() -> None:
    first = parse("8张A100全参微调Llama-2-13B")
    follow = parse("那MFU大概多少", previous=first)
    assert follow.asks[0] == "mfu"
    assert calculate(follow).lead.startswith("没有给出实测速度")
