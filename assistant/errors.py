"""Domain errors. They carry a catalog message and structured fields, and are put into words
once, at the edge.

Each error holds a :class:`~calculators.messages.Msg` (a catalog key and its parameters); the
CLI and the TUI render it in the user's language with :meth:`AssistantError.localized`, and
``str()`` is the English text, for logs. The CLI turns an error into a one-line message and
exit status; the TUI shows it as a notification. Unexpected exceptions are re-raised when
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
    """Base class of the errors a user can act on; `msg` says what went wrong."""

    def __init__(self, msg: Msg, /) -> None:
        super().__init__(msg.key)
        self.msg = msg

    def __str__(self) -> str:
        return self.localized("en")

    def localized(self, language: str) -> str:
        """The message in the user's language ("zh" or "en")."""
        from assistant.i18n import as_language, text

        return text(self.msg, as_language(language))


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

    def __init__(self, path: str, reason: Msg) -> None:
        super().__init__(Msg("errors.document", path=path, reason=reason))
        self.path = path
        self.reason = reason


def debug_enabled() -> bool:
    """True when unexpected errors should surface with their traceback."""
    return any(os.environ.get(v) == "1" for v in ("GPU_ADVISOR_DEBUG", "GPU_ADVISOR_RAISE_ERRORS"))
