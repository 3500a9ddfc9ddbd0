"""The scrolling chat transcript: question bubbles, answer bubbles and pending turns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from assistant.tui.i18n import t
from assistant.tui.literal import literal
from assistant.tui.messages import AnswerSelected
from assistant.tui.widgets.answer_view import AnswerView

if TYPE_CHECKING:
    from assistant.records import Answer


def _language(widget: Widget) -> str:
    return str(getattr(widget.app, "ui_language", "en"))


class QuestionBubble(Static):
    """A question as the user typed it (shown literally: no markup, no escapes)."""

    def __init__(self, question: str, when: str, language: str) -> None:
        self.question = question
        self.when = when
        super().__init__(self._content(language))

    def _content(self, language: str) -> Text:
        header = Text.styled(f"{t('bubble.you', language)} · {self.when}\n", "dim")
        return header + literal(self.question)

    def relabel(self, language: str) -> None:
        """Switch the header to another interface language."""
        self.update(self._content(language))


class PendingBubble(Static):
    """A turn still being answered (or waiting for the knowledge base to load)."""

    def __init__(self, turn: int, *, waiting: bool, language: str) -> None:
        self.turn = turn
        self.waiting = waiting
        super().__init__(self._content(language), id=f"pending-{turn}")

    def _content(self, language: str) -> Text:
        key = "bubble.waiting" if self.waiting else "bubble.thinking"
        return Text.styled(t(key, language), "italic")

    def set_waiting(self, waiting: bool, language: str) -> None:
        """Switch between 'waiting for the knowledge base' and 'thinking'."""
        self.waiting = waiting
        self.update(self._content(language))

    def relabel(self, language: str) -> None:
        """Switch to another interface language."""
        self.update(self._content(language))


class FailedBubble(Static):
    """A turn that ended without an answer: cancelled, or an error with what to do."""

    def __init__(self, title: str, message: str) -> None:
        super().__init__(literal(title, "bold") + Text("\n") + literal(message))


class AnswerBubble(Vertical):
    """An answer; selecting it (a click, or the arrow keys in the transcript) makes the side
    panel follow it. Bubbles are not focus stops: the transcript is one stop for all of them."""

    def __init__(self, answer: Answer, when: str, language: str) -> None:
        super().__init__(classes=f"-{answer.verdict}")
        self.answer = answer
        self.when = when
        self._language = language

    def compose(self) -> ComposeResult:
        yield Static(self._header(self._language), classes="bubble-header")
        yield AnswerView(self.answer, self._language)

    def _header(self, language: str) -> Text:
        return Text.styled(f"{t('bubble.advisor', language)} · {self.when}", "dim")

    def relabel(self, language: str) -> None:
        """Switch the header and verdict label to another interface language."""
        self._language = language
        self.query_one(".bubble-header", Static).update(self._header(language))
        self.query_one(AnswerView).relabel(language)

    def on_click(self) -> None:
        transcript = self.parent
        if isinstance(transcript, Transcript):
            transcript.select(self)
            transcript.focus()


class Transcript(VerticalScroll):
    """The conversation so far, newest at the bottom: one focus stop, ↑/↓ select answers."""

    BINDINGS = [
        Binding("up", "neighbour(-1)", show=False),
        Binding("down", "neighbour(1)", show=False),
    ]

    selected: AnswerBubble | None = None
    """The answer the side panel shows (marked `-selected`)."""

    _scroll_target: Static | Vertical | None = None
    """What the latest append wants at the top of the view (None: the end)."""

    def add_question(self, question: str, when: str) -> None:
        """Append the user's question."""
        self._append(QuestionBubble(question, when, _language(self)))

    def add_pending(self, turn: int, *, waiting: bool) -> None:
        """Append a placeholder for the answer of `turn`."""
        self._append(PendingBubble(turn, waiting=waiting, language=_language(self)))

    def set_waiting(self, turn: int, waiting: bool) -> None:
        """Update the placeholder of `turn` when the knowledge base becomes ready."""
        for bubble in self.query(PendingBubble):
            if bubble.turn == turn:
                bubble.set_waiting(waiting, _language(self))

    def add_answer(self, answer: Answer, when: str, *, turn: int | None = None) -> AnswerBubble:
        """Append an answer (replacing the placeholder of `turn`, if there is one)."""
        self._remove_pending(turn)
        bubble = AnswerBubble(answer, when, _language(self))
        questions = list(self.query(QuestionBubble))
        # Long answers: show the question and the verdict, not the end of the answer.
        self._append(bubble, top=questions[-1] if questions else bubble)
        self._mark(bubble)
        return bubble

    def select(self, bubble: AnswerBubble) -> None:
        """Select `bubble`: marked, scrolled into view, and the side panel follows it."""
        self._mark(bubble)
        self.scroll_to_widget(bubble, animate=False)
        self.post_message(AnswerSelected(bubble.answer))

    def action_neighbour(self, step: int) -> None:
        """Select the previous (-1) or next (+1) answer; past either end, scroll instead."""
        bubbles = list(self.query(AnswerBubble))
        if self.selected in bubbles:
            index = bubbles.index(self.selected) + step
        else:
            index = len(bubbles) - 1  # nothing selected yet: start from the latest answer
        if 0 <= index < len(bubbles):
            self.select(bubbles[index])
        else:
            self.scroll_relative(y=step, animate=False)

    def _mark(self, bubble: AnswerBubble | None) -> None:
        if self.selected is not None:
            self.selected.remove_class("-selected")
        self.selected = bubble
        if bubble is not None:
            bubble.add_class("-selected")

    def add_failure(self, title: str, message: str, *, turn: int | None = None) -> None:
        """Replace the placeholder of `turn` with a failure note."""
        self._remove_pending(turn)
        self._append(FailedBubble(title, message))

    def clear(self) -> None:
        """Remove every bubble (a new conversation)."""
        self.selected = None
        self.remove_children()

    def answers(self) -> list[Answer]:
        """The answers shown, oldest first."""
        return [bubble.answer for bubble in self.query(AnswerBubble)]

    def relabel(self, language: str) -> None:
        """Switch every bubble's interface labels to `language`."""
        for child in self.children:
            relabel = getattr(child, "relabel", None)
            if relabel is not None:
                relabel(language)

    def _remove_pending(self, turn: int | None) -> None:
        if turn is None:
            return
        for bubble in self.query(PendingBubble):
            if bubble.turn == turn:
                bubble.remove()

    def _append(self, widget: Static | Vertical, *, top: Static | Vertical | None = None) -> None:
        # One scroll intent, the latest append's: a placeholder's "scroll to the end" that is
        # applied after its answer arrived would otherwise scroll past the answer's verdict.
        self._scroll_target = top
        self.mount(widget)
        self.call_after_refresh(self._apply_scroll)

    def _apply_scroll(self, tries: int = 5) -> None:
        target = self._scroll_target
        if target is None:
            self.scroll_end(animate=False, immediate=True)
        elif not target.virtual_region.size and tries:
            # Not laid out yet (the mount is still being processed): try after the next refresh.
            self.call_after_refresh(self._apply_scroll, tries - 1)
        else:
            self.scroll_to_widget(target, top=True, animate=False, immediate=True)
