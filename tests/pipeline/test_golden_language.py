"""Every golden answer speaks one language: no English prose in a Chinese answer, no Chinese
in an English one.

What is checked is everything the answer says in its own words, as `ask --full` shows it and
the TUI's side panel: the whole Markdown text (verdict, lead, key figures, every formula, every
assumption, suggestions, headings and the frame of each source line) without the quoted
passages, each check's summary, formula and assumptions, the label of each of its figures, the
answer's assumptions and suggestions. What may stay in the other language: names (models, GPUs,
links, papers), units, code and formulas' symbols, and citations (a check's sources, passage
text and titles), which quote their source as written.

Every golden question is checked twice: answered in its own language (the session's one run
over the golden set, `golden_results`, shared with the pass-rate test) and in the other one
(`--lang`), so a message whose Chinese text was never reached by a Chinese question is still
read in Chinese.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from assistant.records import Answer
    from tests.pipeline.conftest import GoldenResult

pytestmark = pytest.mark.e2e

#: English function words and the commonest words of this domain's sentences: a name or a
#: unit is never one of these, prose always has some. Not inside a hyphenated name
#: ("all-to-all") or a formula symbol ("d_in"). ("tokens" is a formula symbol, so not listed.)
_ENGLISH_PROSE = re.compile(
    r"(?<![\w-])(?:the|of|and|with|per|for|when|is|are|not|on|to|from|at|by|or|over|than|"
    r"without|only|each|an|if|its|be|which|after|before|this|that|yet|given|here|there|"
    r"counted|kept|in|as|no|all|one|fits|needs|takes|about|needed|used|using|into|up|out|"
    r"can|cannot|must|will|would|should|has|have|was|were|it|so|but|because|until|less|more|"
    r"most|least|GPUs|days|hours|parameters|weights|memory|time|step|layer|node|nodes)(?![\w-])"
)
_CHINESE = re.compile(r"[\u3400-\u9fff]")
#: A source line: "1. <title> › <heading> (`doc-id`, id `…`): <excerpt>"; title and excerpt
#: quote the passage, the rest is the assistant's.
_SOURCE_LINE = re.compile(r"^(\d+\. ).*( \(`[^`]+`, id `[^`]+`\): ).*$")


def _unquoted(line: str) -> str:
    """`line` without what it quotes: a source line keeps its frame, a `>` quote is dropped."""
    if line.lstrip().startswith(">"):
        return ""
    return _SOURCE_LINE.sub(r"\1…\2…", line)


def _own_words(answer: Answer) -> list[str]:
    """The strings of `answer` written by the assistant (not quoted from a source)."""
    from assistant.render.labels import figure_label

    parts = ["\n".join(_unquoted(line) for line in answer.text.splitlines()), *answer.assumptions]
    for check in answer.checks:
        parts += [check.summary, check.formula, *check.assumptions]
        parts += [figure_label(key, answer.language) for key in check.figures]
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
    assert english_leaks("正在重建知识库索引（no index yet）…")  # issue 9's example
    assert english_leaks("假设：it fits in memory")
    assert not english_leaks("d_in + d_out；2 × tokens × h")  # formula symbols
    assert not english_leaks("t_moe = 每个 MoE 层 4 次 all-to-all")
    assert not english_leaks("8 张 H100 上约需 3.5 天（Korthikanti et al. 2022, arXiv:2205.05198）")
    assert chinese_leaks("It takes 3 天")
    assert not chinese_leaks("It takes about 3.5 days on 8 × H100.")


def test_source_lines_keep_their_frame_only() -> None:
    line = "2. 显存估算 › 训练 (`gpu-memory`, id `e71e`): the weights of the model"
    assert _unquoted(line) == "2. … (`gpu-memory`, id `e71e`): …"
    assert _unquoted("> quoted passage") == ""
    assert _unquoted("- 上下文按 4096 计") == "- 上下文按 4096 计"


#: A name the user coined in Chinese: a CJK run joined to Latin letters or digits ("星火-X9").
#: The answer repeats it as written, as it does a catalog name.
_COINED_NAME = re.compile(r"[\u3400-\u9fff]+-?[A-Za-z0-9][A-Za-z0-9.-]*")


def _without_names_from(question: str, text: str) -> str:
    """`text` without the coined names it repeats from `question`.

    Examples:
        >>> _without_names_from("用两张4090跑“星火-X9”大模型", "星火-X9 is not in the catalog")
        ' is not in the catalog'
        >>> _without_names_from("用两张4090跑“星火-X9”大模型", "It takes 3 天")
        'It takes 3 天'
    """
    for name in _COINED_NAME.findall(question):
        text = text.replace(name, "")
    return text


def _leaks(answers: list[tuple[str, Answer]]) -> list[str]:
    found = set()
    for question, answer in answers:
        find = english_leaks if answer.language == "zh" else chinese_leaks
        for part in _own_words(answer):
            if answer.language == "en":
                part = _without_names_from(question, part)
            found.update(f"{answer.language} {question!r}: {leak}" for leak in find(part))
    return sorted(found)


def test_answers_speak_one_language(golden_results: list[GoldenResult]) -> None:
    answers = [(r.row["question"], r.answer) for r in golden_results if r.answer is not None]
    leaks = _leaks(answers)
    assert not leaks, "\n".join(leaks)


@pytest.fixture(scope="module")
def other_language_answers(
    golden_results: list[GoldenResult],
    shared_index_home: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> list[tuple[str, Answer]]:
    """Every golden question answered in the language it was not asked in (`--lang`)."""
    from assistant.config import Settings
    from assistant.pipeline import default_retriever
    from tests.conftest import _copy_live_index
    from tests.pipeline.conftest import answer_row

    home = tmp_path_factory.mktemp("golden-other-language")
    _copy_live_index(shared_index_home, home)
    out = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GPU_ADVISOR_HOME", str(home))
        settings = Settings()
        retriever = default_retriever(settings)
        for result in golden_results:
            if result.answer is not None:
                other = "en" if result.answer.language == "zh" else "zh"
                out.append(
                    (result.row["question"], answer_row(result.row, settings, retriever, other))
                )
    return out


def test_answers_in_the_other_language_speak_it(
    other_language_answers: list[tuple[str, Answer]],
) -> None:
    assert {a.language for _, a in other_language_answers} == {"zh", "en"}
    leaks = _leaks(other_language_answers)
    assert not leaks, f"{len(leaks)} leaks:\n" + "\n".join(leaks)
