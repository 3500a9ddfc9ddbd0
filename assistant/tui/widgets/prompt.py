"""The question input: Enter sends, ↑/↓ recall earlier questions, Ctrl+T a multi-line mode.

Textual 8.2's `Input` and `TextArea` move the terminal's real cursor to the caret
(`App.cursor_position`), which is where input methods open their candidate window.
`PromptInput` corrects one detail: at the end of the text `Input` puts it one cell right of
the drawn caret.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, TextArea


class PromptInput(Input):
    """A one-line input whose terminal cursor sits exactly on the caret (for IMEs)."""

    @property
    def cursor_screen_offset(self) -> Offset:
        """The caret's screen cell, counting wide (CJK) characters as two cells."""
        x, y, _width, _height = self.content_region
        scroll_x, _ = self.scroll_offset
        return Offset(x + cell_len(self.value[: self.cursor_position]) - scroll_x, y)


class Prompt(Vertical):
    """Where questions are typed."""

    BINDINGS = [
        Binding("up", "recall(-1)", show=False),
        Binding("down", "recall(1)", show=False),
        Binding("ctrl+t", "toggle_multiline", "Multi-line", show=False, priority=True),
        Binding("ctrl+j,ctrl+enter", "send_multiline", "Send", show=False, priority=True),
    ]

    @dataclass
    class Submitted(Message):
        """The user sent a question (whitespace already stripped, never empty)."""

        text: str

    multiline: reactive[bool] = reactive(False, init=False)
    """True when the multi-line editor replaces the one-line input."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.history: list[str] = []
        self._recall_index: int | None = None
        self._draft = ""

    def compose(self) -> ComposeResult:
        yield PromptInput(id="prompt-input")
        area = TextArea(id="prompt-area", soft_wrap=True, show_line_numbers=False)
        area.display = False
        yield area

    @property
    def input(self) -> PromptInput:
        """The one-line input."""
        return self.query_one("#prompt-input", PromptInput)

    @property
    def area(self) -> TextArea:
        """The multi-line editor."""
        return self.query_one("#prompt-area", TextArea)

    def set_placeholder(self, single: str, multi: str) -> None:
        """Set the placeholder text of both editors (interface language)."""
        self.input.placeholder = single
        self.area.placeholder = multi

    def focus_editor(self) -> None:
        """Focus whichever editor is showing."""
        (self.area if self.multiline else self.input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._send(event.value)

    def action_send_multiline(self) -> None:
        """Send the multi-line text."""
        if self.multiline:
            self._send(self.area.text)

    def _send(self, text: str) -> None:
        question = text.strip()
        if not question:
            return
        if not self.history or self.history[-1] != question:
            self.history.append(question)
        self._recall_index = None
        self.input.value = ""
        self.area.text = ""
        self.post_message(self.Submitted(question))

    def action_recall(self, step: int) -> None:
        """Show an earlier (-1) or later (+1) question in the one-line input."""
        if self.multiline or not self.history:
            return
        if self._recall_index is None:
            if step > 0:
                return
            self._draft = self.input.value
            index = len(self.history) - 1
        else:
            index = self._recall_index + step
        if index >= len(self.history):
            self._recall_index = None
            self._set_input(self._draft)
            return
        self._recall_index = max(index, 0)
        self._set_input(self.history[self._recall_index])

    def _set_input(self, value: str) -> None:
        self.input.value = value
        self.input.cursor_position = len(value)

    def action_toggle_multiline(self) -> None:
        """Switch between the one-line input and the multi-line editor, keeping the text."""
        self.multiline = not self.multiline

    def watch_multiline(self, multiline: bool) -> None:
        if multiline:
            self.area.text = self.input.value
            self.area.display = True
            self.input.display = False
            self.area.focus()
            self.area.move_cursor(self.area.document.end)
        else:
            self._set_input(" ".join(self.area.text.split("\n")).strip())
            self.input.display = True
            self.area.display = False
            self.input.focus()
        self.set_class(multiline, "-multiline")
