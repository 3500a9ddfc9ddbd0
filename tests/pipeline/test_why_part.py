"""A two-part question, a reason and a quantity: the figure, then the sentence on the why."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.compose.why_part import why_clause
from assistant.config import Settings
from assistant.pipeline import answer
from tests.conftest import open_test_retriever


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        ("为啥上下文越长KV cache越大？拿Qwen2.5-72B来说，要占多少", "为啥上下文越长KV cache越大？"),
        ("Why is decode memory-bound? And the speed on one H100?", "Why is decode memory-bound?"),
        ("Qwen2.5-72B 128k 的 KV 要多少", ""),
    ],
)
def test_the_why_clause_is_found(question: str, clause: str) -> None:
    assert why_clause(question) == clause


def test_the_reason_follows_the_figure(kb_home: Path) -> None:
    question = "为啥上下文越长KV cache越大？拿Qwen2.5-72B来说，128k上下文一条请求KV要占多少"
    result = answer(question, settings=Settings(), retriever=open_test_retriever())
    first = result.text.splitlines()[0]
    assert "42.9 GB" in first  # 327,680 B per token x 131,072 tokens
    assert "之所以" in first
    assert "每个 token" in first
    assert first.index("42.9 GB") < first.index("之所以")
