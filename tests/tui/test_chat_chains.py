"""Pilot chains in the chat app: the thread follows the last answered turn (a refused one is
shown but not followed), a language switch keeps the scenario, and a question that names its
own model and task stands alone (assistant.parse.followup)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from assistant.tui.app import AssistantApp
from tests.tui.conftest import answers, ask_and_wait

pytestmark = [pytest.mark.asyncio, pytest.mark.e2e]
SIZE = (100, 32)
SERVE_70B = "Can 2x A100 80GB serve Llama-3.1-70B at 8k context for 30 users?"

MakeApp = Callable[..., AssistantApp]


async def test_a_refused_turn_is_shown_but_the_thread_goes_on_from_the_turn_before(
    make_test_app: MakeApp,
) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, "8张H100推理Llama-3.1-70B，上下文8k")
        await ask_and_wait(pilot, "用-5张卡呢")
        await ask_and_wait(pilot, "并发50个呢")
        first, refused, users = answers(app)
        assert refused.refusal is not None
        assert users.query.followup
        assert users.query.scenario.gpu_count == 8  # not the refused -5
        assert users.query.scenario.concurrency == 50
        assert "gpu_count" not in users.query.changed_slots
        assert users.verdict == "feasible"
        # the refused turn is not saved either: `ask --continue` follows the last answered one
        (conversation,) = app.store.list_conversations()
        turns = app.store.load(conversation.id).turns
        assert [turn.question for turn in turns] == [first.question, users.question]


async def test_a_concept_turn_is_answered_but_the_next_follow_up_goes_on_from_the_job(
    make_test_app: MakeApp,
) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        chain = ("吉林GPU服务器能训练千亿模型吗", "那用H100呢", "ZeRO-3是什么?", "如果有16台呢")
        for question in chain:
            await ask_and_wait(pilot, question)
        _, h100, concept, sixteen = answers(app)
        assert concept.verdict == "unknown"
        assert "concept" in concept.query.asks
        assert sixteen.query.followup
        assert sixteen.query.scenario.gpu == h100.query.scenario.gpu
        assert sixteen.query.scenario.params == h100.query.scenario.params
        assert sixteen.query.scenario.nodes == 16


async def test_a_language_switch_and_an_undo_keep_the_scenario(make_test_app: MakeApp) -> None:
    app = make_test_app()
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, "Can 8x A100 serve Llama-3.1-70B at 8k context for 20 users?")
        await ask_and_wait(pilot, "换成H800呢")
        await ask_and_wait(pilot, "还是用回A100")
        _, swapped, undone = answers(app)
        assert swapped.language == undone.language == "zh"
        assert swapped.query.scenario.gpu == "H800 SXM 80GB"
        assert undone.query.scenario.gpu == "A100 SXM 80GB"
        assert undone.query.changed_slots == ("gpu",)
        assert undone.query.scenario.concurrency == 20
        assert undone.query.scenario.context_length == 8192
        assert "在上一问的基础上改了：GPU 型号。" in undone.text


async def test_how_many_follows_and_a_question_of_its_own_does_not(make_test_app: MakeApp) -> None:
    app = make_test_app(ui_language="en")
    async with app.run_test(size=SIZE) as pilot:
        await ask_and_wait(pilot, SERVE_70B)
        await ask_and_wait(pilot, "how many would I need?")
        await ask_and_wait(pilot, "那Qwen2.5-7B推理要多少显存？")
        _, how_many, fresh = answers(app)
        assert how_many.query.followup
        assert "gpu_count" in how_many.query.asks
        assert how_many.query.scenario.model == "Llama-3.1-70B"
        assert how_many.query.scenario.concurrency == 30
        assert not fresh.query.followup  # names its own model and task
        assert fresh.query.scenario.model == "Qwen2.5-7B"
        assert fresh.query.scenario.concurrency is None
        assert "在上一问的基础上改了" not in fresh.text
