"""Machines counted by the card they carry: "16 H100 nodes" is sixteen nodes, not sixteen GPUs."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.hardware import read_counts


@pytest.mark.parametrize(
    ("question", "nodes", "per_node", "gpus"),
    [
        # the count before "<card> nodes" is of machines; GPUs per node stay open (default later)
        ("Can 16 H100 nodes on 400G RoCE fine-tune a 70B model?", 16, None, None),
        ("32 A800 servers: how long to pretrain 13B on 1T tokens?", 32, None, None),
        # with the per-node size stated, the total follows from both
        ("4 H100 nodes with 4 GPUs each: fine-tune 13B", 4, 4, 16),
        # singular: one node of eight cards, as before
        ("Can an 8 H100 node serve Llama-3-70B?", None, None, 8),
        # Chinese counts nodes with 个/台 and cards with 张/卡
        ("16个H100节点能全参微调70B模型吗", 16, None, None),
        ("4个A800节点，每个节点8卡，训练13B要多久", 4, 8, 32),
        ("2个8卡H100节点训练7B要多久", 2, 8, 16),
        ("用8张H100节点内TP=8推理70B", None, None, 8),  # 节点内: inside the node, 8 cards
    ],
)
def test_a_count_before_card_nodes_counts_nodes(
    question: str, nodes: int | None, per_node: int | None, gpus: int | None
) -> None:
    s = parse(question).scenario
    assert (s.nodes, s.gpus_per_node, s.gpu_count) == (nodes, per_node, gpus)


def test_the_node_count_is_not_also_read_as_a_gpu_count() -> None:
    counts = read_counts("can 16 ⟨gpu⟩ nodes train 70b")
    assert counts.gpu_counts == ()
    assert counts.nodes == 16


def test_sixteen_named_nodes_are_evaluated_as_128_gpus() -> None:
    from assistant.config import Settings
    from assistant.pipeline import answer, default_retriever
    from assistant.render.serialize import answer_to_json

    settings = Settings()
    data = answer_to_json(
        answer(
            "Can 16 H100 nodes fine-tune a 70B model full-parameter?",
            settings=settings,
            retriever=default_retriever(settings),
        )
    )
    assert data["scenario"]["nodes"] == 16
    assert data["scenario"]["gpu_count"] == 128


@pytest.mark.parametrize(
    ("question", "nodes", "per_node", "gpus"),
    [
        # a word for the kind of machine between the count and "machines" (probe3-34 was
        # evaluated on 2 nodes × 8 when the user has 4 machines of 4)
        ("16 RTX 3090s across 4 PCIe machines with 10GbE: pretrain 1.3B", 4, None, 16),
        ("16 A100 on 2 separate servers, fine-tune 13B", 2, None, 16),
        # a count said to be the whole is the total, never the per-node size (was 4 × 16 = 64)
        ("4 nodes, 16 A100 in total: train 7B", 4, None, 16),
        ("4 nodes with 16 H100 altogether, train 7B", 4, None, 16),
        # the per-node readings stay
        ("4 nodes, 8 H100 each: train 7B", 4, 8, 32),
        ("3 machines with 8 H100 each: train 7B", 3, 8, 24),
    ],
)
def test_machines_with_a_kind_word_and_totals_said_as_totals(
    question: str, nodes: int | None, per_node: int | None, gpus: int | None
) -> None:
    s = parse(question).scenario
    assert (s.nodes, s.gpus_per_node, s.gpu_count) == (nodes, per_node, gpus)
