"""The main screen: transcript and prompt on the left, the evidence panel on the right (F5
hides it; below `ChatScreen.NARROW` columns it is a full-width view that F5 switches to)."""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from assistant.tui.errors import describe_error
from assistant.tui.export import answers_markdown, exports_dir, safe_stem, unique_path, write_atomic
from assistant.tui.i18n import ENDONYMS, other, t
from assistant.tui.literal import clean
from assistant.tui.messages import AnswerFailed, AnswerReady, AnswerSelected
from assistant.tui.widgets.key_footer import KeyFooter
from assistant.tui.widgets.notices import NoticeBar
from assistant.tui.widgets.prompt import Prompt
from assistant.tui.widgets.side_panel import SidePanel
from assistant.tui.widgets.transcript import Transcript
from assistant.tui.wrap import Wrapped

if TYPE_CHECKING:
    from assistant.records import Answer
    from assistant.tui.app import AssistantApp

PanelMode = Literal["narrow", "wide"]

#: action -> i18n key of its footer label
BINDING_LABELS = {
    "help": "action.help",
    "history": "action.history",
    "new_conversation": "action.new",
    "export_conversation": "action.export",
    "copy_answer": "action.copy",
    "toggle_panel": "action.panel",
    "cancel": "action.cancel",
    "toggle_multiline": "action.multiline",
    "command_palette": "action.palette",
    "quit": "action.quit",
}


def binding_label(action: str, language: str) -> str | None:
    """The footer label of `action` in `language` (None: not one of ours)."""
    if action == "toggle_language":
        return ENDONYMS[other(language)]  # the language it switches to, by its own name
    key = BINDING_LABELS.get(action)
    return t(key, language) if key is not None else None


def relabel_bindings(node: Any, language: str) -> None:
    """Translate the footer descriptions of `node`'s bindings (Textual keeps them static)."""
    from dataclasses import replace

    for key, bindings in node._bindings.key_to_bindings.items():
        relabelled = []
        for b in bindings:
            label = binding_label(b.action.split("(")[0], language) if b.description else None
            relabelled.append(replace(b, description=label) if label is not None else b)
        node._bindings.key_to_bindings[key] = relabelled


