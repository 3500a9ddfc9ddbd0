"""A collective of a stated size with no job is answered with its time: a ring all-reduce moves
2(n − 1)/n × S per rank (Patarasuk & Yuan 2009), over the NICs stated or one port per GPU."""

from __future__ import annotations

import doctest
import importlib

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "module", ["assistant.parse.collective_size", "assistant.calculate.collective"]
)
def test_docstring_examples(module: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


@pytest.mark.parametrize(
    ("question", "size", "nodes", "node_bandwidth"),
    [
        # EDR 100 Gb/s = 12.5 GB/s, one port per node, one rank per node
        ("How long is one all-reduce of 2 GB across 8 nodes with a single 100G EDR port each?",
         2e9, 8, 12.5e9),
        # NDR 400 Gb/s = 50 GB/s x 8 NICs
        ("32台服务器，每台8个400G NDR网卡，40GB梯度all-reduce要多久", 40e9, 32, 400e9),
    ],
)  # fmt: skip
def test_the_ring_time_of_the_stated_size(
    question: str, size: float, nodes: int, node_bandwidth: float
) -> None:
    outcome = calculate(parse(question))
    (check,) = outcome.checks
    ring = 2 * (nodes - 1) / nodes * size
    assert check.figures["allreduce_bytes_per_node"] == pytest.approx(ring)
    # bandwidth term plus a few microseconds of latency per step
    assert check.figures["allreduce_seconds"] == pytest.approx(ring / node_bandwidth, rel=0.01)
    assert outcome.verdict == "unknown"


def test_a_job_is_not_a_bare_collective() -> None:
    outcome = calculate(parse("8台8卡H100训练70B模型，200G IB，all-reduce每步多少秒"))
    assert all("allreduce_bytes_per_node" not in c.figures for c in outcome.checks)


def test_the_gpu_memory_is_not_a_collective_size() -> None:
    from assistant.parse.collective_size import read_collective_bytes

    assert read_collective_bytes("16 nodes of 8x H100 80GB, all-reduce over 200G IB?") is None


def test_the_sync_time_asked_of_a_job_leads_and_no_default_length_labels_it() -> None:
    """'一步梯度同步要多久' asks the sync's time per step, not the run's; with no data size stated,
    the run's length is a default's, so the label does not call the job impractical."""
    from types import SimpleNamespace

    from assistant.render.answer import is_impractical

    question = "两台8卡H100用100G RoCE互联，训练Llama-3-70B，一步梯度同步要多久？"
    query = parse(question)
    assert query.asks[0] == "network"
    outcome = calculate(query)
    assert outcome.lead.startswith("网络（100GbE RoCE）")
    shown = SimpleNamespace(verdict=outcome.verdict, query=query, checks=outcome.checks)
    assert not is_impractical(shown)  # type: ignore[arg-type]
    # with the data size stated, a run past a year is impractical, as any how-long answer
    stated = parse("两台8卡H100用25GbE互联，训练Llama-3-70B 2T token，网络会成为瓶颈吗？")
    long = calculate(stated)
    assert is_impractical(SimpleNamespace(verdict=long.verdict, query=stated, checks=long.checks))  # type: ignore[arg-type]


def test_a_sync_time_asked_of_a_model_is_a_training_step() -> None:
    # 7B in BF16: S = 14 GB; one 100 Gb/s (12.5 GB/s) NIC per node, 4 nodes: the ring moves
    # 2 x 3/4 x 14 GB = 21 GB through each node's NIC: about 1.7 s (plus NVLink inside)
    query = parse(
        "4 nodes x 8 H800, only one 100G RoCE NIC per node: how long does one gradient "
        "all-reduce take for a 7B model in bf16?"
    )
    assert query.asks == ("network",)
    assert query.scenario.task == "pretrain"
    network = next(c for c in calculate(query).checks if c.kind == "network")
    assert network.figures["allreduce_seconds_per_step"] == pytest.approx(1.8, rel=0.1)
