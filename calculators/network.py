"""The network cost of one distributed training step: data, tensor, pipeline and expert parallel.

Conventions: sizes in bytes, bandwidths in bytes/s per direction, times in seconds. A node's
inter-node bandwidth is the total of its NICs (one direction); when the GPUs of a node talk across
nodes at the same time they share it, so each GPU gets `inter / gpus_per_node`. The collective
models live in `calculators.collectives` and are re-exported here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calculators.catalog.hardware import Link
from calculators.catalog.models import ModelSpec
from calculators.collectives import (
    Fabric,
    Traffic,
    allgather_time,
    allreduce_time,
    alltoall_time,
    hierarchical_allreduce,
    make_step,
    moe_traffic,
    pp_traffic,
    reduce_scatter_time,
    ring_allreduce_bytes_per_rank,
    tp_traffic,
    transfer_time,
)
from calculators.defaults import DEFAULT_CONTEXT_TOKENS
from calculators.messages import Msg
from calculators.validate import count, fail, positive

__all__ = [
    "Fabric",
    "NetworkEstimate",
    "Traffic",
    "allgather_time",
    "allreduce_time",
    "alltoall_time",
    "hierarchical_allreduce",
    "reduce_scatter_time",
    "ring_allreduce_bytes_per_rank",
    "fabric_from_links",
    "step_network",
    "training_step_network",
    "transfer_time",
]

#: ZeRO-3 moves 1.5x the data-parallel all-reduce volume (Rajbhandari et al. 2020, §7.2), and
#: it moves it for every micro-batch: the sharded parameters are all-gathered again for the
#: forward and the backward of each micro-batch and its gradients reduce-scattered, so gradient
#: accumulation does not amortise it (Wang et al. 2023, ZeRO++ arXiv:2306.10209 §1 and §3;
#: PyTorch FSDP reduce-scatters every micro-batch outside `no_sync`).
ZERO3_VOLUME_FACTOR = 1.5
#: Efficiency target for the "bandwidth needed" figure.
TARGET_EFFICIENCY = 0.9

SOURCES = (
    "Patarasuk & Yuan 2009, Bandwidth optimal all-reduce algorithms (ring: 2(n-1)/n x S per rank)",
    "NVIDIA nccl-tests doc/PERFORMANCE.md (algbw, busbw = algbw x 2(n-1)/n for all-reduce)",
    "Rajbhandari et al. 2020, ZeRO (arXiv:1910.02054) §7: stages 1-2 = DP volume, stage 3 = 1.5x",
    "Wang et al. 2023, ZeRO++ (arXiv:2306.10209) §1, §3: ZeRO-3 gathers the weights and "
    "reduce-scatters the gradients in every micro-batch",
    "Shoeybi et al. 2019, Megatron-LM §3: 2 all-reduces forward + 2 backward per layer",
    "Narayanan et al. 2021, Efficient Large-Scale LM Training (arXiv:2104.04473) §4.1: p2p "
    "scatter/gather across tensor-parallel ranks",
    "Lepikhin et al. 2020, GShard: two all-to-alls (dispatch, combine) per MoE layer",
)


@dataclass(frozen=True)
class NetworkEstimate:
    """Compute and communication of one training step, per GPU, in seconds."""

    compute_seconds_per_step: float
    allreduce_seconds_per_step: float
    """Data-parallel gradient sync (ZeRO-3: reduce-scatter + 2 all-gathers = 1.5x a micro-batch)."""
    tp_seconds_per_step: float
    pp_seconds_per_step: float
    moe_seconds_per_step: float
    comm_seconds_per_step: float
    comm_compute_ratio: float
    scaling_efficiency_no_overlap: float
    """compute / (compute + comm): nothing overlaps."""
    scaling_efficiency_overlap: float
    """compute / (max(compute, dp + pp) + tp + moe): DP and pipeline traffic hide behind
    compute; tensor-parallel and MoE collectives sit on the critical path."""
    inter_node_bytes_per_s: float
    """The fabric's per-node bandwidth used (bytes/s, one direction)."""
    inter_node_bytes_per_step: float
    """Bytes each node's NICs send per step."""
    inter_node_bytes_per_s_for_90pct: float | None
    """Per-node inter-node bandwidth for 90% efficiency without overlap; 0 when no traffic
    leaves the node; None when intra-node or latency costs alone exceed the 10% budget."""
    data_parallel: int
    nodes: int
    steps: float | None
    flags: tuple[str, ...]
    formula: Msg
    assumptions: tuple[Msg, ...]
    sources: tuple[str, ...] = SOURCES


