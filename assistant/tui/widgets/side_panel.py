"""The evidence panel beside the transcript: Scenario, Calculations and Sources tabs.

It shows the answer selected in the transcript. Every string that comes from a question or a
document is shown literally (Rich `Text`, control characters made visible).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static, TabbedContent, TabPane, Tabs
from textual.widgets.option_list import Option

from assistant.tui.i18n import t
from assistant.tui.labels import (
    VERDICT_ICONS,
    figure_label,
    input_label,
    slot_label,
    slot_value,
    verdict_label,
)
from assistant.tui.literal import clean, literal
from assistant.tui.wrap import KeyValues, Row, Wrapped

if TYPE_CHECKING:
    from assistant.records import Answer, Check, Citation, Figure, Language, Scenario

CHECK_STYLES = {"ok": "bold green", "tight": "bold yellow", "fail": "bold red", "n/a": "dim"}
#: Memory components left out when they are zero (gradients in inference, …), as `calc` does.
HIDE_WHEN_ZERO = frozenset(
    {
        "gradients_bytes",
        "optimizer_bytes",
        "activations_bytes",
        "kv_cache_bytes",
        "kv_cache_bytes_per_gpu",
        "overhead_bytes",
        "offloaded_bytes",
    }
)


def show_value(key: str, value: object, language: str) -> str:
    """`assistant.tui.figures.show_value`, imported on first use: it brings in the calculators'
    catalogs (~40 ms), which the first paint does not need."""
    from assistant.tui.figures import show_value as shown

    return shown(key, value, language)


def figure_rows(figures: Mapping[str, Figure], language: str) -> list[Row]:
    """Rows of a check's figures: labelled, with units; empty and zero components left out."""
    rows = []
    for key, value in figures.items():
        if value is None or (key in HIDE_WHEN_ZERO and value == 0):
            continue
        label = Text.styled(clean(figure_label(key, language)), "cyan")
        shown = literal(show_value(key, value, language))
        shown.highlight_regex(r"\(\S+ [KMGTP]iB\)", "dim")  # the binary twin of a GB figure
        rows.append(Row(label, shown))
    return rows


def input_rows(inputs: Mapping[str, Figure], language: str) -> list[Row]:
    """Rows of a check's inputs, labelled like the scenario slots."""
    return [
        Row(
            Text.styled(clean(input_label(key, language)), "cyan"),
            literal(show_value(key, value, language)),
        )
        for key, value in inputs.items()
        if value is not None
    ]


def scenario_rows(answer: Answer, language: str) -> tuple[list[Row], list[str]]:
    """The set slots as rows (filled-in ones marked "·", changed ones highlighted) and the
    labels of the slots left open."""
    query = answer.query
    evaluated: Scenario = answer.scenario or query.scenario
    rows: list[Row] = []
    unset: list[str] = []
    for slot in fields(evaluated):
        value = getattr(evaluated, slot.name)
        label = slot_label(slot.name, language)
        if value is None:
            unset.append(label)
            continue
        asked = getattr(query.scenario, slot.name) is not None
        changed = slot.name in query.changed_slots
        shown = value if not isinstance(value, str) else slot_value(slot.name, value, language)
        text = literal(show_value(slot.name, shown, language))
        text.stylize("bold yellow" if changed else "" if asked else "italic")
        if slot.name == "site_profile":
            text = _site(answer, str(value), text)
        key = Text.styled(label, "bold yellow" if changed else "cyan")
        rows.append(Row(key, text, mark="" if asked else "·"))
    return rows, unset


def _site(answer: Answer, doc_id: str, shown: Text) -> Text:
    """A site profile by its title (from the cited profile), its document id below, dim."""
    for citation in answer.citations:
        if citation.passage.doc_id == doc_id and citation.passage.title:
            title = literal(" ".join(citation.passage.title.split()))
            return title + Text("\n") + Text.styled(shown.plain, "dim")
    return shown


def scenario_renderable(answer: Answer, language: str) -> RenderableType:
    """The slots as evaluated: asked ones plain, filled-in ones (defaults, site profile) marked
    with "·", slots changed by a follow-up highlighted; then assumptions and warnings."""
    query = answer.query
    rows, unset = scenario_rows(answer, language)
    parts: list[RenderableType] = [KeyValues(rows)]
    if unset:
        joined = ("、" if language == "zh" else ", ").join(unset)
        colon = "：" if language == "zh" else ": "
        parts.append(Wrapped(Text.styled(f"{t('panel.unset', language)}{colon}{joined}", "dim")))
    if any(row.mark for row in rows):
        parts.append(Text.styled(t("panel.filled", language), "dim"))
    if query.changed_slots:
        changed = [slot_label(slot, language) for slot in query.changed_slots]
        parts += _bullets(t("panel.changed", language), changed)
    parts += _bullets(t("panel.assumptions", language), answer.assumptions)
    parts += _bullets(t("panel.warnings", language), tuple(query.warnings) + answer.warnings)
    return Group(*parts)


