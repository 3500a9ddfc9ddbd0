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

    ``reason`` is a catalog message (``invalid.*``); the catalog words it in each language.
    """

    def __init__(self, field: str, value: object, reason: Msg) -> None:
        self.field = field
        self.value = value
        self.reason: Msg = reason
        super().__init__(str(self))

    @property
    def message(self) -> Msg:
        """The whole refusal as a catalog message ("field=value: reason")."""
        return Msg(
            "errors.calculator_value", field=self.field, value=repr(self.value), reason=self.reason
        )

    def reason_text(self, language: str) -> str:
        """The reason alone in Chinese ("zh") or English."""
        return render(self.reason, language)

    def __str__(self) -> str:
        return f"{self.field}={self.value!r}: {self.reason_text('en')}"

    def __reduce__(self) -> tuple[type[CalculatorInputError], tuple[str, object, Msg]]:
        """Copied and pickled with its three fields (an answer carrying it is deep-copied)."""
        return (type(self), (self.field, self.value, self.reason))

    def localized(self, language: str) -> str:
        """The message in Chinese ("zh") or English."""
        return render(self.message, language)


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
