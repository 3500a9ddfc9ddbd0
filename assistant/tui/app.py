"""The chat app: `make_app(settings)` builds it for the CLI and for the tests.

The first screen paints at once; the retriever (encoder, faiss index, jieba) loads in a
thread worker afterwards, with its progress in the title bar. Questions asked meanwhile wait
for it (see `ChatScreen.ask`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive

from assistant.tui.commands import AdvisorCommands, palette
from assistant.tui.errors import describe_error
from assistant.tui.i18n import other, resolve_language, t
from assistant.tui.messages import RetrieverFailed, RetrieverLoaded, RetrieverLoading
from assistant.tui.screens.chat import ChatScreen
from assistant.tui.widgets.notices import Notice

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from assistant.config import Settings

LoadState = Literal["loading", "ready", "failed"]


class AssistantApp(App[None]):
    """算力顾问 gpu-advisor: the terminal chat."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    """Absolute, so that subclasses defined elsewhere (benchmarks, tests) still find it."""
    TITLE = "算力顾问 gpu-advisor"
    COMMANDS = {AdvisorCommands}
    """Only the chat's own commands, in the interface language (see `commands`)."""
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "toggle_language", "中文/English"),
    ]

    ui_language: reactive[str] = reactive("en")
    """Interface language ("zh" or "en"); answers follow their question instead."""

    load_state: reactive[LoadState] = reactive("loading")
    """Whether the knowledge base is still loading, ready, or failed to load."""

    load_detail: reactive[str] = reactive("")
    """The loader's latest progress note (for example that the index is being rebuilt)."""

    def __init__(
        self,
        settings: Settings,
        *,
        retriever: Any = None,
        store: Any = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.retriever = retriever
        self._store = store
        self.clock = clock or datetime.now
        self.ready = threading.Event()
        """Set once the retriever is loaded or failed to load; answer workers wait on it."""
        self.load_error: tuple[str, str] | None = None
        self.set_reactive(AssistantApp.ui_language, resolve_language(settings.ui_language))
        if retriever is not None:
            self.set_reactive(AssistantApp.load_state, "ready")
            self.ready.set()
        self.chat = ChatScreen()

    @property
    def store(self) -> Any:
        """The conversation store shared with `gpu-advisor ask` (opened on first use)."""
        if self._store is None:
            from assistant.conversations import ConversationStore

            self._store = ConversationStore()
        return self._store

    def now_label(self) -> str:
        """The clock text shown on bubbles (tests pass a fixed clock)."""
        return self.clock().strftime("%H:%M")

    def on_mount(self) -> None:
        self.push_screen(self.chat)
        if self.retriever is None:
            # After the first paint, so that start-up shows the screen at once.
            self.call_after_refresh(self.load_retriever)

    @work(thread=True, group="loader", exit_on_error=False)
    def load_retriever(self) -> None:
        """Load the encoder, index and tokenizer off the UI thread."""
        started = time.perf_counter()
        self.post_message(RetrieverLoading())
        try:
            from assistant.retrieval.engine import open_retriever

            # Progress notes ("rebuilding the index…") in the interface language.
            settings = self.settings.replace(ui_language=self.ui_language)
            retriever = open_retriever(settings, notify=self._loading_note)
            # Warm the pipeline's imports (while the encoder loads in its own thread), the
            # tokenizer and the encoder now, not on question 1.
            import textual.widgets._markdown  # noqa: F401 - the bubble's Markdown

            import assistant.pipeline  # noqa: F401
            import assistant.tui.figures  # noqa: F401 - the panel's figures, for answer 1

            retriever.search("GPU 显存 memory", k=1)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a notification
            title_key, message = describe_error(exc, self.ui_language, context="index")
            self.post_message(RetrieverFailed(t(title_key, self.ui_language), message))
            return
        self.post_message(RetrieverLoaded(retriever, time.perf_counter() - started))

    def _loading_note(self, text: str) -> None:
        """Progress from the loader thread (posting a message is thread-safe)."""
        self.post_message(RetrieverLoading(str(text)))

    def on_retriever_loading(self, message: RetrieverLoading) -> None:
        self.load_detail = message.detail

    def on_retriever_loaded(self, message: RetrieverLoaded) -> None:
        self.retriever = message.retriever
        self.load_state = "ready"
        self.ready.set()

    def on_retriever_failed(self, message: RetrieverFailed) -> None:
        self.load_error = (message.title, message.message)
        self.load_state = "failed"
        self.ready.set()
        self.notify(message.message, title=message.title, severity="error", timeout=15)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification in the chat's notice row (never a floating toast, which loses
        Chinese characters over widget edges; see `widgets.notices`), its text literal."""
        if not self.chat.is_mounted:
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)
            return
        notice = Notice(str(message), str(title), severity)
        seconds = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        if self._thread_id == threading.get_ident():
            self.chat.notices.add(notice, seconds)
        else:  # Textual's notify is thread-safe; so is this one
            self.call_from_thread(self.chat.notices.add, notice, seconds)

    def action_help(self) -> None:
        """Show the help screen (F1 again closes it)."""
        from assistant.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        else:
            self.push_screen(HelpScreen())

    def action_command_palette(self) -> None:
        """Open the command palette, its placeholder in the interface language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(palette(self.ui_language))

    def action_toggle_language(self) -> None:
        """Switch the interface between Chinese and English."""
        self.ui_language = other(self.ui_language)


def make_app(
    settings: Settings,
    *,
    retriever: Any = None,
    store: Any = None,
    clock: Callable[[], datetime] | None = None,
) -> AssistantApp:
    """Build the chat app from explicit inputs (the CLI and the tests call this).

    Args:
        settings: The configuration.
        retriever: An open retriever; None loads one in a worker after the first paint.
        store: A `ConversationStore`; None opens the default one on first use.
        clock: Returns the time shown on bubbles; tests pass a fixed one.
    """
    return AssistantApp(settings, retriever=retriever, store=store, clock=clock)
