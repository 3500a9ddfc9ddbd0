"""Deployment layouts a serving search tries (`serving_target`, `serving_streams`).

The smallest tensor-parallel split inside a node that holds the weights and every larger one
(faster tokens, fewer replicas), or, when one node does not hold them, the pipeline layout
across nodes, and, for a stated concurrency, the deeper pipelines that hold it on fewer
replicas (`_deeper_pipelines`); with a per-token target, tensor parallelism across nodes
beside them.
"""

from __future__ import annotations

from calculators import _memory_parts as parts
from calculators.catalog.hardware import GPU
from calculators.catalog.models import ModelSpec
from calculators.serving_layout import ServingLayout
from calculators.serving_solvers import replica_batch_limit, replica_layout

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
    sequences: int | None = None,
) -> list[ServingLayout]:
    """Deployment layouts worth trying: the stated TP x PP alone, else the smallest TP inside a
    node that fits and every larger one (faster tokens, fewer replicas), or the pipeline
    layout across nodes; when ``sequences`` must be in flight at once, either is joined by the
    deeper pipelines (TP = the node's split) that hold them on fewer replicas
    (`_deeper_pipelines`). With a per-token target (``per_token``) tensor parallelism across
    nodes joins a pipeline layout (`_across_nodes`): pipeline stages run one after another
    for a token, so they never make a stream faster.
    The layouts depend on no target's value, so a faster target is searched over the same."""
    if stated != (None, None):
        return [ServingLayout(stated[0] or 1, stated[1] or 1, 1, 0.0)]
    base = replica_layout(model, gpu, per_node * 1024, per_node, weight, kv, context, None, None)
    if base is None:
        return []
    shape = (weight, kv, context)
    if base.pipeline_parallel > 1:
        deeper = _deeper_pipelines(model, gpu, base, shape, sequences) if sequences else []
        across = _across_nodes(model, base, per_node) if per_token else []
        return [base, *deeper, *across]
    inside = [
        ServingLayout(tp, 1, 1, 0.0)
        for tp in parts.SEARCHED_TENSOR_PARALLEL
        if base.tensor_parallel <= tp <= per_node
        and per_node % tp == 0
        and parts.valid_tensor_parallel(model, tp)
    ]
    # a node's replica whose KV cache holds few sequences: deeper ones may need fewer GPUs
    deeper = _deeper_pipelines(model, gpu, inside[-1], shape, sequences) if sequences else []
    return [*inside, *deeper]


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


def _deeper_pipelines(
    model: ModelSpec,
    gpu: GPU,
    base: ServingLayout,
    shape: tuple[str, str, int],
    sequences: int,
) -> list[ServingLayout]:
    """Pipelines deeper than ``base`` (the fewest stages that hold the weights) that hold
    ``sequences`` on fewer replicas: each replica stores every weight once, so a long
    context's KV cache is held on fewer GPUs by deeper replicas than by more of them (405B in
    FP8 with 64 sequences of 128k tokens: one TP8 x PP9 replica of 72 H100, not 8 replicas of
    TP8 x PP2). A stage holds ceil(layers / PP) layers (`_memory_parts`), so its memory only
    falls as stages are added and replicas = ceil(sequences / what one holds) only falls.

    Depths are tried upward, one per stage size (a deeper split with the same stage size holds
    no more); a depth is kept when it needs fewer replicas than every shallower one, and the
    search stops at one replica or once a replica alone has as many GPUs as the fewest found
    (vLLM runs PP of any depth: "Distributed Inference and Serving", pipeline_parallel_size)."""
    weight, kv, context = shape
    tp = base.tensor_parallel

    def replicas(pp: int) -> int:
        held, _ = replica_batch_limit(
            model=model,
            gpu=gpu,
            tensor_parallel=tp,
            pipeline_parallel=pp,
            weight_dtype=weight,
            kv_dtype=kv,
            context_length=context,
        )
        return -(-sequences // held) if held else sequences + 1

    fewest = replicas(base.pipeline_parallel)
    best = fewest * base.gpus_per_replica
    found: list[ServingLayout] = []
    for pp in range(base.pipeline_parallel + 1, model.layers + 1):
        if fewest == 1 or tp * pp >= best:
            break
        if -(-model.layers // pp) == -(-model.layers // (pp - 1)):
            continue  # the stage size of one stage fewer: it holds no more
        needed = replicas(pp)
        if needed < fewest:
            found.append(ServingLayout(tp, pp, 1, 0.0))
            fewest, best = needed, min(best, needed * tp * pp)
    return found
