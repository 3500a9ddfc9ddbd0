"""Snapshots of the chat app's look (pytest-textual-snapshot), one class per feature.

The real pipeline answers (USE-m, faiss and jieba through `kb_home`); the clock is fixed and
nothing animated is on screen when the frame is taken. Update with `--snapshot-update`
after checking the new SVGs by eye.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, TabbedContent

from assistant.tui.app import AssistantApp
from tests.tui.conftest import ask_and_wait

pytestmark = pytest.mark.e2e
SIZE = (100, 32)
FOUNDING = "吉林GPU服务器能训练千亿模型吗?"

MakeApp = Callable[..., AssistantApp]
RunBefore = Callable[[Pilot[Any]], Awaitable[None]]


async def steady(pilot: Pilot[Any]) -> None:
    """Stop the caret blinking, so that the captured frame does not depend on timing."""
    for editor in pilot.app.screen.query("#prompt-input, #prompt-area"):
        editor.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause()


async def help_open(pilot: Pilot[Any]) -> None:
    """Open the help screen over a steady chat screen."""
    await steady(pilot)
    await pilot.press("f1")
    await pilot.pause()


def answered(tab: str | None = None, question: str = FOUNDING) -> RunBefore:
    """A `run_before` that asks `question`, waits for the answer and opens side-panel `tab`."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await steady(pilot)
        await ask_and_wait(pilot, question)
        if tab is not None:
            pilot.app.screen.query_one(TabbedContent).active = tab
            await pilot.pause()
        if tab == "tab-sources":
            pilot.app.screen.query_one("#sources-list", OptionList).highlighted = 0
        await pilot.pause()

    return run_before


class TestMainScreen:
    def test_empty_screen_in_chinese(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        assert snap_compare(make_test_app(), run_before=steady, terminal_size=SIZE)

    def test_chinese_answer(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        assert snap_compare(make_test_app(), run_before=answered(), terminal_size=SIZE)


class TestSidePanel:
    def test_scenario_tab(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        run_before = answered("tab-scenario")
        assert snap_compare(make_test_app(), run_before=run_before, terminal_size=SIZE)

    def test_calculations_tab(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        run_before = answered("tab-calculations")
        assert snap_compare(make_test_app(), run_before=run_before, terminal_size=SIZE)

    def test_calculations_tab_in_english(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        run_before = answered("tab-calculations", "Can 8x H100 fine-tune a 70B model?")
        app = make_test_app(ui_language="en")
        assert snap_compare(app, run_before=run_before, terminal_size=SIZE)

    def test_sources_tab_with_a_passage_open(
        self, make_test_app: MakeApp, snap_compare: Any
    ) -> None:
        run_before = answered("tab-sources")
        assert snap_compare(make_test_app(), run_before=run_before, terminal_size=SIZE)


class TestHelpScreen:
    def test_help_in_chinese(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        assert snap_compare(make_test_app(), run_before=help_open, terminal_size=SIZE)

    def test_help_in_english(self, make_test_app: MakeApp, snap_compare: Any) -> None:
        app = make_test_app(ui_language="en")
        assert snap_compare(app, run_before=help_open, terminal_size=SIZE)
