"""The chat app from the keyboard, on fixed sample answers: the panel key (F5) at 80×24 and
140×45, Tab order, answers chosen with the arrows, citations opened with Enter, the palette
and the notice row (no pipeline: see test_chat.py for the real one)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.command import CommandPalette
from textual.widgets import OptionList, TabbedContent, Tabs

from assistant.tui.app import AssistantApp
from assistant.tui.i18n import t
from assistant.tui.widgets.prompt import Prompt
from assistant.tui.widgets.side_panel import SidePanel, SourceDetail
from assistant.tui.widgets.transcript import Transcript
from tests.tui.conftest import show_answers
from tests.tui.harness import assert_rows_fit, screen_text
from tests.tui.samples import english_answer, founding_answer

pytestmark = pytest.mark.asyncio
SMALL = (80, 24)
LARGE = (140, 45)

MakeApp = Callable[..., AssistantApp]


def in_prompt(app: AssistantApp) -> bool:
    focused = app.focused
    return focused is not None and app.chat.query_one(Prompt) in focused.ancestors_with_self


async def test_at_80_columns_f5_switches_between_the_chat_and_a_full_width_panel(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app()
    async with app.run_test(size=SMALL) as pilot:
        await show_answers(pilot, founding_answer())
        panel, transcript = app.chat.panel, app.chat.transcript
        assert not panel.display  # the chat takes the whole width
        assert transcript.size.width >= 76
        await pilot.press("f5")
        await pilot.pause()
        assert panel.display
        assert not app.chat.query_one("#chat-column").display
        assert panel.size.width == 80
        assert isinstance(app.focused, Tabs)  # the panel's tabs, ready for ←/→
        assert "A100-80GB" in screen_text(app)
        assert_rows_fit(app)
        await pilot.press("escape")  # Esc (or F5 again) goes back to the chat
        await pilot.pause()
        assert not panel.display
        assert in_prompt(app)


async def test_on_a_wide_screen_f5_hides_and_shows_the_panel_beside_the_chat(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app()
    async with app.run_test(size=LARGE) as pilot:
        await show_answers(pilot, founding_answer())
        panel = app.chat.panel
        assert panel.display
        assert app.chat.transcript.display
        beside = app.chat.transcript.size.width
        await pilot.press("f5")
        await pilot.pause()
        assert not panel.display
        assert app.chat.transcript.size.width > beside
        await pilot.press("f5")
        await pilot.pause()
        assert panel.display
        assert app.chat.transcript.size.width == beside


async def test_tab_goes_input_transcript_panel_with_one_stop_for_all_answers(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app()
    async with app.run_test(size=LARGE) as pilot:
        await show_answers(pilot, founding_answer(), english_answer(), founding_answer())
        assert in_prompt(app)
        await pilot.press("tab")
        assert isinstance(app.focused, Transcript)  # three answers, one stop
        await pilot.press("tab")
        assert isinstance(app.focused, Tabs)
        assert app.focused in app.chat.panel.query(Tabs)
        await pilot.press("shift+tab", "shift+tab")
        assert in_prompt(app)


async def test_arrows_in_the_transcript_choose_the_answer_the_panel_shows(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app(ui_language="en")
    async with app.run_test(size=LARGE) as pilot:
        await show_answers(pilot, english_answer(), founding_answer())
        panel = app.chat.panel
        assert panel.answer is not None
        assert panel.answer.language == "zh"  # the latest answer
        await pilot.press("tab", "up")
        await pilot.pause()
        assert panel.answer.language == "en"
        await pilot.press("down")
        await pilot.pause()
        assert panel.answer.language == "zh"


async def test_a_citation_opens_from_the_keyboard_at_80_columns(make_sample_app: MakeApp) -> None:
    app = make_sample_app()
    async with app.run_test(size=SMALL) as pilot:
        await show_answers(pilot, founding_answer())
        await pilot.press("f5", "right", "right")  # the panel, then its Sources tab
        await pilot.pause()
        assert app.chat.query_one(TabbedContent).active == "tab-sources"
        options = app.chat.query_one("#sources-list", OptionList)
        assert options.size.height >= 10  # all five two-line entries, not a small box
        await pilot.press("tab", "down", "enter")  # [1] is highlighted: [2]
        await pilot.pause()
        assert isinstance(app.focused, SourceDetail)
        text = screen_text(app)
        assert "guides/gpu-memory.zh.md" in text
        assert "混合精度 Adam 每个参数约 16 字节。" in text
        assert_rows_fit(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is options
        assert options.highlighted == 1
        assert "guides/gpu-memory.zh.md" not in screen_text(app)


async def test_the_chinese_palette_offers_only_the_apps_commands_in_chinese(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app()
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert isinstance(app.screen, CommandPalette)
        text = screen_text(app)
        assert t("palette.placeholder", "zh") in text
        assert "Search for commands" not in text
        assert "Screenshot" not in text
        assert "Theme" not in text
        assert t("cmd.new.title", "zh") in text
        await pilot.press(*"zzzq")
        await pilot.pause(0.8)  # Textual waits 0.5 s before saying that nothing matches
        text = screen_text(app)
        assert t("palette.no_match", "zh") in text
        assert "No matches found" not in text


async def test_palette_toggles_the_panel(make_sample_app: MakeApp) -> None:
    app = make_sample_app(ui_language="en")
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("ctrl+p", *"hide the panel")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert not app.chat.query_one(SidePanel).display


async def test_a_chinese_notice_keeps_every_character_over_the_panels_edge(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await show_answers(pilot, founding_answer())
        await pilot.press("f4")  # "已复制回答（N 个字符）", once cut where the panel begins
        await pilot.pause()
        note = t("note.copied", "zh", n=len(founding_answer().text))
        assert note in screen_text(app)
        assert [n.message for n in app.chat.notices.shown] == [note]
        assert_rows_fit(app)


async def test_narrowing_the_terminal_turns_the_panel_into_a_view_and_keeps_the_focus_visible(
    make_sample_app: MakeApp,
) -> None:
    app = make_sample_app()
    async with app.run_test(size=LARGE) as pilot:
        await show_answers(pilot, founding_answer())
        await pilot.press("tab", "tab")  # into the panel, beside the chat
        assert app.chat.panel in app.focused.ancestors  # type: ignore[union-attr]
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert not app.chat.panel.display  # narrow: the chat first
        assert in_prompt(app)  # not a hidden widget
        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        assert app.chat.panel.display  # wide again: beside the chat, as before
