"""Notifications in a row of their own above the footer, instead of Textual's floating toasts.

A toast floats over the screen, and where it covers the edge of a widget below, a wide (CJK)
character of its text is cut in two and vanishes ("已复    答（4348 个字符）"), Textual's known
CJK-over-border rendering issue. A row in the layout covers nothing, so every character shows.
Text is shown literally (file names and error messages are untrusted).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from assistant.tui.literal import literal
from assistant.tui.wrap import Wrapped

#: severity -> (mark, style)
MARKS: dict[str, tuple[str, str]] = {
    "information": ("●", "bold green"),
    "warning": ("▲", "bold yellow"),
    "error": ("✘", "bold red"),
}
MAX_SHOWN = 3
"""At most this many notices at once, the newest last."""


@dataclass(frozen=True)
class Notice:
    """One notification: what happened, its title (may be empty) and its severity."""

    message: str
    title: str = ""
    severity: str = "information"


def notice_text(notice: Notice) -> Wrapped:
    """A notice as one wrapped paragraph: a coloured mark, the title in bold, the message."""
    mark, style = MARKS.get(notice.severity, MARKS["information"])
    text = Text("")
    if notice.title:
        text.append_text(literal(notice.title, "bold"))
        text.append("  ")
    text.append_text(literal(" ".join(notice.message.split())))
    return Wrapped(text, prefix=Text.styled(f"{mark} ", style))


class NoticeBar(Static):
    """The latest notices, each for its timeout; hidden when there is none."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.shown: list[Notice] = []
        """The notices on screen, oldest first."""

    def on_mount(self) -> None:
        self.display = False

    def add(self, notice: Notice, timeout: float) -> None:
        """Show `notice` for `timeout` seconds."""
        self.shown = [*self.shown, notice][-MAX_SHOWN:]
        self._refresh_notices()
        self.set_timer(timeout, partial(self._expire, notice))

    def _expire(self, notice: Notice) -> None:
        if notice in self.shown:
            self.shown.remove(notice)
            self._refresh_notices()

    def _refresh_notices(self) -> None:
        self.display = bool(self.shown)
        self.update(Group(*(notice_text(notice) for notice in self.shown)))