def scenario_tooltip(answer: Answer, language: str) -> str:
    """Which raw slot name (as in `ask --json`) each label of the Scenario tab stands for."""
    evaluated = answer.scenario or answer.query.scenario
    names = [
        f"{slot_label(f.name, language)} = {f.name}"
        for f in fields(evaluated)
        if getattr(evaluated, f.name) is not None
    ]
    return t("panel.slot_names", language) + "\n" + "\n".join(names)


def _bullets(title: str, items: Sequence[str]) -> list[RenderableType]:
    if not items:
        return []
    parts: list[RenderableType] = [Text.styled(f"\n{title}", "bold")]
    parts += [Wrapped(literal(item), prefix=Text("• ")) for item in items]
    return parts


def _heading(key: str, language: str) -> Text:
    return Text.styled(t(key, language), "bold underline")


def check_renderable(check: Check, language: str) -> RenderableType:
    """One calculator result: verdict, summary, figures, formula, inputs, assumptions, sources."""
    from assistant.render import CHECK_LABELS

    style = CHECK_STYLES.get(check.verdict, "")
    label = CHECK_LABELS.get(check.kind, {}).get(language, check.kind)
    icon = VERDICT_ICONS.get(check.verdict, "?")
    head = Text.styled(f"■ {label}  ", "bold")
    head.append(f"{icon} {verdict_label(check.verdict, language)}", style)
    parts: list[RenderableType] = [head, Wrapped(literal(check.summary))]
    figures = figure_rows(check.figures, language)
    if figures:
        parts += [_heading("panel.figures", language), KeyValues(figures)]
    if check.formula:
        parts += [_heading("panel.formula", language), Wrapped(literal(check.formula, "italic"))]
    inputs = input_rows(check.inputs, language)
    if inputs:
        parts += [_heading("panel.inputs", language), KeyValues(inputs)]
    parts += _bullets(t("panel.assumptions", language), check.assumptions)
    parts += _bullets(t("panel.sources", language), check.sources)
    parts.append(Text(""))
    return Group(*parts)


def calculations_renderable(answer: Answer, language: str) -> RenderableType:
    """The Calculations tab: the charts of the computed figures, then each check in full."""
    from assistant.render.charts import answer_charts

    checks = [check_renderable(c, language) for c in answer.checks]
    lang: Language = "zh" if language == "zh" else "en"
    charts: list[RenderableType] = []
    for chart in answer_charts(answer, lang):
        charts += [chart, Text("")]
    if not checks and not charts:
        return Text.styled(t("panel.no_checks", language), "dim")
    return Group(*charts, *checks)


def citation_label(index: int, citation: Citation) -> Text:
    """An entry of the Sources list: the title, the section on a second line (several
    passages of one document must be told apart) and what it says on a third, tables told as
    prose (`assistant.render.excerpt`, as `ask` lists its sources)."""
    from assistant.render.excerpt import excerpt

    passage = citation.passage
    label = Text.styled(f"[{index}] ", "bold")
    label.append_text(literal(" ".join(passage.title.split())))
    indent = " " * len(f"[{index}] ")
    if passage.heading:
        heading = " ".join(passage.heading.split())
        label.append(f"\n{indent}")
        label.append_text(literal(f"› {heading}", "dim"))
    said = excerpt(passage.text, 160, around=citation.quote)
    if said:
        label.append(f"\n{indent}")
        label.append_text(literal(said, "dim italic"))
    label.no_wrap = True
    label.overflow = "ellipsis"
    return label


def citation_detail(citation: Citation, language: str) -> RenderableType:
    """The full passage (its tables told as prose), where it comes from, and the claim it
    supports."""
    passage = citation.passage
    head = literal(passage.title, "bold")
    if passage.heading:
        head.append_text(literal(f" › {passage.heading}"))
    colon = "：" if language == "zh" else ": "
    path = Text.styled(f"{t('panel.path', language)}{colon}", "bold") + literal(passage.source)
    if passage.anchor:
        path.append_text(literal(f"#{passage.anchor}", "dim"))
    parts: list[RenderableType] = [
        Wrapped(head),
        Wrapped(path),
        Text.styled(f"id: {clean(passage.id)}", "dim"),
    ]
    if citation.claim:
        claim = Text.styled(f"{t('panel.claim', language)}{colon}", "bold")
        parts.append(Wrapped(claim + literal(citation.claim)))
    from assistant.render.excerpt import prose

    # Tables told as prose, a row a line: pipes wrapped to the panel's width cannot be read.
    parts += [Text(""), Wrapped(literal(prose(passage.text)))]
    return Group(*parts)


