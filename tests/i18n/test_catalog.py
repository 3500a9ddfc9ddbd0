"""The message catalog: every key in both languages with the same placeholders."""

from __future__ import annotations

import re

import pytest

from assistant.i18n import catalog, placeholders, t, text
from assistant.i18n.numbers import bytes_text, count_text, duration_text, percent_text
from calculators.messages import Msg

KEYS = sorted(catalog())


def test_catalog_is_not_empty() -> None:
    assert "common.gpus" in KEYS


@pytest.mark.parametrize("key", KEYS)
def test_both_languages_with_the_same_placeholders(key: str) -> None:
    entry = catalog()[key]
    assert entry["en"].strip(), f"{key}: no English text"
    assert entry["zh"].strip(), f"{key}: no Chinese text"
    assert placeholders(entry["en"]) == placeholders(entry["zh"]), key


_HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("key", KEYS)
def test_english_text_has_no_chinese(key: str) -> None:
    assert not _HAN.search(catalog()[key]["en"]), key


def test_nested_messages_and_lists_render_in_one_language() -> None:
    gpus = Msg("common.gpus", count=8, gpu="H100")
    assert text(gpus, "zh") == "8 张 H100"
    assert t("common.gpus", "en", count=1024, gpu="A100") == "1,024 × A100"


def test_unknown_key_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        t("no.such.key", "en")


@pytest.mark.parametrize(
    ("value", "lang", "expected"),
    [
        (90, "en", "1.5 min"),
        (90, "zh", "1.5 分钟"),
        (34 * 86400, "en", "34 days"),
        (3 * 365.25 * 86400, "zh", "3 年"),  # boundary: two years and more are years
        (0.0123, "zh", "12.3 毫秒"),
    ],
)
def test_durations(value: float, lang: str, expected: str) -> None:
    assert duration_text(value, lang) == expected  # type: ignore[arg-type]


def test_counts_bytes_percent() -> None:
    assert count_text(1.4e12, "zh") == "1.4万亿"
    assert count_text(7e10, "en") == "70B"
    assert bytes_text(80e9) == "80.0 GB (74.5 GiB)"
    assert percent_text(0.4) == "40%"
    assert percent_text(0.025) == "2.5%"


def test_msg_is_a_value() -> None:
    a = Msg("common.gpus", count=8, gpu="H100")
    assert a == Msg("common.gpus", gpu="H100", count=8)
    assert hash(a) == hash(Msg("common.gpus", gpu="H100", count=8))
    assert dict(a) == {"count": 8, "gpu": "H100"}
    with pytest.raises(ValueError, match="bad message key"):
        Msg(" x")


def _strings_in_code() -> tuple[set[str], set[str]]:
    """Every string constant in assistant/ and calculators/, and the key prefixes: every
    f-string's literal start and every constant that ends in a dot (`f"common.verdict.{v}"`
    → "common.verdict.")."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    constants: set[str] = set()
    prefixes: set[str] = set()
    for package in ("assistant", "calculators"):
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    constants.add(node.value)
                    if node.value.endswith("."):  # a table read by prefix: "label.figure."
                        prefixes.add(node.value)
                elif isinstance(node, ast.JoinedStr) and node.values:
                    first = node.values[0]
                    if isinstance(first, ast.Constant) and str(first.value).endswith("."):
                        prefixes.add(str(first.value))
    return constants, prefixes


def test_every_key_is_used() -> None:
    # A key no code names is dead text: it drifts from what the code says and is translated
    # for nothing. A key built at run time must start with an f-string's literal prefix.
    constants, prefixes = _strings_in_code()
    unused = [
        key for key in KEYS if key not in constants and not any(map(key.startswith, prefixes))
    ]
    assert unused == []


@pytest.mark.parametrize(
    ("code", "zh", "en"),
    [
        ("CNY", "3,586 元", "3,586 CNY"),
        ("USD", "3,586 美元", "3,586 USD"),
        ("", "3,586 ", "3,586 "),  # no currency stated: nothing after the amount
    ],
)
def test_a_currency_code_is_said_in_the_answers_language(code: str, zh: str, en: str) -> None:
    # answer.cost: "约需 {cost:int} {currency:currency}（…）" in Chinese; "CNY" stays in English
    assert t("answer.cost", "zh", cost=3586, currency=code, hours=448).startswith("约需 " + zh)
    assert en in t("answer.cost", "en", cost=3586, currency=code, hours=448)
