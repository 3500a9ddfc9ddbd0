"""Query-side Chinese handling: typo fixes, aliases, character bigrams (real jieba)."""

from __future__ import annotations

import pytest

from assistant.retrieval.aliases import BIGRAM_MARK, alias_terms, cjk_bigrams, fix_typos
from assistant.retrieval.keyword import ALIAS_WEIGHT, BIGRAM_WEIGHT, KeywordIndex
from assistant.retrieval.tokenize import tokenize


@pytest.mark.parametrize(
    ("typed", "fixed"),
    [
        ("A100功号多大", "a100功耗多大"),  # pinyin homophone
        ("训练现存不够", "训练显存不够"),
        ("流水线并型", "流水线并行"),
        ("显存带宽", "显存带宽"),  # correct text is left alone
    ],
)
def test_listed_typos_are_fixed(typed: str, fixed: str) -> None:
    assert fix_typos(typed) == fixed


@pytest.mark.parametrize(
    ("tokens", "added"),
    [
        (["ib"], {"infiniband"}),
        (["万兆"], {"10gbe", "ethernet", "以太网"}),
        (["首字"], {"ttft"}),
        (["英伟达"], {"nvidia"}),
        (["显存", "带宽"], set()),  # no alias: nothing added
    ],
)
def test_aliases_expand(tokens: list[str], added: set[str]) -> None:
    assert added <= set(alias_terms(tokens))
    assert not added and not alias_terms(tokens) or added


def test_domain_words_stay_whole() -> None:
    for word in ("英伟达", "东数西算", "万兆", "算力中心", "故障率"):
        assert tokenize(word) == [word]


def test_bigrams_skip_stop_characters_and_latin() -> None:
    assert cjk_bigrams("H100的功耗") == [BIGRAM_MARK + "功耗"]
    assert cjk_bigrams("GPU memory") == []


@pytest.fixture(scope="module")
def corpus() -> KeywordIndex:
    return KeywordIndex.build(
        [
            "地方算力中心的电价和机柜功耗",  # 0
            "InfiniBand 与以太网的带宽对比：10GbE 只有 1.25 GB/s",  # 1
            "首 token 延迟 TTFT 由 prefill 决定",  # 2
            "模型并行的通信量",  # 3
        ]
    )


@pytest.mark.parametrize(
    ("query", "row"),
    [
        ("算力 中心 电价", 0),  # segmented differently from the passage
        ("功号多少", 0),  # typo
        ("IB 带宽", 1),  # abbreviation
        ("万兆网卡够吗", 1),  # 万兆 → 10GbE
        ("首字延迟多少", 2),  # 首字 → TTFT
    ],
)
def test_colloquial_queries_find_the_passage(corpus: KeywordIndex, query: str, row: int) -> None:
    hits = corpus.search(query, 2)
    assert hits
    assert hits[0][0] == row


def test_expansions_are_weighted_below_typed_words(corpus: KeywordIndex) -> None:
    terms = dict(corpus.query_terms("IB 带宽多少"))
    assert terms["ib"] == 1.0
    assert terms["infiniband"] == ALIAS_WEIGHT
    assert terms[BIGRAM_MARK + "带宽"] == BIGRAM_WEIGHT


def test_an_unknown_abbreviation_does_not_dilute_the_score(corpus: KeywordIndex) -> None:
    # "ib" is not in the index, its alias is: the match counts as a full one.
    assert corpus.search("IB", 1)[0][1] >= corpus.search("infiniband", 1)[0][1] * 0.85


def test_known_share(corpus: KeywordIndex) -> None:
    assert corpus.known_share("IB 带宽") == 1.0
    assert corpus.known_share("红烧肉 做法") == 0.0
