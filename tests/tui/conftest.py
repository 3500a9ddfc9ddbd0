"""Fixtures for the chat app: the real retriever (USE-m, faiss, jieba) and a fixed clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from assistant.records import Answer
    from assistant.tui.app import AssistantApp

FIXED_NOW = datetime(2026, 3, 1, 9, 30, 0)


def fixed_clock() -> datetime:
    """The time shown on bubbles and used in export names, fixed for snapshots."""
    return FIXED_NOW


@pytest.fixture(scope="session")
def real_retriever(shared_index_home: Path) -> Any:
    """One real retriever over the shipped knowledge, shared by the chat tests."""
    from assistant.config import Settings
    from assistant.retrieval.engine import open_retriever

    return open_retriever(Settings(home=shared_index_home))


@pytest.fixture
def make_test_app(kb_home: Path, real_retriever: Any) -> Callable[..., AssistantApp]:
    """`make_app` with the real retriever already loaded (or `loaded=False` to load it)."""
    from assistant.config import Settings
    from assistant.tui.app import make_app

    def build(*, loaded: bool = True, ui_language: str = "zh", **settings: Any) -> AssistantApp:
        config = Settings(ui_language=ui_language, **settings)  # type: ignore[arg-type]
        retriever = real_retriever if loaded else None
        return make_app(config, retriever=retriever, clock=fixed_clock)

    return build


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 90) -> None:
    """Let the app run until `condition()` holds (answers take seconds on 2 shared cores)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            msg = "timed out waiting for the app"
            raise AssertionError(msg)
        await pilot.pause(0.05)
    await pilot.pause()


async def ask(pilot: Pilot[Any], question: str) -> None:
    """Type `question` into the prompt (character by character, like a user) and send it."""
    for character in question:
        await pilot.press(character)
    await pilot.press("enter")


async def ask_and_wait(pilot: Pilot[Any], question: str) -> None:
    """Ask and wait until the answer (or a failure) is on screen."""
    app: AssistantApp = pilot.app  # type: ignore[assignment]
    before = app.chat.turn
    await ask(pilot, question)
    # The turn counter moves when the submit is handled; until then nothing is pending either.
    await wait_until(pilot, lambda: app.chat.turn > before and app.chat.pending_turn is None)


def answers(app: AssistantApp) -> list[Answer]:
    """The answers on screen, oldest first."""
    from assistant.tui.widgets.transcript import AnswerBubble

    return [bubble.answer for bubble in app.screen.query(AnswerBubble)]


class NoSearch:
    """The retriever of apps that only show fixed sample answers: asking one a question is a
    mistake in the test (those tests use `make_test_app` and the real retriever)."""

    def search(self, *_args: Any, **_kwargs: Any) -> Any:
        msg = "this app shows fixed sample answers; it does not search"
        raise AssertionError(msg)


@pytest.fixture
def make_sample_app() -> Callable[..., AssistantApp]:
    """`make_app` for showing fixed answers (`tests/tui/samples.py`): no encoder, no index."""
    from assistant.config import Settings
    from assistant.tui.app import make_app

    def build(*, ui_language: str = "zh") -> AssistantApp:
        config = Settings(ui_language=ui_language)  # type: ignore[arg-type]
        return make_app(config, retriever=NoSearch(), clock=fixed_clock)

    return build


async def show_answers(pilot: Pilot[Any], *answers: Answer) -> None:
    """Put fixed answers in the transcript, as if they had been asked at the fixed time."""
    app: AssistantApp = pilot.app  # type: ignore[assignment]
    for answer in answers:
        app.chat.show_turn(answer.question, answer, app.now_label())
    await pilot.pause()
    from tests.tui.harness import panels_built

    await panels_built(pilot)
