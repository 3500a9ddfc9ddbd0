"""The time of a collective of a stated size, with no job ("All-reduce time for 10 GB of
gradients across 16 nodes over HDR 200G InfiniBand, one NIC per node?"): a ring all-reduce moves
2(n − 1)/n × S per rank in 2(n − 1) steps (Patarasuk & Yuan 2009; NCCL `doc/PERFORMANCE.md`).

With a card named and several GPUs per node, the hierarchical form NCCL uses: reduce-scatter
and all-gather inside the node, the ring across nodes on each GPU's 1/g shard
(`calculators.collectives.hierarchical_allreduce`). Without a card, one rank per node: the
cross-node part, said so.

Examples:
    >>> from assistant.parse import parse
    >>> found = collective_outcome(parse(
    ...     "All-reduce time for 10 GB of gradients across 16 nodes over HDR 200G InfiniBand, "
    ...     "one NIC per node?"))
    >>> found.lead.split(":")[0]
    'A ring all-reduce of 10.0 GB (9.3 GiB) across 16 nodes takes about 750.1 ms'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.i18n import join_sentences, text
from assistant.parse.collective_size import read_collective_bytes
from assistant.records import Check, Query
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["collective_outcome"]

_SOURCE = "Patarasuk & Yuan 2009; NCCL doc/PERFORMANCE.md: ring all-reduce 2(n − 1)/n × S per rank"


def collective_outcome(query: Query) -> Outcome | None:
    """The all-reduce time of the size, nodes and link stated; None unless the question names
    no job and states a collective with its size, at least two nodes and the link."""
    from assistant.calculate.outcome import Outcome
    from calculators.catalog.hardware import lookup_gpu, lookup_link
    from calculators.collectives import (
        Fabric,
        allreduce_time,
        hierarchical_allreduce,
        ring_allreduce_bytes_per_rank,
    )
    from calculators.planner.fabrics import ports_per_node

    s, lang = query.scenario, query.language
    if s.model or s.params:
        return None
    size = read_collective_bytes(query.question)
    nodes = s.nodes or 0
    if size is None or nodes < 2 or s.inter_link is None:
        return None
    link = lookup_link(s.inter_link)
    gpu = lookup_gpu(s.gpu) if s.gpu else None
    per_node = s.gpus_per_node if gpu is not None and s.gpus_per_node else 1
    # unstated ports: cabled as the card's nodes are on this link (one per GPU on a rail
    # fabric, one per node on plain Ethernet); with no card, one per node
    nics = s.nics_per_node or (ports_per_node(gpu, link, per_node) if gpu is not None else 1)
    node_bw = nics * link.bytes_per_s
    if s.nics_per_node:
        notes = [Msg("answer.collective_nics_stated", nics=nics, port=link.bytes_per_s,
                     link=link.name)]  # fmt: skip
    else:
        why = Msg("answer.collective_ports_rails" if nics > 1 else "answer.collective_ports_one")
        notes = [Msg("answer.collective_nics", nics=nics, port=link.bytes_per_s, link=link.name,
                     why=why)]  # fmt: skip
    if per_node > 1 and gpu is not None:
        fabric = Fabric(
            intra_bytes_per_s=gpu.intra_link_bytes_per_s,
            inter_bytes_per_s=node_bw,
            inter_latency_s=link.latency_s,
        )
        traffic = hierarchical_allreduce(
            size_bytes=size,
            ranks=nodes * per_node,
            ranks_per_node=per_node,
            groups_per_node=1,
            fabric=fabric,
        )
        seconds = traffic.seconds(node_bw)
        notes.append(Msg("answer.collective_inside", gpus=per_node, link=gpu.intra_link))
    else:
        seconds = allreduce_time(
            size_bytes=size, ranks=nodes, bandwidth_bytes_per_s=node_bw, latency_s=link.latency_s
        )
        notes.append(Msg("answer.collective_one_rank"))
    volume = ring_allreduce_bytes_per_rank(size_bytes=size, ranks=nodes)  # through each node
    lead = Msg(
        "answer.collective",
        size=size,
        nodes=nodes,
        seconds=seconds,
        volume=volume,
        bandwidth=node_bw,
        steps=2 * (nodes - 1),
        latency=link.latency_s,
    )
    said = join_sentences([text(m, lang) for m in (lead, *notes)], lang)
    check = Check(
        kind="network",
        verdict="ok",
        summary=text(lead, lang),
        figures={"allreduce_seconds": seconds, "allreduce_bytes_per_node": volume},
        formula=text(Msg("formula.collective"), lang),
        inputs={"nodes": nodes, "gpus_per_node": per_node, "nics_per_node": nics},
        sources=(_SOURCE, *link.sources),
    )
    return Outcome(verdict="unknown", lead=said, scenario=s, checks=(check,), focus=said)
