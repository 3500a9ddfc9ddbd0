"""Deployment layouts a serving search tries (`serving_target`, `serving_streams`).

The smallest tensor-parallel split inside a node that holds the weights and every larger one
(faster tokens, fewer replicas), or, when one node does not hold them, the pipeline layout
across nodes; with a per-token target, tensor parallelism across nodes beside it.
"""

from __future__ import annotations

from calculators import _memory_parts as parts
from calculators.catalog.hardware import GPU
from calculators.catalog.models import ModelSpec
from calculators.serving_layout import ServingLayout
from calculators.serving_solvers import replica_layout

__all__ = ["candidate_layouts"]


def candidate_layouts(
    model: ModelSpec,
    gpu: GPU,
    per_node: int,
    weight: str,
    kv: str,
    context: int,
    stated: tuple[int | None, int | None] = (None, None),
    *,
    per_token: bool = False,
) -> list[ServingLayout]:
    """Deployment layouts worth trying: the stated TP x PP alone, else the smallest TP inside a
    node that fits and every larger one (faster tokens, fewer replicas), or the pipeline
    layout across nodes. With a per-token target (``per_token``) the pipeline layout is
    joined by tensor parallelism across nodes (`_across_nodes`): pipeline stages run one
    after another for a token, so they never make a stream faster."""
    if stated != (None, None):
        return [ServingLayout(stated[0] or 1, stated[1] or 1, 1, 0.0)]
    base = replica_layout(model, gpu, per_node * 1024, per_node, weight, kv, context, None, None)
    if base is None:
        return []
    if base.pipeline_parallel > 1:
        return [base, *_across_nodes(model, base, per_node)] if per_token else [base]
    return [
        ServingLayout(tp, 1, 1, 0.0)
        for tp in parts.SEARCHED_TENSOR_PARALLEL
        if base.tensor_parallel <= tp <= per_node
        and per_node % tp == 0
        and parts.valid_tensor_parallel(model, tp)
    ]


#: Nodes a tensor-parallel group spans when a per-token target needs more than one node's
#: GPUs to read each token's weights (2 and 4 nodes: 16 and 32 ranks on nodes of 8).
_TENSOR_NODES = (2, 4)


def _across_nodes(model: ModelSpec, base: ServingLayout, per_node: int) -> list[ServingLayout]:
    """Replicas whose tensor-parallel group spans 2 or 4 nodes, with as many pipeline stages
    as keep the replica at least as large as ``base`` (the fewest GPUs that hold the weights).

    Decode reads every weight once per step (Pope et al. 2022, "Efficiently Scaling Transformer
    Inference", arXiv:2211.05102, §2), split over the TP ranks only, so only more TP ranks
    shorten a stream's token; the all-reduces then cross the inter-node link, which
    `serving_speed` charges (Megatron-LM, Shoeybi et al. 2019, §3). vLLM runs TP across nodes
    ("Distributed Inference and Serving": set TP to the total GPU count, best with a fast
    interconnect)."""
    size = base.gpus_per_replica
    return [
        ServingLayout(tp, max(1, -(-size // tp)), 1, 0.0)
        for tp in (per_node * nodes for nodes in _TENSOR_NODES)
        if tp > base.tensor_parallel and parts.valid_tensor_parallel(model, tp)
    ]
