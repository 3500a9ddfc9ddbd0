"""Two-part concept questions: each part gets its own on-topic sentence.

"What is MFU and what's a realistic value for large training runs?" once answered its second
part with a power-and-cooling sentence that shared only "large … runs"; "ZeRO-3 是什么，比 ZeRO-2
多省多少显存" was read as one question. These tests pin the reading of the parts (where they
split, which names a later part inherits) and the choice of a sentence on small hand-made
passages, so each rule can be seen to fail on its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.compose.best_sentence import best_sentence, shared_weight
from assistant.compose.parts import Part, asks_quantity, key_terms, question_parts
from assistant.records import Passage


def _passage(text: str, number: int = 1, lang: str = "en") -> Passage:
    return Passage(
        id=f"q{number}", doc_id="doc", source="", title="", heading="", text=text, lang=lang
    )


@pytest.mark.parametrize(
    ("question", "texts", "searches"),
    [
        # a definition before a comma, then a comparison that leans on it ("比 …")
        (
            "ZeRO-3 是什么，比 ZeRO-2 多省多少显存",
            ["ZeRO-3 是什么", "比 ZeRO-2 多省多少显存"],
            ["ZeRO-3 是什么", "ZeRO-3 比 ZeRO-2 多省多少显存"],
        ),
        # an English later part whose words name nothing of the domain inherits "MFU"
        (
            "What is MFU and what's a realistic value for large training runs?",
            ["What is MFU", "what's a realistic value for large training runs"],
            ["What is MFU", "MFU what's a realistic value for large training runs"],
        ),
        # a later part with no keyword at all is kept when it asks for a figure
        (
            "什么是投机解码，能让推理快多少？",
            ["什么是投机解码", "能让推理快多少"],
            ["什么是投机解码", "投机解码 能让推理快多少"],
        ),
        # a part that names its own subject ("GQA") searches on its own
        (
            "KV cache 为什么会占那么多显存？GQA 能省多少",
            ["KV cache 为什么会占那么多显存", "GQA 能省多少"],
            ["KV cache 为什么会占那么多显存", "GQA 能省多少"],
        ),
    ],
)
def test_parts_and_what_each_searches(question: str, texts: list[str], searches: list[str]) -> None:
    parts = question_parts(question)
    assert [p.text for p in parts] == texts
    assert [p.search_text for p in parts] == searches


def test_a_comma_after_a_plain_clause_does_not_split() -> None:
    # no definition asked before the comma: one question
    assert len(question_parts("8 张 H100，能训练 70B 吗")) == 1


def test_key_terms_leave_out_size_words_and_keep_domain_names() -> None:
    assert key_terms("what's a realistic value for large training runs") == frozenset()
    assert "mfu" in key_terms("MFU what's a realistic value for large training runs")
    assert "gqa" in key_terms("GQA 能省多少")
    assert "tensor" in key_terms("what is tensor parallelism")


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("GQA 能省多少", True),
        ("what's a realistic value for large training runs", True),
        ("how big is it", True),
        ("what is tensor parallelism", False),
        ("KV cache 为什么会占那么多显存", False),
    ],
)
def test_asks_quantity(text: str, asks: bool) -> None:
    assert asks_quantity(text) is asks


def test_an_off_topic_sentence_never_answers_a_part() -> None:
    """Sharing "large … runs" is not enough: the sentence must name the part's subject."""
    part = Part("what's a realistic value", "MFU what's a realistic value for large training runs")
    off_topic = _passage(
        "Large continuous training runs last weeks, which demands stable power and cooling."
    )
    assert best_sentence(part, [off_topic], set()) is None
    on_topic = _passage("Large training runs reach about 38–55 % MFU on thousands of GPUs.", 2)
    found = best_sentence(part, [off_topic, on_topic], set())
    assert found is not None
    assert found[1].id == "q2"


def test_a_figure_answers_how_much() -> None:
    part = Part("GQA 能省多少", "GQA 能省多少")
    vague = _passage("GQA 让多个查询头共享一个 KV 头，节省 KV 缓存。", 1, "zh")
    figure = _passage("GQA 在 64 个查询头、8 个 KV 头时把 KV 缓存缩小 8 倍。", 2, "zh")
    found = best_sentence(part, [vague, figure], set())
    assert found is not None
    assert "8 倍" in found[0]


def test_what_is_prefers_the_sentence_that_opens_with_the_term() -> None:
    part = Part("what is tensor parallelism", "what is tensor parallelism")
    remark = _passage(
        "The 10sbh left in the tensor-parallel row is what tensor parallelism replicates."
    )
    definition = _passage("Tensor (intra-layer) parallelism splits each weight matrix.", 2)
    found = best_sentence(part, [remark, definition], set())
    assert found is not None
    assert found[0].startswith("Tensor (intra-layer)")


def test_when_prefers_a_recommendation() -> None:
    part = Part("when should I use it", "tensor parallelism when should I use it")
    fact = _passage("Tensor parallelism divides weights by t across the tensor-parallel group.")
    advice = _passage("Tensor parallelism belongs inside a node on NVLink.", 2)
    found = best_sentence(part, [fact, advice], set())
    assert found is not None
    assert "inside a node" in found[0]


def test_a_synonym_of_a_named_keyword_is_not_counted_twice() -> None:
    groups = ({"tensor": 1.0}, {"parallelism": 1.0}, {"parallel": 0.6})
    both = frozenset({"tensor", "parallelism", "parallel"})
    assert shared_weight(groups, both) == pytest.approx(2.0)
    # the synonym alone still counts
    assert shared_weight(groups, frozenset({"tensor", "parallel"})) == pytest.approx(1.6)


# ---- the real pipeline and retriever --------------------------------------------------------


@pytest.mark.e2e
def test_two_part_questions_get_a_sentence_per_part_on_the_shipped_knowledge(
    kb_home: Path,
) -> None:
    from assistant.config import Settings
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings = Settings()
    retriever = open_test_retriever(settings)
    cases = {
        # each part's sentence, as a pattern the headline must hold
        "What is MFU and what's a realistic value for large training runs?": [
            r"MFU \(model FLOPs utilisation\) is",
            r"\d+ ?% MFU",
        ],
        "KV cache 为什么会占那么多显存？GQA 能省多少": [r"KV 缓存.*之所以", r"GQA.*8 倍"],
    }
    for question, patterns in cases.items():
        got = answer(question, settings=settings, retriever=retriever)
        headline = got.text.splitlines()[0]
        assert len(re.findall(r"\[\d\]", headline)) == 2, headline
        for pattern in patterns:
            assert re.search(pattern, headline), (pattern, headline)
        assert not re.search(r"cooling|power supply|散热|供电", headline), headline
        # the source of each quoted sentence shows that sentence in its excerpt
        quoted = [c for c in got.citations if c.quote]
        assert len(quoted) == 2
        for citation in quoted:
            assert citation.quote[:20] in got.text.split("\n1. ", 1)[-1], citation.quote
