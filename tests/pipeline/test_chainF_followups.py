"""Follow-ups the chainF probe found unread or misthreaded: "how many would I need?" asked of
the thread's card, and a turn refused as bad input that the golden bench followed up on."""

from __future__ import annotations

from typing import Any

import pytest

from calculators.errors import CalculatorInputError
from calculators.messages import Msg
from tests.pipeline.conftest import golden_bench as _bench
from tests.pipeline.conversation import chain

SERVE = "Can 2x A100 80GB serve Llama-3.1-70B at 8k context for 30 users?"


@pytest.mark.parametrize(
    "question",
    [
        "how many would I need?",
        "how many will we need?",
        "how many would we need for this?",
        "so how many does it take?",
        "how many are needed?",
        "how many do I need?",
    ],
)
def test_how_many_with_no_noun_asks_the_threads_card_count(question: str) -> None:
    query = chain(SERVE, question)
    assert query.followup
    assert "gpu_count" in query.asks
    assert query.scenario.model == "Llama-3.1-70B"
    assert query.scenario.concurrency == 30


@pytest.mark.parametrize(
    "question",
    ["how many tokens would I need?", "how many days would it take?"],
)
def test_how_many_with_its_own_noun_is_not_a_card_count(question: str) -> None:
    assert "gpu_count" not in chain(SERVE, question).asks


def test_the_bench_skips_a_refused_chain_turn_as_the_cli_does() -> None:
    """A refused turn (raised, or answered with a refusal) leaves the thread where it was."""
    seen: list[Any] = []

    def answerer(question: str, previous: Any) -> tuple[dict[str, Any], Any]:
        seen.append(previous)
        if question == "raise":
            refused = Msg("invalid.too_large", maximum=1e6)
            raise CalculatorInputError("gpu_count", "1e999", refused)  # noqa: EM101
        refusal = object() if question == "refuse" else None
        return {bench.REFUSAL: refusal}, question

    bench = _bench()
    bench._answer_row(answerer, {"chain": ["first", "raise", "refuse"], "question": "last"})
    assert seen == [None, "first", "first", "first"]


@pytest.mark.parametrize(
    ("question", "users"),
    [
        ("用户数翻倍呢", 64),  # was read as nothing at all: off-topic
        ("人数减半呢", 16),
        ("what about twice as many people?", 64),
        ("double the sessions?", 64),
        ("double the users?", 64),
    ],
)
def test_a_relative_change_of_the_users_scales_the_concurrency(question: str, users: int) -> None:
    query = chain("8张H20推理Qwen2.5-72B，32个并发", question)
    assert query.followup
    assert query.scenario.concurrency == users
    assert query.changed_slots == ("concurrency",)


@pytest.mark.parametrize(
    ("first", "question", "card", "count"),
    [
        (SERVE, "instead of the A100, use H200", "H200 SXM 141GB", 2),
        (SERVE, "replace the A100 with H200", "H200 SXM 141GB", 2),
        (SERVE, "swap the A100s for H200s", "H200 SXM 141GB", 2),
        (SERVE, "what if we move from A100 to H200?", "H200 SXM 141GB", 2),
        (SERVE, "H200 instead of A100?", "H200 SXM 141GB", 2),  # the used card first: as before
        ("8张H100推理Llama-3.1-70B，20个并发", "不用H100，用H200", "H200 SXM 141GB", 8),
        ("8张H100推理Llama-3.1-70B，20个并发", "把H100换成H200", "H200 SXM 141GB", 8),
        ("8张H100推理Llama-3.1-70B，20个并发", "H100换成H200呢", "H200 SXM 141GB", 8),
        ("8张H100推理Llama-3.1-70B，20个并发", "用H200代替H100呢", "H200 SXM 141GB", 8),
        ("8张H100推理Llama-3.1-70B，20个并发", "把8张H100换成16张H20呢", "H20 96GB", 16),
    ],
)
def test_the_replaced_card_named_first_is_not_the_one_used(
    first: str, question: str, card: str, count: int
) -> None:
    query = chain(first, question)
    assert query.followup
    assert query.scenario.gpu == card
    assert query.scenario.gpu_count == count
    assert "gpu" in query.changed_slots


def test_two_cards_compared_are_still_a_comparison() -> None:
    query = chain("H100和H200哪个更适合推理Llama-3.1-70B")
    assert "compare" in query.asks
    assert query.scenario.gpu == "H100 SXM 80GB"


def test_a_format_the_card_lacks_is_still_named_as_changed() -> None:
    """ "用FP8呢" on A100s is answered in BF16 (said), but the user did change the precision:
    the answer must not call it the same set-up as the previous question."""
    from assistant.config import Settings
    from assistant.pipeline import answer

    settings = Settings()
    first = answer("2台8卡A100训练13B模型，500B token", settings=settings)
    fp8 = answer("用FP8呢", settings=settings, previous=first.query)
    assert fp8.query.changed_slots == ("precision",)
    assert "沿用上一问的设定" not in fp8.text
    bf16 = answer("用bf16呢", settings=settings, previous=first.query)
    assert bf16.query.changed_slots == ()  # the value the previous answer already used


@pytest.mark.parametrize(
    "question",
    ["how fast is the first token?", "how long until the first token shows up?", "首个token多快？"],
)
def test_how_fast_the_first_token_comes_is_the_first_token_ask(question: str) -> None:
    query = chain(SERVE, question)
    assert query.followup  # was a conceptual question of its own (an MoE passage)
    assert "first_token" in query.asks


@pytest.mark.parametrize(
    "question",
    [
        "and if each node had only 4 GPUs?",
        "what if every server has just 4 GPUs?",
        "如果每台只有4张卡呢",
    ],
)
def test_each_node_having_fewer_gpus_regroups_the_same_cards(question: str) -> None:
    query = chain("Can 8x A100 serve Llama-3.1-70B at 8k context for 20 users?", question)
    assert query.changed_slots == ("gpus_per_node",)
    assert (query.scenario.gpu_count, query.scenario.nodes) == (8, 2)


@pytest.mark.parametrize(
    ("question", "slot", "value"),
    [
        ("少2张呢", "gpu_count", 6),  # was read as 2 cards (and "少4张" as 4 only by chance)
        ("with 2 fewer GPUs?", "gpu_count", 6),  # was a conceptual question of its own
        ("remove 2 GPUs?", "gpu_count", 6),
        ("去掉4张卡呢", "gpu_count", 4),
        ("至少4张卡够吗", "gpu_count", 4),  # a bound, not 4 fewer
    ],
)
def test_fewer_cards_are_taken_off_the_previous_count(question: str, slot: str, value: int) -> None:
    query = chain("8张H100推理Llama-3.1-70B，上下文8k，20个并发", question)
    assert query.followup
    assert getattr(query.scenario, slot) == value


@pytest.mark.parametrize("question", ["减少1台呢", "one less node?", "drop 1 server"])
def test_fewer_nodes_are_taken_off_the_previous_nodes(question: str) -> None:
    query = chain("三台8卡H100训练13B模型，500B token", question)
    assert query.scenario.nodes == 2
    assert query.changed_slots == ("nodes",)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("remove 2 GPUs", "en"),  # English imperatives: was answered in Chinese
        ("use H200", "en"),
        ("drop 1 server", "en"),
        ("4-bit?", "zh"),  # no prose: keeps the conversation's language
        ("batch改成128呢", "zh"),
    ],
)
def test_an_english_imperative_follow_up_is_answered_in_english(
    question: str, language: str
) -> None:
    assert chain("8张H100推理Llama-3.1-70B，上下文8k，20个并发", question).language == language
