"""Errors raised by the calculators (standard library only)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["CalculatorInputError", "UnknownNameError"]


class CalculatorInputError(ValueError):
    """An input is out of its valid range. Names the field, the value and the reason."""

    def __init__(self, field: str, value: object, reason: str, *, reason_zh: str = "") -> None:
        self.field = field
        self.value = value
        self.reason = reason
        self.reason_zh = reason_zh or reason
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.field}={self.value!r}: {self.reason}"

    def localized(self, language: str) -> str:
        """The message in Chinese ("zh") or English."""
        if language == "zh":
            return f"{self.field}={self.value!r}：{self.reason_zh}"
        return str(self)


class UnknownNameError(CalculatorInputError):
    """A GPU, model or link name that is not in the catalog; suggests the closest entries."""

    def __init__(self, field: str, value: str, suggestions: Sequence[str]) -> None:
        self.suggestions = tuple(suggestions)
        hint = ", ".join(self.suggestions) if self.suggestions else "none close"
        super().__init__(
            field,
            value,
            f"not in the catalog (closest: {hint})",
            reason_zh=f"不在目录中（最接近的：{hint}）",
        )
