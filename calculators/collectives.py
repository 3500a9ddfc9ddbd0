"""Collective-communication time models: point to point, ring all-reduce and friends.

Sizes in bytes, bandwidths in bytes/s per direction, times in seconds. A ring all-reduce of S
bytes over n ranks moves 2(n-1)/n x S per rank in 2(n-1) steps (Patarasuk & Yuan 2009; NCCL tests
`doc/PERFORMANCE.md`). Across nodes we use the hierarchical form NCCL and Horovod use:
reduce-scatter inside the node, all-reduce of each GPU's 1/g shard across nodes, all-gather
inside the node.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calculators.validate import count, non_negative, positive

__all__ = [
    "Fabric",
    "Traffic",
    "allgather_time",
    "allreduce_time",
    "alltoall_time",
    "hierarchical_allreduce",
    "reduce_scatter_time",
    "ring_allreduce_bytes_per_rank",
    "StepShape",
    "dp_layout",
    "make_step",
    "moe_traffic",
    "pp_traffic",
    "tp_traffic",
    "transfer_time",
]


def transfer_time(
    *, size_bytes: float, bandwidth_bytes_per_s: float, latency_s: float = 0.0
) -> float:
    """Seconds to send `size_bytes` point to point: latency + size / bandwidth.

    Examples:
        >>> round(transfer_time(size_bytes=1e9, bandwidth_bytes_per_s=25e9, latency_s=1e-5), 6)
        0.04001
    """
    non_negative("size_bytes", size_bytes)
    positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    non_negative("latency_s", latency_s)
    return latency_s + size_bytes / bandwidth_bytes_per_s


def ring_allreduce_bytes_per_rank(*, size_bytes: float, ranks: int) -> float:
    """Bytes each rank sends (and receives) in a ring all-reduce: 2(n-1)/n x S, never above 2S.

    Examples:
        >>> ring_allreduce_bytes_per_rank(size_bytes=100.0, ranks=4)
        150.0
    """
    non_negative("size_bytes", size_bytes)
    count("ranks", ranks)
    return 2.0 * (ranks - 1) / ranks * size_bytes


def allreduce_time(
    *, size_bytes: float, ranks: int, bandwidth_bytes_per_s: float, latency_s: float = 0.0
) -> float:
    """Ring all-reduce seconds: 2(n-1)/n x S/B + 2(n-1) x latency (Patarasuk & Yuan 2009).

    Examples:
        >>> round(allreduce_time(size_bytes=1e9, ranks=8, bandwidth_bytes_per_s=100e9), 6)
        0.0175
        >>> allreduce_time(size_bytes=1e9, ranks=1, bandwidth_bytes_per_s=100e9)
        0.0
    """
    positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    non_negative("latency_s", latency_s)
    volume = ring_allreduce_bytes_per_rank(size_bytes=size_bytes, ranks=ranks)
    return volume / bandwidth_bytes_per_s + 2 * (ranks - 1) * latency_s


def reduce_scatter_time(
    *, size_bytes: float, ranks: int, bandwidth_bytes_per_s: float, latency_s: float = 0.0
) -> float:
    """Ring reduce-scatter seconds: (n-1)/n x S/B + (n-1) x latency; half an all-reduce.

    Examples:
        >>> round(reduce_scatter_time(size_bytes=1e9, ranks=8, bandwidth_bytes_per_s=100e9), 6)
        0.00875
    """
    return (
        allreduce_time(
            size_bytes=size_bytes,
            ranks=ranks,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            latency_s=latency_s,
        )
        / 2.0
    )


def allgather_time(
    *, size_bytes: float, ranks: int, bandwidth_bytes_per_s: float, latency_s: float = 0.0
) -> float:
    """Ring all-gather of a full buffer of `size_bytes`: the same cost as a reduce-scatter.

    Examples:
        >>> round(allgather_time(size_bytes=1e9, ranks=8, bandwidth_bytes_per_s=100e9), 6)
        0.00875
    """
    return reduce_scatter_time(
        size_bytes=size_bytes,
        ranks=ranks,
        bandwidth_bytes_per_s=bandwidth_bytes_per_s,
        latency_s=latency_s,
    )


def alltoall_time(
    *, size_bytes: float, ranks: int, bandwidth_bytes_per_s: float, latency_s: float = 0.0
) -> float:
    """All-to-all where each rank holds `size_bytes` and keeps 1/n: (n-1)/n x S/B + (n-1) x lat.

    Examples:
        >>> alltoall_time(size_bytes=8e9, ranks=8, bandwidth_bytes_per_s=100e9)
        0.07
    """
    non_negative("size_bytes", size_bytes)
    count("ranks", ranks)
    positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    return (ranks - 1) / ranks * size_bytes / bandwidth_bytes_per_s + (ranks - 1) * latency_s


@dataclass(frozen=True)
class Fabric:
    """The links a training job sees, reduced to numbers (build it from catalog links)."""

    intra_bytes_per_s: float
    """Per GPU, per direction, inside a node (NVLink, or PCIe when there is none)."""
    inter_bytes_per_s: float
    """Per node, per direction, across nodes: the sum of the node's NICs. 0 = no fabric."""
    intra_latency_s: float = 5e-6
    inter_latency_s: float = 1e-5
    intra_is_pcie: bool = False
    inter_is_ethernet: bool = False
    inter_rdma: bool = True
    """False for plain TCP/IP Ethernet (no RoCE): the kernel copies every byte."""


