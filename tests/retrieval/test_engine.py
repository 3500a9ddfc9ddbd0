"""The hybrid retriever on the shipped knowledge (prebuilt per session) and a small corpus."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assistant.config import Settings
from assistant.retrieval import Retriever
from assistant.retrieval.chunking import embedding_text
from assistant.retrieval.engine import HybridRetriever, open_retriever


@pytest.fixture
def shipped(kb_home: Path) -> HybridRetriever:
    return open_retriever(Settings())


@pytest.fixture
def small(tmp_path: Path, make_corpus) -> HybridRetriever:  # noqa: ANN001
    return open_retriever(Settings(home=tmp_path / "home", knowledge_dir=make_corpus()))


def test_it_implements_the_protocol(shipped: HybridRetriever) -> None:
    retriever: Retriever = shipped
    assert retriever.search("显存", 1)


def test_every_shipped_document_is_indexed(shipped: HybridRetriever) -> None:
    knowledge = Settings().knowledge_dir
    on_disk = {p.relative_to(knowledge).as_posix() for p in knowledge.rglob("*.md")}
    assert [s.source for s in shipped.data.skipped] == []
    assert {d["source"] for d in shipped.documents()} == on_disk


def test_zh_and_en_questions_find_the_same_document(shipped: HybridRetriever) -> None:
    zh = shipped.search("ZeRO-3 如何切分优化器状态和参数？", 3)
    en = shipped.search("How does ZeRO stage 3 shard optimizer states and parameters?", 3)
    assert "zero-fsdp" in [p.doc_id for p in zh]
    assert "zero-fsdp" in [p.doc_id for p in en]
    assert all(a.score >= b.score for a, b in zip(zh, zh[1:]))


def test_language_preference_swaps_in_translations(shipped: HybridRetriever) -> None:
    query = "Jilin GPU server network bandwidth limits"
    for lang in ("zh", "en"):
        results = shipped.search(query, 5, lang=lang)  # type: ignore[arg-type]
        assert results
        linked = [p for p in results if p.translation_id]
        assert linked
        assert all(p.lang == lang for p in linked)
        ids = {p.id for p in results}
        assert not any(p.translation_id in ids for p in results)  # never a passage and its twin


def test_off_topic_questions_find_nothing(shipped: HybridRetriever) -> None:
    assert shipped.search("红烧肉怎么做才好吃？", 5) == []
    assert shipped.search("Who won the football world cup in 1998?", 5) == []
    assert shipped.search("   ", 5) == []


@pytest.mark.parametrize(
    ("query", "template_expected"),
    [
        ("千卡集群用什么网络", False),  # shares 集群 with the template, but asks about fabrics
        ("which network fabric for a 1000 GPU cluster", False),
        ("怎么用站点档案模板描述我们的集群", True),  # asks about the template itself
        ("how do I describe my cluster with a site profile template", True),
    ],
)
def test_templates_are_cited_only_when_asked_about(
    shipped: HybridRetriever, query: str, template_expected: bool
) -> None:
    top = [p.doc_id for p in shipped.search(query, k=3)]
    assert top, query
    assert ("site-template" in top) == template_expected, top


def test_get_and_document_passages(shipped: HybridRetriever) -> None:
    hit = shipped.search("流水线并行的气泡", 1)[0]
    assert shipped.get(hit.id) == type(hit)(**{**hit.__dict__, "score": 0.0})
    assert shipped.get("no-such-id") is None
    passages = shipped.document_passages(hit.doc_id, hit.lang)
    assert hit.id in [p.id for p in passages]
    assert {p.lang for p in passages} == {hit.lang}
    both = shipped.document_passages(hit.doc_id)
    assert len(both) > len(passages)
    rows = [shipped.passages.index(p) for p in both]
    assert rows == sorted(rows)  # in document order


def test_dense_lane_matches_brute_force_cosine(shipped: HybridRetriever) -> None:
    query = "多机训练的网络带宽"
    vectors = shipped.data.vectors.reconstruct_n(0, len(shipped))
    brute = vectors @ shipped.encoder.encode([query])[0]
    expected = list(np.argsort(-brute)[:10])
    assert [row for row, _ in shipped.dense_hits(query, 10)] == expected


def test_a_keyword_only_match_is_found(small: HybridRetriever) -> None:
    hits = small.search("Adam 12 字节", 3)
    assert hits
    assert hits[0].doc_id == "memory"


def test_cross_lingual_hit_in_a_small_corpus(small: HybridRetriever) -> None:
    hits = small.search("how much power does a GPU server draw", 2, lang="zh")
    assert hits[0].doc_id == "net"
    assert hits[0].anchor == "power"
    assert hits[0].lang == "zh"


def test_site_profiles(small: HybridRetriever) -> None:
    (profile,) = small.site_profiles()
    assert (profile.id, profile.nodes, profile.gpus_per_node) == ("demo-site", 2, 8)
    assert "Demo cluster" in profile.aliases
    assert profile.source == "sites/demo.zh.md"


def test_embedding_text_carries_title_and_heading(small: HybridRetriever) -> None:
    passage = next(p for p in small.passages if p.anchor == "ib" and p.lang == "en")
    assert embedding_text(passage).startswith("Network > InfiniBand\n")


@pytest.mark.parametrize(
    "query",
    ["显存不够怎么办", "How much memory does the KV cache take?", "InfiniBand 带宽", "ZeRO-3"],
)
def test_one_passage_per_section(shipped: HybridRetriever, query: str) -> None:
    for lang in (None, "zh", "en"):
        hits = shipped.search(query, 5, lang=lang)  # type: ignore[arg-type]
        sections = [(p.doc_id, p.anchor or p.id) for p in hits]
        assert hits
        assert len(sections) == len(set(sections)), sections


def test_a_repeated_search_is_answered_from_the_kept_results(shipped: HybridRetriever) -> None:
    # An answer's checks search for fixed topic queries, question after question: the lanes
    # run once per distinct (query, k, lang), and the kept result equals a fresh search.
    runs: list[str] = []
    lanes = shipped.fused_hits

    def counted(query: str, k: int) -> list[tuple[int, float]]:
        runs.append(query)
        return lanes(query, k)

    shipped.fused_hits = counted  # type: ignore[method-assign]
    query = "GPU power TDP, PUE, power and cooling"
    first = shipped.search(query, 12, lang="zh")
    first.clear()  # a caller's changes to the list it got do not reach the kept result
    again = shipped.search(query, 12, lang="zh")
    assert runs == [query]
    assert again
    assert again == open_retriever(Settings()).search(query, 12, lang="zh")
    shipped.search(query, 12, lang="en")
    shipped.search(query, 5, lang="zh")
    assert len(runs) == 3
    doc_id = again[0].doc_id
    assert shipped.document_passages(doc_id, "zh") == shipped.document_passages(doc_id, "zh")
    shipped.document_passages(doc_id, "zh").clear()
    assert shipped.document_passages(doc_id, "zh")
