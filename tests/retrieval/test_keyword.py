"""The BM25 keyword lane, cross-checked against rank_bm25 (an independent implementation)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from assistant.retrieval.keyword import FUZZY_WEIGHT, K1, B, KeywordIndex, _edit_distance

CORPUS = [
    ["h800", "显存", "80gb", "训练", "千亿", "模型"],
    ["nvlink", "带宽", "900gb/s", "机内", "通信"],
    ["infiniband", "400gbps", "机间", "通信", "带宽", "带宽"],
    ["张量并行", "流水线并行", "数据并行", "通信", "显存"],
    ["功耗", "散热", "机房", "pue"],
    ["lora", "微调", "70b", "显存", "显存", "显存", "80gb", "a100"],
    ["推理", "kv", "cache", "显存", "上下文"],
]

QUERIES = [
    ["显存"],
    ["带宽", "通信"],
    ["训练", "千亿", "模型", "h800"],
    ["显存", "微调", "70b", "没有的词"],
    ["散热"],
]


def _rank_bm25_scores(corpus: list[list[str]], query: list[str]) -> list[float]:
    """rank_bm25's Okapi scores, with the non-negative idf we use: its own idf can go negative
    and is then floored at epsilon × mean idf, a choice we do not copy."""
    rank_bm25 = pytest.importorskip("rank_bm25", reason="test-only: pip install rank-bm25")

    class LuceneIdfBM25(rank_bm25.BM25Okapi):  # type: ignore[misc]
        def _calc_idf(self, nd: dict[str, int]) -> None:
            for word, freq in nd.items():
                self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))

    return list(LuceneIdfBM25(corpus, k1=K1, b=B).get_scores(query))


@pytest.fixture(scope="module")
def index() -> KeywordIndex:
    return KeywordIndex.from_tokens(CORPUS)


@pytest.mark.parametrize("query", QUERIES)
def test_scores_match_rank_bm25(index: KeywordIndex, query: list[str]) -> None:
    reference = _rank_bm25_scores(CORPUS, query)
    ours = index.scores([(term, 1.0) for term in query])
    assert list(ours) == pytest.approx(reference, rel=1e-9, abs=1e-12)


def test_one_score_worked_by_hand(index: KeywordIndex) -> None:
    # "散热" occurs once, only in passage 4 (4 tokens); N = 7, avgdl = 39 / 7.
    idf = math.log(1 + (7 - 1 + 0.5) / (1 + 0.5))
    tf_part = 1 * (K1 + 1) / (1 + K1 * (1 - B + B * 4 / (39 / 7)))
    assert index.scores([("散热", 1.0)])[4] == pytest.approx(idf * tf_part)


def test_term_weights_scale_contributions(index: KeywordIndex) -> None:
    single = index.scores([("带宽", 1.0)])
    assert list(index.scores([("带宽", 0.6)])) == pytest.approx(list(0.6 * single))
    # A repeated term adds up, as a repeated query word does in rank_bm25.
    assert list(index.scores([("带宽", 1.0), ("带宽", 1.0)])) == pytest.approx(list(2 * single))


def test_search_returns_matching_rows_best_first(index: KeywordIndex) -> None:
    hits = index.search([("显存", 1.0)], k=10)
    assert sorted(row for row, _ in hits) == [0, 3, 5, 6]
    assert hits[0][0] == 5  # three occurrences
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    assert len(index.search([("显存", 1.0)], k=2)) == 2


def test_normalised_score_is_one_for_each_term_once_at_average_length() -> None:
    corpus = [["a", "b", "x"], ["c", "d", "y"], ["a", "c", "z"]]
    index = KeywordIndex.from_tokens(corpus)
    assert index.search([("a", 1.0), ("b", 1.0)], k=3)[0] == (0, pytest.approx(1.0))
    # A query word the corpus lacks still counts in the ceiling: half the query matched.
    row, score = index.search([("b", 1.0), ("nowhere", 1.0)], k=3)[0]
    assert row == 0
    assert 0.0 < score < 0.6
    # Synonyms (weight < 1) add score but not ceiling.
    assert index.search([("a", 1.0), ("b", 0.6)], k=1)[0][1] > 1.0


def test_search_text_uses_the_tokenizer_and_synonyms() -> None:
    index = KeywordIndex.build(
        ["H800 80GB 显存足够训练", "InfiniBand bandwidth between nodes", "机房散热与功耗"]
    )
    assert index.search("H800 显存够吗", k=3)[0][0] == 0
    assert index.search("机间带宽", k=3)[0][0] == 1  # 带宽 ↔ bandwidth
    assert index.search("cooling and power", k=3)[0][0] == 2  # cooling ↔ 散热
    assert index.search("红烧肉", k=3) == []
    assert index.search("吗 what can", k=3) == []  # stopwords only


def test_json_round_trip_keeps_scores(index: KeywordIndex) -> None:
    data = json.loads(json.dumps(index.to_json()))
    again = KeywordIndex.from_json(data)
    for query in QUERIES:
        terms = [(t, 1.0) for t in query]
        assert list(again.scores(terms)) == list(index.scores(terms))
    assert len(again) == len(index)


@pytest.mark.parametrize(("field", "value"), [("tokenizer_version", "tok0-old"), ("format", 999)])
def test_json_from_another_tokenizer_is_refused(
    index: KeywordIndex, field: str, value: object
) -> None:
    data = index.to_json() | {field: value}
    with pytest.raises(ValueError, match="rebuild"):
        KeywordIndex.from_json(data)


def test_incremental_add_equals_a_full_build() -> None:
    grown = KeywordIndex.from_tokens(CORPUS[:3])
    grown.search([("带宽", 1.0)], k=3)  # fill the caches before growing
    grown.add_tokens(CORPUS[3:])
    full = KeywordIndex.from_tokens(CORPUS)
    for query in QUERIES:
        terms = [(t, 1.0) for t in query]
        assert list(grown.scores(terms)) == pytest.approx(list(full.scores(terms)))


def test_empty_index_finds_nothing() -> None:
    empty = KeywordIndex.build([])
    assert empty.search("显存", k=5) == []
    assert len(empty.scores([("显存", 1.0)])) == 0


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("memory", "memory", 0),
        ("memery", "memory", 1),  # substitution
        ("trainig", "training", 1),  # deletion
        ("modle", "model", 1),  # neighbours swapped count once
        ("paralellism", "parallelism", 1),
        ("kitten", "sitting", 3),
    ],
)
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert _edit_distance(a, b, budget=5) == distance


def test_edit_distance_stops_past_the_budget() -> None:
    assert _edit_distance("abcdefgh", "zyxwvuts", budget=2) == 3


@pytest.fixture(scope="module")
def english() -> KeywordIndex:
    return KeywordIndex.build(
        [
            "Training memory of large models on one server",
            "Activation recomputation trades compute for memory",
            "Expert parallelism for mixture-of-experts models",
        ]
    )


@pytest.mark.parametrize(
    ("query", "fixed", "typo"),
    [
        ("qlora memery", "memory", "memery"),
        ("huge modle", "model", "modle"),
        ("trainig run", "training", "trainig"),
        ("activaton recomputaion", "recomputation", "recomputaion"),
        ("expert paralellism", "parallelism", "paralellism"),
    ],
)
def test_misspelt_words_are_corrected_at_lower_weight(
    english: KeywordIndex, query: str, fixed: str, typo: str
) -> None:
    terms = dict(english.query_terms(query))
    assert terms[fixed] == FUZZY_WEIGHT
    assert typo not in terms


@pytest.mark.parametrize(
    "query",
    [
        "australia",  # no index word within one edit
        "mode",  # shorter than five letters: too many neighbours
        "a100x",  # has digits: a model name, not a typo
        "显存不够",  # CJK words are not corrected
    ],
)
def test_other_words_are_left_alone(english: KeywordIndex, query: str) -> None:
    assert all(weight != FUZZY_WEIGHT for _, weight in english.query_terms(query))


def test_a_corrected_query_finds_the_passage(english: KeywordIndex) -> None:
    assert english.search("activaton recomputaion", k=1)[0][0] == 1


def test_top_rows_equal_a_stable_sort_of_every_match() -> None:
    """Cross-check: the partial selection returns what sorting all matches gives, ties (many,
    from integer-valued scores) in row order."""
    from assistant.retrieval.keyword import _top_rows

    rng = np.random.default_rng(0)
    for _ in range(500):
        raw = rng.integers(0, 6, int(rng.integers(1, 300))).astype(np.float64)
        hits = np.flatnonzero(raw > 0.0)
        k = int(rng.integers(1, 50))
        expected = hits[np.argsort(-raw[hits], kind="stable")][:k]
        assert _top_rows(raw, hits, k).tolist() == expected.tolist()
