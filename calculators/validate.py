"""Input validation shared by the calculators (private helpers).

Each check raises CalculatorInputError naming the field, its reason a catalog Msg.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import NoReturn

from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = [
    "check_choice",
    "check_count",
    "check_fraction",
    "check_positive",
    "count",
    "fail",
    "non_negative",
    "positive",
]


def check_positive(field: str, value: float, *, maximum: float = math.inf) -> float:
    """A finite number > 0 and <= ``maximum``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CalculatorInputError(field, value, Msg("invalid.number"))
    if math.isnan(value) or math.isinf(value):
        raise CalculatorInputError(field, value, Msg("invalid.finite"))
    if value <= 0:
        raise CalculatorInputError(field, value, Msg("invalid.positive"))
    if value > maximum:
        raise CalculatorInputError(field, value, Msg("invalid.too_large", maximum=maximum))
    return float(value)


def check_count(field: str, value: float, *, minimum: int = 1, maximum: int = 10**9) -> int:
    """A whole number in [minimum, maximum]."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CalculatorInputError(field, value, Msg("invalid.whole"))
    if value < minimum:
        raise CalculatorInputError(field, value, Msg("invalid.at_least", minimum=minimum))
    if value > maximum:
        raise CalculatorInputError(field, value, Msg("invalid.at_most", maximum=maximum))
    return value


def check_fraction(field: str, value: float) -> float:
    """A finite number in (0, 1]."""
    check_positive(field, value)
    if value > 1:
        raise CalculatorInputError(field, value, Msg("invalid.fraction"))
    return float(value)


def check_choice(field: str, value: str, choices: Collection[str]) -> str:
    """One of ``choices`` (compared case-insensitively); returns the lower-case form."""
    text = str(value).strip().lower()
    if text not in choices:
        options = tuple(sorted(choices))
        raise CalculatorInputError(field, value, Msg("invalid.one_of", options=options))
    return text


def fail(field: str, value: object, reason: Msg) -> NoReturn:
    """Raise a CalculatorInputError naming the field, its reason a catalog message (shared by
    the network, the planner and the catalog cards)."""
    raise CalculatorInputError(field, value, reason)


def positive(field: str, value: float) -> None:
    """Check `value` is a positive finite number."""
    if not value > 0 or math.isinf(value):
        fail(field, value, Msg("invalid.positive_finite"))


def non_negative(field: str, value: float) -> None:
    """Check `value` is zero or a positive finite number."""
    if not value >= 0 or math.isinf(value):
        fail(field, value, Msg("invalid.non_negative"))


def count(field: str, value: int) -> None:
    """Check `value` is a whole number >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        fail(field, value, Msg("invalid.whole_at_least_1"))