class ChatScreen(Screen[None]):
    """Ask, follow up, and check the evidence."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("ctrl+n", "new_conversation", "New chat", priority=True),
        Binding("f3", "history", "History"),
        Binding("ctrl+s", "export_conversation", "Export", priority=True),
        Binding("f4", "copy_answer", "Copy answer", show=False),  # in F1 help and the palette
        Binding("f5", "toggle_panel", "Panel"),
        Binding("tab", "focus_step(1)", "Next", show=False),
        Binding("shift+tab", "focus_step(-1)", "Previous", show=False),
    ]
    NARROW = 100
    """Below this many columns the panel is a full-width view that F5 switches to."""

    def __init__(self) -> None:
        super().__init__()
        self.turn = 0
        self.pending_turn: int | None = None
        self.conversation_id: str | None = None
        self.selected: Answer | None = None
        self.last_answer: Answer | None = None
        self.panel_wanted: dict[PanelMode, bool] = {"narrow": False, "wide": True}
        """Whether the panel is shown on a narrow and on a wide screen: F5 toggles it."""

    @property
    def advisor(self) -> AssistantApp:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        # The layout classes before the first style pass, not a restyle of every widget after.
        self._layout_classes(self.app.size.width < self.NARROW, update=False)
        with Horizontal(id="title-bar"):
            yield Static(id="app-title")
            yield Static(id="load-status")
        with Horizontal(id="main"):
            with Vertical(id="chat-column"):
                yield Transcript(id="transcript")
                yield Prompt(id="prompt")
            yield SidePanel(id="side-panel")
        yield NoticeBar(id="notices")
        yield KeyFooter()

    def on_mount(self) -> None:
        # `_relabel` (called at once) shows the load state too: the other two wait for changes.
        self.watch(self.app, "ui_language", self._relabel)
        self.watch(self.app, "load_state", self._show_load_state, init=False)
        self.watch(
            self.app,
            "load_detail",
            lambda _detail: self._show_load_state(self.advisor.load_state),
            init=False,
        )
        self._welcome()
        self._layout_panel()
        self.query_one(Prompt).focus_editor()

    def on_resize(self) -> None:
        self._layout_panel()

    @property
    def transcript(self) -> Transcript:
        """The conversation so far."""
        return self.query_one(Transcript)

    @property
    def notices(self) -> NoticeBar:
        """Where notifications are shown (see `AssistantApp.notify`)."""
        return self.query_one(NoticeBar)

    @property
    def panel(self) -> SidePanel:
        """The evidence of the selected answer."""
        return self.query_one(SidePanel)

    def _language(self) -> str:
        return self.advisor.ui_language

    def _welcome(self) -> None:
        text = Wrapped(Text(t("welcome", self._language())))
        self.transcript.mount(Static(text, classes="welcome"))

    def _relabel(self, language: str) -> None:
        title = Text.styled(f" {t('app.title', language)} ", "bold") + Text.styled(
            t("app.subtitle", language), "dim"
        )
        self.query_one("#app-title", Static).update(title)
        self.query_one(Prompt).set_placeholder(
            t("prompt.placeholder", language), t("prompt.placeholder_multi", language)
        )
        for welcome in self.query(".welcome").results(Static):
            welcome.update(Wrapped(Text(t("welcome", language))))
        self.transcript.relabel(language)
        self.panel.relabel(language)
        self._show_load_state(self.advisor.load_state)
        for node in (self.app, self, self.query_one(Prompt)):
            relabel_bindings(node, language)
        self.refresh_bindings()

    def _show_load_state(self, state: str) -> None:
        language = self._language()
        status = self.query_one("#load-status", Static)
        for name in ("loading", "ready", "failed"):
            status.set_class(state == name, f"-{name}")
        icon = {"loading": "⋯", "ready": "●", "failed": "✘"}.get(state, "")
        label = t("status." + state, language)
        if state == "loading" and self.advisor.load_detail:
            label = clean(self.advisor.load_detail)
        status.update(Text(f"{icon} {label} "))
        if state != "loading" and self.pending_turn is not None:
            self.transcript.set_waiting(self.pending_turn, False)

    # -- panel and focus ------------------------------------------------------------------

    @property
    def narrow(self) -> bool:
        """Whether the screen is too narrow for the panel beside the transcript."""
        return self.size.width < self.NARROW

    @property
    def panel_shown(self) -> bool:
        """Whether the panel is on screen (beside the chat, or instead of it when narrow)."""
        return self.panel_wanted["narrow" if self.narrow else "wide"]

    def _layout_panel(self) -> None:
        """Classes for the stylesheet, and the focus moved off whatever they hide."""
        narrow = self.narrow
        self._layout_classes(narrow)
        shown = self.panel_shown
        focused = self.focused
        in_panel = focused is not None and self.panel in focused.ancestors
        if in_panel and not shown:
            self.query_one(Prompt).focus_editor()
        elif focused is not None and not in_panel and narrow and shown:
            self.panel.focus_tabs()

    def _layout_classes(self, narrow: bool, *, update: bool = True) -> None:
        shown = self.panel_wanted["narrow" if narrow else "wide"]
        self.set_class(narrow, "-narrow", update=update)
        self.set_class(shown, "-panel-shown", update=update)
        self.set_class(not shown, "-panel-hidden", update=update)

    def action_toggle_panel(self) -> None:
        """Show or hide the panel (F5); when narrow, switch between the chat and the panel."""
        self.panel_wanted["narrow" if self.narrow else "wide"] = not self.panel_shown
        self._layout_panel()

    def action_focus_step(self, step: int) -> None:
        """Tab (+1) and Shift+Tab (-1): input, then the transcript (one stop), then the panel."""
        chain = self.focus_chain
        prompt = self.query_one(Prompt)
        order = [w for w in chain if prompt in w.ancestors_with_self]
        order += [w for w in chain if w not in order]
        if not order:
            return
        index = order.index(self.focused) if self.focused in order else -1
        order[(index + step) % len(order)].focus()

    # -- asking ---------------------------------------------------------------------------

    def on_prompt_submitted(self, message: Prompt.Submitted) -> None:
        if self.pending_turn is not None:
            self.notify(t("note.busy", self._language()), severity="warning")
            return
        for welcome in self.query(".welcome"):
            welcome.remove()
        self.turn += 1
        self.pending_turn = self.turn
        self.transcript.add_question(message.text, self.advisor.now_label())
        self.transcript.add_pending(self.turn, waiting=not self.advisor.ready.is_set())
        self.ask(message.text, self.turn, self.last_answer)

    @work(thread=True, exclusive=True, group="answer", exit_on_error=False)
    def ask(self, question: str, turn: int, previous: Answer | None) -> None:
        """Answer `question` in a thread, after the retriever has loaded."""
        worker, app = get_current_worker(), self.advisor
        while not app.ready.wait(0.05):
            if worker.is_cancelled:
                return
        if app.retriever is None:
            title, hint = app.load_error or (t("status.failed", app.ui_language), "")
            message = t("error.hint.not_loaded", app.ui_language, hint=hint)
            self.post_message(AnswerFailed(turn, title, message))
            return
        started = time.perf_counter()
        try:
            from assistant.pipeline import answer

            result = answer(
                question,
                settings=app.settings,
                retriever=app.retriever,
                previous=previous.query if previous is not None else None,
            )
        except Exception as exc:  # noqa: BLE001 - shown as a notification, never a crash
            title_key, text = describe_error(exc, app.ui_language, context="answer")
            self.post_message(AnswerFailed(turn, t(title_key, app.ui_language), text))
            return
        if not worker.is_cancelled:
            self.post_message(AnswerReady(turn, result, time.perf_counter() - started))

    def on_answer_ready(self, message: AnswerReady) -> None:
        if message.turn != self.pending_turn:
            return  # cancelled meanwhile
        self.pending_turn = None
        answer = message.answer
        if answer.refusal is None:
            # a value refused as bad input ("-5张呢") is shown, but neither saved nor followed
            # up on, as in `ask`: the next question builds on the turn before it
            answer = self._store_turn(answer)
            self.last_answer = answer
        self.transcript.add_answer(answer, self.advisor.now_label(), turn=message.turn)
        self._select(answer)

    def on_answer_failed(self, message: AnswerFailed) -> None:
        if message.turn != self.pending_turn:
            return
        self.pending_turn = None
        self.transcript.add_failure(message.title, message.message, turn=message.turn)
        self.notify(message.message, title=message.title, severity="error", timeout=10)

    def _store_turn(self, answer: Answer) -> Answer:
        """Save the turn in the conversation store; a store failure is reported, not fatal."""
        from dataclasses import replace

        try:
            store = self.advisor.store
            if self.conversation_id is None:
                self.conversation_id = str(store.new_conversation())
            store.add_turn(self.conversation_id, answer)
        except Exception as exc:  # noqa: BLE001 - the answer is still shown
            title_key, text = describe_error(exc, self._language(), context="answer")
            self.notify(text, title=t("error.title.store", self._language()), severity="error")
            return answer
        return replace(answer, conversation_id=self.conversation_id)

    def on_answer_selected(self, message: AnswerSelected) -> None:
        self._select(message.answer)

    def _select(self, answer: Answer | None) -> None:
        self.selected = answer
        self.panel.show(answer)

    def action_cancel(self) -> None:
        """Cancel the answer in progress (Esc); with none, leave the full-width panel."""
        if self.pending_turn is None:
            if self.narrow and self.panel_shown:
                self.action_toggle_panel()
            return
        turn, self.pending_turn = self.pending_turn, None
        self.workers.cancel_group(self, "answer")
        language = self._language()
        self.transcript.add_failure(t("bubble.cancelled", language), "", turn=turn)
        self.notify(t("note.cancelled", language))

    # -- conversations --------------------------------------------------------------------

    def _reset(self) -> None:
        self.action_cancel()
        self.conversation_id = None
        self.last_answer = None
        self.transcript.clear()
        self._select(None)

    def action_new_conversation(self) -> None:
        """Start over: no context carried into the next question."""
        self._reset()
        self._welcome()
        self.query_one(Prompt).focus_editor()
        self.notify(t("note.new", self._language()))

    def action_history(self) -> None:
        """Browse past conversations and reopen one."""
        from assistant.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen(), self._reopen)

    def _reopen(self, conversation_id: str | None) -> None:
        if conversation_id is None:
            return
        try:
            conversation = self.advisor.store.load(conversation_id)
        except Exception as exc:  # noqa: BLE001 - a broken store must not crash the app
            _key, text = describe_error(exc, self._language(), context="answer")
            self.notify(text, title=t("error.title.store", self._language()), severity="error")
            return
        self._reset()
        self.conversation_id = conversation.id
        for turn in conversation.turns:
            when = datetime.fromtimestamp(turn.created_at).strftime("%m-%d %H:%M")
            self.show_turn(turn.question, turn.answer, when)
        self.notify(t("note.reopened", self._language(), id=conversation.id[:8]))

    def show_turn(self, question: str, answer: Answer, when: str) -> None:
        """Show a past turn (a reopened conversation, or a fixed sample in the tests)."""
        for welcome in self.query(".welcome"):
            welcome.remove()
        self.transcript.add_question(question, when)
        self.transcript.add_answer(answer, when)
        self.last_answer = answer
        self._select(answer)

    # -- export and copy ------------------------------------------------------------------

    def action_export_conversation(self) -> None:
        """Write the conversation to a Markdown file and say where."""
        answers = self.transcript.answers()
        if not answers:
            self.notify(t("note.nothing", self._language()), severity="warning")
            return
        text = None
        if self.conversation_id is not None:
            try:
                text = self.advisor.store.export_markdown(self.conversation_id)
            except Exception:  # noqa: BLE001 - fall back to the answers on screen
                text = None
        if not text:
            text = answers_markdown(answers, t("app.title", self._language()))
        self._export(text, answers[0].question)

    def action_export_answer(self) -> None:
        """Write the selected answer to a Markdown file."""
        answer = self.selected or self.last_answer
        if answer is None:
            self.notify(t("note.nothing", self._language()), severity="warning")
            return
        self._export(answers_markdown([answer], t("app.title", self._language())), answer.question)

    def _export(self, text: str, name: str) -> None:
        language = self._language()
        stamp = self.advisor.clock().strftime("%Y%m%d-%H%M%S")
        try:
            directory = exports_dir(self.advisor.settings.home)
            path = write_atomic(unique_path(directory, safe_stem(name), stamp), clean(text))
        except OSError as exc:
            self.notify(str(exc), title=t("error.title.export", language), severity="error")
            return
        self.notify(
            t("note.exported", language, path=str(path)),
            title=t("note.export_title", language),
            timeout=10,
        )

    def action_copy_answer(self) -> None:
        """Copy the selected answer's Markdown to the clipboard."""
        answer = self.selected or self.last_answer
        if answer is None:
            self.notify(t("note.nothing", self._language()), severity="warning")
            return
        self.app.copy_to_clipboard(clean(answer.text))  # never an escape sequence
        self.notify(t("note.copied", self._language(), n=len(answer.text)))
