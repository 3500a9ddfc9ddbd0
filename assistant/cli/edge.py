"""Translate errors into messages and exit codes, once, at the edge of every command.

Exit status: 0 answered (whatever the verdict), 1 internal failure (one line; a traceback only
with `GPU_ADVISOR_DEBUG=1`), 2 usage error or bad input.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import click

from assistant.errors import AssistantError, UsageError
from calculators.errors import CalculatorInputError


def debug_enabled() -> bool:
    """True when unexpected errors should surface with their traceback."""
    return any(os.environ.get(v) == "1" for v in ("GPU_ADVISOR_DEBUG", "GPU_ADVISOR_RAISE_ERRORS"))


class UserFacingError(click.ClickException):
    """A ClickException with a chosen exit code."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@contextlib.contextmanager
def error_boundary(language: str = "en") -> Iterator[None]:
    """Run a command body; turn domain errors into messages, anything else into exit 1."""
    try:
        yield
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except UsageError as exc:
        raise UserFacingError(exc.localized(language), 2) from exc
    except CalculatorInputError as exc:
        raise UserFacingError(exc.localized(language), 2) from exc
    except AssistantError as exc:
        raise UserFacingError(exc.localized(language), 1) from exc
    except KeyboardInterrupt:
        raise click.Abort from None
    except Exception as exc:
        if debug_enabled():
            raise
        what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        hint = "set GPU_ADVISOR_DEBUG=1 for the traceback"
        if language == "zh":
            hint = "设置 GPU_ADVISOR_DEBUG=1 可查看完整回溯"
        msg = f"internal error: {what} ({hint})"
        raise UserFacingError(msg, 1) from exc
