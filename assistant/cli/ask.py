"""`gpu-advisor ask`: answer one question, or one question a line from stdin.

Exit status: 0 for every answered question (whatever the verdict), 2 for a usage error (empty
question, unknown flag), 1 for an internal failure (one line; traceback with GPU_ADVISOR_DEBUG=1).
"""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from assistant.cli.edge import error_boundary
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.conversations import ConversationStore
    from assistant.records import Answer, Language, Query
    from assistant.retrieval import Retriever

_EMPTY = Msg("errors.ask.empty")


def _read_stdin() -> list[str]:
    stream = getattr(sys.stdin, "buffer", None)
    raw = stream.read() if stream is not None else sys.stdin.read()
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    return [line for line in text.splitlines() if line.strip()]


def _questions(question: str | None) -> list[str]:
    from assistant.errors import UsageError
    from assistant.parse.numbers import clean_text

    if question is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError(_EMPTY)
        questions = [line for line in _read_stdin() if clean_text(line)]
    else:
        questions = [question] if clean_text(question) else []
    if not questions:
        raise UsageError(_EMPTY)
    return questions


def _question_language(question: str | None) -> str:
    """The language for error messages: the question's ("一亿亿亿参数" is told in Chinese)."""
    if not question:
        return "en"
    from assistant.parse import detect_language

    return detect_language(question)


def _open_store(language: Language) -> ConversationStore | None:
    from assistant.conversations import ConversationStore, StoreError
    from assistant.i18n import text
    from assistant.sanitize import one_line

    try:
        return ConversationStore()
    except StoreError as exc:
        error = one_line(exc.localized(language))
        click.echo(text(Msg("ask.store_unusable", error=error), language), err=True)
        return None


def _save(
    store: ConversationStore | None, conversation_id: str | None, answer: Answer
) -> str | None:
    from assistant.conversations import StoreError
    from assistant.i18n import as_language, text
    from assistant.sanitize import one_line

    if store is None:
        return conversation_id
    try:
        if conversation_id is None:
            conversation_id = store.new_conversation(answer.question[:80])
        store.add_turn(conversation_id, answer)
    except StoreError as exc:
        language = as_language(answer.language)
        error = one_line(exc.localized(language))
        click.echo(text(Msg("ask.turn_not_saved", error=error), language), err=True)
    return conversation_id


def _emit(answer: Answer, as_json: bool, index: int, full: bool = False) -> None:
    if as_json:
        from assistant.render.serialize import answer_to_json
        from assistant.sanitize import json_text

        dumped = json.dumps(answer_to_json(answer), ensure_ascii=False, allow_nan=False)
        click.echo(json_text(dumped))
        return
    if index:
        click.echo("\n" + "─" * 60 + "\n")
    if sys.stdout is not None and sys.stdout.isatty():
        from assistant.render import answer_renderable
        from assistant.sanitize import SafeConsole

        SafeConsole().print(answer_renderable(answer, full=full))
        return
    from assistant.render.brief import brief_markdown
    from assistant.sanitize import clean

    brief = answer.text if full else brief_markdown(answer.text, short_sources=True)
    click.echo(clean(brief.rstrip()))


def _is_question(arg: str) -> bool:
    """A word that starts with "-" but is no flag: "-3 张卡能训练7B吗", "-2 dollars per hour?"."""
    return (
        len(arg) > 1
        and arg[0] == "-"
        and (arg[1].isdigit() or arg[1] in ".$" or " " in arg or not arg.isascii())
    )


