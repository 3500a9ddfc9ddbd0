"""One answer in the transcript: a verdict badge, then the compact answer's Markdown (the
formulas, every assumption and full sources live in the side panel)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Markdown, Static

from assistant.tui.i18n import t
from assistant.tui.literal import clean

if TYPE_CHECKING:
    from assistant.records import Answer

VERDICT_ICONS: dict[str, str] = {
    "feasible": "✔",
    "conditional": "◐",
    "infeasible": "✘",
    "unknown": "?",
}


def verdict_text(answer: Answer, language: str) -> Text:
    """The badge line: icon, verdict label and the binding constraint, shown literally."""
    icon = VERDICT_ICONS.get(answer.verdict, "?")
    text = Text.styled(f" {icon} {t('verdict.' + answer.verdict, language)} ", "bold")
    if answer.binding_constraint:
        from assistant.render import CHECK_LABELS

        kind = answer.binding_constraint
        what = clean(CHECK_LABELS.get(kind, {}).get(language, kind))
        text.append("  " + t("verdict.binding", language, what=what))
    return text


class VerdictBadge(Static):
    """The verdict of one answer, coloured by its class (`-feasible`, `-infeasible`, …)."""

    DEFAULT_CSS = """
    VerdictBadge { height: auto; width: 1fr; }
    """

    def __init__(self, answer: Answer, language: str) -> None:
        super().__init__(verdict_text(answer, language), classes=f"-{answer.verdict}")
        self.answer = answer

    def relabel(self, language: str) -> None:
        """Show the verdict label in another interface language."""
        self.update(verdict_text(self.answer, language))


class AnswerView(Vertical):
    """Shows an Answer: its verdict and its rendered Markdown text."""

    DEFAULT_CSS = """
    AnswerView { height: auto; }
    AnswerView > Markdown { margin: 0; padding: 0 1; }
    """

    def __init__(self, answer: Answer, language: str) -> None:
        super().__init__(classes=f"-{answer.verdict}")
        self.answer = answer
        self._language = language

    def compose(self) -> ComposeResult:
        yield VerdictBadge(self.answer, self._language)
        # Control characters would reach the terminal; markup in Markdown is not interpreted.
        from assistant.render.brief import brief_markdown

        yield Markdown(clean(brief_markdown(self.answer.text)), open_links=False)

    def relabel(self, language: str) -> None:
        """Switch the interface labels (not the answer, which follows the question)."""
        self._language = language
        self.query_one(VerdictBadge).relabel(language)
