"""Domain errors. They carry structured fields and are translated once, at the edge.

The CLI turns an :class:`AssistantError` into a one-line message and exit status; the TUI
shows it as a notification. Unexpected exceptions are re-raised when
`GPU_ADVISOR_DEBUG=1` (or `GPU_ADVISOR_RAISE_ERRORS=1`).
"""

from __future__ import annotations

import os

from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = [
    "AssistantError",
    "CalculatorInputError",
    "DocumentError",
    "IndexMismatchError",
    "KnowledgeBaseError",
    "ParseError",
    "UsageError",
    "debug_enabled",
]


class AssistantError(Exception):
    """Base class of the errors a user can act on.

    Raised with a catalog message (`AssistantError(Msg("error.empty_question"))`: both
    languages from `assistant/i18n/catalog/error.toml`) or, in older code, with the English
    text and its `message_zh`. `message_zh` is shown to users who asked in Chinese; `str()`
    is the English text.
    """

    def __init__(self, message: str | Msg, *, message_zh: str | None = None) -> None:
        if isinstance(message, Msg):
            from assistant.i18n import text

            english, chinese = text(message, "en"), text(message, "zh")
        else:
            english, chinese = message, message_zh or message
        super().__init__(english)
        self.message = english
        self.message_zh = chinese

    def localized(self, language: str) -> str:
        """The message in the user's language ("zh" or "en")."""
        return self.message_zh if language == "zh" else self.message


class UsageError(AssistantError):
    """The command or question was malformed (exit status 2)."""


class ParseError(AssistantError):
    """A question could not be understood."""


class KnowledgeBaseError(AssistantError):
    """The knowledge base or its index is unusable."""


class IndexMismatchError(KnowledgeBaseError):
    """The stored index was built with another encoder, dictionary or document set."""


class DocumentError(KnowledgeBaseError):
    """One document could not be read or parsed (the batch goes on without it)."""

    def __init__(self, path: str, reason: str | Msg, *, reason_zh: str | None = None) -> None:
        if isinstance(reason, Msg):  # the catalog's `error.document.*`, both languages
            from assistant.i18n import text

            english, chinese = text(reason, "en"), text(reason, "zh")
        else:
            english, chinese = reason, reason_zh or reason
        super().__init__(f"{path}: {english}", message_zh=f"{path}：{chinese}")
        self.path = path
        self.reason = english
        self.reason_zh = chinese


def debug_enabled() -> bool:
    """True when unexpected errors should surface with their traceback."""
    return any(os.environ.get(v) == "1" for v in ("GPU_ADVISOR_DEBUG", "GPU_ADVISOR_RAISE_ERRORS"))
