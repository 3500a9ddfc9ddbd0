"""One answer in the transcript: a verdict badge, then the compact answer's Markdown (the
formulas, every assumption and full sources live in the side panel)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from assistant.tui.i18n import t
from assistant.tui.literal import clean

if TYPE_CHECKING:
    from assistant.records import Answer, Language

VERDICT_ICONS: dict[str, str] = {
    "feasible": "✔",
    "conditional": "◐",
    "infeasible": "✘",
    "unknown": "?",
}


def verdict_text(answer: Answer, language: str) -> Text:
    """The badge line: icon, verdict label (the one `ask` shows, "Estimate" for figures with no
    verdict) and the binding constraint, in the interface language, shown literally."""
    from assistant.render.answer import binding_label, is_estimate, verdict_label

    lang: Language = "zh" if language == "zh" else "en"
    icon = "≈" if is_estimate(answer) else VERDICT_ICONS.get(answer.verdict, "?")
    text = Text.styled(f" {icon} {clean(verdict_label(answer, lang))} ", "bold")
    what = binding_label(answer, lang)
    if what:
        text.append("  " + t("verdict.binding", language, what=clean(what)))
    return text


def bubble_markdown(answer: Answer) -> str:
    """The compact answer under the badge: no verdict label or binding constraint (the badge
    says them), lists cut to a screen with a pointer to the side panel's tab that has the rest."""
    from assistant.i18n import t as catalog_t
    from assistant.render.answer import without_banner
    from assistant.render.brief import KEEP, brief_markdown

    # Suggestions are only here (the panel has no place for them): the bubble keeps them all.
    assumptions = {catalog_t("answer.heading.assumptions", lang) for lang in ("zh", "en")}
    keep = {heading: n for heading, n in KEEP.items() if heading in assumptions}

    def more(language: Language, dropped: int) -> str:
        tab = t("tab.scenario", language)  # where the Scenario tab lists every assumption
        return t("bubble.more", language, n=dropped, tab=tab)

    body = brief_markdown(answer.text, keep=keep, more=more)
    return without_banner(answer, body, binding=True)


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
        # Imported here: markdown-it (~20 ms) is not needed before the first answer.
        from textual.widgets import Markdown

        # Control characters would reach the terminal; markup in Markdown is not interpreted.
        yield Markdown(clean(bubble_markdown(self.answer)), open_links=False)

    def relabel(self, language: str) -> None:
        """Switch the interface labels (not the answer, which follows the question)."""
        self._language = language
        self.query_one(VerdictBadge).relabel(language)