def _validate_layout(gpus: int, gpus_per_node: int, tp: int, pp: int, ep: int) -> int:
    for name, value in (
        ("gpus", gpus),
        ("gpus_per_node", gpus_per_node),
        ("tensor_parallel", tp),
        ("pipeline_parallel", pp),
        ("expert_parallel", ep),
    ):
        count(name, value)
    if gpus % (tp * pp):
        fail(
            "gpus",
            gpus,
            Msg("invalid.tp_pp_multiple", product=tp * pp),
        )
    data_parallel = gpus // (tp * pp)
    if data_parallel % ep:
        fail(
            "expert_parallel",
            ep,
            Msg("invalid.expert_divides_dp", data_parallel=data_parallel),
        )
    return data_parallel


def _flags(
    *, nodes: int, tp: int, per_node: int, fabric: Fabric, comm: float, compute: float
) -> tuple[str, ...]:
    flags: list[str] = []
    if nodes > 1 and fabric.inter_is_ethernet and not fabric.inter_rdma:
        flags.append("ethernet_without_rdma")
    if tp > per_node:
        flags.append("tensor_parallel_across_nodes")
    if tp > 1 and fabric.intra_is_pcie:
        flags.append("tensor_parallel_over_pcie")
    if comm > compute:
        flags.append("communication_bound")
    return tuple(flags)


def _required_for_target(total: Traffic, compute: float) -> float | None:
    if total.inter_bytes_per_node == 0:
        return 0.0
    budget = compute * (1.0 - TARGET_EFFICIENCY) / TARGET_EFFICIENCY
    budget -= total.intra_seconds + total.latency_seconds
    return total.inter_bytes_per_node / budget if budget > 0 else None


FORMULA = Msg("formula.network.step")
"""Per-step compute, data-parallel (hierarchical ring), tensor-parallel, pipeline and MoE
communication times and the scaling efficiency with and without overlap."""

#: What the network figures take for granted (words in assistant/i18n/catalog/assume.toml).
ASSUMPTIONS = (
    Msg("assume.network.ring_bandwidth"),
    Msg("assume.network.placement"),
    Msg("assume.network.per_node_bandwidth"),
    Msg("assume.network.overlap"),
    Msg("assume.network.model_flops"),
    Msg("assume.network.target_bandwidth", target=0.9, divisor=9),
)


