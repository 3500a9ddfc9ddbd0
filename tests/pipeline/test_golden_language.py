"""Every golden answer speaks one language: no English prose in a Chinese answer, no Chinese
in an English one.

What is checked is everything the answer says in its own words: the Markdown text without the
quoted passages and the source list, each check's summary, formula and assumptions, the answer's
assumptions and suggestions. What may stay in the other language: names (models, GPUs, links,
papers), units, code and formulas' symbols, and citations (a check's sources, passage text and
titles), which quote their source as written.

The answers come from the session's one run over the golden set (`golden_results`, shared with
the pass-rate test), so this test adds no pipeline runs to the suite.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from assistant.records import Answer
    from tests.pipeline.conftest import GoldenResult

pytestmark = pytest.mark.e2e

#: English function words: a name or a unit is never one of these, prose always has some.
#: Not inside a hyphenated name ("all-to-all").
_ENGLISH_PROSE = re.compile(
    r"(?<![\w-])(?:the|of|and|with|per|for|when|is|are|not|on|to|from|at|by|or|over|than|"
    r"without|only|each|an|if|its|be|which|after|before|this|that|yet|given|here|there|"
    r"counted|kept)(?![\w-])"
)
_CHINESE = re.compile(r"[\u3400-\u9fff]")
#: Quoted passages, the numbered source list and bibliographic parentheses are citations.
_SOURCES_HEADINGS = ("### 来源", "### Sources")


def _own_words(answer: Answer) -> list[str]:
    """The strings of `answer` written by the assistant (not quoted from a source)."""
    text = answer.text
    for heading in _SOURCES_HEADINGS:
        text = text.split(heading)[0]
    lines = [line for line in text.splitlines() if not line.lstrip().startswith(">")]
    parts = ["\n".join(lines), *answer.assumptions]
    for check in answer.checks:
        parts += [check.summary, check.formula, *check.assumptions]
    for suggestion in answer.suggestions:
        parts += [suggestion.change, suggestion.effect]
    return parts


def _without_citations(text: str) -> str:
    """Drop bibliographic references ("(Korthikanti et al. 2022, arXiv:2205.05198)")."""
    return re.sub(r"[(（][^()（）]*(?:arXiv|et al\.|\b(?:19|20)\d\d\b)[^()（）]*[)）]", "", text)


def english_leaks(text: str) -> list[str]:
    """English prose in a Chinese string: each function word with some context around it.

    Examples:
        >>> english_leaks("重计算=full，激活值按 16 位计")
        []
        >>> english_leaks("假设：QLoRA dequantizes one weight matrix at a time")
        ['…ntizes one weight matrix at a time…']
    """
    text = _without_citations(text)
    return [
        "…" + text[max(0, m.start() - 20) : m.end() + 20] + "…"
        for m in _ENGLISH_PROSE.finditer(text)
    ][:1]


def chinese_leaks(text: str) -> list[str]:
    """Chinese characters in an English string, with some context around the first one."""
    m = _CHINESE.search(text)
    return [] if m is None else ["…" + text[max(0, m.start() - 20) : m.end() + 20] + "…"]


def test_detectors_can_fail() -> None:
    assert english_leaks("训练时间：MFU 40% of the dense peak")
    assert not english_leaks("t_moe = 每个 MoE 层 4 次 all-to-all")
    assert not english_leaks("8 张 H100 上约需 3.5 天（Korthikanti et al. 2022, arXiv:2205.05198）")
    assert chinese_leaks("It takes 3 天")
    assert not chinese_leaks("It takes about 3.5 days on 8 × H100.")


def test_answers_speak_one_language(golden_results: list[GoldenResult]) -> None:
    leaks = []
    for result in golden_results:
        if result.answer is None:
            continue
        find = english_leaks if result.answer.language == "zh" else chinese_leaks
        for part in _own_words(result.answer):
            for leak in find(part):
                leaks.append(f"{result.row['question']!r}: {leak}")
    assert not leaks, "\n".join(sorted(set(leaks)))
