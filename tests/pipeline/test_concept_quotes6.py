"""Which sentence a concept answer quotes: definitions by subject, synonyms counted once, a
reason about what was asked (issue 10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.compose.openings import defines, defines_in_clause, says_what_it_is
from assistant.compose.parts import Part, term_groups


@pytest.mark.parametrize(
    ("sentence", "term", "expected"),
    [
        # a long name with the term in brackets, then a copula or "=": the term is the subject
        ("Power usage effectiveness (PUE) is facility power over IT power.", "PUE", True),
        ("电能使用效率（PUE）= 数据中心总功率 / IT 设备功率。", "PUE", True),
        # the same opening followed by a remark on how it is reported
        ("Model FLOPs utilisation (MFU) is conventionally reported on 6ND.", "MFU", False),
        ("模型 FLOPs 利用率（MFU）按惯例用 6ND 计算。", "MFU", False),
        # when it is needed, not what it is
        (
            "ZeRO-3 (or pipeline parallelism) is required when weights exceed a GPU.",
            "ZeRO-3",
            False,
        ),
        # a comparison that opens with the term
        ("ZeRO-2 与 ZeRO-3 的区别只在参数。", "ZeRO-2", False),
        # the plain case still holds
        ("ZeRO-3 shards the parameters too.", "ZeRO-3", True),
    ],
)
def test_what_a_sentence_defines(sentence: str, term: str, expected: bool) -> None:
    assert defines(sentence, term) is expected


@pytest.mark.parametrize(
    ("sentence", "term", "expected"),
    [
        # siblings listed one clause each: every one of them is defined
        (
            "ZeRO-1 shards the states, ZeRO-2 also the gradients, and ZeRO-3 the weights.",
            "ZeRO-3",
            True,
        ),
        (
            "ZeRO-1 shards the states, ZeRO-2 also the gradients, and ZeRO-3 the weights.",
            "ZeRO-2",
            True,
        ),
        ("ZeRO-1 只切分优化器状态，ZeRO-2 再切分梯度，ZeRO-3 连参数也切分。", "ZeRO-2", True),
        # a worked example naming the term in a later clause is no definition of it
        ("Llama-2-7B, full fine-tuning, ZeRO-3 over 8 GPUs: 13.5e9 bytes.", "ZeRO-3", False),
        ("例如 Llama-2-70B 的权重大于一张卡，ZeRO-2 放不下。", "ZeRO-2", False),
        # the term itself opening is the ordinary definition
        ("ZeRO-3 shards the parameters too.", "ZeRO-3", True),
    ],
)
def test_a_clause_of_a_sibling_list_defines_its_name(
    sentence: str, term: str, expected: bool
) -> None:
    assert defines_in_clause(sentence, term) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Power usage effectiveness is total facility power divided by IT power.", True),
        ("电能使用效率 = 数据中心总功率 / IT 设备功率。", True),
        # a formula that uses the term, an anaphor, a remark on reporting
        ("Energy for a run: E = GPUs × power × hours × PUE.", False),
        ("It is total facility power divided by IT power.", False),
        ("The figure is usually reported per year.", False),
    ],
)
def test_a_sentence_that_says_what_something_is(sentence: str, expected: bool) -> None:
    assert says_what_it_is(sentence) is expected


def test_the_first_sentence_under_the_terms_heading_defines_it_by_its_long_name() -> None:
    from assistant.compose.best_sentence import best_sentence
    from assistant.records import Passage

    text = (
        "Power usage effectiveness is total facility power divided by IT power. "
        "Energy for a run: E = GPUs × power per GPU × hours × PUE."
    )
    passage = Passage(
        id="p2",
        doc_id="d",
        source="d.en.md",
        title="d",
        heading="PUE and energy",
        text=text,
        lang="en",
        anchor="pue",
    )
    found = best_sentence(Part("What is PUE", "What is PUE"), [passage], set())
    assert found is not None
    assert found[0].startswith("Power usage effectiveness is")


def test_a_keyword_and_its_aliases_form_one_group() -> None:
    groups = term_groups("What is MFU?")
    assert len(groups) == 1
    assert {"mfu", "利用率"} <= groups[0].keys()
    # a word the question names itself keeps its own group
    assert len(term_groups("MFU 和 FLOPs")) == 2


def test_a_sentence_naming_a_term_by_several_names_counts_it_once() -> None:
    from assistant.compose.best_sentence import _score

    question = "What is MFU?"
    part = Part(question, question)
    many_names = "MFU（模型 FLOPs 利用率）按惯例用 6ND 计算。"
    one_name = "MFU 按惯例用 6ND 计算。"
    assert _score(part, many_names, (), frozenset()) == _score(part, one_name, (), frozenset())


def test_a_consequence_of_something_else_loses_to_a_reason_about_the_subject() -> None:
    from assistant.compose.best_sentence import best_sentence
    from assistant.records import Passage

    other = "vLLM 的 `kv_cache_dtype` 以 FP8 存放，可用空间约翻倍，因而能支持更长的上下文。"
    reason = "KV 缓存之所以占显存，是因为每一层、每个 token 都要保存一份键和值。"
    passage = Passage(
        id="p1",
        doc_id="d",
        source="d.zh.md",
        title="d",
        heading="",
        text=f"{other}{reason}",
        lang="zh",
        anchor="a",
    )
    question = "为什么上下文翻倍 KV 缓存也翻倍"
    found = best_sentence(Part(question, question), [passage], set())
    assert found is not None
    assert found[0] == reason


# ---- the real pipeline and retriever --------------------------------------------------------


@pytest.mark.e2e
def test_issue_10_questions_quote_the_answering_sentence(kb_home: Path) -> None:
    from assistant.config import Settings
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings = Settings()
    retriever = open_test_retriever(settings)
    cases = {
        "What is ZeRO-3?": r"ZeRO-3 shards the 16-bit parameters",
        "What is PUE": r"total facility power divided by IT power",
        "为什么张量并行要放在一台机器内": r"关键路径.*所以张量并行",
        "为什么上下文翻倍 KV 缓存也翻倍": r"每个 token",
    }
    for question, pattern in cases.items():
        headline = answer(question, settings=settings, retriever=retriever).text.splitlines()[0]
        assert re.search(pattern, headline), (question, headline)
        assert not re.search(r"required when|E = number|FP8", headline), headline
