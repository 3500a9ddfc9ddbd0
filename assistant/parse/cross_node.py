"""Tensor parallelism asked across nodes ("跨机做张量并行", "tensor parallelism across the
nodes"): the question's own layout, so a named job is evaluated with TP spanning the nodes."""

from __future__ import annotations

import re

__all__ = ["asks_cross_node_tp", "cross_node_slots"]

_TP = re.compile(r"张量并行|tensor[- ]parallel|\btp\b")
_ACROSS = re.compile(
    r"跨机|跨节点|跨服务器|跨(?:两)?台|(?:机器|节点|服务器)之间|"
    r"(?:between|across) (?:the |two |2 )?(?:nodes|machines|servers|boxes|hosts)|"
    r"cross[- ]node|inter[- ]node|multi[- ]node"
)


def asks_cross_node_tp(text: str) -> bool:
    """True when the question puts tensor parallelism across nodes.

    >>> asks_cross_node_tp("两台机器之间只有25g网卡，跨机做张量并行行不行")
    True
    >>> asks_cross_node_tp("张量并行是什么")
    False
    """
    lowered = text.lower()
    return bool(_TP.search(lowered) and _ACROSS.search(lowered))


def cross_node_slots(text: str, found: dict[str, object]) -> dict[str, object]:
    """TP over every GPU of the stated nodes when the question asks it across them for serving
    and states no degree ("两台8卡H100，跨机做张量并行推理": TP=16, whose per-token traffic the
    network check then gives); {} otherwise. Training is left to its layout search: its
    tensor-parallel traffic is counted in the MFU, not over the stated link."""
    nodes, gpus = found.get("nodes"), found.get("gpu_count")
    if found.get("task") not in (None, "inference"):
        return {}
    if "tensor_parallel" in found or not isinstance(nodes, int) or nodes < 2:
        return {}
    if not isinstance(gpus, int) or not asks_cross_node_tp(text):
        return {}
    return {"tensor_parallel": gpus}
