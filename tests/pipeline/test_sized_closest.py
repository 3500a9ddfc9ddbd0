"""An unknown encoder name ("BERT-large", "RoBERTa", "T5-11B") is offered the catalog's decoder
LLMs nearest its size, not the ones nearest its spelling, and the answer says the family is
not modelled; a decoder name with a size keeps its spelling matches, nearest in size first."""

from __future__ import annotations

import math

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.names import closest_entries
from assistant.parse.sized_names import size_of
from calculators.catalog.models import MODELS


@pytest.mark.parametrize(
    ("name", "size"),
    [("BERT-large", 340e6), ("RoBERTa", 125e6), ("T5-11B", 11e9), ("t5-large", 770e6)],
)
def test_encoder_names_get_entries_close_in_size(name: str, size: float) -> None:
    kind, closest = closest_entries(name)
    assert kind == "model"
    assert closest
    # the catalog's smallest models are ~0.5B: within 8x of the encoder's size (BERT-large's
    # spelling match was Mistral-Large-2, 123B: 360x)
    for entry in closest:
        assert size / 8 <= MODELS[entry].params <= size * 8
    assert size_of(name) == size


@pytest.mark.parametrize(
    ("question", "family"),
    [
        ("BERT-large 推理需要多少显存", "不是仅解码器"),
        ("How much memory to fine-tune RoBERTa-large?", "not a decoder-only"),
    ],
)
def test_the_answer_says_the_family_is_not_modelled(question: str, family: str) -> None:
    outcome = calculate(parse(question))
    assert family in outcome.lead
    assert "Mistral-Large" not in outcome.lead


def test_a_sized_decoder_name_lists_the_nearest_size_first() -> None:
    _, closest = closest_entries("Zephyr-Omega-13B")
    sizes = [abs(math.log(MODELS[n].params / 13e9)) for n in closest]
    assert sizes == sorted(sizes)
