""" "A和B做某个任务有什么区别" is a comparison of the two set-ups for that job; with no job it
stays a concept question about the cards."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("A100 40GB和A100 80GB训练13B模型有啥区别", ["A100 SXM 40GB", "A100 SXM 80GB"]),
        ("用H100和A100推理Llama-3-70B，速度上有什么不同", ["H100 SXM 80GB", "A100 SXM 80GB"]),
    ],
)
def test_two_cards_for_one_job_are_compared(question: str, gpus: list[str]) -> None:
    query = parse(question)
    assert query.asks == ("compare",)
    assert [o.gpu for o in query.options] == gpus


def test_two_cards_with_no_job_are_a_concept() -> None:
    assert parse("H100和A100有什么区别").asks == ("concept",)
