"""Turn exceptions into notification titles and messages that say what to do.

This is the TUI's edge, like `assistant.cli.edge` for the CLI: one branch per failure kind.
Unexpected exceptions are re-raised when `GPU_ADVISOR_DEBUG=1`.
"""

from __future__ import annotations

from typing import Literal

from assistant.errors import AssistantError, KnowledgeBaseError
from assistant.tui.i18n import t
from calculators.errors import CalculatorInputError

Context = Literal["index", "answer"]


def describe_error(exc: BaseException, language: str, *, context: Context) -> tuple[str, str]:
    """(i18n title key, message) for `exc`; re-raises unexpected errors in debug mode."""
    name = getattr(exc, "name", None) or ""
    if isinstance(exc, ImportError) and not name.startswith(("assistant", "calculators")):
        name = name or str(exc)
        return "error.title.model", f"{name}: {t('error.hint.model', language)}"
    if isinstance(exc, KnowledgeBaseError):
        return "error.title.index", f"{exc.localized(language)}\n{t('error.hint.index', language)}"
    if isinstance(exc, (AssistantError, CalculatorInputError)):
        title = "error.title.index" if context == "index" else "error.title.answer"
        return title, exc.localized(language)
    if isinstance(exc, (FileNotFoundError, PermissionError)) and context == "index":
        return "error.title.index", f"{exc}\n{t('error.hint.index', language)}"
    from assistant.errors import debug_enabled

    if debug_enabled():
        raise exc
    what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    return "error.title.internal", f"{what}\n{t('error.hint.internal', language)}"
