"""F3: browse past conversations (the store `gpu-advisor ask` also writes) and reopen one."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from assistant.tui.errors import describe_error
from assistant.tui.i18n import t
from assistant.tui.literal import literal


def summary_label(summary: Any, language: str) -> Text:
    """One line of the listing: date, title, number of turns."""
    when = datetime.fromtimestamp(summary.updated_at).strftime("%Y-%m-%d %H:%M")
    label = Text.styled(f"{when}  ", "dim")
    title = " ".join(str(summary.title).split()) or summary.id
    label.append_text(literal(title[:60]))
    count = int(summary.turn_count)
    turns = t("history.turn" if count == 1 else "history.turns", language, n=count)
    label.append(f"  {turns}", style="dim")
    return label


class HistoryScreen(ModalScreen["str | None"]):
    """Past conversations, most recent first; dismisses with the chosen id (or None)."""

    BINDINGS = [Binding("escape,f3", "close", "Close")]

    def compose(self) -> ComposeResult:
        language = str(getattr(self.app, "ui_language", "en"))
        with Vertical(id="history-box") as box:
            box.border_title = t("history.title", language)
            yield OptionList(id="history-list")
            yield Static(t("history.hint", language), id="history-hint")

    def on_mount(self) -> None:
        language = str(getattr(self.app, "ui_language", "en"))
        options = self.query_one(OptionList)
        try:
            summaries = self.app.store.list_conversations()  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - a broken store must not crash the app
            _key, text = describe_error(exc, language, context="answer")
            self.notify(text, title=t("error.title.store", language), severity="error")
            summaries = []
        for summary in summaries:
            if summary.turn_count:
                options.add_option(Option(summary_label(summary, language), id=summary.id))
        if options.option_count == 0:
            options.add_option(
                Option(Text.styled(t("history.empty", language), "dim"), disabled=True)
            )
        else:
            options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        """Back to the chat without reopening anything."""
        self.dismiss(None)