@dataclass(frozen=True)
class Traffic:
    """The cost of one kind of communication per step, split so the fabric can be solved for."""

    intra_seconds: float = 0.0
    """Time spent on intra-node links (bandwidth part)."""
    latency_seconds: float = 0.0
    inter_bytes_per_node: float = 0.0
    """Bytes each node's NICs send per step (one direction)."""

    def seconds(self, inter_bytes_per_s: float) -> float:
        """Total seconds when the node's NICs give `inter_bytes_per_s`."""
        inter = self.inter_bytes_per_node / inter_bytes_per_s if self.inter_bytes_per_node else 0.0
        return self.intra_seconds + self.latency_seconds + inter

    def scaled(self, factor: float) -> Traffic:
        """The same traffic repeated `factor` times."""
        return Traffic(
            self.intra_seconds * factor,
            self.latency_seconds * factor,
            self.inter_bytes_per_node * factor,
        )

    def __add__(self, other: Traffic) -> Traffic:
        return Traffic(
            self.intra_seconds + other.intra_seconds,
            self.latency_seconds + other.latency_seconds,
            self.inter_bytes_per_node + other.inter_bytes_per_node,
        )


def hierarchical_allreduce(
    *,
    size_bytes: float,
    ranks: int,
    ranks_per_node: int,
    groups_per_node: int,
    fabric: Fabric,
) -> Traffic:
    """All-reduce of `size_bytes` over `ranks` placed `ranks_per_node` to a node.

    Inside a node: reduce-scatter + all-gather (ring) over the intra link. Across the N nodes:
    ring all-reduce of each GPU's 1/g shard; the `groups_per_node` groups living on one node share
    its NICs, so the node sends groups x g x 2(N-1)/N x S/g bytes.

    Examples:
        >>> f = Fabric(intra_bytes_per_s=300e9, inter_bytes_per_s=25e9, intra_latency_s=0,
        ...            inter_latency_s=0)
        >>> t = hierarchical_allreduce(size_bytes=1e9, ranks=16, ranks_per_node=8,
        ...                            groups_per_node=1, fabric=f)
        >>> round(t.seconds(f.inter_bytes_per_s), 4)  # 2*(7/8)/300 + 1/25
        0.0458
    """
    count("ranks", ranks)
    g = max(1, min(ranks_per_node, ranks))
    nodes = math.ceil(ranks / g)
    if nodes == 1:
        intra = ring_allreduce_bytes_per_rank(size_bytes=size_bytes, ranks=g)
        return Traffic(intra / fabric.intra_bytes_per_s, 2 * (g - 1) * fabric.intra_latency_s)
    intra_bytes = 2.0 * (g - 1) / g * size_bytes  # reduce-scatter + all-gather
    inter_bytes = groups_per_node * g * 2.0 * (nodes - 1) / nodes * size_bytes / g
    latency = 2 * (g - 1) * fabric.intra_latency_s + 2 * (nodes - 1) * fabric.inter_latency_s
    return Traffic(intra_bytes / fabric.intra_bytes_per_s, latency, inter_bytes)


