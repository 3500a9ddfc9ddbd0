"""A training question asking only whether it fits ("does it fit?", "放得下吗") is judged on
memory: the 90-day default deadline nobody stated decides no verdict (a bare "能行吗" keeps it)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        # Mistral-7B ZeRO-2 on 4 A100 40GB: 2Ψ + 14Ψ/4 = 14.5 + 25.3 GB > 36 GB usable, TP=4
        # fits; its 6ND time on the Chinchilla tokens (~168 days) was called "too slow against
        # a deadline of 90 days" and the verdict infeasible
        "Pretrain Mistral-7B in bf16 with Adam on 4 A100 40GB, ZeRO-2 — does it fit?",
        "4张A100 40G预训练Mistral-7B，ZeRO-2，放得下吗",
    ],
)
def test_a_fit_question_is_judged_on_memory(question: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "conditional"
    assert outcome.binding == "memory"
    assert "90" not in outcome.lead.split("。")[0].split(". ")[0]


def test_a_bare_yes_or_no_still_has_the_default_deadline() -> None:
    outcome = calculate(parse("8张H800训练13B模型3000亿token，能行吗"))
    assert "期限 90 天" in outcome.lead
