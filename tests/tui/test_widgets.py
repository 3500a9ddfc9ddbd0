"""Widgets on their own, fed Answers built from the records (no pipeline needed)."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, TabbedContent

from assistant import render
from assistant.tui.messages import AnswerSelected
from assistant.tui.widgets.answer_view import VerdictBadge
from assistant.tui.widgets.notices import Notice, NoticeBar
from assistant.tui.widgets.side_panel import SidePanel
from assistant.tui.widgets.transcript import AnswerBubble, Transcript
from tests.tui.harness import Harness, assert_rows_fit, panels_built, screen_text
from tests.tui.samples import HOSTILE, sample_answer

SIZE = (100, 32)
pytestmark = pytest.mark.asyncio


async def test_question_and_answer_are_shown_literally() -> None:
    transcript = Transcript()
    app = Harness(transcript)
    async with app.run_test(size=SIZE) as pilot:
        transcript.add_question(HOSTILE, "12:00")
        transcript.add_answer(sample_answer(text=f"答:{HOSTILE}"), "12:00")
        await pilot.pause()
        text = screen_text(app)
        assert text.count("[bold red]不是标记[/bold red]") == 2
        assert text.count("␛[31m红色␛[0m") == 2
        assert "\x1b" not in text
        assert "[link=http://x]" in text
        assert_rows_fit(app)


@pytest.mark.parametrize(
    ("verdict", "label"),
    [
        ("feasible", "可行"),
        ("conditional", "有条件可行"),
        ("infeasible", "不可行"),
        ("unknown", "估算"),  # figures computed (one check), no verdict: an estimate
    ],
)
async def test_each_verdict_has_its_own_class_and_label(verdict: str, label: str) -> None:
    transcript = Transcript()
    app = Harness(transcript)
    async with app.run_test(size=SIZE) as pilot:
        bubble = transcript.add_answer(sample_answer(verdict=verdict), "12:00")
        await pilot.pause()
        assert bubble.has_class(f"-{verdict}")
        badge = bubble.query_one(VerdictBadge)
        assert badge.has_class(f"-{verdict}")
        assert f" {label} " in screen_text(app)
        others = {"feasible", "conditional", "infeasible", "unknown"} - {verdict}
        assert not any(bubble.has_class(f"-{o}") for o in others)


async def test_selecting_an_answer_posts_it() -> None:
    transcript = Transcript()
    app = Harness(transcript)
    first, second = sample_answer(question="第一个"), sample_answer(question="第二个")
    async with app.run_test(size=SIZE) as pilot:
        transcript.add_answer(first, "12:00")
        transcript.add_answer(second, "12:01")
        await pilot.pause()
        bubbles = list(app.query(AnswerBubble))
        assert not any(bubble.can_focus for bubble in bubbles)  # one stop: the transcript
        assert transcript.selected is bubbles[1]  # the latest answer
        transcript.focus()
        await pilot.press("up")
        await pilot.pause()
        await pilot.press("up")  # past the first answer: stays there
        await pilot.press("down")
        await pilot.pause()
        selected = [m.answer.question for m in app.recorded(AnswerSelected)]
        assert selected == ["第一个", "第二个"]
        assert bubbles[1].has_class("-selected")
        assert not bubbles[0].has_class("-selected")


async def test_side_panel_shows_scenario_calculations_and_sources() -> None:
    panel = SidePanel()
    app = Harness(panel)
    answer = sample_answer(changed=("gpu",))
    async with app.run_test(size=SIZE) as pilot:
        panel.show(answer)
        await pilot.pause()
        text = screen_text(app)
        assert "A100-80GB" in text
        assert render.fmt_count(1e11, "zh") in text  # params, formatted by render
        assert "Chinchilla" in text
        tabs = app.query_one(TabbedContent)
        tabs.active = "tab-calculations"
        await pilot.pause()
        text = screen_text(app)
        assert render.fmt_bytes(2.0e11) in text
        assert "16 B × params" in text
        assert "✘ 不满足" in text  # the verdict in the interface language
        assert "FAIL" not in text
        tabs.active = "tab-sources"
        await panels_built(pilot)
        await pilot.pause()
        options = app.query_one("#sources-list", OptionList)
        assert options.option_count == 1
        options.highlighted = 0
        options.focus()
        await pilot.press("enter")  # a citation opens from the keyboard
        await pilot.pause()
        text = screen_text(app)
        assert "guides/zero-fsdp.zh.md" in text
        assert "切分到所有 GPU 上" in text
        assert_rows_fit(app)
        await pilot.press("escape")  # back to the list, which has the focus again
        await pilot.pause()
        assert "guides/zero-fsdp.zh.md" not in screen_text(app)
        assert app.focused is options


async def test_side_panel_shows_a_hostile_passage_literally() -> None:
    panel = SidePanel()
    app = Harness(panel)
    async with app.run_test(size=SIZE) as pilot:
        panel.show(sample_answer(passage_text=HOSTILE))
        await pilot.pause()
        app.query_one(TabbedContent).active = "tab-sources"
        await pilot.pause()
        panel.open_citation(0)
        await pilot.pause()
        text = screen_text(app)
        assert "[bold red]不是标记[/bold red]" in text
        assert "\x1b" not in text


async def test_side_panel_labels_follow_the_interface_language() -> None:
    panel = SidePanel()
    app = Harness(panel, language="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Calculations" in screen_text(app)
        panel.relabel("zh")
        await pilot.pause()
        text = screen_text(app)
        assert "计算" in text
        assert "Calculations" not in text


async def test_notices_show_markup_and_escapes_literally_and_expire() -> None:
    bar = NoticeBar()
    app = Harness(bar)
    async with app.run_test(size=SIZE) as pilot:
        assert not bar.display  # nothing to say: no row taken
        bar.add(Notice(HOSTILE, title="导出失败", severity="error"), timeout=0.2)
        await pilot.pause()
        text = screen_text(app)
        assert "[bold red]不是标记[/bold red]" in text  # a file name's brackets stay text
        assert "\x1b" not in text
        assert "导出失败" in text
        await pilot.pause(0.4)
        assert not bar.display
