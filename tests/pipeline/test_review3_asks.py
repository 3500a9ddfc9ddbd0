"""Issue 10 (expert review): a max-concurrency question worded with 并发 as the verb."""

from __future__ import annotations

import pytest

from assistant.parse.asks import read_asks


@pytest.mark.parametrize(
    "question",
    [
        # answered as one sequence: the headline never said how many fit
        "4张H100部署Llama-3.1-70B，32k上下文最多能并发多少",
        "8卡A100跑Qwen2.5-72B最多可以并发几路",
        "4张4090部署Qwen2.5-7B，并发最多多少",
    ],
)
def test_concurrency_as_the_verb_asks_max_concurrency(question: str) -> None:
    assert read_asks(question, has_job=True)[0] == "max_concurrency"


def test_a_stated_concurrency_is_no_ask() -> None:
    # boundary: '并发32' states a load, it does not ask for the maximum
    assert "max_concurrency" not in read_asks("4张H100部署Llama-3.1-70B，并发32", has_job=True)
