"""click's own usage errors in the user's language, from the message catalog (`cli.usage.*`).

click words an unknown option, a missing argument or a bad choice in English ("Error: No such
option"). The command group (:mod:`assistant.__main__`) hands every such error to
:func:`localize`, which rewords it from the error's structured fields (the option's name, the
parameter and its type, the closest names) in the language :func:`usage_language` reads from
the command line and the environment, and keeps click's exit status 2.

`--help` itself stays English: it is reference text for option names that are English too, and
one language there keeps it in step with the README. The hint a usage error ends with says so.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from gettext import ngettext
from typing import IO, Any

import click

from assistant.i18n import Language, Msg, as_language, system_language, text

__all__ = [
    "CatalogBadParameter",
    "LocalizedUsageError",
    "aborted",
    "localize",
    "usage_language",
]

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


class CatalogBadParameter(click.BadParameter):
    """A value one of our parameter types refuses, with its reason as a catalog message."""

    def __init__(
        self,
        reason: Msg,
        ctx: click.Context | None = None,
        param: click.Parameter | None = None,
    ) -> None:
        super().__init__(text(reason, "en"), ctx, param)
        self.reason = reason


class LocalizedUsageError(click.UsageError):
    """A usage error worded from the catalog; shows the usage line, the help hint and the
    message, all in one language (exit status 2, as click's own)."""

    def __init__(self, message: Msg, language: Language, ctx: click.Context | None) -> None:
        from assistant.sanitize import clean

        super().__init__(clean(text(message, language)), ctx)
        self.msg = message
        self.language = language

    def show(self, file: IO[Any] | None = None) -> None:
        out = file or sys.stderr
        lang, ctx = self.language, self.ctx
        if ctx is not None:
            usage = " ".join([ctx.command_path, *ctx.command.collect_usage_pieces(ctx)])
            click.echo(text(Msg("cli.usage.line", usage=usage), lang), file=out)
            names = ctx.command.get_help_option_names(ctx)
            if ctx.command.get_help_option(ctx) is not None and names:
                hint = Msg("cli.usage.hint", command=ctx.command_path, option=max(names, key=len))
                click.echo(text(hint, lang) + "\n", file=out)
        click.echo(text(Msg("errors.prefix"), lang) + self.format_message(), file=out)


def usage_language(
    args: Sequence[str], setting: str = "auto", environ: Mapping[str, str] | None = None
) -> Language:
    """The user's language for a usage error, first found of: a `--lang zh|en` on the command
    line, the language setting (`GPU_ADVISOR_LANGUAGE`), Chinese text among the arguments (a
    question), the system locale (`LC_ALL`, `LC_MESSAGES`, `LANG`).

    Examples:
        >>> usage_language(["ask", "--lang", "zh", "--bogus"], "auto", {})
        'zh'
        >>> usage_language(["ask", "--bogus", "用8张H100训练7B要多久"], "auto", {"LANG": "en_US"})
        'zh'
        >>> usage_language(["ask", "--bogus", "hi"], "auto", {"LANG": "zh_CN.UTF-8"})
        'zh'
        >>> usage_language(["kb", "--lang=en", "x"], "zh", {})
        'en'
        >>> usage_language(["kb", "x"], "zh", {"LANG": "en_US.UTF-8"})
        'zh'
    """
    for index, arg in enumerate(args):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and index + 1 < len(args):
            value = args[index + 1]
        if value in ("zh", "en"):
            return as_language(value)
    if setting in ("zh", "en"):
        return as_language(setting)
    if any(_CJK.search(arg) for arg in args):
        return "zh"
    return system_language(os.environ if environ is None else environ)


def _setting() -> str:
    """The language setting, or "auto" when the settings themselves are refused (that error
    is the command's to report)."""
    from assistant.config import Settings
    from assistant.errors import AssistantError

    try:
        return Settings().language
    except AssistantError:
        return "auto"


def aborted(args: Sequence[str]) -> str:
    """What an interrupted command (Ctrl+C, end of input) says, instead of click's "Aborted!"."""
    return text(Msg("cli.aborted"), usage_language(args, _setting()))


def localize(exc: click.UsageError, args: Sequence[str]) -> click.UsageError:
    """`exc` worded from the catalog in the user's language; errors that are already ours, and
    the help a group prints when called without a command, are returned as they are."""
    if isinstance(exc, (LocalizedUsageError, click.exceptions.NoArgsIsHelpError)):
        return exc
    return LocalizedUsageError(_message(exc, args), usage_language(args, _setting()), exc.ctx)


#: (option or command, with closest names) -> the catalog key of "no such …".
_UNKNOWN = {
    ("option", False): "cli.usage.no_such_option",
    ("option", True): "cli.usage.no_such_option_closest",
    ("command", False): "cli.usage.no_such_command",
    ("command", True): "cli.usage.no_such_command_closest",
}
#: (argument or option, a choice) -> the catalog key of "missing …".
_MISSING = {
    ("argument", False): "cli.usage.missing_argument",
    ("argument", True): "cli.usage.missing_argument_choice",
    ("option", False): "cli.usage.missing_option",
    ("option", True): "cli.usage.missing_option_choice",
}


def _message(exc: click.UsageError, args: Sequence[str]) -> Msg:
    """What went wrong, as a catalog message read from the fields click filled in."""
    if isinstance(exc, (click.NoSuchOption, click.exceptions.NoSuchCommand)):
        kind = "option" if isinstance(exc, click.NoSuchOption) else "command"
        name = exc.option_name if isinstance(exc, click.NoSuchOption) else exc.command_name
        if not exc.possibilities:
            return Msg(_UNKNOWN[kind, False], name=name)
        closest = tuple(f"'{p}'" for p in sorted(exc.possibilities))
        return Msg(_UNKNOWN[kind, True], name=name, closest=closest)
    if isinstance(exc, click.MissingParameter) and exc.param is not None:
        return _missing(exc.param)
    if isinstance(exc, click.BadParameter) and exc.param is not None:
        return _bad_value(exc, exc.param, args)
    if isinstance(exc, click.BadOptionUsage):
        return _option_usage(exc, args)
    extra = _extra_arguments(exc.message)
    if extra is not None:
        return Msg("cli.usage.extra_arguments", extra=extra)
    return Msg("cli.usage.other", detail=exc.format_message())


def _extra_arguments(message: str) -> str | None:
    """The arguments click found left over, read from its message: click raises a plain
    UsageError with no fields for them, so its own (gettext) template is matched exactly."""
    for count in (1, 2):
        template = ngettext(
            "Got unexpected extra argument ({args})",
            "Got unexpected extra arguments ({args})",
            count,
        )
        head, _, tail = template.partition("{args}")
        if message.startswith(head) and message.endswith(tail) and len(message) > len(head):
            return message[len(head) : len(message) - len(tail)]
    return None


def _missing(param: click.Parameter) -> Msg:
    """A required argument or option left out; a choice lists what it may be."""
    kind = "argument" if isinstance(param, click.Argument) else "option"
    name = param.get_error_hint(None)
    if isinstance(param.type, click.Choice):
        choices = tuple(str(c) for c in param.type.choices)
        return Msg(_MISSING[kind, True], name=name, choices=choices)
    return Msg(_MISSING[kind, False], name=name)


def _bad_value(exc: click.BadParameter, param: click.Parameter, args: Sequence[str]) -> Msg:
    """A value its parameter's type refused, with the value when the command line shows it."""
    value = _typed_value(param, args)
    reason = _reason(exc, param.type, value)
    name = param.get_error_hint(None)
    if value is None:
        return Msg("cli.usage.bad_value_unseen", name=name, reason=reason)
    return Msg("cli.usage.bad_value", name=name, value=value, reason=reason)


def _reason(exc: click.BadParameter, kind: object, value: str | None) -> Msg:
    """Why the type refuses a value: the catalog's words for click's own types (a range
    refuses a number outside it, or a value that is no number)."""
    if isinstance(exc, CatalogBadParameter):
        return exc.reason
    if isinstance(kind, click.Choice):
        return Msg("cli.usage.reason.one_of", choices=tuple(str(c) for c in kind.choices))
    ranged = isinstance(kind, (click.IntRange, click.FloatRange))
    if isinstance(kind, (click.IntRange, click.FloatRange)) and _is_number(value, kind):
        low, high = kind.min, kind.max
        if low is not None and high is not None:
            return Msg("cli.usage.reason.range", low=low, high=high)
    if isinstance(kind, click.types.IntParamType) and (value is not None or not ranged):
        return Msg("cli.usage.reason.whole")
    if isinstance(kind, click.types.FloatParamType) and (value is not None or not ranged):
        return Msg("cli.usage.reason.number")
    return Msg("cli.usage.reason.detail", detail=exc.message.rstrip("."))


def _is_number(value: str | None, kind: object) -> bool:
    """True when `value` is a number of `kind` (an int for an int type)."""
    try:
        (int if isinstance(kind, click.types.IntParamType) else float)(str(value))
    except ValueError:
        return False
    return True


def _typed_value(param: click.Parameter, args: Sequence[str]) -> str | None:
    """The value the command line gave option `param` (its last `--opt v` / `--opt=v`)."""
    found = None
    for index, arg in enumerate(args):
        for opt in param.opts:
            if not opt.startswith("-"):
                continue
            if arg == opt and index + 1 < len(args):
                found = args[index + 1]
            elif arg.startswith(opt + "="):
                found = arg[len(opt) + 1 :]
    return found


def _option_usage(exc: click.BadOptionUsage, args: Sequence[str]) -> Msg:
    """An option used wrongly. click's parser raises this for a flag given a value
    (`--json=yes`) and for an option left without its value (`--lang` at the end)."""
    given = any(arg.startswith(exc.option_name + "=") for arg in args)
    key = "cli.usage.takes_no_value" if given else "cli.usage.needs_value"
    return Msg(key, name=exc.option_name)
