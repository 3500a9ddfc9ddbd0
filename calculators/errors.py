"""Errors raised by the calculators (standard library only).

A refused input carries its reason as a :class:`~calculators.messages.Msg`; the words, in
English and Chinese, are in the catalog (``assistant/i18n/catalog/invalid.toml``) and are
chosen at the edge (``assistant.i18n.input_error``). ``str(exc)`` is the English text.
"""

from __future__ import annotations

from collections.abc import Sequence

from calculators.messages import Msg, render

__all__ = ["CalculatorInputError", "UnknownNameError"]


class CalculatorInputError(ValueError):
    """An input is out of its valid range. Names the field, the value and the reason.

    ``reason`` is a catalog message; a plain string is accepted from callers outside the
    calculators that still pass an English/Chinese pair (``reason_zh``).
    """

    def __init__(
        self, field: str, value: object, reason: Msg | str, *, reason_zh: str = ""
    ) -> None:
        self.field = field
        self.value = value
        self.reason: Msg | str = reason
        self._reason_zh = reason_zh
        super().__init__(str(self))

    def reason_text(self, language: str) -> str:
        """The reason alone in Chinese ("zh") or English."""
        if isinstance(self.reason, Msg):
            return render(self.reason, language)
        return {"zh": self._reason_zh or self.reason}.get(language, self.reason)

    @property
    def reason_zh(self) -> str:
        """The reason in Chinese."""
        return self.reason_text("zh")

    def __str__(self) -> str:
        return f"{self.field}={self.value!r}: {self.reason_text('en')}"

    def localized(self, language: str) -> str:
        """The message in Chinese ("zh") or English."""
        if language == "zh":
            return f"{self.field}={self.value!r}：{self.reason_text('zh')}"
        return str(self)


class UnknownNameError(CalculatorInputError):
    """A GPU, model or link name that is not in the catalog; suggests the closest entries."""

    def __init__(self, field: str, value: str, suggestions: Sequence[str]) -> None:
        self.suggestions = tuple(suggestions)
        reason = (
            Msg("invalid.unknown_name", closest=self.suggestions)
            if self.suggestions
            else Msg("invalid.unknown_name_none")
        )
        super().__init__(field, value, reason)
