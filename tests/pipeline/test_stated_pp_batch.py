"""A stated pipeline degree with no batch stated: the default global batch grows with the
data-parallel degree so each pipeline runs at least 4 micro-batches per stage (its 1F1B bubble
(p - 1) / (m + p - 1) stays under 20%), as large runs do; a stated batch is kept as stated."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _compute(question: str) -> tuple[dict[str, float], int | None, tuple[str, ...]]:
    outcome = calculate(parse(question))
    check = next(c for c in outcome.checks if c.kind == "compute")
    return dict(check.figures), outcome.scenario.batch_size, outcome.assumptions  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("gpus", "data_parallel"),
    [
        (8192, 64),  # 8192 / (TP 8 x PP 16)
        (16384, 128),
    ],
)
def test_the_default_batch_grows_with_the_data_parallel_degree(
    gpus: int, data_parallel: int
) -> None:
    question = f"Llama-3.1-405B pretraining with TP=8 and PP=16 on {gpus} H100s over 15.6T tokens"
    figures, batch, said = _compute(question)
    assert batch == 4 * 16 * data_parallel  # 4 micro-batches per stage on every pipeline
    assert figures["pipeline_microbatches"] == 64
    assert figures["pipeline_bubble"] == pytest.approx(15 / (64 + 15))
    assert any("grown with the cluster" in s and f"{batch:,}" in s for s in said)


def test_doubling_the_cluster_doubles_the_default_batch_not_the_bubble() -> None:
    small, small_batch, _ = _compute(
        "Llama-3.1-405B pretraining, TP=8, PP=16, 8192 H100, 15.6T tokens"
    )
    big, big_batch, _ = _compute(
        "Llama-3.1-405B pretraining, TP=8, PP=16, 16384 H100, 15.6T tokens"
    )
    assert big_batch == 2 * (small_batch or 0)
    assert big["pipeline_bubble"] == pytest.approx(small["pipeline_bubble"])
    assert big["days"] == pytest.approx(small["days"] / 2, rel=0.02)


def test_a_stated_batch_is_kept_and_its_bubble_charged() -> None:
    figures, batch, said = _compute(
        "Llama-3.1-405B pretraining with TP=8 and PP=16 on 16384 H100s, global batch 4M tokens,"
        " over 15.6T tokens"
    )
    assert batch == 977
    assert figures["pipeline_microbatches"] == 8  # round(977 / 128)
    assert figures["pipeline_bubble"] == pytest.approx(15 / 23)
    assert not any("grown with the cluster" in s for s in said)


@pytest.mark.parametrize(
    "question",
    [
        "8张H100预训练7B模型，1T token",  # no pipeline: the 4M-token default
        "Pretrain a 13B model on 16 H100 with TP=8 and PP=2 on 300B tokens",  # 1,024 > 4 x 2 x 1
    ],
)
def test_the_default_stays_when_it_is_enough(question: str) -> None:
    _, batch, said = _compute(question)
    assert batch == 1024  # 2**22 tokens / 4,096
    assert not any("随集群增大" in s or "grown with the cluster" in s for s in said)
