"""A GPU count past one server, said as whole servers: "at least 18 × H800" is bought and
evaluated as 24 = 3 nodes × 8 (the planner's own scale-out suggestions round the same way)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from assistant.records import Figure
from calculators.messages import Msg

__all__ = ["SCALE_OUT_NODE_GPUS", "whole_nodes"]

#: GPUs per server when the plan is a single card (as `calculators.planner.suggest_scale`).
SCALE_OUT_NODE_GPUS = 8


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
