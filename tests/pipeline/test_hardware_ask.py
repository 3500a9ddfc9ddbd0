"""With a load and a model named, "what hardware / GPUs do we need?" asks how many of which card,
as "how many GPUs" does: the first line gives the count ("1.5k users on llama 3.1 8b, what
hardware do we need?" led with the memory fit, the count 250 characters in)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import main_ask
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "1.5k users on llama 3.1 8b, what hardware do we need?",
        "2k users on Qwen2.5-7B, what GPUs do we need?",
    ],
)
def test_what_hardware_with_a_load_asks_how_many(question: str) -> None:
    query = parse(question)
    assert main_ask(query) == "gpu_count"
    assert calculate(query).lead.startswith(("You need at least", "At least"))
