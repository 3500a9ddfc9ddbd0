"""A run that works as asked but takes over a year, with no deadline stated, is labelled
"Feasible, but impractical": the year decides no verdict (the JSON says `feasible`), yet a
"可行" badge beside "超过一年，不现实" read as a contradiction to three blind evaluators."""

from __future__ import annotations

import pytest

from assistant.config import Settings
from assistant.pipeline import answer
from tests.conftest import open_test_retriever


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("8张A800训练一个13B的模型，1T token，大概要多久", "**可行，但不现实（超过一年）**"),
        (
            "How long would 8 H100 take to pretrain Llama-2-13B on 2T tokens?",
            "**Feasible, but impractical (over a year)**",
        ),
        ("8张A100训练7B模型要多久", "**可行**："),  # 79 days: plainly feasible
    ],
)
def test_a_run_past_a_year_is_labelled_impractical(
    kb_home: object, question: str, label: str
) -> None:
    result = answer(question, settings=Settings(), retriever=open_test_retriever())
    assert result.verdict == "feasible"
    assert result.text.startswith(label)


def test_a_stated_deadline_keeps_the_verdict_label(kb_home: object) -> None:
    result = answer(
        "8张A800能在两年内训练完一个13B的模型吗，1T token",
        settings=Settings(),
        retriever=open_test_retriever(),
    )
    assert "不现实（超过一年）**" not in result.text.splitlines()[0]