def step_network(
    *,
    params: float,
    layers: int,
    hidden_size: int,
    gpus: int,
    gpus_per_node: int,
    fabric: Fabric,
    global_batch_tokens: float,
    peak_flops_per_s: float,
    mfu: float,
    active_params: float | None = None,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
    zero_stage: int = 0,
    grad_dtype_bytes: float = 2.0,
    activation_dtype_bytes: float = 2.0,
    sequence_length: int = DEFAULT_CONTEXT_TOKENS,
    micro_batch_size: int = 1,
    full_recompute: bool = False,
    expert_parallel: int = 1,
    moe_layers: int = 0,
    experts_per_token: int = 0,
    expert_params: float = 0.0,
    flops_per_token: float | None = None,
    total_tokens: float | None = None,
    routed_nodes_max: int = 0,
    data_parallel_inside: bool = False,
    frozen_bytes: float = 0.0,
) -> NetworkEstimate:
    """Compute and communication seconds of one training step, per GPU.

    ``frozen_bytes`` is a LoRA/QLoRA frozen base (whole model, stored bytes): under ZeRO-3 /
    FSDP it is sharded and all-gathered in the forward and again in the backward pass, and
    two all-gathers move what one all-reduce of the same size does (ZeRO, Rajbhandari et al.
    2020 §7.2: a parameter all-gather moves Ψ, an all-reduce 2Ψ); it is never reduced.

    Examples:
        >>> f = Fabric(intra_bytes_per_s=300e9, inter_bytes_per_s=25e9)
        >>> e = step_network(params=7e9, layers=32, hidden_size=4096, gpus=16, gpus_per_node=8,
        ...                  fabric=f, global_batch_tokens=4e6, peak_flops_per_s=312e12, mfu=0.4)
        >>> round(e.compute_seconds_per_step, 2), round(e.allreduce_seconds_per_step, 2)
        (84.13, 0.64)
    """
    tp, pp, ep = tensor_parallel, pipeline_parallel, expert_parallel
    d = _validate_layout(gpus, gpus_per_node, tp, pp, ep)
    for name, value in (
        ("params", params),
        ("global_batch_tokens", global_batch_tokens),
        ("peak_flops_per_s", peak_flops_per_s),
        ("mfu", mfu),
        ("fabric.intra_bytes_per_s", fabric.intra_bytes_per_s),
    ):
        positive(name, value)
    nodes = math.ceil(gpus / gpus_per_node)
    if nodes > 1 and not fabric.inter_bytes_per_s > 0:
        fail(
            "inter_link",
            None,
            Msg("invalid.needs_inter_link"),
        )
    step = make_step(
        gpus,
        gpus_per_node,
        tp * pp,
        d,
        global_batch_tokens,
        micro_batch_size * sequence_length,
        tp_for_dp_inside=tp if data_parallel_inside else 0,
    )
    per_token = flops_per_token or 6.0 * (active_params or params)
    compute = global_batch_tokens * per_token / (gpus * peak_flops_per_s * mfu)
    grad = (params - expert_params + expert_params / ep) * grad_dtype_bytes / (tp * pp)
    dp = hierarchical_allreduce(
        size_bytes=grad,
        ranks=d,
        ranks_per_node=step.dp_ranks_per_node,
        groups_per_node=step.groups_per_node,
        fabric=fabric,
    )
    dp = dp.scaled(ZERO3_VOLUME_FACTOR * step.microbatches if zero_stage == 3 else 1.0)
    if zero_stage == 3 and frozen_bytes > 0:
        frozen = hierarchical_allreduce(
            size_bytes=frozen_bytes / (tp * pp),
            ranks=d,
            ranks_per_node=step.dp_ranks_per_node,
            groups_per_node=step.groups_per_node,
            fabric=fabric,
        )
        dp += frozen.scaled(step.microbatches)  # gathered again in every micro-batch
    per_stage = math.ceil(layers / pp)
    tpt = tp_traffic(
        step,
        tp=tp,
        layers_per_stage=per_stage,
        hidden=hidden_size,
        act_bytes=activation_dtype_bytes,
        recompute=full_recompute,
        fabric=fabric,
    )
    ppt = pp_traffic(
        step, tp=tp, pp=pp, hidden=hidden_size, act_bytes=activation_dtype_bytes, fabric=fabric
    )
    moe = moe_traffic(
        step,
        ep=ep,
        tp=tp,
        moe_layers_per_stage=math.ceil(moe_layers / pp),
        top_k=experts_per_token,
        hidden=hidden_size,
        act_bytes=activation_dtype_bytes,
        recompute=full_recompute,
        fabric=fabric,
        routed_nodes_max=routed_nodes_max,
    )
    return _estimate(
        compute,
        dp,
        tpt,
        ppt,
        moe,
        fabric=fabric,
        d=d,
        nodes=nodes,
        tp=tp,
        per_node=step.per_node,
        steps=total_tokens / global_batch_tokens if total_tokens else None,
    )


def _estimate(
    compute: float,
    dp: Traffic,
    tp_t: Traffic,
    pp_t: Traffic,
    moe: Traffic,
    *,
    fabric: Fabric,
    d: int,
    nodes: int,
    tp: int,
    per_node: int,
    steps: float | None,
) -> NetworkEstimate:
    bw = fabric.inter_bytes_per_s
    t_dp, t_tp, t_pp, t_moe = (x.seconds(bw) for x in (dp, tp_t, pp_t, moe))
    comm = t_dp + t_tp + t_pp + t_moe
    total = dp + tp_t + pp_t + moe
    return NetworkEstimate(
        compute_seconds_per_step=compute,
        allreduce_seconds_per_step=t_dp,
        tp_seconds_per_step=t_tp,
        pp_seconds_per_step=t_pp,
        moe_seconds_per_step=t_moe,
        comm_seconds_per_step=comm,
        comm_compute_ratio=comm / compute,
        scaling_efficiency_no_overlap=compute / (compute + comm),
        scaling_efficiency_overlap=compute / (max(compute, t_dp + t_pp) + t_tp + t_moe),
        inter_node_bytes_per_s=bw,
        inter_node_bytes_per_step=total.inter_bytes_per_node,
        inter_node_bytes_per_s_for_90pct=_required_for_target(total, compute),
        data_parallel=d,
        nodes=nodes,
        steps=steps,
        flags=_flags(
            nodes=nodes, tp=tp, per_node=per_node, fabric=fabric, comm=comm, compute=compute
        ),
        formula=FORMULA,
        assumptions=ASSUMPTIONS,
    )


