"""The "在上一问的基础上改了：…" line names exactly the slots whose effective value moved, in
both languages: a follow-up stating the value the previous answer already used changed nothing."""

from __future__ import annotations

import pytest

from assistant.calculate.followup import changed_note, settled
from assistant.parse import parse
from assistant.records import Query
from tests.pipeline.test_followup_rules import JILIN


def last_turn(*turns: str) -> Query:
    """The last turn parsed as a follow-up of the one before, its changes settled."""
    previous: Query | None = None
    for turn in turns:
        query = parse(turn, sites=[JILIN], previous=previous)
        previous = settled(query, previous, [JILIN])
    assert previous is not None
    return previous


@pytest.mark.parametrize(
    ("turns", "note"),
    [
        # the value the previous answer already used: nothing moved
        (("8张A100推理Llama-3.1-70B", "用bf16呢"), "沿用上一问的设定。"),
        (
            ("Can 8 H100 serve Llama-3.1-70B?", "with 4k context?"),
            "Same set-up as the previous question.",
        ),
        (("吉林GPU服务器能推理Qwen2.5-72B吗", "8张卡呢"), "沿用上一问的设定。"),
        # a real change is still named, and only it
        (("8张A100推理Llama-3.1-70B", "用int8呢"), "在上一问的基础上改了：精度/量化。"),
        (
            ("8张A100能全参微调Qwen2.5-7B吗", "用ZeRO-3和4k上下文呢"),
            "在上一问的基础上改了：ZeRO 阶段。",
        ),
        (
            ("8张A100能推理Llama-3.1-70B吗，上下文8k", "换成H800，上下文改成32k"),
            "在上一问的基础上改了：GPU 型号、上下文长度。",
        ),
        (
            ("Can 8 A100 serve Llama-3.1-70B?", "switch to H200 and 8k context"),
            "Changed from the previous question: GPU model, context length.",
        ),
        (("吉林GPU服务器能推理Qwen2.5-72B吗", "再加一台呢"), "在上一问的基础上改了：节点数。"),
        # a new model is named, not only the word "model"
        (
            ("Can 4x A100 80GB serve Mixtral-8x7B in bf16?", "What about Qwen2-57B-A14B?"),
            "Changed from the previous question: model. Model now: Qwen2-57B-A14B.",
        ),
        (
            ("两台8卡A800能LoRA微调Llama-3.1-70B吗", "那Qwen2.5-72B呢"),
            "在上一问的基础上改了：模型。现在的模型：Qwen2.5-72B。",
        ),
    ],
)
def test_the_changed_line_names_only_what_moved(turns: tuple[str, ...], note: str) -> None:
    assert changed_note(last_turn(*turns)) == note


def test_an_estimate_keeps_what_it_states() -> None:
    """No hardware on either turn: nothing to fill in, the stated change is kept."""
    query = last_turn("Llama-3.1-8B 推理需要多少显存？", "用bf16呢")
    assert query.changed_slots == ("precision",)
