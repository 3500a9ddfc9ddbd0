"""A stated MFU is used as stated, or refused when no GPU can run at it: "150% MFU" and
"利用率150%" were dropped for the 38% default, unsaid; "MFU 0.45" is still 45%."""

from __future__ import annotations

import pytest

from assistant.i18n import input_error
from assistant.parse import parse
from assistant.parse.money_slots import read_mfu
from calculators.errors import CalculatorInputError


@pytest.mark.parametrize(
    ("text", "mfu"),
    [
        ("at 40% mfu", 0.4),
        ("mfu 0.45", 0.45),  # a fraction
        ("mfu 45", 0.45),  # a bare number above 1 is a percentage
        ("算力利用率50%", 0.5),
        ("at 150% mfu", 1.5),  # kept as stated, for the parse to refuse
        ("mfu 150", 1.5),  # said right after "MFU": its value, even beyond 100
        ("利用率150%", 1.5),
        ("at -10% mfu", -0.1),
        ("mfu on 256 gpus", None),  # a count after the word, not the MFU
        ("mfu if i get 3000 tokens/s", None),  # a rate
        ("显存利用率90%", None),  # the memory's, not the compute's
    ],
)
def test_stated_mfu_is_read_as_said(text: str, mfu: float | None) -> None:
    assert read_mfu(text) == pytest.approx(mfu)


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("How long to pretrain a 7B model on 1T tokens with 8x H800 at 150% MFU?", "150%"),
        ("8张H800训练7B模型，1T token，算力利用率150%，要多久", "150%"),
        ("Can 16x A100 pretrain a 13B model on 500B tokens at MFU 0%?", "0%"),
        ("8张A100训练7B模型，MFU -20%，要多久", "-20%"),
    ],
)
def test_an_impossible_mfu_is_refused(question: str, shown: str) -> None:
    with pytest.raises(CalculatorInputError) as refused:
        parse(question)
    assert refused.value.field == "mfu"
    assert refused.value.value == shown
    language = "zh" if "张" in question else "en"
    message = input_error(refused.value, language)
    assert f"MFU {shown}" in message
    assert "100%" in message
    assert ("不超过" in message) == (language == "zh")


def test_an_impossible_mfu_in_a_follow_up_is_refused() -> None:
    first = parse("8张H100训练7B模型，1T token要多久")
    with pytest.raises(CalculatorInputError):
        parse("如果MFU是120%呢", previous=first)


@pytest.mark.parametrize(
    "question",
    [
        "How long to train a 7B model on 1T tokens with 8x H100 at MFU 0.45?",
        "8张H100训练7B模型，1T token，MFU 45%，要多久",
        "8张H100训练7B模型，1T token，MFU 100%，要多久",  # the boundary: allowed
    ],
)
def test_a_possible_mfu_is_kept(question: str) -> None:
    mfu = parse(question).scenario.mfu
    assert mfu is not None
    assert 0 < mfu <= 1
