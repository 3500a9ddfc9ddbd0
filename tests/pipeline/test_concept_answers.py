"""Concept answers ("ZeRO-2 和 ZeRO-3 差在哪?", "What is MFU?"): the headline is the sentence of
the knowledge base that answers, one per part of the question, never a boilerplate "无法判断"
nor a lead-in cut before its formula.

The reading of the question (parts, keywords, compared sides) and of a passage (its quotable
sentences) is tested on its own; the answers themselves come from the real pipeline and the
real retriever over the shipped knowledge.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.compose.concept import answering_sentence
from assistant.compose.parts import comparison_sides, mentions_side, question_parts
from assistant.records import Answer, Citation, Passage
from assistant.render.excerpt import answer_sentences


def _citation(text: str, number: int, heading: str = "") -> Citation:
    passage = Passage(
        id=f"p{number}", doc_id="doc", source="", title="", heading=heading, text=text, lang="zh"
    )
    return Citation(passage=passage)


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "ZeRO-2 跟 ZeRO-3 到底有啥区别？显存能省多少",
            ["ZeRO-2 跟 ZeRO-3 到底有啥区别", "显存能省多少"],
        ),
        (
            "What is GQA and how much KV cache does it save?",
            ["What is GQA", "how much KV cache does it save"],
        ),
        ("为什么推理是显存带宽瓶颈", ["为什么推理是显存带宽瓶颈"]),
        # "吗？" alone names nothing: one part
        ("FSDP 和 ZeRO-3 是一回事吗？？", ["FSDP 和 ZeRO-3 是一回事吗？？"]),
    ],
)
def test_a_question_is_read_as_its_parts(question: str, parts: list[str]) -> None:
    assert [p.text for p in question_parts(question)] == parts


def test_a_later_part_without_names_is_searched_with_the_first_parts_names() -> None:
    second = question_parts("ZeRO-2 跟 ZeRO-3 到底有啥区别？显存能省多少")[1]
    assert second.search_text == "ZeRO-2 ZeRO-3 显存能省多少"
    pointer = question_parts("What is GQA and how much KV cache does it save?")[1]
    assert pointer.search_text.startswith("GQA ")  # "it" is GQA
    cost = question_parts("什么是激活重计算？代价是什么？")[1]
    assert cost.search_text.endswith(" 代价是什么")
    assert "重计算" in cost.search_text  # the cost of what the first part names
    named = question_parts("ZeRO-2 和 ZeRO-3 差在哪？什么时候非得上 ZeRO-3？")[1]
    assert named.search_text == "什么时候非得上 ZeRO-3"  # names its own subject


@pytest.mark.parametrize(
    ("question", "left", "right"),
    [
        ("ZeRO-2 和 ZeRO-3 到底差在哪", "zero-2", "zero-3"),
        ("What's the difference between TP and PP?", "tensor", "pipeline"),  # aliases
        ("PCIe版和SXM版H100差在哪", "pcie", "sxm"),
        ("What's the difference between the H100 PCIe and the H100 SXM?", "pcie", "sxm"),
        ("Is FSDP the same as DeepSpeed ZeRO?", "fsdp", "deepspeed"),
    ],
)
def test_a_comparison_names_its_two_sides(question: str, left: str, right: str) -> None:
    sides = comparison_sides(question)
    assert len(sides) == 2
    assert left in sides[0]
    assert right in sides[1]
    assert not sides[0] & sides[1]  # what both share ("parallelism") tells them apart not


def test_not_a_comparison_has_no_sides() -> None:
    assert comparison_sides("What is MFU?") == ()
    assert comparison_sides("What is activation recomputation and what does it cost?") == ()


def test_a_side_is_named_as_a_word_not_inside_one() -> None:
    assert mentions_side("the H100 SXM5 module", frozenset({"sxm"}))
    assert not mentions_side("the output tensor", frozenset({"tp"}))
    assert mentions_side("张量并行（TP）", frozenset({"张量并行"}))


def test_a_lead_in_is_kept_with_its_formula_and_dropped_before_a_list() -> None:
    text = (
        "模型状态单卡放不下时就要切分。所以仅放下状态所需的最少 GPU 数为\n\n"
        "GPU 数 ≥ 16 × N / 每卡可用显存\n\n"
        "它的切分策略与 ZeRO 阶段对应：\n\n- `FULL_SHARD`：都切分，相当于 ZeRO-3。\n"
        "| 阶段 | 字节 |\n|---|---|\n| 3 | 16Ψ/N_d |"
    )
    assert answer_sentences(text) == [
        "模型状态单卡放不下时就要切分。",
        "所以仅放下状态所需的最少 GPU 数为 GPU 数 ≥ 16 × N / 每卡可用显存。",
        "`FULL_SHARD`：都切分，相当于 ZeRO-3。",
    ]


def test_code_blocks_are_not_sentences() -> None:
    text = "Run this.\n\n```\nx = 1 / 2\nprint(x).\n```\n\nDone."
    assert answer_sentences(text) == ["Run this.", "Done."]


def test_a_comparison_prefers_the_sentence_that_states_the_difference() -> None:
    citations = [
        _citation("ZeRO-1 切分优化器状态，ZeRO-2 再切分梯度，ZeRO-3 连参数也切分。", 1),
        _citation("ZeRO-2 与 ZeRO-3 的区别只在参数。其余相同。", 2),
    ]
    assert answering_sentence("ZeRO-2 和 ZeRO-3 差在哪", citations) == (
        "ZeRO-2 与 ZeRO-3 的区别只在参数。",
        2,
    )


def test_a_why_question_prefers_the_sentence_that_gives_the_reason() -> None:
    citations = [
        _citation("显存带宽决定推理解码多快。", 1),
        _citation("解码以显存带宽为瓶颈，是因为每个 token 都要读一遍全部权重。", 2),
    ]
    found = answering_sentence("为什么推理是显存带宽瓶颈", citations)
    assert found is not None
    assert found[1] == 2


# ---- the real pipeline and retriever --------------------------------------------------------


def _answers(questions: list[str]) -> dict[str, Answer]:
    from assistant.config import Settings
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings = Settings()
    retriever = open_test_retriever(settings)
    return {q: answer(q, settings=settings, retriever=retriever) for q in questions}


_BRIEF = [
    "ZeRO-2 和 ZeRO-3 到底差在哪？什么时候非得上 ZeRO-3？",
    "ZeRO-2 跟 ZeRO-3 到底有啥区别？显存能省多少",
    "What's the difference between TP and PP?",
    "为什么推理是显存带宽瓶颈",
    "what is MFU",
    "KV cache 为什么这么占显存",
    "FSDP和DeepSpeed有什么区别",
    "PCIe版和SXM版H100差在哪",
]


@pytest.mark.e2e
def test_concept_answers_lead_with_a_quoted_answer(kb_home: Path) -> None:
    for question, got in _answers(_BRIEF).items():
        headline = got.text.splitlines()[0]
        assert got.verdict == "unknown", question
        assert not headline.startswith(("**无法判断**", "**Cannot tell**")), headline
        assert headline.startswith(("**概念说明**：", "**Explanation**: ")), headline
        assert re.search(r"\[\d\]$", headline), headline  # a quoted sentence with its source
        # no sentence cut before its formula or list ("…最少 GPU 数为 [2]")
        assert not re.search(r"(?:为|是|:|：) \[\d\]", headline), headline
        assert got.citations, question


@pytest.mark.e2e
def test_each_part_of_a_two_part_question_is_answered_from_its_own_passage(kb_home: Path) -> None:
    question = "ZeRO-2 跟 ZeRO-3 到底有啥区别？显存能省多少"
    got = _answers([question])[question]
    headline = got.text.splitlines()[0]
    refs = re.findall(r"\[(\d)\]", headline)
    assert len(refs) == 2
    assert refs[0] != refs[1]
    first, second = re.split(r" \[\d\] ", headline, maxsplit=1)
    assert "参数" in first  # what differs: the parameters
    assert "GB" in second  # how much is saved, in figures
    # the section that defines the stages is cited
    assert any(c.passage.anchor == "stages" for c in got.citations)


@pytest.mark.e2e
def test_a_difference_question_cites_the_passage_that_defines_both_sides(kb_home: Path) -> None:
    question = "What's the difference between TP and PP?"
    got = _answers([question])[question]
    assert got.query.in_domain  # "TP" and "PP" named together are parallelism degrees
    headline = got.text.splitlines()[0]
    assert "Tensor parallelism" in headline
    assert "pipeline parallelism" in headline
    cited = {(c.passage.doc_id, c.passage.anchor) for c in got.citations}
    assert ("parallelism-3d", "tp-vs-pp") in cited


def test_document_control_bytes_in_a_quoted_sentence_stay_inert() -> None:
    from assistant.compose.concept import concept_headline
    from assistant.parse import parse

    query = parse("ZeRO-9 是什么？")
    poisoned = _citation("ZeRO-9 是一种\x1b]0;pwned\x07假想的切分方式。", 1)

    class _Nothing:
        def search(self, *args: object, **kwargs: object) -> list[Passage]:
            return []

        def document_passages(self, *args: object) -> list[Passage]:
            return []

        def site_profiles(self) -> list[object]:
            return []

    said, _ = concept_headline(query, _Nothing(), [poisoned], query.question)  # type: ignore[arg-type]
    assert "\x1b" not in said
    assert "\x07" not in said
    assert "␛]0;pwned␇" in said


@pytest.mark.parametrize("module", ["assistant.compose.parts", "assistant.render.excerpt"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0
