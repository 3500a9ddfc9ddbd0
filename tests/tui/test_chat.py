"""Pilot tests of the chat app with the real pipeline, encoder, faiss index and jieba."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, TabbedContent

from assistant.config import Settings
from assistant.pipeline import answer as pipeline_answer
from assistant.render.answer import verdict_label
from assistant.tui.app import AssistantApp, make_app
from assistant.tui.i18n import t
from assistant.tui.widgets.transcript import AnswerBubble, FailedBubble, PendingBubble
from tests.tui.conftest import answers, ask, ask_and_wait, fixed_clock, wait_until
from tests.tui.harness import assert_rows_fit, screen_lines, screen_text

pytestmark = [pytest.mark.asyncio, pytest.mark.e2e]
SIZE = (100, 32)
FOUNDING = "吉林GPU服务器能训练千亿模型吗?"

MakeApp = Callable[..., AssistantApp]


@pytest.mark.parametrize(
    ("question", "language"),
    [
        (FOUNDING, "zh"),
        ("Can 8x RTX 4090 fine-tune a 70B model with QLoRA?", "en"),
        ("Llama-3.1-8B 推理需要多少显存?", "zh"),  # an estimate: no hardware named
    ],
)
async def test_a_question_shows_the_pipelines_verdict(
    make_test_app: MakeApp, real_retriever: Any, question: str, language: str
) -> None:
    app = make_test_app(ui_language=language)
    expected = pipeline_answer(question, settings=app.settings, retriever=real_retriever)
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, question)
        (shown,) = answers(app)
        assert shown.verdict == expected.verdict
        assert shown.binding_constraint == expected.binding_constraint
        assert shown.language == language
        bubble = app.screen.query_one(AnswerBubble)
        assert bubble.has_class(f"-{expected.verdict}")
        # The label `ask` shows ("估算" for an estimate), said once: the badge, not the text too.
        label = verdict_label(expected, language)  # type: ignore[arg-type]
        assert screen_text(app).count(f" {label} ") == 1
        assert app.chat.panel.answer == shown  # the panel follows the newest answer
        assert_rows_fit(app)


async def test_a_follow_up_changes_one_slot(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        await ask_and_wait(pilot, "那用H100呢?")
        first, second = answers(app)
        assert second.query.followup
        assert second.query.changed_slots == ("gpu",)
        assert "H100" in (second.query.scenario.gpu or "")
        assert second.query.scenario.gpu != first.query.scenario.gpu
        assert second.conversation_id == first.conversation_id is not None
        # The Scenario tab shows the new GPU under its label, not the raw slot name.
        panel = [line.rsplit("▏", 1)[-1] for line in screen_lines(app)]
        assert any(line.lstrip().startswith("GPU ") and "H100" in line for line in panel)
        assert not any(line.lstrip().startswith("gpu") for line in panel)


async def test_a_new_question_after_a_follow_up_inherits_nothing(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, "两台8卡A100训练70B模型")
        await ask_and_wait(pilot, "再加一台呢")
        await ask_and_wait(pilot, "那 Qwen2.5-7B 用一张 4090 全参微调行吗")
        first, added, fresh = answers(app)
        assert added.query.followup
        assert added.query.changed_slots == ("nodes",)
        assert added.query.scenario.nodes == 3
        # starts with 那 but names its own model, task and card: a question of its own
        assert not fresh.query.followup
        assert fresh.query.scenario.model == "Qwen2.5-7B"
        assert fresh.query.scenario.nodes is None
        assert "在上一问的基础上改了" not in fresh.text
        assert "在上一问的基础上改了" in added.text
        assert fresh.conversation_id == first.conversation_id  # the same conversation


async def test_new_conversation_forgets_the_context(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        first_id = answers(app)[0].conversation_id
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert answers(app) == []
        assert app.chat.panel.answer is None
        await ask_and_wait(pilot, "那用H100呢?")
        (fresh,) = answers(app)
        assert not fresh.query.followup
        assert fresh.conversation_id not in (None, first_id)
        assert len(app.store.list_conversations()) == 2


async def test_export_writes_the_conversation_and_says_where(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        await pilot.press("ctrl+s")
        await pilot.pause()
        files = list((app.settings.home / "exports").glob("*.md"))
        assert len(files) == 1
        text = files[0].read_text(encoding="utf-8")
        assert FOUNDING in text
        assert answers(app)[0].text.strip()[:40] in text
        assert any(str(files[0]) in n.message for n in app.chat.notices.shown)
        await app.run_action("export_answer", app.chat)  # the palette's "export selected answer"
        assert len(list((app.settings.home / "exports").glob("*.md"))) == 2


async def test_copy_puts_the_selected_answer_on_the_clipboard(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        await pilot.press("f4")
        assert app.clipboard == answers(app)[0].text


async def test_a_broken_configuration_is_a_notification_not_a_crash(
    make_test_app: MakeApp,
) -> None:
    app = make_test_app(loaded=False, encoder="no-such-encoder")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.load_state == "failed")
        (note,) = [n for n in app.chat.notices.shown if n.severity == "error"]
        assert note.title == t("error.title.index", "zh")
        assert "no-such-encoder" in note.message
        await ask_and_wait(pilot, FOUNDING)
        assert answers(app) == []
        assert len(app.screen.query(FailedBubble)) == 1
        assert app.is_running


@pytest.fixture
def index_being_built(
    _isolated_home: Path, shared_index_home: Path
) -> Iterator[Callable[[], None]]:
    """A home with no index whose writers' lock another process holds (as during a rebuild).

    The app's loader must wait for the lock; calling the returned function finishes the
    "other process": it puts the index in place and releases the lock.
    """
    from filelock import FileLock

    from assistant import locations

    lock = FileLock(str(locations.lock_path("index")))
    lock.acquire()

    def finish() -> None:
        shutil.copytree(shared_index_home / "index", locations.index_dir())
        lock.release()

    yield finish
    if lock.is_locked:
        lock.release()


def _loading_app() -> AssistantApp:
    return make_app(Settings(ui_language="zh"), clock=fixed_clock)


async def test_a_question_typed_during_loading_is_answered_when_ready(
    index_being_built: Callable[[], None],
) -> None:
    app = _loading_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, FOUNDING)
        await pilot.pause(0.3)
        assert app.load_state == "loading"
        (pending,) = app.screen.query(PendingBubble)
        assert pending.waiting
        assert t("bubble.waiting", "zh") in screen_text(app)
        assert "重建" in app.load_detail  # the loader says the index is being (re)built
        index_being_built()
        await wait_until(pilot, lambda: app.chat.pending_turn is None)
        assert app.load_state == "ready"
        (shown,) = answers(app)
        assert shown.question == FOUNDING


async def test_escape_cancels_a_waiting_question(index_being_built: Callable[[], None]) -> None:
    app = _loading_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, FOUNDING)
        await pilot.press("escape")
        await pilot.pause()
        assert t("bubble.cancelled", "zh") in screen_text(app)
        index_being_built()
        await wait_until(pilot, lambda: app.load_state == "ready")
        await pilot.pause(0.3)
        assert answers(app) == []
        await ask_and_wait(pilot, FOUNDING)  # the app still answers afterwards
        assert len(answers(app)) == 1


async def test_history_reopens_a_past_conversation(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        original = answers(app)[0]
        await pilot.press("ctrl+n", "f3")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        (reopened,) = answers(app)
        assert reopened.question == original.question
        assert reopened.verdict == original.verdict
        assert app.chat.conversation_id == original.conversation_id
        await ask_and_wait(pilot, "那用H100呢?")  # the reopened context carries over
        assert answers(app)[-1].query.changed_slots == ("gpu",)


async def test_language_toggle_relabels_the_interface(make_test_app: MakeApp) -> None:
    app = make_test_app(ui_language="zh")
    async with app.run_test(size=SIZE) as pilot:
        tabs = app.screen.query_one(TabbedContent)
        assert str(tabs.get_tab("tab-sources").label) == "来源"
        await pilot.press("f2")
        await pilot.pause()
        assert app.ui_language == "en"
        assert str(tabs.get_tab("tab-sources").label) == "Sources"
        assert "New chat" in screen_text(app)


async def test_the_command_palette_starts_a_new_conversation(make_test_app: MakeApp) -> None:
    app = make_test_app(ui_language="en")
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        await pilot.press("ctrl+p")
        await pilot.pause()
        for character in "new conv":
            await pilot.press(character)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert answers(app) == []
        assert app.chat.conversation_id is None


async def test_markup_and_escapes_in_a_question_are_shown_literally(
    make_test_app: MakeApp,
) -> None:
    app = make_test_app()
    question = "[bold red]8张H100[/bold red] \x1b[31m能训练70B模型吗?\x1b[0m"
    async with app.run_test(size=SIZE) as pilot:
        app.chat.query_one("#prompt-input", Input).value = question
        await pilot.press("enter")
        # Wait for the answer itself, not for "nothing pending": under load the submit may not
        # have been handled yet when the first check runs, and nothing is pending then either.
        await wait_until(pilot, lambda: app.chat.pending_turn is None and len(answers(app)) == 1)
        await wait_until(pilot, lambda: "8张H100" in screen_text(app))  # painted
        text = screen_text(app)
        assert "[bold red]8张H100[/bold red]" in text
        assert "␛[31m" in text
        assert "\x1b" not in text
        assert len(answers(app)) == 1
        assert_rows_fit(app)


async def test_a_question_that_is_only_escapes_is_refused_with_a_message(
    make_test_app: MakeApp,
) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        app.chat.query_one("#prompt-input", Input).value = "\x1b[2J\x1b[H"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.chat.pending_turn is None)
        assert answers(app) == []
        (note,) = [n for n in app.chat.notices.shown if n.severity == "error"]
        assert note.title == t("error.title.answer", "zh")
        assert app.is_running


async def test_at_80x24_a_real_answer_is_compact_and_its_citation_opens_from_the_keyboard(
    make_test_app: MakeApp,
) -> None:
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ask_and_wait(pilot, FOUNDING)
        (answer,) = answers(app)
        bubble_text = screen_text(app)
        assert not app.chat.panel.display  # the answer has the whole width
        assert "公式：" not in bubble_text  # formulas live in the Calculations tab
        await pilot.press("tab")  # the transcript
        await pilot.press("f5", "right", "right", "tab", "enter")  # panel, Sources, [1]
        await pilot.pause()
        first = answer.citations[0].passage
        assert first.source in screen_text(app)
        assert_rows_fit(app)
        await pilot.press("escape", "escape")  # back to the list, back to the chat
        await pilot.pause()
        assert app.chat.transcript.display
        assert not app.chat.panel.display
