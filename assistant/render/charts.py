"""Text charts of an answer's computed figures: memory per GPU, time (or throughput) against
GPU count, and options side by side.

Drawn with Rich `Text` and block characters, so nothing is added to the install. Every bar
length comes from a figure the calculators produced (a check's figures, the answer's
`Scaling` series, an option's key figures); this module only scales them to the width. Segments
differ by pattern as well as colour, and markers are characters (┃ ▶), so the charts read the
same with NO_COLOR. Labels come from the message catalog (`chart.*`); numbers from
`assistant.i18n.numbers`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from assistant.i18n import numbers, t
from assistant.sanitize import one_line

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

    from assistant.records import Answer, Check, Language, Option, Scaling

__all__ = [
    "MEMORY_PARTS",
    "Chart",
    "answer_charts",
    "charts_markdown",
    "memory_chart",
    "options_chart",
    "scaling_chart",
]

#: Memory components in stacking order: (figure key, catalog word, pattern, colour).
MEMORY_PARTS: tuple[tuple[str, str, str, str], ...] = (
    ("weights_bytes", "chart.memory.weights", "█", "blue"),
    ("gradients_bytes", "chart.memory.gradients", "▓", "magenta"),
    ("optimizer_bytes", "chart.memory.optimizer", "▒", "yellow"),
    ("activations_bytes", "chart.memory.activations", "░", "green"),
    ("kv_cache_bytes_per_gpu", "chart.memory.kv_cache", "▚", "cyan"),
    ("overhead_bytes", "chart.memory.overhead", "·", "white"),
)
MARKER = "┃"
BAR = "█"
#: Columns kept for labels and values beside a bar; the bar gets the rest (at least MIN_BAR).
MIN_BAR = 10
MAX_BAR = 48

Lines = list[Text]


@dataclass(frozen=True)
class Chart:
    """A chart drawn at the width it is given (the panel's, or a fixed one for exports)."""

    draw: Callable[[int], Lines]

    def lines(self, width: int) -> Lines:
        """The chart's rows at `width` cells."""
        return self.draw(width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.draw(options.max_width)


def _num(value: object) -> float:
    """A figure as a float (0 for a missing or non-numeric one)."""
    return float(value) if isinstance(value, (int, float)) else 0.0


def cells(value: float, top: float, width: int) -> int:
    """How many of `width` cells `value` fills when `top` fills them all (rounded).

    Examples:
        >>> cells(50, 100, 40), cells(0, 100, 40), cells(100, 0, 40)
        (20, 0, 0)
    """
    if top <= 0 or value <= 0:
        return 0
    return round(value / top * width)


def _pad(text: Text, width: int) -> Text:
    """`text` padded with spaces to `width` cells (CJK characters count two)."""
    return text + Text(" " * max(0, width - cell_len(text.plain)))


def _marked(bar: Text, column: int | None, width: int) -> Text:
    """`bar` padded to `width` + 1 cells, with the marker put at `column` (over the bar when
    the bar passes it). Bar characters are one cell wide, so characters are cells here."""
    out = _pad(bar, width + 1)
    if column is None or not 0 <= column <= width:
        return out
    marked = out[:column]
    marked.append(MARKER, "bold red")
    return marked + out[column + 1 :]


def memory_parts(check: Check) -> list[tuple[str, str, str, float]]:
    """The nonzero components of a memory check: (catalog word, pattern, colour, bytes)."""
    figures = check.figures
    out = []
    for key, word, pattern, colour in MEMORY_PARTS:
        value = _num(figures.get(key) or 0.0)
        if key == "kv_cache_bytes_per_gpu" and key not in figures:
            value = _num(figures.get("kv_cache_bytes") or 0.0)  # training: per GPU already
        if value > 0:
            out.append((word, pattern, colour, value))
    return out


def _stacked(parts: Sequence[tuple[str, str, str, float]], top: float, width: int) -> Text:
    """One bar of the parts end to end; cumulative rounding keeps the total proportional."""
    bar, total, drawn = Text(), 0.0, 0
    for _, pattern, colour, value in parts:
        total += value
        end = cells(total, top, width)
        bar.append(pattern * (end - drawn), colour)
        drawn = end
    return bar


def memory_chart(check: Check, language: Language, gpu: str) -> Chart | None:
    """The stacked bar of memory per GPU against the usable memory (marker ┃)."""
    parts = memory_parts(check)
    usable = _num(check.figures.get("available_bytes_per_gpu") or 0.0)
    needed = _num(check.figures.get("required_bytes_per_gpu") or 0.0)
    if not parts or usable <= 0:
        return None

    def draw(width: int) -> Lines:
        bar_width = max(MIN_BAR, min(MAX_BAR, width - 2))
        top = max(sum(p[3] for p in parts), usable, needed)
        bar = _stacked(parts, top, bar_width)
        lines = [Text(t("chart.memory.title", language, gpu=gpu), "bold")]
        marked = _marked(bar, cells(usable, top, bar_width), bar_width)
        marked.no_wrap = True
        lines.append(marked)
        summary = t(
            "chart.memory.summary", language, needed=needed, usable=usable, share=needed / usable
        )
        lines.append(Text(summary, "bold red" if needed > usable else ""))
        lines.append(Text(t("chart.memory.marker", language), "dim"))
        for word, pattern, colour, value in parts:
            entry = Text(pattern * 2, colour)
            entry.append(f" {t(word, language)}  {numbers.bytes_text(value)}")
            lines.append(entry)
        return lines

    return Chart(draw)


def _value_text(*, metric: str, value: float, language: Language) -> str:
    if metric == "seconds":
        return numbers.duration_text(value, language)
    return t("chart.scale.rate", language, rate=value)


def _rows(labels: Sequence[Text], bars: Sequence[Text], notes: Sequence[Text]) -> Lines:
    """Label column, bar, note: labels padded to the widest (cell widths, CJK-safe)."""
    label_width = max(cell_len(label.plain) for label in labels)
    rows = []
    for label, bar, note in zip(labels, bars, notes, strict=True):
        row = _pad(label, label_width) + Text(" ") + bar + Text(" ") + note
        row.no_wrap, row.overflow = True, "ellipsis"  # a wrapped row would break the columns
        rows.append(row)
    return rows


def _bar_width(width: int, labels: Iterable[Text], notes: Iterable[Text]) -> int:
    used = max(cell_len(x.plain) for x in labels) + max(cell_len(x.plain) for x in notes) + 2
    return max(MIN_BAR, min(MAX_BAR, width - used - 1))


def _point_rows(scaling: Scaling, language: Language, compact: bool) -> tuple[Lines, Lines]:
    """Labels ("▶ 8 GPUs" for the user's count) and notes: the value, or "✗ memory does not
    fit", and "◀ your setup" on the user's row; `compact` (a narrow panel) keeps only the ✗
    and leaves the user's row to its ▶."""
    labels, notes = [], []
    for point in scaling.points:
        mine = point.gpu_count == scaling.gpu_count
        label = Text("▶ " if mine else "  ", "bold")
        label.append(t("chart.scale.gpus", language, count=point.gpu_count))
        labels.append(label)
        if point.value is None:
            no_fit = t("chart.scale.no_fit", language)
            note = Text(no_fit.split()[0] if compact else no_fit, "red")
        else:
            note = Text(_value_text(metric=scaling.metric, value=point.value, language=language))
        if mine and not compact:
            note.append(" " + t("chart.scale.you", language), "bold")
        notes.append(note)
    return labels, notes


def _scale_notes(scaling: Scaling, language: Language, compact: bool) -> Lines:
    """The lines under the bars: what ✗ (when compact) and ┃ stand for, the layout kept, an
    assumed link."""
    lines = []
    if compact and any(p.value is None for p in scaling.points):
        lines.append(Text(t("chart.scale.no_fit", language), "dim"))
    if scaling.metric == "seconds" and scaling.deadline_seconds:
        deadline = scaling.deadline_seconds
        lines.append(Text(t("chart.scale.deadline", language, deadline=deadline), "dim"))
    if scaling.metric == "tokens_per_second" and scaling.target_tokens_per_second:
        rate = scaling.target_tokens_per_second
        lines.append(Text(t("chart.scale.target", language, rate=rate), "dim"))
    lines.append(Text(t("chart.scale.layout", language), "dim"))
    if scaling.assumed_inter_link:
        link = scaling.assumed_inter_link
        lines.append(Text(t("chart.scale.link", language, link=link), "dim"))
    return lines


def scaling_chart(scaling: Scaling, language: Language, gpu: str) -> Chart:
    """One bar per GPU count: the user's row marked ▶ (and "◀ your setup" where it fits), the
    deadline (or the throughput target) as a ┃ column, counts where memory does not fit ✗."""
    seconds = scaling.metric == "seconds"
    limit = scaling.deadline_seconds if seconds else scaling.target_tokens_per_second
    top = max([*(p.value for p in scaling.points if p.value is not None), limit or 0.0])
    title = "chart.scale.title_seconds" if seconds else "chart.scale.title_rate"

    def draw(width: int) -> Lines:
        labels, notes = _point_rows(scaling, language, compact=False)
        compact = _bar_width(width, labels, notes) == MIN_BAR  # a narrow panel
        if compact:
            labels, notes = _point_rows(scaling, language, compact=True)
        bar_width = _bar_width(width, labels, notes)
        column = cells(limit, top, bar_width) if limit else None
        bars = [
            _marked(Text(BAR * cells(p.value or 0.0, top, bar_width), "cyan"), column, bar_width)
            for p in scaling.points
        ]
        head = Text(t(title, language, gpu=gpu), "bold")
        return [head, *_rows(labels, bars, notes), *_scale_notes(scaling, language, compact)]

    return Chart(draw)


def _option_name(option: Option, language: Language) -> Text:
    s = option.scenario
    return Text(t("common.gpus", language, count=s.gpu_count or 1, gpu=one_line(s.gpu or "GPU")))


def _section(
    options: Sequence[Option],
    key: str,
    shown: Callable[[float], str],
    language: Language,
    marker_at: float | None = None,
) -> Callable[[int], Lines]:
    win = {"seconds": "speed", "tokens_per_second": "speed", "memory_share": "memory"}
    win_word = win.get(key, key)
    present = [o for o in options if isinstance(o.figures.get(key), (int, float))]
    top = max([_num(o.figures[key]) for o in present] + [marker_at or 0.0])

    def draw(width: int) -> Lines:
        labels = [Text("  ") + _option_name(o, language) for o in present]
        notes = [Text(shown(_num(o.figures[key]))) for o in present]
        for option, note in zip(present, notes, strict=True):
            if win_word in option.wins:
                note.append(" " + t("chart.options.best", language), "bold green")
        bar_width = _bar_width(width, labels, notes)
        column = cells(marker_at, top, bar_width) if marker_at else None
        bars = [
            _marked(
                Text(BAR * cells(_num(o.figures[key]), top, bar_width), "cyan"), column, bar_width
            )
            for o in present
        ]
        return _rows(labels, bars, notes)

    return draw


def options_chart(options: Sequence[Option], language: Language) -> Chart | None:
    """Side-by-side bars of each option's time (or throughput), memory share and cost."""
    if len(options) < 2:
        return None
    sections: list[tuple[str, Callable[[int], Lines]]] = []
    if any("seconds" in o.figures for o in options):
        duration = _section(
            options, "seconds", lambda v: numbers.duration_text(v, language), language
        )
        sections.append(("chart.options.seconds", duration))
    if any("tokens_per_second" in o.figures for o in options):
        rate = _section(
            options,
            "tokens_per_second",
            lambda v: t("chart.scale.rate", language, rate=v),
            language,
        )
        sections.append(("chart.options.rate", rate))
    share = _section(options, "memory_share", numbers.percent_text, language, marker_at=1.0)
    sections.append(("chart.options.memory", share))
    if any("cost" in o.figures for o in options):
        currency = one_line(options[0].scenario.currency or "")
        cost = _section(
            options, "cost", lambda v: f"{numbers.number_text(v)} {currency}".strip(), language
        )
        sections.append(("chart.options.cost", cost))

    def draw(width: int) -> Lines:
        lines = [Text(t("chart.options.title", language), "bold")]
        for key, section in sections:
            lines.append(Text(t(key, language), "underline"))
            lines += section(width)
        lines.append(Text(t("chart.options.marker", language), "dim"))
        return lines

    return Chart(draw)


def answer_charts(answer: Answer, language: Language | None = None) -> list[Chart]:
    """Every chart the answer's figures support, in reading order, labelled in `language`
    (the answer's by default; the side panel passes the interface language)."""
    language = language or answer.language
    gpu = one_line((answer.scenario or answer.query.scenario).gpu or "GPU")
    charts: list[Chart | None] = [options_chart(answer.options, language)]
    memory = next((c for c in answer.checks if c.kind == "memory"), None)
    if memory is not None:
        charts.append(memory_chart(memory, language, gpu))
    if answer.scaling is not None:
        charts.append(scaling_chart(answer.scaling, language, gpu))
    return [c for c in charts if c is not None]


def charts_markdown(answer: Answer, width: int = 72) -> str:
    """The answer's charts as plain text in a fenced block ("" when it has none); text lines
    are wrapped at `width` cells, bar rows never are."""
    import io

    from rich.console import Console

    charts = answer_charts(answer)
    if not charts:
        return ""
    blocks = []
    for chart in charts:
        console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
        console.print(chart)
        lines = console.export_text(styles=False).splitlines()
        blocks.append("\n".join(line.rstrip() for line in lines))
    return "```text\n" + "\n\n".join(blocks) + "\n```"
