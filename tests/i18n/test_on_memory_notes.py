"""Every ask a training question is judged on memory for has the note that says so: a missing
one had been an internal error ("一张H100一小时能训练多少token（7B模型）？")."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.verdict import _ON_MEMORY
from assistant.i18n import has
from assistant.parse import parse


@pytest.mark.parametrize("ask", [a for a in _ON_MEMORY if a not in ("memory", "activations")])
def test_each_ask_judged_on_memory_has_its_note(ask: str) -> None:
    assert has(f"answer.{ask}_only")


def test_tokens_trained_in_an_hour_is_answered() -> None:
    outcome = calculate(parse("一张H100一小时能训练多少token（7B模型）？"))
    assert outcome.refusal is None
    assert outcome.checks


def test_tokens_trained_a_day_are_the_headline() -> None:
    # 13B on 8 x A100: 8 x 312e12 x 0.40 / (6 x 13e9 + attention) is about 11,300 tokens/s,
    # 40.8M an hour
    outcome = calculate(parse("How many tokens a day can 8x A100 train for a 13B model?"))
    assert outcome.lead.startswith("Training gets through about 11,")
    assert "tokens an hour" in outcome.lead
