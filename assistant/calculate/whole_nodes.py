"""A GPU count past one server, said as whole servers: "at least 18 × H800" is bought and
evaluated as 24 = 3 nodes × 8 (the planner's own scale-out suggestions round the same way)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from assistant.records import Figure
from calculators.messages import Msg

__all__ = ["SCALE_OUT_NODE_GPUS", "asks_nodes", "node_count", "on_nodes", "whole_nodes"]

#: GPUs per server when the plan is a single card (as `calculators.planner.suggest_scale`).
SCALE_OUT_NODE_GPUS = 8

#: "how many 8-GPU H800 nodes", "how many servers", "要几台", "多少个节点": the count is of nodes.
_NODES_ASKED = re.compile(
    r"how many (?:[^\s?,.]+ ){0,3}(?:nodes|servers|machines|boxes)\b|"
    r"(?:几|多少)台|(?:几|多少)个?节点",
    re.IGNORECASE,
)


def asks_nodes(question: str) -> bool:
    """True when the question asks for a count of nodes (servers), not of GPUs.

    Examples:
        >>> asks_nodes("How many 8-GPU H800 nodes would we need?"), asks_nodes("要几台H20")
        (True, True)
        >>> asks_nodes("How many H800 GPUs do we need on 2 nodes?")
        False
    """
    return bool(_NODES_ASKED.search(question))


def node_count(count: int, per_node: int, gpu: str) -> Msg | None:
    """ "You need 94 nodes × 8 (752 × H800)" for a count of whole nodes, "You need 1 node × 8
    (8 × H200)" for exactly one; None for a part of a node (said in GPUs) or no whole count.

    Examples:
        >>> node_count(8, 8, "H200").key, node_count(752, 8, "H800")["nodes"]
        ('answer.count_one_node', 94)
        >>> node_count(4, 8, "H200"), node_count(12, 8, "H200")
        (None, None)
    """
    if per_node < 1 or count < per_node or count % per_node:
        return None
    hardware = Msg("common.gpus", count=count, gpu=gpu)
    if count == per_node:  # "how many H200 nodes?" answered "8 × H200" said no node count
        return Msg("answer.count_one_node", per_node=per_node, hardware=hardware)
    return Msg("answer.count_nodes", nodes=count // per_node, per_node=per_node, hardware=hardware)


def whole_nodes(count: float | None, figures: Mapping[str, Figure], gpu: str) -> Msg | str:
    """ " (24 × H800 = 3 nodes × 8)" for a count past one node of the check's `gpus_per_node`
    figure (" (= 2 nodes × 8)" when it is whole nodes already); "" for a count that fits in
    one node (or no count).

    Examples:
        >>> whole_nodes(18, {"gpus_per_node": 8}, "H800")["gpus"]
        24
        >>> whole_nodes(8, {"gpus_per_node": 8}, "H800")
        ''
        >>> whole_nodes(12, {"gpus_per_node": 1}, "RTX 4090 24GB")["nodes"]  # one card: 8-GPU boxes
        2
    """
    per_node = figures.get("gpus_per_node")
    if count is None or isinstance(per_node, bool) or not isinstance(per_node, int):
        return ""
    per_node = per_node if per_node > 1 else SCALE_OUT_NODE_GPUS
    need = math.ceil(count)
    if need <= per_node:
        return ""
    nodes = -(-need // per_node)
    key = "summary.whole_nodes" if need % per_node else "summary.whole_nodes_exact"
    return Msg(key, gpus=nodes * per_node, gpu=gpu, nodes=nodes, per_node=per_node)


def on_nodes(count: int, per_node: int, nodes: int, gpu: str) -> Msg:
    """The GPUs evaluated, as the servers hold them: "1 台 8 张 H100", "2 nodes × 8 H100 (16
    GPUs)", and a count that is not whole servers as its split ("14 × A10 (2 nodes: 8 + 6)"),
    so that nodes × GPUs per node never reads as more than the total.

    Examples:
        >>> on_nodes(14, 8, 2, "A10")["split"]["last"], on_nodes(16, 8, 2, "A10").key
        (6, 'common.setup.whole')
        >>> on_nodes(20, 8, 3, "A10")["split"].key, on_nodes(4, 8, 1, "A10").key
        ('common.node_split.many', 'common.setup.one_node')
    """
    if nodes <= 1:
        return Msg("common.setup.one_node", count=count, gpu=gpu)
    if per_node * nodes == count:
        return Msg("common.setup.whole", nodes=nodes, per_node=per_node, count=count, gpu=gpu)
    full = nodes - 1  # the servers filled first; the last holds the rest
    last = count - full * per_node
    key = "common.node_split.two" if full == 1 else "common.node_split.many"
    split = Msg(key, full=full, per_node=per_node, last=last)
    return Msg("common.setup.uneven", nodes=nodes, count=count, gpu=gpu, split=split)
