"""Translate errors into messages and exit codes, once, at the edge of every command.

Exit status: 0 answered (whatever the verdict), 1 internal failure (one line; a traceback only
with `GPU_ADVISOR_DEBUG=1`), 2 usage error or bad input.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

import click

from assistant.errors import AssistantError, UsageError, debug_enabled
from calculators.errors import CalculatorInputError

if TYPE_CHECKING:
    from assistant.i18n import Language


class UserFacingError(click.ClickException):
    """A ClickException with a chosen exit code, shown after the catalog's "Error:" prefix in
    the user's language; its message is sanitised, since it may quote untrusted text (a
    setting, a file name, a library's error about them)."""

    def __init__(self, message: str, exit_code: int, language: str = "en") -> None:
        from assistant.sanitize import clean

        super().__init__(clean(message))
        # click declares exit_code a ClassVar; this class needs it per instance.
        self.exit_code = exit_code  # type: ignore[misc]
        self.language: Language = "zh" if language == "zh" else "en"

    def show(self, file: IO[Any] | None = None) -> None:
        from assistant.i18n import t

        prefix = t("errors.prefix", self.language)
        click.echo(f"{prefix}{self.format_message()}", file=file or sys.stderr)


@contextlib.contextmanager
def error_boundary(language: str = "en", *, slots: bool = False) -> Iterator[None]:
    """Run a command body; turn domain errors into messages, anything else into exit 1.

    With `slots` (a question's values, in `ask`), a refused value is named as the question's
    slot in the user's language; `calc` keeps the field names its options use."""
    try:
        yield
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except UsageError as exc:
        raise UserFacingError(exc.localized(language), 2, language) from exc
    except CalculatorInputError as exc:
        from assistant.i18n import input_error

        said = (
            input_error(exc, "zh" if language == "zh" else "en")
            if slots
            else exc.localized(language)
        )
        raise UserFacingError(said, 2, language) from exc
    except AssistantError as exc:
        raise UserFacingError(exc.localized(language), 1, language) from exc
    except KeyboardInterrupt:
        raise click.Abort from None
    except BrokenPipeError:
        raise  # the reader went away: the group ends quietly (assistant.__main__)
    except Exception as exc:
        if debug_enabled():
            raise
        from assistant.i18n import t

        lang: Language = "zh" if language == "zh" else "en"
        what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        raise UserFacingError(t("errors.internal", lang, what=what), 1, lang) from exc
