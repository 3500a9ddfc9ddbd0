"""Snapshots of the chat app's look (pytest-textual-snapshot), one class per feature.

They show fixed sample answers (`tests/tui/samples.py`, as posting's snapshots use sample
data), so a wording change in the pipeline does not redraw them; `test_chat.py` runs the real
pipeline. The clock is fixed and nothing animated is on screen when the frame is taken. Update
with `--snapshot-update` after checking the new SVGs by eye.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from textual.pilot import Pilot
from textual.widgets import TabbedContent

from assistant.records import Answer
from assistant.tui.app import AssistantApp
from tests.tui.conftest import show_answers
from tests.tui.samples import english_answer, founding_answer

SIZE = (100, 32)
SMALL = (80, 24)

MakeApp = Callable[..., AssistantApp]
RunBefore = Callable[[Pilot[Any]], Awaitable[None]]


async def steady(pilot: Pilot[Any]) -> None:
    """Stop the caret blinking, so that the captured frame does not depend on timing."""
    for editor in pilot.app.screen.query("#prompt-input, #prompt-area"):
        editor.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause()


def shown(
    answer: Answer, tab: str | None = None, keys: Sequence[str] = (), settle: float = 0
) -> RunBefore:
    """A `run_before` that shows `answer`, opens side-panel `tab`, then presses `keys`."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await steady(pilot)
        await show_answers(pilot, answer)
        if tab is not None:
            pilot.app.screen.query_one(TabbedContent).active = tab
            await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause(settle)

    return run_before


class TestMainScreen:
    def test_empty_screen_in_chinese(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        assert snap_compare(make_sample_app(), run_before=steady, terminal_size=SIZE)

    def test_chinese_answer(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer())
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)

    def test_english_answer_at_80x24(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        app = make_sample_app(ui_language="en")
        assert snap_compare(app, run_before=shown(english_answer()), terminal_size=SMALL)


class TestSidePanel:
    def test_scenario_tab(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer(), "tab-scenario")
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)

    def test_calculations_tab(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer(), "tab-calculations")
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)

    def test_calculations_tab_in_english(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(english_answer(), "tab-calculations")
        app = make_sample_app(ui_language="en")
        assert snap_compare(app, run_before=run_before, terminal_size=SIZE)

    def test_sources_list_fills_the_tab(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer(), "tab-sources")
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)

    def test_sources_tab_with_a_passage_open(
        self, make_sample_app: MakeApp, snap_compare: Any
    ) -> None:
        # Tab to the transcript, Tab to the tab row, Tab to the list, ↓ to [2], Enter opens it.
        run_before = shown(founding_answer(), "tab-sources", ("tab", "tab", "tab", "down", "enter"))
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)


class TestNarrowPanel:
    """Below 100 columns F5 switches to the panel, full width."""

    def test_panel_at_80x24_in_chinese(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer(), keys=("f5",))
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SMALL)

    def test_passage_at_80x24_in_english(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(english_answer(), keys=("f5", "right", "right", "tab", "enter"))
        app = make_sample_app(ui_language="en")
        assert snap_compare(app, run_before=run_before, terminal_size=SMALL)


class TestNotices:
    """Notices sit in a row of their own: no Chinese character is lost over a widget edge."""

    def test_copied_in_chinese(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer(), keys=("f4",))
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)

    def test_copied_in_english(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(english_answer(), keys=("f4",))
        app = make_sample_app(ui_language="en")
        assert snap_compare(app, run_before=run_before, terminal_size=SMALL)


class TestHelpScreen:
    def test_help_in_chinese(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        run_before = shown(founding_answer(), keys=("f1",))
        assert snap_compare(make_sample_app(), run_before=run_before, terminal_size=SIZE)

    def test_help_in_english(self, make_sample_app: MakeApp, snap_compare: Any) -> None:
        app = make_sample_app(ui_language="en")
        run_before = shown(english_answer(), keys=("f1",))
        assert snap_compare(app, run_before=run_before, terminal_size=SIZE)