class _AskCommand(click.Command):
    """`ask` reads a question starting with "-" as the question ("-3 张卡能训练7B吗" is bad
    input to answer in Chinese, not click's English "No such option: -3")."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" not in args and any(_is_question(a) for a in args):
            args = (
                [a for a in args if not _is_question(a)]
                + ["--"]
                + [a for a in args if _is_question(a)]
            )
        return super().parse_args(ctx, args)


@click.command(cls=_AskCommand)
@click.argument("question", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per question.")
@click.option(
    "--continue",
    "follow",
    is_flag=True,
    help="Follow up on the last conversation (its scenario carries over); with none, the "
    "question is answered as a new one.",
)
@click.option(
    "--independent",
    is_flag=True,
    help="Never chain: every question (every stdin line) is answered on its own.",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default=None,
    help="Answer language (default: the question's).",
)
@click.option(
    "--full", is_flag=True, help="Show every formula and assumption (default: fits a screen)."
)
def ask(
    question: str | None,
    as_json: bool,
    follow: bool,
    independent: bool,
    lang: str | None,
    full: bool,
) -> None:
    """Ask whether a GPU setup can do a large-model job; with no QUESTION, read stdin lines.

    Lines on stdin form one conversation: a follow-up line ("那用H100呢?", "what about
    4-bit?") changes one slot of the question before it; a line that names its own model or
    size and a task starts afresh. `--independent` answers every line on its own.

    Example: gpu-advisor ask "吉林GPU服务器能训练千亿模型吗?"
    """
    with error_boundary(lang or _question_language(question), slots=True):
        if follow and independent:
            from assistant.errors import UsageError

            raise UsageError(Msg("errors.ask.continue_and_independent"))
        questions = _questions(question)
        _answer_all(
            questions,
            as_json=as_json,
            follow=follow,
            chain=not independent,
            lang=lang,
            full=full,
            batch=question is None,
        )


@dataclass(frozen=True)
class _Run:
    """What every question of one `ask` run shares."""

    settings: Settings
    retriever: Retriever
    store: ConversationStore | None
    as_json: bool
    follow: bool
    chain: bool
    lang: str | None
    full: bool
    batch: bool = False
    """The questions came from stdin: a refused line is told as "line N: …" and skipped."""


def _answer_all(
    questions: list[str],
    *,
    as_json: bool,
    follow: bool,
    chain: bool,
    lang: str | None,
    full: bool = False,
    batch: bool = False,
) -> None:
    from assistant.config import Settings
    from assistant.pipeline import default_retriever
    from assistant.sanitize import clean

    settings = Settings()
    # Building the index takes a while on first use: say so on stderr (stdout stays clean), in
    # the language asked for, else the settings', else the first question's.
    chosen = lang or (settings.language if settings.language != "auto" else None)
    language: Language = "zh" if (chosen or _question_language(questions[0])) == "zh" else "en"
    retriever = default_retriever(
        settings, notify=lambda line: click.echo(clean(line), err=True), language=language
    )
    store = _open_store(language)
    run = _Run(settings, retriever, store, as_json, follow, chain, lang, full, batch)
    # One connection for the whole run: closing one syncs the file (30-70 ms a question).
    with store.session() if store is not None else contextlib.nullcontext():
        refused = _answer_lines(questions, run)
    if refused:
        raise click.exceptions.Exit(2)


def _answer_lines(questions: list[str], run: _Run) -> int:
    """Answer and print each question; returns how many were refused (bad input in a batch)."""
    from assistant.pipeline import answer

    conversation_id: str | None = None
    previous: Query | None = None
    if run.follow and run.store is not None:
        language = run.lang or _question_language(questions[0])
        conversation_id, previous = _last_turn(run.store, language)
    refused = 0
    for index, text in enumerate(questions):
        try:
            result = answer(
                text,
                settings=run.settings,
                retriever=run.retriever,
                previous=previous,
                language=run.lang,
            )
            if result.refusal is not None:  # "-5张A100": bad input too (exit 2), as the parser's
                raise result.refusal
        except CalculatorInputError as exc:
            if not run.batch:
                raise
            # A bad stdin line is told on stderr in its own language and the batch goes on
            # (exit 2 at the end), even when it is the only line.
            last = index == len(questions) - 1
            _say_refused(index + 1, exc, _line_language(text, previous, run.lang), last=last)
            refused += 1
            continue
        keep = run.follow or (run.chain and index > 0)
        conversation_id = _save(run.store, conversation_id if keep else None, result)
        # Lines read from stdin are one conversation, as in the chat app: "那用H100呢?" on the
        # next line follows up on the line before. The parser decides which lines inherit
        # (assistant.parse.followup); --independent passes no previous turn at all.
        previous = result.query if run.chain else None
        _emit(result, run.as_json, index - refused, run.full)
    return refused


def _last_turn(store: ConversationStore, lang: str) -> tuple[str | None, Query | None]:
    """The last conversation's id and its last readable turn's query (for `--continue`).

    With no earlier conversation the question is answered as a new one, and stderr says so:
    the user still gets an answer (a script's first `--continue` works), and is not left with
    "cannot tell" for a follow-up ("那用H100呢?") that had nothing to follow."""
    from assistant.i18n import text as say
    from calculators.messages import Msg

    language: Language = "zh" if lang == "zh" else "en"
    last = store.last_conversation()
    if last is not None and last.skipped:
        click.echo(say(Msg("ask.turns_skipped", count=last.skipped), language), err=True)
    if last is None or not last.turns:
        click.echo(say(Msg("ask.no_earlier_conversation"), language), err=True)
        return None, None
    return last.id, last.turns[-1].answer.query


def _line_language(text: str, previous: Query | None, lang: str | None) -> str:
    """The language to tell a stdin line's refusal in: `--lang`, else the line's own, else
    (a line with no prose, "-3 H100?") the conversation's, as its answer would be."""
    from assistant.parse.language import says_no_language

    if lang:
        return lang
    if previous is not None and says_no_language(text):
        return previous.language
    return _question_language(text)


def _say_refused(line: int, exc: CalculatorInputError, language: str, *, last: bool) -> None:
    from assistant.i18n import input_error
    from assistant.i18n import text as say
    from assistant.sanitize import one_line
    from calculators.messages import Msg

    lang: Language = "zh" if language == "zh" else "en"
    reason = one_line(input_error(exc, lang))
    key = "ask.line_refused_last" if last else "ask.line_refused"
    click.echo(say(Msg(key, line=line, reason=reason), lang), err=True)
