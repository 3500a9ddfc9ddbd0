"""Concept headlines that stand on their own: no opening anaphor, the definition for "what is",
the section titled with a "why" question's figure, one sentence per side of "A vs B".

Blind sets F/G found "这些 all-reduce 处在关键路径上…" leading "张量并行是啥", the 8-bit Adam
sentence answering "why … 16 bytes per parameter", and "RoCE vs InfiniBand" answered by the
RoCE definition alone. Each rule is pinned on small hand-made passages so it can fail alone.
"""

from __future__ import annotations

import pytest

from assistant.compose.best_sentence import best_sentence
from assistant.compose.concept import _titled
from assistant.compose.openings import (
    asked_figures,
    clause_subjects,
    defined_term,
    defines,
    opens_with_anaphor,
    states_figure,
)
from assistant.compose.parts import Part
from assistant.records import Passage


def _passage(text: str, number: int = 1, lang: str = "en", heading: str = "") -> Passage:
    return Passage(
        id=f"q{number}", doc_id="doc", source="", title="", heading=heading, text=text, lang=lang
    )


@pytest.mark.parametrize(
    ("sentence", "points_back"),
    [
        ("这些 all-reduce 处在关键路径上。", True),
        ("其代价是流水线气泡。", True),
        ("It needs a lossless fabric.", True),
        ("Such runs last weeks.", True),
        ("其他框架保存得更多。", False),  # "other": names nothing earlier
        ("Iteration time grows.", False),  # "It" only as a word's start
        ("张量并行把矩阵切开。", False),
    ],
)
def test_opens_with_anaphor(sentence: str, points_back: bool) -> None:
    assert opens_with_anaphor(sentence) is points_back


def test_an_opening_anaphor_is_never_quoted_without_its_sentence() -> None:
    part = Part("张量并行是啥", "张量并行是啥")
    # the only sentence naming the term points back, and its passage holds nothing before it
    alone = _passage("这些 all-reduce 处在关键路径上，所以张量并行应放在节点内。", 1, "zh")
    assert best_sentence(part, [alone], set()) is None
    # with the sentence it refers to before it in its own passage, both are quoted together
    after = _passage(
        "张量并行每层做四次 all-reduce。这些 all-reduce 处在关键路径上，所以张量并行应放在节点内。",
        2,
        "zh",
    )
    found = best_sentence(part, [after], set())
    assert found is not None
    assert not opens_with_anaphor(found[0])


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("张量并行是啥", "张量并行"),
        ("什么是 MFU？", "MFU"),
        ("What is pipeline parallelism?", "pipeline parallelism"),
        ("跟流水线并行有什么区别", None),
        ("why does adam take 16 bytes?", None),
    ],
)
def test_defined_term(question: str, term: str | None) -> None:
    assert defined_term(question) == term


@pytest.mark.parametrize(
    ("sentence", "term", "is_definition"),
    [
        ("张量（层内）并行把每个权重矩阵切分到 t 张 GPU 上。", "张量并行", True),
        ("Tensor (intra-layer) parallelism splits each matrix.", "tensor parallelism", True),
        ("张量并行也叠加了带宽。", "张量并行", False),  # a remark, not what it is
        ("TPU pods use their own fabric.", "TP", False),  # a longer word
        ("The 10sbh left is what tensor parallelism replicates.", "tensor parallelism", False),
    ],
)
def test_defines(sentence: str, term: str, is_definition: bool) -> None:
    assert defines(sentence, term) is is_definition


def test_what_is_prefers_the_definition_over_a_remark_that_names_the_term_more() -> None:
    part = Part("张量并行是什么", "张量并行是什么")
    remark = _passage("张量并行也叠加了带宽：张量并行让每 token 延迟减半。", 1, "zh")
    definition = _passage("张量（层内）并行把每个权重矩阵切分到 t 张 GPU 上。", 2, "zh")
    found = best_sentence(part, [remark, definition], set())
    assert found is not None
    assert found[1].id == "q2"


def test_stated_figures_match_across_languages_and_not_a_starting_point() -> None:
    figures = asked_figures("why does mixed precision adam take 16 bytes per parameter?")
    assert figures == ("16 bytes",)
    assert states_figure("Adam: 2 + 2 + 4 + 4 + 4 = 16 bytes per parameter", figures)
    assert states_figure("Adam：2 + 2 + 4 + 4 + 4 = 每参数 16 字节", figures)
    assert not states_figure("drops from 16 to 2 + 2 + 4 + 2 = 10 bytes per parameter", figures)
    assert not states_figure("116 bytes", figures)


def test_why_a_figure_prefers_the_section_titled_with_it() -> None:
    question = "why does mixed precision training with adam take 16 bytes per parameter?"
    part = Part(question, question)
    shrink = _passage(
        "The states shrink, so mixed-precision training drops from 16 to 10 bytes per parameter.",
        1,
        heading="8-bit Adam",
    )
    titled = _passage(
        "Adam keeps two running statistics per parameter, the moments m and v.",
        2,
        heading="Adam: 2 + 2 + 4 + 4 + 4 = 16 bytes per parameter",
    )
    found = best_sentence(part, [shrink, titled], set())
    assert found is not None
    assert found[1].id == "q2"
    # the headline shows the title that states the figure before the sentence
    assert _titled(part, found[0], found[1]).startswith("Adam: 2 + 2 + 4 + 4 + 4 = 16 bytes")
    # not for a question that asks no "why"
    plain = Part("adam 16 bytes per parameter", "adam 16 bytes per parameter")
    assert _titled(plain, found[0], found[1]) == found[0]


def test_clause_subjects_tell_a_comparison_from_a_mention() -> None:
    roce, ib = frozenset({"roce"}), frozenset({"infiniband", "ib"})
    about_roce = "RoCE v2 (RDMA over Converged Ethernet) carries InfiniBand packets inside UDP/IP."
    assert clause_subjects(about_roce, (roce, ib)) == [roce]
    both = "RoCE runs on Ethernet switches, whereas InfiniBand needs its own fabric."
    assert clause_subjects(both, (roce, ib)) == [roce, ib]


def test_a_comparison_skips_a_sentence_that_only_lists_both_sides() -> None:
    part = Part("数据并行和张量并行有什么区别", "数据并行和张量并行有什么区别")
    listing = _passage("DeepSeek-V3 采用 ZeRO-1 数据并行，没有使用张量并行。", 1, "zh")
    about = _passage("张量并行把每层的矩阵切到多张 GPU 上，数据并行则复制整个模型。", 2, "zh")
    found = best_sentence(part, [listing, about], set())
    assert found is not None
    assert found[1].id == "q2"
