"""Whole conversations of the golden set (tests/golden/chains5.jsonl) typed into the chat app:
each turn, as the app answers it, must carry the slots its row expects and say exactly which
slots changed ("在上一问的基础上改了：…"), as `ask --continue` does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from assistant.render.serialize import answer_to_json
from assistant.tui.app import AssistantApp
from assistant.tui.widgets.transcript import AnswerBubble
from tests.pipeline.conftest import golden_bench
from tests.tui.conftest import ask_and_wait

pytestmark = [pytest.mark.asyncio, pytest.mark.e2e]
MakeApp = Callable[..., AssistantApp]


def conversation(name: str) -> list[dict[str, Any]]:
    """The rows of one chains5 conversation, turn by turn (each row is one more turn)."""
    bench = golden_bench()
    rows = [
        row
        for row in bench.load_golden()
        if row["file"] == "chains5" and str(row.get("conversation", "")).startswith(f"{name}.")
    ]
    return sorted(rows, key=lambda row: len(row.get("chain", ())))


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("c02", "zh"),  # two slots at once, back to the A100, then "需要几张"
        ("c03", "en"),  # "back to bf16", "8 of them", a task switch, then a new question
        ("c06", "zh"),  # the Jilin site, "再加一台呢", "换成H100呢", a new site question
    ],
)
async def test_a_conversation_typed_into_the_app_keeps_and_drops_the_right_slots(
    make_test_app: MakeApp, name: str, language: str
) -> None:
    rows = conversation(name)
    assert len(rows) >= 4
    for earlier, later in zip(rows, rows[1:], strict=False):
        assert later["chain"] == [*earlier.get("chain", ()), earlier["question"]]
    bench = golden_bench()
    app = make_test_app(ui_language=language)
    async with app.run_test(size=(100, 32)) as pilot:
        for row in rows:
            await ask_and_wait(pilot, row["question"])
        shown = [bubble.answer for bubble in app.screen.query(AnswerBubble)]
    assert len(shown) == len(rows)
    problems = {
        row["conversation"]: bench.check_row(row, answer_to_json(answer))
        for row, answer in zip(rows, shown, strict=True)
    }
    assert not any(problems.values()), problems
    assert len({answer.conversation_id for answer in shown}) == 1
