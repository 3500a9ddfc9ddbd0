"""Comparison and quality concept questions ("LoRA 和全参微调有什么区别", "does QLoRA hurt
quality"): one sentence per side, then their difference; a quality question answered by a
published finding, never by a memory figure."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from assistant.compose.asked import asks_quality, states_quality
from assistant.compose.openings import describes_each, states_difference
from assistant.compose.parts import Part, comparison_sides

if TYPE_CHECKING:
    from assistant.records import Answer


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("全参效果好多少", True),
        ("does QLoRA hurt quality", True),
        ("QLoRA 精度损失大吗", True),
        ("Is LoRA worse than full fine-tuning in quality?", True),
        # a precision named as a format, not as a loss of accuracy
        ("混合精度训练每参数多少字节", False),
        ("LoRA 和 QLoRA 的区别是什么", False),
    ],
)
def test_which_parts_ask_about_quality(part: str, expected: bool) -> None:
    assert asks_quality(Part(part, part)) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("QLoRA matches 16-bit LoRA and 16-bit full fine-tuning on MMLU.", True),
        ("LoRA 的模型质量与全参数微调持平或更好。", True),
        ("GPTQ 量化到 4 bit，精度下降可以忽略。", True),
        # a memory figure says nothing of quality
        ("The frozen bf16 base still takes 137.95e9 bytes.", False),
        ("但冻结的 bf16 基座仍占 137.95e9 字节。", False),
    ],
)
def test_which_sentences_state_a_finding_on_quality(sentence: str, expected: bool) -> None:
    assert states_quality(sentence) is expected


def test_full_fine_tuning_is_a_compared_side_by_its_short_chinese_names() -> None:
    for question in ("lora和全参微调有什么区别", "LoRA 和全量微调有什么区别"):
        sides = comparison_sides(question)
        assert len(sides) == 2, question
        assert "全参数微调" in sides[1], question  # the name the knowledge base uses


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("LoRA or QLoRA?", ("lora", "qlora")),
        ("ZeRO-2 还是 ZeRO-3？", ("zero-2", "zero-3")),
        ("LoRA or full fine-tuning: which is better?", ("lora", "full")),
        ("LoRA 和全参数微调哪个好", ("lora", "全参数微调")),
        # a choice inside a longer question is not a bare comparison of two names
        ("Can 8x H100 or 8x A100 fine-tune a 70B model?", None),
    ],
)
def test_a_bare_choice_or_which_is_better_is_a_comparison(
    question: str, sides: tuple[str, str] | None
) -> None:
    found = comparison_sides(question)
    if sides is None:
        assert found == ()
    else:
        assert len(found) == 2
        assert all(name in side for name, side in zip(sides, found, strict=True))


def test_an_alias_side_keeps_the_compound_not_its_pieces() -> None:
    sides = comparison_sides("GQA 和 MHA 的区别")
    assert "multi-head" in sides[1]
    assert "head" not in sides[1]  # "query heads" is no mention of MHA


_TP_PP = (frozenset({"tp"}), frozenset({"pp"}))


@pytest.mark.parametrize(
    ("sentence", "each", "differs"),
    [
        # one clause a side, opening with one of them: answers alone
        ("TP splits each layer, while PP gives each GPU whole layers.", True, True),
        ("TP 把每层切开，PP 则按层分段。", True, False),
        # a summary naming both before the colon: each side still wants its own sentence
        ("TP and PP differ in what they split: TP splits layers, PP stages.", False, True),
        ("TP 与 PP 的区别在于切什么：TP 切层内矩阵，PP 按层分段。", False, True),
        # one side only
        ("TP splits each layer's matrices.", False, False),
    ],
)
def test_a_sentence_that_describes_each_side_or_states_their_difference(
    sentence: str, each: bool, differs: bool
) -> None:
    assert describes_each(sentence, _TP_PP) is each
    assert states_difference(sentence, _TP_PP) is differs


@pytest.mark.parametrize("module", ["assistant.compose.asked", "assistant.compose.openings"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0


# ---- the real pipeline and retriever --------------------------------------------------------


def _answer(question: str) -> Answer:
    from assistant.config import Settings
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings = Settings()
    return answer(question, settings=settings, retriever=open_test_retriever(settings))


def _lead(got: Answer) -> list[str]:
    """The headline's quoted sentences, each with its source number checked off."""
    headline = got.text.splitlines()[0]
    assert headline.startswith(("**概念说明**：", "**Explanation**: ")), headline
    body = headline.split("**", 2)[2].lstrip("：: ")
    sentences = [s.strip() for s in re.split(r"\[\d+\]", body) if s.strip()]
    assert len(re.findall(r"\[\d+\]", body)) == len(sentences), headline
    return sentences


