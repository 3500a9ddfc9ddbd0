"""The English article before a written number is the one it is said with."""

from __future__ import annotations

import pytest

from assistant.i18n import text
from calculators.messages import Msg


@pytest.mark.parametrize(
    ("prompt", "said"),
    [
        (1024, "for a 1,024-token prompt"),
        (8192, "for an 8,192-token prompt"),
        (800, "for an 800-token prompt"),
        (11000, "for an 11,000-token prompt"),
        (18000, "for an 18,000-token prompt"),
        (110000, "for a 110,000-token prompt"),
        (2048, "for a 2,048-token prompt"),
    ],
)
def test_a_or_an_before_a_number(prompt: int, said: str) -> None:
    line = text(Msg("answer.first_token", seconds=1.0, prompt=prompt, rate=1.0), "en")
    assert said in line
    zh = text(Msg("answer.first_token", seconds=1.0, prompt=prompt, rate=1.0), "zh")
    assert "an " not in zh