def dp_layout(
    gpus: int, gpus_per_node: int, model_parallel: int, *, tp: int = 0, d: int = 0
) -> tuple[int, int]:
    """(data-parallel ranks of one group per node, groups sharing a node). Megatron-LM's order
    "tp-pp-dp": tensor parallel innermost, then pipeline, then data parallel. With `tp` and
    the data-parallel degree `d` given, Megatron-Core's default "tp-dp-pp" (parallel_state
    `order="tp-cp-ep-dp-pp"`): data (and expert) parallel inside the node after TP, pipeline
    stages across nodes.

    Examples:
        >>> dp_layout(32, 8, 4), dp_layout(32, 8, 4, tp=1, d=8)  # PP=4: inside / across
        ((2, 4), (8, 1))
    """
    per_node = min(gpus_per_node, gpus)
    if tp and d:
        ranks = max(1, min(d, per_node // tp))
        return ranks, max(1, per_node // ranks)
    if model_parallel >= per_node:
        return 1, per_node
    return per_node // model_parallel, model_parallel


@dataclass(frozen=True)
class StepShape:
    """Per-step quantities shared by the traffic models."""

    data_parallel: int
    dp_ranks_per_node: int
    groups_per_node: int
    per_node: int
    tokens_per_replica: float
    microbatches: int
    tokens_per_microbatch: float
    gpus: int = 1
    stages_across_nodes: bool = False
    """Megatron-Core's "tp-dp-pp" rank order (see `dp_layout`)."""


def tp_traffic(
    s: StepShape,
    *,
    tp: int,
    layers_per_stage: int,
    hidden: int,
    act_bytes: float,
    recompute: bool,
    fabric: Fabric,
) -> Traffic:
    if tp == 1:
        return Traffic()
    size = s.tokens_per_microbatch * hidden * act_bytes
    local = min(tp, s.per_node)
    one = hierarchical_allreduce(
        size_bytes=size,
        ranks=tp,
        ranks_per_node=local,
        groups_per_node=max(1, s.per_node // local),
        fabric=fabric,
    )
    per_layer = 6 if recompute else 4
    return one.scaled(per_layer * layers_per_stage * s.microbatches)


def pp_traffic(
    s: StepShape, *, tp: int, pp: int, hidden: int, act_bytes: float, fabric: Fabric
) -> Traffic:
    if pp == 1:
        return Traffic()
    per_gpu = 2.0 * s.tokens_per_replica * hidden * act_bytes / tp
    # stages across nodes (data parallel inside): every boundary is taken to cross (conservative)
    crosses = tp * pp > s.per_node or (s.stages_across_nodes and s.per_node < s.gpus)
    if crosses:
        # every GPU of a boundary node sends through the node's NICs at once (conservative)
        return Traffic(0.0, 2 * s.microbatches * fabric.inter_latency_s, per_gpu * s.per_node)
    latency = 2 * s.microbatches * fabric.intra_latency_s
    return Traffic(per_gpu / fabric.intra_bytes_per_s, latency)


def moe_traffic(
    s: StepShape,
    *,
    ep: int,
    tp: int,
    moe_layers_per_stage: int,
    top_k: int,
    hidden: int,
    act_bytes: float,
    recompute: bool,
    fabric: Fabric,
    routed_nodes_max: int = 0,
) -> Traffic:
    """All-to-all of the routed tokens: dispatch and combine, forward and backward (x 1.5 with
    full recompute). Each token's top_k copies leave the node in proportion (ep - local) / ep;
    with node-limited routing (DeepSeek-V3 §2.1.2, §3.2.2: a token goes to at most M nodes and
    is sent once per node over IB, then forwarded over NVLink) at most M x (nodes - 1) / nodes
    copies of it cross the network, where nodes are those the expert group spans."""
    if ep == 1 or moe_layers_per_stage == 0 or top_k == 0:
        return Traffic()
    size = s.tokens_per_replica / tp * hidden * act_bytes
    count = (6 if recompute else 4) * moe_layers_per_stage
    local = min(ep, s.dp_ranks_per_node)
    remote_copies = top_k * (ep - local) / ep
    if routed_nodes_max and ep > local:
        nodes = ep / local
        remote_copies = min(remote_copies, routed_nodes_max * (nodes - 1) / nodes)
    intra = count * size * top_k * (local - 1) / ep / fabric.intra_bytes_per_s
    inter = count * size * remote_copies * s.per_node
    lat = fabric.inter_latency_s if ep > local else fabric.intra_latency_s
    return Traffic(intra, count * (ep - 1) * lat, inter)


def make_step(
    gpus: int,
    gpus_per_node: int,
    model_parallel: int,
    d: int,
    batch_tokens: float,
    micro_tokens: int,
    *,
    tp_for_dp_inside: int = 0,
) -> StepShape:
    """The step's shape; `tp_for_dp_inside` (the TP degree) selects the "tp-dp-pp" order."""
    ranks_per_node, groups = dp_layout(
        gpus, gpus_per_node, model_parallel, tp=tp_for_dp_inside, d=d if tp_for_dp_inside else 0
    )
    per_replica = batch_tokens / d
    microbatches = max(1, math.ceil(per_replica / max(1, micro_tokens)))
    return StepShape(
        d,
        ranks_per_node,
        groups,
        min(gpus, gpus_per_node),
        per_replica,
        microbatches,
        per_replica / microbatches,
        gpus,
        bool(tp_for_dp_inside),
    )
