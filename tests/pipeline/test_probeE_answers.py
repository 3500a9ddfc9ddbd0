"""probeE's expert wordings answered in what was asked (the calculated checks, no retrieval)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        # 300,000 / (8 x 2.5) = 15,000 h = 625 days = 20.8 months of 30 days
        (
            "rent vs buy: 8x H100 node at $2.5/gpu/hr vs buying one for $300k, "
            "break-even in how many months?",
            r"\b20\.8 months",
        ),
        # the same pay-off time in days when days are asked
        (
            "8x H100 node at $2.5/gpu/hr vs buying one for $300k: break-even in how many days?",
            r"\b625 days",
        ),
    ],
)
def test_the_break_even_is_said_in_the_unit_asked(question: str, pattern: str) -> None:
    cost = next(c for c in calculate(parse(question)).checks if c.kind == "cost")
    assert re.search(pattern, cost.summary), cost.summary
