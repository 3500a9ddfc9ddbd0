"""The text charts: bar lengths follow the figures, markers sit where the figures put them, and
the charts read without colour in both languages."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from rich.console import Console

from assistant.i18n import numbers, t
from assistant.records import Check, ScalePoint, Scaling
from assistant.render.charts import (
    BAR,
    MARKER,
    MAX_BAR,
    MEMORY_PARTS,
    answer_charts,
    charts_markdown,
    memory_chart,
    options_chart,
    scaling_chart,
)
from tests.tui.chart_samples import (
    TRAINING_MEMORY,
    TRAINING_SCALING,
    comparison_answer,
    serving_check,
    training_answer,
)

WIDTH = 72


def _plain(chart: object, width: int = WIDTH) -> list[str]:
    return [line.plain for line in chart.lines(width)]  # type: ignore[attr-defined]


def _memory_bar(check: Check, width: int = WIDTH) -> str:
    chart = memory_chart(check, "en", "H100")
    assert chart is not None
    return _plain(chart, width)[1]


def test_memory_segments_are_proportional_to_the_breakdown() -> None:
    check = Check(kind="memory", verdict="ok", summary="", figures=TRAINING_MEMORY)
    bar = _memory_bar(check)
    bar_width = min(MAX_BAR, WIDTH - 2)
    top = TRAINING_MEMORY["available_bytes_per_gpu"]  # usable is more than needed here
    for key, _, pattern, _ in MEMORY_PARTS[:4]:
        expected = TRAINING_MEMORY[key] / top * bar_width
        assert abs(bar.count(pattern) - expected) <= 1, (key, bar)
    needed = sum(bar.count(p) for _, _, p, _ in MEMORY_PARTS)
    assert needed == round(TRAINING_MEMORY["required_bytes_per_gpu"] / top * bar_width)


def test_the_usable_memory_marker_sits_at_usable_over_the_largest() -> None:
    figures = {**TRAINING_MEMORY, "available_bytes_per_gpu": 29e9}  # needed 58 GB > usable
    bar = _memory_bar(Check(kind="memory", verdict="fail", summary="", figures=figures))
    bar_width = min(MAX_BAR, WIDTH - 2)
    top = TRAINING_MEMORY["required_bytes_per_gpu"]
    assert bar.index(MARKER) == round(29e9 / top * bar_width)
    assert bar.rstrip()[-1] != MARKER  # the bar runs past the marker: it does not fit


def test_each_nonzero_part_has_its_own_pattern_and_a_legend_line() -> None:
    chart = memory_chart(serving_check(), "zh", "H100")
    assert chart is not None
    lines = _plain(chart)
    assert "▚" in lines[1]  # the KV cache, per GPU (not the deployment total)
    legend = lines[4:]
    assert [line[:2] for line in legend] == ["██", "▚▚", "··"]
    assert legend[1].endswith(numbers.bytes_text(5368709120.0))
    assert t("chart.memory.kv_cache", "zh") in legend[1]
    assert not any(t("chart.memory.gradients", "zh") in line for line in lines)  # zero: left out


def _rows(scaling: Scaling, language: str = "en") -> list[str]:
    lines = _plain(scaling_chart(scaling, language, "H100"))  # type: ignore[arg-type]
    return lines[1 : 1 + len(scaling.points)]


def test_duration_bars_are_proportional_to_the_series() -> None:
    rows = _rows(replace(TRAINING_SCALING, deadline_seconds=None))
    lengths = [row.count(BAR) for row in rows]
    values = [p.value for p in TRAINING_SCALING.points]
    top = max(v for v in values if v is not None)
    full = max(lengths)  # the longest time fills the bar
    for length, value, row in zip(lengths, values, rows, strict=True):
        if value is None:
            assert length == 0
            assert t("chart.scale.no_fit", "en") in row
        else:
            assert abs(length - value / top * full) <= 1, row
            assert numbers.duration_text(value, "en") in row


def test_the_users_point_and_the_deadline_are_marked() -> None:
    rows = _rows(TRAINING_SCALING)
    mine = [row for row in rows if row.startswith("▶")]
    assert len(mine) == 1
    assert "8 GPUs" in mine[0]
    assert t("chart.scale.you", "en") in mine[0]
    full = max(row.count(BAR) for row in _rows(replace(TRAINING_SCALING, deadline_seconds=None)))
    start = rows[1].index(BAR)  # 4 GPUs: fits, and the longest
    deadline = TRAINING_SCALING.deadline_seconds or 0.0
    top = max(p.value or 0.0 for p in TRAINING_SCALING.points)
    assert {row.index(MARKER) for row in rows} == {start + round(deadline / top * full)}
    lines = _plain(scaling_chart(TRAINING_SCALING, "en", "H100"))
    assert t("chart.scale.deadline", "en", deadline=deadline) in lines


def test_without_a_deadline_nothing_is_marked() -> None:
    assert not any(MARKER in row for row in _rows(replace(TRAINING_SCALING, deadline_seconds=None)))


def test_options_side_by_side_with_the_winner_starred() -> None:
    chart = options_chart(comparison_answer("en").options, "en")
    assert chart is not None
    lines = _plain(chart)
    a100, h100 = (line for line in lines if "SXM" in line and ("h" in line or "min" in line))
    assert a100.count(BAR) > 2.5 * h100.count(BAR)  # 2.5 h against 49 min
    assert t("chart.options.best", "en") in h100
    assert t("chart.options.best", "en") not in a100
    shares = [line for line in lines if "%" in line and "SXM" in line]
    assert {line.index(MARKER) for line in shares} == {shares[0].index(MARKER)}


def test_a_single_option_gets_no_comparison_chart() -> None:
    assert options_chart(comparison_answer().options[:1], "zh") is None


@pytest.mark.parametrize("language", ["zh", "en"])
def test_no_color_output_still_tells_the_parts_apart(language: str) -> None:
    out = io.StringIO()
    console = Console(file=out, width=60, no_color=True, force_terminal=True, color_system=None)
    console.print(*answer_charts(training_answer(language)))  # type: ignore[arg-type]
    text = out.getvalue()
    assert "\x1b[3" not in text  # no foreground colour at all
    for _, word, pattern, _ in MEMORY_PARTS[:4]:
        assert f"{pattern * 2} {t(word, language)}" in text  # pattern and word in the legend
    assert "▶" in text
    assert MARKER in text


def test_chinese_rows_line_up_by_cell_width() -> None:
    from rich.cells import cell_len

    rows = _rows(TRAINING_SCALING, "zh")
    starts = {cell_len(row[: row.index(BAR)]) for row in rows if BAR in row}
    assert len(starts) == 1


def test_markdown_export_fences_the_charts_as_plain_text() -> None:
    text = charts_markdown(training_answer("en"))
    assert text.startswith("```text\n")
    assert text.endswith("\n```")
    assert "\x1b" not in text
    assert t("chart.memory.title", "en", gpu="H100 SXM 80GB") in text
    assert all(len(line) <= WIDTH for line in text.splitlines())
    assert "Each count keeps the answer's layout" in text.replace("\n", " ")  # wrapped, not cut


def test_an_answer_without_figures_has_no_charts() -> None:
    answer = training_answer()
    bare = replace(answer, checks=(), scaling=None)
    assert answer_charts(bare) == []
    assert charts_markdown(bare) == ""


def test_a_throughput_target_is_the_marked_column() -> None:
    serving = Scaling(
        metric="tokens_per_second",
        points=(
            ScalePoint(gpu_count=4, value=2114.0, memory_fits=True),
            ScalePoint(gpu_count=8, value=2743.0, memory_fits=True),
        ),
        gpu_count=4,
        target_tokens_per_second=1000.0,
    )
    lines = _plain(scaling_chart(serving, "zh", "A100"))
    rows = lines[1:3]
    full = max(row.count(BAR) for row in rows) + 1  # the marker sits inside both bars
    start = rows[0].index(BAR)
    assert {row.index(MARKER) for row in rows} == {start + round(1000 / 2743 * full)}
    assert t("chart.scale.target", "zh", rate=1000.0) in lines
    assert t("chart.scale.rate", "zh", rate=2743.0) in rows[1]
    assert t("chart.scale.title_rate", "zh", gpu="A100") == lines[0]


def test_a_narrow_chart_keeps_the_users_mark_and_drops_the_words() -> None:
    wide = _rows(TRAINING_SCALING)
    narrow = [line.plain for line in scaling_chart(TRAINING_SCALING, "en", "H100").lines(30)]
    assert t("chart.scale.you", "en") in "\n".join(wide)
    assert t("chart.scale.you", "en") not in "\n".join(narrow)
    assert sum(row.startswith("▶ 8 GPUs") for row in narrow) == 1
    assert any(row.startswith("  2 GPUs") and row.rstrip().endswith("✗") for row in narrow)
    assert t("chart.scale.no_fit", "en") in narrow  # said once, under the bars