def _cites(got: Answer, doc_id: str, anchor: str) -> bool:
    return any((c.passage.doc_id, c.passage.anchor) == (doc_id, anchor) for c in got.citations)


@pytest.mark.e2e
def test_lora_against_full_fine_tuning_answers_each_side_the_difference_and_quality(
    kb_home: Path,
) -> None:
    got = _answer("lora和全参微调有什么区别？全参效果好多少？")
    assert got.verdict == "unknown"
    lead = _lead(got)
    assert "低秩" in lead[0]  # LoRA first, as asked
    assert "更新所有权重" in lead[1]  # then full fine-tuning
    assert "每参数 2 字节" in lead[2]  # then what differs: the bytes of the frozen base
    assert "持平或更好" in lead[3]  # the quality part: the LoRA paper's finding
    assert "137.95e9" not in " ".join(lead)  # the 70B worked figure is not the difference
    assert _cites(got, "gpu-memory", "finetuning")


@pytest.mark.e2e
def test_lora_against_qlora_in_english_gives_each_side_then_the_bytes(kb_home: Path) -> None:
    got = _answer("What's the difference between LoRA and QLoRA?")
    lead = _lead(got)
    assert lead[0].startswith("LoRA freezes")
    assert lead[1].startswith("QLoRA stores")
    assert "0.516" in lead[2]
    assert got.verdict == "unknown"
    assert _cites(got, "gpu-memory", "finetuning")


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("question", "finding", "not_quoted"),
    [
        ("does QLoRA hurt quality", "The QLoRA paper finds", "paged optimizers"),
        ("QLoRA 精度损失大吗", "QLoRA 论文发现", "分页优化器"),
    ],
)
def test_a_quality_question_is_answered_by_the_published_finding(
    kb_home: Path, question: str, finding: str, not_quoted: str
) -> None:
    got = _answer(question)
    lead = _lead(got)
    assert lead[0].startswith(finding), lead  # QLoRA's own finding, not LoRA's
    assert not_quoted not in " ".join(lead)  # a memory sentence is no answer on quality
    assert got.verdict == "unknown"
    assert _cites(got, "gpu-memory", "finetuning")


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("question", "findings"),
    [
        ("int8 和 int4 推理质量差多少", ("LLM.int8()", "GPTQ")),
        ("How much accuracy does int4 lose against int8?", ("LLM.int8()", "GPTQ")),
    ],
)
def test_int8_against_int4_quality_quotes_a_finding_for_each(
    kb_home: Path, question: str, findings: tuple[str, str]
) -> None:
    got = _answer(question)
    lead = _lead(got)
    assert sorted(s.split()[0] for s in lead) == sorted(findings), lead  # a paper a width
    assert "35–40 GB" not in " ".join(lead)  # the size in 4-bit says nothing of accuracy
    assert _cites(got, "inference-serving", "quantization")


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("question", "heads"),
    [
        ("GQA 和 MHA 的区别", "KV 头的个数"),
        ("What is the difference between MHA and GQA?", "KV heads"),
    ],
)
def test_mha_against_gqa_says_what_differs(kb_home: Path, question: str, heads: str) -> None:
    got = _answer(question)
    assert heads in " ".join(_lead(got))
    assert _cites(got, "inference-serving", "kv-cache")
