"""Input validation shared by the calculators (private helpers).

Each check raises CalculatorInputError naming the field, in English and Chinese.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import NoReturn

from calculators.errors import CalculatorInputError

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
        raise CalculatorInputError(field, value, "must be a number", reason_zh="必须是数字")
    if math.isnan(value) or math.isinf(value):
        reason = "must be a finite number"
        raise CalculatorInputError(field, value, reason, reason_zh="必须是有限数值")
    if value <= 0:
        reason = "must be greater than zero"
        raise CalculatorInputError(field, value, reason, reason_zh="必须大于零")
    if value > maximum:
        raise CalculatorInputError(
            field,
            value,
            f"is implausibly large (at most {maximum:g})",
            reason_zh=f"数值过大（最多 {maximum:g}）",
        )
    return float(value)


def check_count(field: str, value: float, *, minimum: int = 1, maximum: int = 10**9) -> int:
    """A whole number in [minimum, maximum]."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        reason = "must be a whole number"
        raise CalculatorInputError(field, value, reason, reason_zh="必须是整数")
    if value < minimum:
        raise CalculatorInputError(
            field, value, f"must be at least {minimum}", reason_zh=f"必须至少为 {minimum}"
        )
    if value > maximum:
        raise CalculatorInputError(
            field, value, f"must be at most {maximum}", reason_zh=f"最多为 {maximum}"
        )
    return value


def check_fraction(field: str, value: float) -> float:
    """A finite number in (0, 1]."""
    check_positive(field, value)
    if value > 1:
        raise CalculatorInputError(
            field, value, "must be a fraction in (0, 1]", reason_zh="必须是 (0, 1] 之间的比例"
        )
    return float(value)


def check_choice(field: str, value: str, choices: Collection[str]) -> str:
    """One of ``choices`` (compared case-insensitively); returns the lower-case form."""
    text = str(value).strip().lower()
    if text not in choices:
        options = ", ".join(sorted(choices))
        raise CalculatorInputError(
            field, value, f"must be one of: {options}", reason_zh=f"必须是以下之一：{options}"
        )
    return text


def fail(field: str, value: object, reason: str, reason_zh: str) -> NoReturn:
    """Raise a CalculatorInputError naming the field (shared by the network and planner)."""
    raise CalculatorInputError(field, value, reason, reason_zh=reason_zh)


def positive(field: str, value: float) -> None:
    """Check `value` is a positive finite number."""
    if not value > 0 or math.isinf(value):
        fail(field, value, "must be a positive finite number", "必须是有限的正数")


def non_negative(field: str, value: float) -> None:
    """Check `value` is zero or a positive finite number."""
    if not value >= 0 or math.isinf(value):
        fail(field, value, "must be zero or a positive finite number", "必须是零或有限的正数")


def count(field: str, value: int) -> None:
    """Check `value` is a whole number >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        fail(field, value, "must be a whole number >= 1", "必须是大于等于 1 的整数")