def fabric_from_links(
    *, intra_link: Link, inter_link: Link | None, nics_per_node: int = 1
) -> Fabric:
    """A Fabric from catalog links; the node's inter-node bandwidth is `nics_per_node` ports.

    Examples:
        >>> from calculators.catalog.hardware import lookup_link
        >>> f = fabric_from_links(intra_link=lookup_link("NVLink 3"),
        ...                       inter_link=lookup_link("25GbE"), nics_per_node=2)
        >>> f.inter_bytes_per_s, f.inter_rdma
        (6250000000.0, False)
    """
    count("nics_per_node", nics_per_node)
    inter_bw = inter_link.bytes_per_s * nics_per_node if inter_link else 0.0
    return Fabric(
        intra_bytes_per_s=intra_link.bytes_per_s,
        inter_bytes_per_s=inter_bw,
        intra_latency_s=intra_link.latency_s,
        inter_latency_s=inter_link.latency_s if inter_link else 0.0,
        intra_is_pcie=intra_link.kind == "pcie",
        inter_is_ethernet=inter_link is not None and inter_link.kind == "ethernet",
        inter_rdma=inter_link.rdma if inter_link else True,
    )


def expert_params(model: ModelSpec) -> float:
    """Parameters in the routed experts of a MoE model (0 for dense models)."""
    if not model.is_moe or model.experts <= model.active_experts:
        return 0.0
    per_expert = (model.params - model.active_params) / (model.experts - model.active_experts)
    return per_expert * model.experts


def training_step_network(
    *,
    model: ModelSpec,
    gpus: int,
    gpus_per_node: int,
    intra_link: Link,
    inter_link: Link | None,
    global_batch_tokens: float,
    peak_flops_per_s: float,
    mfu: float,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
    zero_stage: int = 0,
    grad_dtype_bytes: float = 2.0,
    nics_per_node: int = 1,
    sequence_length: int = DEFAULT_CONTEXT_TOKENS,
    micro_batch_size: int = 1,
    full_recompute: bool = False,
    expert_parallel: int = 1,
    total_tokens: float | None = None,
    trainable_params: float | None = None,
    flops_per_token: float | None = None,
    data_parallel_inside: bool = False,
    frozen_bytes: float = 0.0,
) -> NetworkEstimate:
    """The network cost of one training step of a catalog model on catalog links.

    `trainable_params` (LoRA adapters) replaces the parameter count in the gradient sync;
    compute stays 6 x N_active per token unless `flops_per_token` is given. `frozen_bytes`
    (the LoRA/QLoRA base) is what ZeRO-3 gathers besides (see `step_network`).

    Examples:
        >>> from calculators.catalog.hardware import lookup_link
        >>> from calculators.catalog.models import lookup_model
        >>> e = training_step_network(model=lookup_model("Llama-2-7B"), gpus=16, gpus_per_node=8,
        ...     intra_link=lookup_link("NVLink 3"), inter_link=lookup_link("25GbE"),
        ...     global_batch_tokens=4e6, peak_flops_per_s=312e12, mfu=0.4)
        >>> e.flags, e.nodes
        (('ethernet_without_rdma',), 2)
    """
    return step_network(
        params=float(trainable_params) if trainable_params else float(model.params),
        active_params=float(model.active_params),
        flops_per_token=flops_per_token or 6.0 * model.active_params,
        layers=model.layers,
        hidden_size=model.hidden,
        gpus=gpus,
        gpus_per_node=gpus_per_node,
        fabric=fabric_from_links(
            intra_link=intra_link, inter_link=inter_link, nics_per_node=nics_per_node
        ),
        global_batch_tokens=global_batch_tokens,
        peak_flops_per_s=peak_flops_per_s,
        mfu=mfu,
        tensor_parallel=tensor_parallel,
        pipeline_parallel=pipeline_parallel,
        zero_stage=zero_stage,
        grad_dtype_bytes=grad_dtype_bytes,
        sequence_length=sequence_length,
        micro_batch_size=micro_batch_size,
        full_recompute=full_recompute,
        expert_parallel=expert_parallel,
        moe_layers=model.layers - model.dense_layers if model.is_moe else 0,
        experts_per_token=model.active_experts,
        expert_params=0.0 if trainable_params else expert_params(model),
        total_tokens=total_tokens,
        routed_nodes_max=model.routed_nodes_max,
        data_parallel_inside=data_parallel_inside,
        frozen_bytes=frozen_bytes,
    )
