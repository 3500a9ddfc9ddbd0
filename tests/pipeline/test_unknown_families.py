"""Issue 10 (names2): well-known model families the catalog lacks are named as missing, never
replaced by a default model, and ordinary words that share their spelling are not names."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.names import closest_entries, not_decoder_llm, unknown_names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("pretrain roberta-base on 4 ⟨gpu⟩", ("roberta-base",)),
        ("flan-t5-xl 微调要多少显存", ("flan-t5-xl",)),
        ("serve gpt-j-6b and pythia-12b", ("gpt-j-6b", "pythia-12b")),
        ("sdxl 和 stable diffusion 3.5 出图", ("sdxl", "stable diffusion 3.5")),
        ("train yolov8 and a vit-b/16", ("yolov8", "vit-b/16")),
        ("whisper-medium on ⟨gpu⟩", ("whisper-medium",)),
        # ordinary words spelled like a family are no names
        ("clip gradients at 1.0 while training", ()),
        ("opt in to activation recompute", ()),
        ("the vit of it", ()),
    ],
)
def test_known_families_outside_the_catalog_are_unknown_names(
    text: str, names: tuple[str, ...]
) -> None:
    assert unknown_names(text) == names


@pytest.mark.parametrize(
    ("name", "decoder"),
    [("DeBERTa-v3-large", False), ("SDXL", False), ("T5-11B", False), ("MPT-30B", True)],
)
def test_which_families_are_not_decoder_llms(name: str, decoder: bool) -> None:
    assert not_decoder_llm(name) is not decoder
    assert closest_entries(name)[0] == "model"  # never offered cards


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How long to pretrain RoBERTa-large on 8 H100?", "RoBERTa-large"),
        ("4张4090训练YOLOv8要多久", "YOLOv8"),
    ],
)
def test_an_unsized_family_gets_no_verdict_and_says_it_models_decoders(
    question: str, name: str
) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"
    assert name in outcome.lead
    assert "decoder" in outcome.lead or "解码器" in outcome.lead
    assert "7B" not in outcome.lead


def test_a_sized_llm_family_is_a_generic_model_of_that_size() -> None:
    query = parse("Can 2 RTX 4090 serve MPT-30B in int4?")
    assert query.unknown_names == ("MPT-30B",)
    outcome = calculate(query)
    assert outcome.mode == "verdict"
    assert "MPT-30B is not in the catalog" in outcome.lead
    assert "generic 30B" in outcome.lead


def test_a_sized_model_that_is_no_decoder_llm_is_evaluated_with_a_caveat() -> None:
    outcome = calculate(parse("Can 4 A100 80GB fine-tune T5-11B?"))
    assert outcome.mode == "verdict"
    assert "generic 11B" in outcome.lead
    assert "rough guide" in outcome.lead
