"""The prior for definitional questions: a section's first passage whose heading names the
asked term goes above worked examples; other questions are ranked as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.records import Passage
from assistant.retrieval.definitions import DefinitionPrior, coverage, defined_term
from assistant.retrieval.engine import HybridRetriever, open_retriever
from assistant.retrieval.tokenize import tokenize


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("What is the KV cache?", "KV cache"),
        ("what are expert-parallel all-to-alls", "expert-parallel all-to-alls"),
        ("What does PUE mean?", "PUE"),
        ("ZeRO-3 是什么?", "ZeRO-3"),
        ("什么是张量并行", "张量并行"),
        ("FSDP 是什么意思？", "FSDP"),
        ("请解释一下流水线气泡", "流水线气泡"),
        ("训练 70B 模型需要多少显存", None),
        ("How much memory does the KV cache take?", None),
        ("吉林GPU服务器能训练千亿模型吗?", None),
    ],
)
def test_defined_term(query: str, term: str | None) -> None:
    assert defined_term(query) == term


@pytest.mark.parametrize(
    ("term", "heading", "share"),
    [
        ("张量并行", "Tensor parallelism", 1.0),  # through the synonym map
        ("tensor parallelism", "张量并行", 1.0),
        ("KV cache", "Inference: the KV cache and grouped-query attention", 1.0),
        ("选择性重计算", "激活重计算", 0.5),
        ("KV cache", "Pipeline parallelism and the bubble", 0.0),
    ],
)
def test_heading_coverage(term: str, heading: str, share: float) -> None:
    assert coverage(tokenize(term), tokenize(heading)) == pytest.approx(share)


def _passage(n: int, heading: str, text: str, anchor: str) -> Passage:
    return Passage(
        id=f"p{n}",
        doc_id="serving",
        source="serving.en.md",
        title="Serving",
        heading=heading,
        text=text,
        lang="en",
        anchor=anchor,
    )


PASSAGES = [
    _passage(0, "KV cache", "Each token keeps a key and a value vector per layer.", "kv"),
    _passage(1, "KV cache", "Worked example: Llama-2-70B needs 320 KiB per token.", "kv"),
    _passage(2, "Worked example", "A KV cache of 40 GB for 128 users.", "example"),
    _passage(3, "Batching", "Continuous batching admits requests every step.", "batching"),
]


def test_the_definition_goes_first_for_a_definitional_question() -> None:
    prior = DefinitionPrior(PASSAGES)
    hits = [(2, 1.0), (1, 0.9), (0, 0.7), (3, 0.2)]
    reranked = prior.rerank("What is the KV cache?", hits)
    assert [row for row, _ in reranked] == [0, 2, 1, 3]
    assert dict(reranked)[2] == 1.0  # only the section's first passage gets the bonus


def test_other_questions_and_unmatched_terms_keep_their_order() -> None:
    prior = DefinitionPrior(PASSAGES)
    hits = [(2, 1.0), (1, 0.9), (0, 0.7)]
    assert prior.rerank("How big is the KV cache of Llama-2-70B?", hits) == hits
    assert prior.rerank("What is photosynthesis?", hits) == hits
    assert prior.rerank("What is the KV cache?", []) == []


@pytest.fixture
def shipped(kb_home: Path) -> HybridRetriever:
    return open_retriever(Settings())


@pytest.mark.parametrize(
    ("query", "doc_id", "anchor"),
    [
        ("What is the KV cache?", None, "kv-cache"),
        ("什么是张量并行", "parallelism-3d", "tensor-parallel"),
        ("什么是选择性重计算", "activation-recompute", "selective-vs-full"),
        ("What is ZeRO?", "zero-fsdp", "intro"),
    ],
)
def test_shipped_definitions_rank_first(
    shipped: HybridRetriever, query: str, doc_id: str | None, anchor: str
) -> None:
    top = shipped.search(query, 3)[0]
    assert (top.anchor, doc_id or top.doc_id) == (anchor, top.doc_id)
    first = shipped.document_passages(top.doc_id, top.lang)
    assert top.id == next(p.id for p in first if p.anchor == anchor)  # the section's start


def test_definitional_off_topic_questions_cite_nothing(shipped: HybridRetriever) -> None:
    for query in ("What is photosynthesis?", "什么是量子纠缠？", "区块链是什么"):
        assert shipped.search(query, 5) == []
