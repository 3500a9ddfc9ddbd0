"""Language choices that are catalog data, not `== "zh"` branches in the stages: a refused
calculator input, the gap between sentences, a fix placed mid-sentence, the locale."""

from __future__ import annotations

import pytest

from assistant.i18n import (
    as_language,
    input_error,
    join_sentences,
    mid_sentence,
    system_language,
    t,
)
from calculators.errors import CalculatorInputError
from calculators.messages import Msg


def test_a_refused_input_is_a_catalog_message_only() -> None:
    exc = CalculatorInputError("gpus", 0, Msg("invalid.at_least", minimum=1))
    assert exc.message == Msg("errors.calculator_value", field="gpus", value="0", reason=exc.reason)
    assert str(exc) == "gpus=0: must be at least 1"
    assert exc.localized("en") == "gpus=0: must be at least 1"
    assert exc.localized("zh") == "gpus=0：必须至少为 1"
    with pytest.raises(TypeError):
        CalculatorInputError("gpus", 0, Msg("invalid.positive"), reason_zh="必须为正")  # type: ignore[call-arg]


def test_a_refused_slot_is_worded_in_each_language() -> None:
    exc = CalculatorInputError("gpu_count", -3.0, Msg("invalid.whole_at_least_1"))
    zh, en = input_error(exc, "zh"), input_error(exc, "en")
    assert zh.startswith(t("parse.slot.gpu_count", "zh") + " -3："), zh
    assert en.startswith(t("parse.slot.gpu_count", "en") + " -3: "), en


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Use ZeRO-3", "use ZeRO-3"),
        ("ZeRO-3 + recompute", "ZeRO-3 + recompute"),  # a name keeps its capitals
        ("LoRA rank 16", "LoRA rank 16"),
        ("H100 nodes", "H100 nodes"),  # a digit in the first word: a name
        ("", ""),
    ],
)
def test_mid_sentence(phrase: str, expected: str) -> None:
    assert mid_sentence(phrase) == expected


def test_a_fix_mid_sentence_is_lower_cased_in_english_only() -> None:
    assert t("headline.fix", "en", fix="Use ZeRO-3") == ". Simplest fix: use ZeRO-3"
    assert t("headline.fix", "zh", fix="Use ZeRO-3").endswith("：Use ZeRO-3")
    said = t("answer.beyond_stated", "en", change="Train for longer")
    assert said.endswith(": train for longer"), said


def test_sentences_are_joined_without_a_gap_in_chinese() -> None:
    assert join_sentences(["可行。", "约需 3 天。"], "zh") == "可行。约需 3 天。"
    assert join_sentences(["Feasible.", "", "About 3 days."], "en") == "Feasible. About 3 days."


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),  # LC_ALL wins
        ({"LC_ALL": "", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),  # an empty variable is unset
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_system_language(environ: dict[str, str], expected: str) -> None:
    assert system_language(environ) == expected


def test_as_language() -> None:
    assert [as_language(v) for v in ("zh", "en", "auto", "fr", None)] == [
        "zh",
        "en",
        "en",
        "en",
        "en",
    ]
