"""Quantity questions get their own verdict and headline; defaults never decide one nobody asked.

A memory question is judged on memory (the run time on default tokens is information), GPU-hours
are their own quantity, a stated MFU replaces the default, the fewest GPUs that fit is never a
count the user already has, a budget that fails alone binds, and a how-long question with no
count leads with the count that makes it practical.
"""

from __future__ import annotations

import re

import pytest

from assistant.calculate import Outcome, calculate
from assistant.calculate.headline import shortfall
from assistant.calculate.verdict import PRACTICAL_SECONDS
from assistant.parse import parse
from assistant.records import Check

DAY = 86400.0


def _check(outcome: Outcome, kind: str) -> Check:
    return next(c for c in outcome.checks if c.kind == kind)


# 70B on 32 H100 at TP=8 x PP=4: 70e9 x 16 B = 1.12 TB of states / 32 = 35 GB + activations,
# under 72 GB usable; the default 1.4T tokens take ~600 days, which must decide nothing.
@pytest.mark.parametrize(
    "question",
    [
        "Pre-training a 70B model on 32 H100 with TP=8, PP=4: how much memory per GPU?",
        "32 H100, TP=8 and PP=4, pretraining a 70B model: does the memory fit?",
        "用32张H100预训练70B模型，TP=8，PP=4，这样每张卡要多少显存",
        "用32张H100预训练70B模型，TP=8，PP=4，显存够吗",
    ],
)
def test_a_memory_question_is_judged_on_memory(question: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert _check(outcome, "memory").verdict in ("ok", "tight")
    assert _check(outcome, "compute").verdict == "n/a"  # shown, not judged
    assert not re.search(r"deadline|期限|years|年", outcome.lead)
    assert outcome.binding is None


@pytest.mark.parametrize(
    "question",
    [
        "Pretraining a 70B model on 8 A100 40GB with TP=8: how much memory per GPU?",
        "用8张A100 40GB预训练70B模型，TP=8，每张卡要多少显存",
    ],
)
def test_a_memory_question_that_does_not_fit_binds_on_memory(question: str) -> None:
    # 1.12 TB of states / 8 = 140 GB per GPU at ZeRO-0 against 36 GB usable
    outcome = calculate(parse(question))
    assert outcome.verdict in ("conditional", "infeasible")
    assert outcome.binding == "memory"
    assert not re.search(r"deadline|期限", outcome.lead)


def test_stated_tokens_and_deadline_are_judged_on_time_too() -> None:
    question = (
        "Pre-training a 70B model on 32 H100 with TP=8, PP=4 on 1.4T tokens within 90 days: "
        "how much memory per GPU?"
    )
    outcome = calculate(parse(question))
    assert outcome.verdict == "infeasible"
    assert outcome.binding == "compute"


# 6 x 7e9 x 1e12 = 4.2e22 FLOPs (+~15% attention) / (989e12 x 0.38) = 31k-36k H100 GPU-hours
@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("How many H100 GPU-hours to pretrain a 7B model on 1T tokens?", r"About ([\d,]+) H100"),
        ("How many GPU-hours on H100 to pretrain a 7B model on 1T tokens?", r"About ([\d,]+) H100"),
        ("用H100预训练7B模型1T token需要多少卡时", r"约需 ([\d,]+) H100"),
        ("用H100预训练7B模型1T token需要多少GPU小时", r"约需 ([\d,]+) H100"),
    ],
)
def test_gpu_hours_are_their_own_quantity(question: str, opening: str) -> None:
    outcome = calculate(parse(question))
    found = re.match(opening, outcome.lead)
    assert found, outcome.lead
    assert 30_000 <= float(found.group(1).replace(",", "")) <= 40_000
    assert "MFU" in outcome.lead.split("。")[0].split(").")[0]
    assert not re.search(r"90 days|90 天|You need at least|至少需要", outcome.lead)
    assert outcome.verdict in ("feasible", "unknown")


@pytest.mark.parametrize(
    ("question", "mfu"),
    [
        ("At 40% MFU, how long does Llama-3-8B take on 15T tokens with 1024 H100s?", 0.40),
        ("MFU=0.5: how long does Llama-3-8B take on 15T tokens with 1024 H100s?", 0.50),
        ("利用率40%，用1024张H100训练Llama-3-8B 15T token要多久", 0.40),
        ("按50%的MFU，用1024张H100训练Llama-3-8B 15T token要多久", 0.50),
    ],
)
def test_a_stated_mfu_replaces_the_default(question: str, mfu: float) -> None:
    stated = calculate(parse(question))
    plain = calculate(parse("How long does Llama-3-8B take on 15T tokens with 1024 H100s?"))
    compute, default = _check(stated, "compute"), _check(plain, "compute")
    assert compute.figures["mfu"] == pytest.approx(mfu)
    assert compute.figures["mfu_stated"] is True
    ratio = float(default.figures["seconds"]) / float(compute.figures["seconds"])  # type: ignore[arg-type]
    assert ratio == pytest.approx(mfu / float(default.figures["mfu"]), rel=0.05)  # type: ignore[arg-type]
    assert "not used" not in stated.lead
    assert "没有采用" not in stated.lead
    assert re.search(r"as stated|按问题给出", compute.summary)


