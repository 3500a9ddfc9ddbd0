"""FP8 training stated on a card without FP8 tensor cores is infeasible as asked; the answer
says why first and gives the job in the precision the card runs, labelled; FP8 serving on
Ampere stays weight-only (W8A16) and feasible."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("用A100做FP8训练Llama-3-8B要多久", "不能做 FP8 训练"),
        ("How long to train Llama-3-8B in FP8 on 256 A100 with 1T tokens?", "cannot train in FP8"),
        ("Can 64 A100 pretrain a 7B model in FP8 on 1T tokens within 30 days?", "Not in FP8"),
        ("64张A100能用FP8在30天内预训练7B模型（1T token）吗", "按所述的 FP8 不行"),
    ],
)
def test_fp8_training_on_a100_is_infeasible_as_asked(question: str, said: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "infeasible"
    assert said in outcome.lead
    assert "BF16" in outcome.lead  # the job in the precision the card runs, labelled
    assert outcome.scenario is not None
    assert outcome.scenario.precision == "bf16"


def test_the_duration_is_still_given_in_bf16() -> None:
    outcome = calculate(parse("How long to train Llama-3-8B in FP8 on 256 A100 with 1T tokens?"))
    # 6 x 8.03e9 x 1e12 FLOPs / (256 x 312e12 x 0.4) = 1.51e6 s, about 17.5 days (before the
    # planner's own overheads): the answer is a duration of weeks, not a refusal
    assert "days" in outcome.lead


def test_fp8_training_on_h100_is_untouched() -> None:
    outcome = calculate(parse("8张H100用FP8训练Llama-3-8B，1T token要多久"))
    assert outcome.verdict != "infeasible"
    assert "FP8 张量核心" not in outcome.lead


def test_fp8_serving_on_a100_stays_weight_only() -> None:
    outcome = calculate(parse("A100能跑FP8推理Llama-3-8B吗"))
    assert outcome.verdict == "feasible"
    assert "W8A16" in outcome.lead
