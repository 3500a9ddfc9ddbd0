"""The `gpu-advisor` command: no sub-command opens the TUI; `ask`, `kb` and `calc` are one-shot.

Sub-commands live in `assistant/cli/<name>.py` and are imported only when used, so that
`gpu-advisor --help` and the TUI's first paint stay fast.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from assistant import __version__

#: sub-command name -> (module in assistant.cli, attribute, short help)
_SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "ask": ("assistant.cli.ask", "ask", "Ask one question, or one a line on stdin."),
    "calc": ("assistant.cli.calc", "calc", "Run a calculator directly."),
    "kb": ("assistant.cli.kb", "kb", "Manage and search the knowledge base."),
    "tui": ("assistant.cli.tui", "tui", "Open the chat app (the default)."),
}


#: Where the group keeps the command line it parsed, for the language of a later usage error.
_ARGV = "gpu_advisor.argv"


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = _SUBCOMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, attribute, _ = entry
        command: click.Command = getattr(importlib.import_module(module_name), attribute)
        return command

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """Parse the arguments; `--help` into a closed pipe also ends quietly with status 0, and a
        usage error is worded in the user's language (:mod:`assistant.cli.usage`)."""
        argv = tuple(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            _silence_stdout()
            raise click.exceptions.Exit(0) from None
        except click.UsageError as exc:
            raise _localized(exc, argv) from exc
        ctx.meta[_ARGV] = argv
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a reader that went away (`| head -1`) ends it quietly with status 0,
        as other Unix tools do, instead of click's silent status 1."""
        try:
            result = super().invoke(ctx)
            if sys.stdout is not None:
                sys.stdout.flush()  # buffered output meets a closed pipe here, not at exit
        except BrokenPipeError:
            _silence_stdout()
            ctx.exit(0)
        except click.UsageError as exc:  # a sub-command's arguments, or an unknown one
            raise _localized(exc, ctx.meta.get(_ARGV, ())) from exc
        except (click.Abort, KeyboardInterrupt, EOFError):  # click would say "Aborted!"
            _say_aborted(ctx.meta.get(_ARGV, ()))
            raise click.exceptions.Exit(1) from None
        return result

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, help_text) for name, (_, _, help_text) in sorted(_SUBCOMMANDS.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, invoke_without_command=True)
@click.version_option(__version__, prog_name="gpu-advisor")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """算力顾问 gpu-advisor: can this GPU setup do this large-model job?

    Run with no command to open the chat app. Examples:

      gpu-advisor ask "吉林GPU服务器能训练千亿模型吗?"

      gpu-advisor ask --json "Can 8x RTX 4090 fine-tune a 70B model with QLoRA?"

      gpu-advisor calc --help
    """
    if ctx.invoked_subcommand is None:
        tui_command = cli.get_command(ctx, "tui")
        if tui_command is not None:
            ctx.invoke(tui_command)


def _localized(exc: click.UsageError, argv: tuple[str, ...]) -> click.UsageError:
    from assistant.cli.usage import localize

    return localize(exc, argv)


def _say_aborted(argv: tuple[str, ...]) -> None:
    from assistant.cli.usage import aborted

    click.echo(aborted(argv), err=True)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush finds no broken pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass  # no real file descriptor (a test runner's buffer): nothing is flushed at exit
    finally:
        os.close(devnull)


def main() -> None:
    """Entry point for `python -m assistant`."""
    cli(prog_name="gpu-advisor")


if __name__ == "__main__":
    main()