# ZeRO-0 at TP=1 holds 6.7e9 x 16 B = 107 GB per GPU > 72 GB; TP=2 inside the node fits.
@pytest.mark.parametrize(
    "question",
    [
        "Pretrain a 6.7B model on 4 A100 80GB with ZeRO-0: is there enough GPU memory?",
        "Can 4 A100 80GB pretrain a 6.7B model with ZeRO-0?",
        "用4张A100 80GB、ZeRO-0预训练6.7B模型，显存够吗",
    ],
)
def test_the_fewest_gpus_never_names_a_count_the_user_has(question: str) -> None:
    outcome = calculate(parse(question))
    assert _check(outcome, "memory").verdict == "fail"
    low = r"at least [1-4] × A100|至少要 [1-4] 张 A100|至少需要 [1-4] 张 A100"
    assert not re.search(low, outcome.lead)
    assert not re.search(low, _check(outcome, "memory").summary)
    assert re.search(r"another layout|换一种切分方式", outcome.lead)


def _memory(min_gpus: int, gpus: int) -> Check:
    figures = {
        "required_bytes_per_gpu": 125.8e9,
        "available_bytes_per_gpu": 72e9,
        "min_gpus": min_gpus,
        "gpus": gpus,
        "gpus_per_node": 8,
    }
    return Check(kind="memory", verdict="fail", summary="", figures=figures)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fewest_gpus_is_said_only_above_the_gpus_evaluated(lang: str) -> None:
    more = shortfall(_memory(8, 4), lang, "A100")  # type: ignore[arg-type]
    assert re.search(r"at least 8 × A100|至少要 8 张 A100", more)
    same = shortfall(_memory(4, 4), lang, "A100")  # type: ignore[arg-type]
    assert not re.search(r"at least|至少", same)
    assert re.search(r"these 4 × A100|这 4 张 A100", same)


# 6 x 13e9 x 2.6e11 = 2.0e22 FLOPs / (989e12 x 0.38) = 15k-17k GPU-hours x $2.5 = ~$40k > $20k;
# memory and time (no deadline) pass: the money binds.
@pytest.mark.parametrize(
    "question",
    [
        "预算2万美元，H100每卡时2.5美元，用64张H100训练13B模型（260B token）够不够？",
        "With a $20,000 budget at $2.50 per H100-hour, can 64 H100s train a 13B model on 260B "
        "tokens?",
        "用64张H100训练13B模型，260B token，每卡时2.5美元，预算2万美元，钱够吗",
    ],
)
def test_a_budget_that_fails_alone_binds(question: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "infeasible"
    assert outcome.binding == "cost"
    assert _check(outcome, "cost").verdict == "fail"


# 6 x 70e9 x 2e12 = 8.4e23 FLOPs: the fewest A800 that hold 1.12 TB of states (16) take ~20
# years; the answer leads with the count that finishes within a year and its time.
@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("用A800训练70B模型2T token要多久", r"^用约 [\d,]+ 张 A800[^。；]*约需 [\d.]+ 天；最少的"),
        (
            "How long does it take to pretrain a 70B model on 2T tokens on A800s?",
            r"^With about [\d,]+ × A800[^.;]* it takes about [\d.]+ days; on the smallest",
        ),
        (
            "用H100训练175B模型3.5T token需要多长时间",
            r"^用约 [\d,]+ 张 H100[^。；]*约需 [\d.]+ 天；最少的",
        ),
    ],
)
def test_a_how_long_with_no_count_leads_with_the_practical_count(question: str, lead: str) -> None:
    outcome = calculate(parse(question))
    assert re.search(lead, outcome.lead), outcome.lead
    assert outcome.verdict == "feasible"
    seconds = _check(outcome, "compute").figures["seconds"]
    assert isinstance(seconds, float)
    assert seconds <= PRACTICAL_SECONDS


@pytest.mark.parametrize(
    ("question", "fewest"),
    [
        # 70e9 x 16 B = 1.12 TB of states: more than 8 H100 hold; 16 (two nodes) do
        ("用H100预训练70B模型要多少显存", 16),
        ("How much memory does pretraining a 70B model on H100s need?", 16),
        # 7e9 x 16 B = 112 GB: two A100 80GB with ZeRO, not a default 8
        ("用A100 80GB训练7B模型显存够吗", 2),
    ],
)
def test_a_memory_question_with_no_count_is_judged_on_the_fewest_that_fit(
    question: str, fewest: int
) -> None:
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == fewest
    assert outcome.verdict == "feasible"
    assert _check(outcome, "memory").verdict in ("ok", "tight")


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("How many GPU-hours to serve Llama-3-8B for a month on one H100?", r"^About 720 H100"),
        ("用一张H100部署Llama-3-8B一个月需要多少卡时", r"^约需 720 H100"),
    ],
)
def test_serving_gpu_hours_are_the_rent_over_the_period(question: str, opening: str) -> None:
    # one GPU x 30 days x 24 h = 720 GPU-hours; no training MFU is named for serving
    outcome = calculate(parse(question))
    assert re.search(opening, outcome.lead), outcome.lead
    assert "MFU" not in outcome.lead.split(".")[0].split("。")[0]
