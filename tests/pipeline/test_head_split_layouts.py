"""Default layouts only split the attention heads the way the planner accepts (issue 10, #1).

Qwen2-7B has 28 query heads and 4 KV heads: tensor parallel 1, 2 or 4 splits them, 8 does not.
A layout the assistant picks on its own must never come back as "bad input" to the user, and
the message refusing a stated degree lists only degrees that really work.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.i18n import input_error
from assistant.parse import parse
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.errors import CalculatorInputError
from calculators.planner.plan import Plan
from calculators.planner.validate import validate_plan


@pytest.mark.parametrize(
    "question",
    [
        # Needs more than one card per replica: the search used to try TP=8 and fall back on it.
        "Qwen2-7B 在 8 张 T4 上 64 并发 128k 上下文推理可以吗",
        "Can 8 T4 serve Qwen2-7B to 64 concurrent users with 128k context?",
        "8 张 T4 能全参微调 Qwen2-7B 吗",
    ],
)
def test_an_unstated_layout_is_never_refused_as_input(question: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict != "unknown"
    plan = outcome.evaluation.plan if outcome.evaluation else None
    assert plan is not None
    assert 28 % plan.tensor_parallel == 0


@pytest.mark.parametrize(("lang", "listed"), [("zh", "1、2、4"), ("en", "1, 2, 4")])
def test_a_stated_degree_is_refused_with_the_degrees_that_split_the_heads(
    lang: str, listed: str
) -> None:
    plan = Plan(
        task="inference",
        model=lookup_model("Qwen2-7B"),
        gpu=lookup_gpu("T4"),
        gpus=8,
        tensor_parallel=8,
    )
    with pytest.raises(CalculatorInputError) as caught:
        validate_plan(plan)
    message = input_error(caught.value, lang)  # type: ignore[arg-type]
    degrees = message.replace("：", ": ").rsplit(": ", 1)[-1].rstrip("。.")
    assert degrees == listed  # 1, 2, 4 and not 8 (28 % 8 != 0)
