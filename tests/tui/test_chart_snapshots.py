"""The charts in the Calculations tab: Pilot tests find them, snapshots show them in Chinese and
English, from fixed sample answers (tests/tui/chart_samples.py)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import TabbedContent

from assistant.i18n import numbers, t
from assistant.records import Answer
from assistant.tui.i18n import t as tui_t
from assistant.tui.widgets.side_panel import SidePanel
from tests.tui.chart_samples import comparison_answer, training_answer
from tests.tui.harness import Harness, assert_rows_fit, panels_built, screen_lines, screen_text

SIZE = (100, 40)


def _panel_app(answer: Answer, language: str, width: int | None = None) -> Harness:
    panel = SidePanel(id="side-panel")
    if width is not None:
        panel.styles.width = width  # the panel's share of a narrow terminal (80×24: ~35)
    return Harness(panel, language=language)


async def _open_calculations(pilot: Pilot[Any], answer: Answer) -> None:
    await panels_built(pilot)
    pilot.app.query_one(SidePanel).show(answer)
    pilot.app.query_one(TabbedContent).active = "tab-calculations"
    await pilot.pause()


@pytest.mark.asyncio
@pytest.mark.parametrize("language", ["zh", "en"])
async def test_the_calculations_tab_shows_the_charts(language: str) -> None:
    answer = training_answer(language)  # type: ignore[arg-type]
    app = _panel_app(answer, language)
    async with app.run_test(size=SIZE) as pilot:
        await _open_calculations(pilot, answer)
        text = screen_text(app)
        lang: Any = language
        assert t("chart.memory.title", lang, gpu="H100 SXM 80GB") in text
        assert t("chart.scale.title_seconds", lang, gpu="H100 SXM 80GB") in text
        assert t("chart.scale.you", lang) in text
        assert "┃" in text
        assert "▓▓" in text  # the gradients' pattern in the legend
        assert_rows_fit(app)


@pytest.mark.asyncio
async def test_a_narrow_panel_keeps_every_bar_row_inside_it() -> None:
    answer = training_answer("zh")
    app = _panel_app(answer, "zh", width=36)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_calculations(pilot, answer)
        lines = screen_lines(app)
        rows = [line for line in lines if "张" in line and "█" in line]
        assert rows
        assert all(line[36:].strip() == "" for line in lines)  # nothing drawn past the panel
        assert any("┃" in row for row in rows)  # the deadline column is still there


@pytest.mark.asyncio
async def test_charts_follow_the_interface_language() -> None:
    answer = training_answer("zh")
    app = _panel_app(answer, "en")
    async with app.run_test(size=SIZE) as pilot:
        await _open_calculations(pilot, answer)
        assert t("chart.memory.title", "en", gpu="H100 SXM 80GB") in screen_text(app)
        app.query_one(SidePanel).relabel("zh")
        await pilot.pause()
        assert t("chart.memory.title", "zh", gpu="H100 SXM 80GB") in screen_text(app)


@pytest.mark.asyncio
async def test_a_comparison_shows_its_options_side_by_side() -> None:
    answer = comparison_answer("zh")
    app = _panel_app(answer, "zh")
    async with app.run_test(size=SIZE) as pilot:
        await _open_calculations(pilot, answer)
        text = screen_text(app)
        assert t("chart.options.title", "zh") in text
        assert "8 张 A100 SXM 80GB" in text
        assert "8 张 H100 SXM 80GB" in text
        assert t("chart.options.best", "zh") in text
        assert tui_t("panel.no_checks", "zh") not in text


@pytest.mark.asyncio
@pytest.mark.e2e
async def test_the_real_app_charts_an_answer_and_exports_the_charts(make_test_app: Any) -> None:
    """Ask through the real pipeline, open the Calculations tab: the charts of that answer's
    own figures are there; Ctrl+S writes them into the export as a fenced text block."""
    from assistant.tui.widgets.transcript import AnswerBubble
    from tests.tui.conftest import ask_and_wait

    question = "用8张H100训练7B模型, 1T token, 30天内能完成吗?"  # Pilot types ASCII punctuation
    app = make_test_app()
    async with app.run_test(size=(120, 64)) as pilot:
        await ask_and_wait(pilot, question)
        answer = app.screen.query(AnswerBubble).last().answer
        assert answer.scaling is not None
        app.screen.query_one(TabbedContent).active = "tab-calculations"
        await pilot.pause()
        text = screen_text(app)
        gpu = answer.scenario.gpu if answer.scenario else ""
        assert t("chart.memory.title", "zh", gpu=gpu) in text
        assert t("chart.scale.title_seconds", "zh", gpu=gpu) in text
        assert t("chart.scale.deadline", "zh", deadline=30 * 86400) in text
        mine = next(p for p in answer.scaling.points if p.gpu_count == answer.scaling.gpu_count)
        assert mine.value is not None
        assert numbers.duration_text(mine.value, "zh") in text
        await pilot.press("ctrl+s")
        await pilot.pause()
        exported = next((app.settings.home / "exports").glob("*.md")).read_text(encoding="utf-8")
        assert "```text\n" + t("chart.memory.title", "zh", gpu=gpu) in exported
        assert "\x1b" not in exported


def _run_before(answer: Answer) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _open_calculations(pilot, answer)
        await pilot.pause()

    return run_before


class TestChartSnapshots:
    @pytest.mark.parametrize("language", ["zh", "en"])
    def test_training_charts(self, language: str, snap_compare: Any) -> None:
        answer = training_answer(language)  # type: ignore[arg-type]
        app = _panel_app(answer, language)
        assert snap_compare(app, run_before=_run_before(answer), terminal_size=SIZE)

    @pytest.mark.parametrize("language", ["zh", "en"])
    def test_comparison_charts(self, language: str, snap_compare: Any) -> None:
        answer = comparison_answer(language)  # type: ignore[arg-type]
        app = _panel_app(answer, language)
        assert snap_compare(app, run_before=_run_before(answer), terminal_size=SIZE)

    def test_narrow_panel_in_chinese(self, snap_compare: Any) -> None:
        answer = training_answer("zh")
        app = _panel_app(answer, "zh", width=36)
        run_before = _run_before(answer)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def test_the_answer_export_carries_the_charts() -> None:
    from assistant.tui.export import answers_markdown

    text = answers_markdown([training_answer("en"), comparison_answer("en")], "GPU Advisor")
    first, second = text.split("## 8x A100 or 8x H100?")
    assert "```text\n" + t("chart.memory.title", "en", gpu="H100 SXM 80GB") in first
    assert t("chart.scale.you", "en") in first
    assert "```text\n" + t("chart.options.title", "en") in second