class SourceDetail(VerticalScroll):
    """The open passage of the Sources tab; Esc (or Backspace, ←) goes back to the list."""

    BINDINGS = [Binding("escape,backspace,left", "close", show=False)]

    @dataclass
    class Closed(Message):
        """The user went back from the passage to the Sources list."""

    def action_close(self) -> None:
        """Back to the list of citations."""
        self.post_message(self.Closed())


class SidePanel(Vertical):
    """Tabs showing the evidence of the selected answer. In the Sources tab the list of
    citations takes the tab's height; Enter (or a click) opens one, Esc goes back."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.answer: Answer | None = None
        self._language = "en"
        self.built = False
        """Whether the hidden tabs' contents are mounted (just after the first paint)."""

    def compose(self) -> ComposeResult:
        with TabbedContent(id="panel-tabs"):
            with TabPane("Scenario", id="tab-scenario"):
                yield VerticalScroll(Static(id="scenario-body"))
            # Filled after the first paint (`_build_hidden_tabs`): not shown before it.
            yield TabPane("Calculations", id="tab-calculations")
            yield TabPane("Sources", id="tab-sources")

    def on_mount(self) -> None:
        self.relabel(str(getattr(self.app, "ui_language", "en")))
        self.call_after_refresh(self._build_hidden_tabs)

    async def _build_hidden_tabs(self) -> None:
        """Mount the Calculations and Sources tabs' contents, then show the answer in them."""
        await self.query_one("#tab-calculations", TabPane).mount(
            VerticalScroll(Static(id="calculations-body"))
        )
        await self.query_one("#tab-sources", TabPane).mount_all(
            [
                OptionList(id="sources-list"),
                Static(id="sources-hint"),
                SourceDetail(Static(id="source-body"), id="source-detail"),
            ]
        )
        self.built = True
        self._refresh_bodies()

    def focus_tabs(self) -> None:
        """Focus the tab row (when the panel opens full width)."""
        self.query_one(Tabs).focus()

    def show(self, answer: Answer | None) -> None:
        """Follow `answer` (None clears the panel)."""
        self.answer = answer
        self._refresh_bodies()

    def relabel(self, language: str) -> None:
        """Switch tab titles and labels to another interface language."""
        self._language = language
        tabs = self.query_one(TabbedContent)
        for pane_id, key in (
            ("tab-scenario", "tab.scenario"),
            ("tab-calculations", "tab.calculations"),
            ("tab-sources", "tab.sources"),
        ):
            tabs.get_tab(pane_id).label = t(key, language)
        self._refresh_bodies()

    def _refresh_bodies(self) -> None:
        language, answer = self._language, self.answer
        empty = Text.styled(t("panel.empty", language), "dim")
        scenario = self.query_one("#scenario-body", Static)
        if answer is None:
            scenario.update(empty)
            scenario.tooltip = None
        else:
            scenario.update(scenario_renderable(answer, language))
            scenario.tooltip = scenario_tooltip(answer, language)
        if not self.built:
            return  # `_build_hidden_tabs` fills the other tabs
        calculations = self.query_one("#calculations-body", Static)
        calculations.update(empty if answer is None else calculations_renderable(answer, language))
        self._refresh_sources()

    def _refresh_sources(self) -> None:
        language, answer = self._language, self.answer
        options = self.query_one("#sources-list", OptionList)
        options.clear_options()
        self.query_one("#tab-sources").remove_class("-reading")
        citations = answer.citations if answer is not None else ()
        for index, citation in enumerate(citations, start=1):
            options.add_option(Option(citation_label(index, citation), id=f"c{index}"))
        if citations:
            options.highlighted = 0  # Enter opens the first citation straight away
        key = "panel.empty" if answer is None else "panel.pick_source"
        key = "panel.no_sources" if answer is not None and not citations else key
        self.query_one("#sources-hint", Static).update(Text.styled(t(key, language), "dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open_citation(event.option_index)

    def on_source_detail_closed(self, message: SourceDetail.Closed) -> None:
        message.stop()
        self.query_one("#tab-sources").remove_class("-reading")
        self.query_one("#sources-list", OptionList).focus()

    def open_citation(self, index: int) -> None:
        """Show citation `index` (from 0) in full, in place of the list, and focus it."""
        if not self.built or self.answer is None or not 0 <= index < len(self.answer.citations):
            return
        detail = citation_detail(self.answer.citations[index], self._language)
        self.query_one("#source-body", Static).update(detail)
        self.query_one("#tab-sources").add_class("-reading")
        scroll = self.query_one(SourceDetail)
        scroll.scroll_home(animate=False)
        scroll.focus()
