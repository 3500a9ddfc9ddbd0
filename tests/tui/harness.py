"""A small harness app that mounts widgets and records the messages they post."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widget import Widget

import assistant.tui

STYLESHEET = Path(assistant.tui.__file__).parent / "app.tcss"


class Harness(App[None]):
    """Mounts `widgets` with the app's stylesheet; `messages` holds what bubbled up."""

    CSS_PATH = STYLESHEET

    def __init__(self, *widgets: Widget, language: str = "zh") -> None:
        super().__init__()
        self._widgets = widgets
        self.ui_language = language
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield from self._widgets

    async def _on_message(self, message: Message) -> None:
        if message.__class__.__module__.startswith("assistant."):
            self.messages.append(message)
        await super()._on_message(message)

    def recorded(self, kind: type[Any]) -> list[Any]:
        """The recorded messages of one class."""
        return [m for m in self.messages if isinstance(m, kind)]


def screen_lines(app: App[Any]) -> list[str]:
    """The text of every row of the current screen, as the terminal would show it."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app: App[Any]) -> str:
    """The whole screen as one string (rows joined by newlines)."""
    return "\n".join(screen_lines(app))


def assert_rows_fit(app: App[Any]) -> None:
    """Every row is exactly as wide as the terminal: wide (CJK) characters did not shift it."""
    width = app.size.width
    widths = {cell_len(line) for line in screen_lines(app)}
    assert widths == {width}, widths


async def panels_built(pilot: Any) -> None:
    """Wait until every side panel has mounted its hidden tabs (just after the first paint).

    `SidePanel` fills its Calculations and Sources tabs in a callback after the first refresh; a
    loaded machine can run the test's next line before it, so tests that look inside those tabs
    wait here first (bounded: a panel that never builds fails the test's own assertion).
    """
    from assistant.tui.widgets.side_panel import SidePanel

    for _ in range(500):
        if all(panel.built for panel in pilot.app.query(SidePanel)):
            return
        await pilot.pause(0.01)
