"""zh↔en synonyms derived from the knowledge base's translation pairs."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.records import Passage
from assistant.retrieval.pairs import MIN_PAIRS, derive, render
from assistant.retrieval.tokenize import DERIVED_WEIGHT, expand_query

DATA = Path(__file__).parents[2] / "assistant" / "data" / "synonyms_derived.tsv"


@pytest.fixture(scope="module")
def shipped_pairs() -> list[tuple[str, str, float]]:
    from assistant.config import Settings
    from assistant.retrieval.chunking import read_passages as _read_passages

    return derive(_read_passages([Path(Settings().knowledge_dir)]))


def test_the_derived_file_is_current(shipped_pairs: list[tuple[str, str, float]]) -> None:
    assert DATA.read_text(encoding="utf-8") == render(shipped_pairs), (
        "knowledge changed: run `python -m assistant.retrieval.pairs`"
    )


@pytest.mark.parametrize(
    ("zh", "en"), [("缓存", "cache"), ("稀疏", "sparse"), ("以太网", "ethernet")]
)
def test_real_translations_are_found(
    shipped_pairs: list[tuple[str, str, float]], zh: str, en: str
) -> None:
    assert (zh, en) in {(z, e) for z, e, _ in shipped_pairs}


def test_derived_synonyms_expand_queries_at_their_weight() -> None:
    assert dict(expand_query(["稀疏"]))["sparse"] == DERIVED_WEIGHT


def _pair(n: int, zh: str, en: str) -> list[Passage]:
    base = {"doc_id": "d", "source": "d", "title": "t", "heading": "", "anchor": f"s{n}"}
    return [
        Passage(id=f"z{n}", text=zh, lang="zh", translation_id=f"e{n}", **base),
        Passage(id=f"e{n}", text=en, lang="en", translation_id=f"z{n}", **base),
    ]


def test_words_that_travel_together_are_paired_and_others_not() -> None:
    passages = [p for n in range(MIN_PAIRS) for p in _pair(n, "气泡 很大", "the bubble is large")]
    passages += _pair(99, "气泡", "bubble")
    passages += _pair(98, "吞吐", "throughput")  # too rare: once only
    pairs = {(z, e) for z, e, _ in derive(passages)}
    assert ("气泡", "bubble") in pairs
    assert ("吞吐", "throughput") not in pairs
