"""Wording: formulas keep their math and speak the answer's language; no mixed fragments."""

from __future__ import annotations

import re

import pytest

from assistant.i18n import catalog, text
from assistant.render import fmt_seconds
from calculators._memory_parts import training_formula

#: English prose words that must not be left inside a Chinese formula.
_PROSE = re.compile(
    r"\b(?:per|of|over|with|for|the|on|hierarchical|workspace|serving|deployment|concurrent|"
    r"replicas?|frozen|activations|weights|bytes|decode|prefill|cost|price|stage|layer|"
    r"micro-batch|boundary|group)\b"
)
#: Every formula in the catalog, as written (placeholders unfilled).
FORMULAS = sorted(key for key in catalog() if key.startswith("formula."))


def test_the_formulas_are_in_the_catalog() -> None:
    assert len(FORMULAS) >= 15


@pytest.mark.parametrize("key", FORMULAS)
def test_chinese_formulas_have_no_english_prose(key: str) -> None:
    zh = re.sub(r"\{[^}]*\}", "", catalog()[key]["zh"])  # placeholders are not words
    assert not _PROSE.search(zh), zh
    assert " x " not in zh


@pytest.mark.parametrize("key", FORMULAS)
def test_formulas_keep_their_math(key: str) -> None:
    en, zh = catalog()[key]["en"], catalog()[key]["zh"]
    assert " x " not in en
    for symbol in re.findall(r"\b[A-Za-z]+_[A-Za-z_]+\b|Ψ\S*", en):
        assert zh.count(symbol) == en.count(symbol), (symbol, zh)


def test_a_formula_is_filled_in_once_in_each_language() -> None:
    zero3 = training_formula((2.0, 2.0, 12.0), 3)
    assert text(zero3, "en").startswith("per GPU = 2Ψ/d + 2Ψ/d + 12Ψ/d with Ψ")
    assert text(zero3, "zh").startswith("每卡 = 2Ψ/d + 2Ψ/d + 12Ψ/d（Ψ")


def test_whole_durations_show_no_decimal() -> None:
    assert fmt_seconds(90 * 86400, "zh") == "90 天"
    assert fmt_seconds(12.6 * 86400, "en") == "12.6 days"
