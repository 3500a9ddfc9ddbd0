"""The evidence panel beside the transcript: Scenario, Calculations and Sources tabs.

It shows the answer selected in the transcript. Every string that comes from a question or a
document is shown literally (Rich `Text`, control characters made visible).
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from assistant.tui.figures import show_value
from assistant.tui.i18n import t
from assistant.tui.literal import clean, literal

if TYPE_CHECKING:
    from assistant.records import Answer, Check, Citation

CHECK_STYLES = {"ok": "green", "tight": "yellow", "fail": "red", "n/a": "dim"}


def _pairs_table(rows: list[tuple[str, object]], language: str) -> Table:
    table = Table(box=None, pad_edge=False, expand=True, show_header=False)
    table.add_column()
    table.add_column()
    table.columns[0].style = "cyan"
    table.columns[0].overflow = "fold"
    table.columns[1].overflow = "fold"
    for key, value in rows:
        table.add_row(literal(key), literal(show_value(key, value, language)))
    return table


def scenario_renderable(answer: Answer, language: str) -> RenderableType:
    """The slots as evaluated: asked ones plain, filled-in ones (defaults, site profile) marked
    with "·", slots changed by a follow-up highlighted; then assumptions and warnings."""
    query = answer.query
    evaluated = answer.scenario or query.scenario
    table = Table(t("panel.slot", language), t("panel.value", language), box=None, expand=True)
    table.columns[1].overflow = "fold"
    unset: list[str] = []
    filled = False
    for slot in fields(evaluated):
        value = getattr(evaluated, slot.name)
        if value is None:
            unset.append(slot.name)
            continue
        asked = getattr(query.scenario, slot.name) is not None
        changed = slot.name in query.changed_slots
        shown = literal(show_value(slot.name, value, answer.language))
        shown.stylize("bold yellow" if changed else "" if asked else "italic")
        if not asked:
            filled = True
            shown = Text.styled("· ", "dim") + shown
        table.add_row(Text.styled(slot.name, "bold yellow" if changed else "cyan"), shown)
    if unset:
        table.add_row(Text.styled(t("panel.unset", language), "dim"),
                      Text.styled(", ".join(unset), "dim"))
    parts: list[RenderableType] = [table]
    if filled:
        parts.append(Text.styled(t("panel.filled", language), "dim"))
    if query.changed_slots:
        parts += _bullets(t("panel.changed", language), query.changed_slots)
    parts += _bullets(t("panel.assumptions", language), answer.assumptions)
    parts += _bullets(t("panel.warnings", language), tuple(query.warnings) + answer.warnings)
    return Group(*parts)


def _bullets(title: str, items: tuple[str, ...] | list[str]) -> list[RenderableType]:
    if not items:
        return []
    text = Text.styled(f"\n{title}\n", "bold")
    for item in items:
        text.append_text(literal(f"• {item}\n"))
    return [text]


def check_renderable(check: Check, language: str) -> RenderableType:
    """One calculator result: verdict, summary, figures, formula, inputs, assumptions, sources."""
    from assistant.render import CHECK_LABELS

    style = CHECK_STYLES.get(check.verdict, "")
    label = CHECK_LABELS.get(check.kind, {}).get(language, check.kind)
    head = Text.styled(f"■ {label}  ", "bold") + Text.styled(check.verdict.upper(), style)
    parts: list[RenderableType] = [head, literal(check.summary)]
    if check.figures:
        parts.append(Text.styled(t("panel.figures", language), "bold underline"))
        parts.append(_pairs_table(list(check.figures.items()), language))
    if check.formula:
        parts.append(Text.styled(t("panel.formula", language), "bold underline"))
        parts.append(literal(check.formula, "italic"))
    if check.inputs:
        parts.append(Text.styled(t("panel.inputs", language), "bold underline"))
        parts.append(_pairs_table(list(check.inputs.items()), language))
    parts += _bullets(t("panel.assumptions", language), check.assumptions)
    parts += _bullets(t("panel.sources", language), check.sources)
    parts.append(Text(""))
    return Group(*parts)


def citation_label(index: int, citation: Citation) -> Text:
    """A one-line entry of the Sources list."""
    passage = citation.passage
    label = Text.styled(f"[{index}] ", "bold")
    label.append_text(literal(passage.title))
    if passage.heading:
        label.append_text(literal(f" › {passage.heading}", "dim"))
    label.no_wrap = True
    label.overflow = "ellipsis"
    return label


def citation_detail(citation: Citation, language: str) -> RenderableType:
    """The full passage, where it comes from, and the claim it supports."""
    passage = citation.passage
    head = literal(passage.title, "bold")
    if passage.heading:
        head.append_text(literal(f" › {passage.heading}"))
    path = Text.styled(f"{t('panel.path', language)}: ", "bold") + literal(passage.source)
    if passage.anchor:
        path.append_text(literal(f"#{passage.anchor}", "dim"))
    parts: list[RenderableType] = [head, path, Text.styled(f"id: {clean(passage.id)}", "dim")]
    if citation.claim:
        claim = Text.styled(f"{t('panel.claim', language)}: ", "bold")
        parts.append(claim + literal(citation.claim))
    parts += [Text(""), literal(passage.text)]
    return Group(*parts)


class SidePanel(Vertical):
    """Tabs showing the evidence of the selected answer."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.answer: Answer | None = None
        self._language = "en"

    def compose(self) -> ComposeResult:
        with TabbedContent(id="panel-tabs"):
            with TabPane("Scenario", id="tab-scenario"):
                yield VerticalScroll(Static(id="scenario-body"))
            with TabPane("Calculations", id="tab-calculations"):
                yield VerticalScroll(Static(id="calculations-body"))
            with TabPane("Sources", id="tab-sources"):
                yield OptionList(id="sources-list")
                yield VerticalScroll(Static(id="source-body"), id="source-detail")

    def on_mount(self) -> None:
        self.relabel(str(getattr(self.app, "ui_language", "en")))

    def show(self, answer: Answer | None) -> None:
        """Follow `answer` (None clears the panel)."""
        self.answer = answer
        self._refresh_bodies()

    def relabel(self, language: str) -> None:
        """Switch tab titles and labels to another interface language."""
        self._language = language
        tabs = self.query_one(TabbedContent)
        for pane_id, key in (("tab-scenario", "tab.scenario"),
                             ("tab-calculations", "tab.calculations"),
                             ("tab-sources", "tab.sources")):
            tabs.get_tab(pane_id).label = t(key, language)
        self._refresh_bodies()

    def _refresh_bodies(self) -> None:
        language, answer = self._language, self.answer
        empty = Text.styled(t("panel.empty", language), "dim")
        scenario = self.query_one("#scenario-body", Static)
        calculations = self.query_one("#calculations-body", Static)
        if answer is None:
            scenario.update(empty)
            calculations.update(empty)
        else:
            scenario.update(scenario_renderable(answer, language))
            checks = [check_renderable(c, language) for c in answer.checks]
            no_checks = Text.styled(t("panel.no_checks", language), "dim")
            calculations.update(Group(*checks) if checks else no_checks)
        self._refresh_sources()

    def _refresh_sources(self) -> None:
        language, answer = self._language, self.answer
        options = self.query_one("#sources-list", OptionList)
        options.clear_options()
        body = self.query_one("#source-body", Static)
        citations = answer.citations if answer is not None else ()
        for index, citation in enumerate(citations, start=1):
            options.add_option(Option(citation_label(index, citation), id=f"c{index}"))
        if answer is None:
            body.update(Text.styled(t("panel.empty", language), "dim"))
        elif not citations:
            body.update(Text.styled(t("panel.no_sources", language), "dim"))
        else:
            body.update(Text.styled(t("panel.pick_source", language), "dim"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_citation(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._show_citation(event.option_index)

    def _show_citation(self, index: int) -> None:
        if self.answer is None or not 0 <= index < len(self.answer.citations):
            return
        detail = citation_detail(self.answer.citations[index], self._language)
        self.query_one("#source-body", Static).update(detail)
        self.query_one("#source-detail", VerticalScroll).scroll_home(animate=False)
