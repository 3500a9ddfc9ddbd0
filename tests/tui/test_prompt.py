"""The question input: sending, recall, multi-line mode and the IME cursor position."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.geometry import Offset

from assistant.tui.widgets.prompt import Prompt
from tests.tui.harness import Harness

pytestmark = pytest.mark.asyncio
SIZE = (80, 12)


def sent(app: Harness) -> list[str]:
    return [m.text for m in app.recorded(Prompt.Submitted)]


async def test_enter_sends_stripped_text_and_ignores_blank() -> None:
    prompt = Prompt()
    app = Harness(prompt)
    async with app.run_test(size=SIZE) as pilot:
        prompt.focus_editor()
        await pilot.press("space", "space", "enter")
        await pilot.press(*"  8x H100  ", "enter")
        await pilot.pause()
        assert sent(app) == ["8x H100"]
        assert prompt.input.value == ""


async def test_up_and_down_recall_earlier_questions_and_the_draft() -> None:
    prompt = Prompt()
    app = Harness(prompt)
    async with app.run_test(size=SIZE) as pilot:
        prompt.focus_editor()
        for question in ("吉林", "H100"):
            prompt.input.value = question
            await pilot.press("enter")
        await pilot.press(*"dra")
        await pilot.press("up")
        assert prompt.input.value == "H100"
        await pilot.press("up", "up")
        assert prompt.input.value == "吉林"  # stops at the oldest
        await pilot.press("down")
        assert prompt.input.value == "H100"
        await pilot.press("down")
        assert prompt.input.value == "dra"


async def test_multiline_mode_keeps_newlines_and_sends_with_ctrl_j() -> None:
    prompt = Prompt()
    app = Harness(prompt)
    async with app.run_test(size=SIZE) as pilot:
        prompt.focus_editor()
        await pilot.press("a", "ctrl+t")
        assert prompt.multiline
        assert app.focused is prompt.area
        await pilot.press("enter", "b", "ctrl+j")
        await pilot.pause()
        assert sent(app) == ["a\nb"]
        await pilot.press("ctrl+t")
        assert not prompt.multiline
        assert app.focused is prompt.input


async def test_terminal_cursor_sits_on_the_caret_after_wide_characters() -> None:
    """Input methods open their candidate window at the terminal cursor."""
    prompt = Prompt()
    app = Harness(prompt)
    async with app.run_test(size=SIZE) as pilot:
        prompt.focus_editor()
        for ch in "吉林GPU":
            await pilot.press(ch)
        await pilot.pause()
        region = prompt.input.content_region
        assert app.cursor_position == Offset(region.x + cell_len("吉林GPU"), region.y)
        await pilot.press("left", "left", "left", "left")
        assert app.cursor_position == Offset(region.x + cell_len("吉"), region.y)


async def test_terminal_cursor_follows_the_multiline_caret() -> None:
    prompt = Prompt()
    app = Harness(prompt)
    async with app.run_test(size=SIZE) as pilot:
        prompt.focus_editor()
        await pilot.press("ctrl+t", "吉", "enter", "林", "林")
        await pilot.pause()
        region = prompt.area.content_region
        x, y = app.cursor_position
        assert y == region.y + 1
        assert x == region.x + prompt.area.gutter_width + cell_len("林林")
