"""Tensor parallelism asked across nodes over a slow link ("两台机器之间只有25G网卡，跨机做张量
并行行不行"): the answer is the link against NVLink, with the rule that follows from it.

Tensor parallelism all-reduces each layer's activations twice in the forward pass and twice
in the backward, on the critical path (Shoeybi et al. 2019, arXiv:1909.08053 §3), so it is
kept inside a node on NVLink and pipeline or data parallelism spans the nodes (Narayanan et al.
2021, arXiv:2104.04473 §3, takeaway 1; knowledge/guides/parallelism-3d).
"""

from __future__ import annotations

from assistant.i18n import text
from assistant.parse.cross_node import asks_cross_node_tp
from assistant.records import Query
from calculators.messages import Msg

__all__ = ["cross_node_tp"]

#: From this many times slower than NVLink a link cannot carry tensor parallelism: InfiniBand
#: NDR (50 GB/s per direction) is 9x under NVLink 4 and already needs TP kept in a node
#: (Narayanan et al. 2021 §3); a fabric within 4x of it (NVLink Switch) says nothing here.
_TOO_SLOW = 4.0


def cross_node_tp(query: Query) -> str:
    """ "跨机做张量并行行不行" over a stated inter-node link: how many times slower than the
    NVLink inside a node it is, and to keep TP inside the node; "" for any other question.

    Examples:
        >>> from assistant.records import Scenario
        >>> q = Query("两台机器之间只有25G网卡，跨机做张量并行行不行", "zh",
        ...           Scenario(nodes=2, inter_link="25GbE TCP"))
        >>> "1/144" in cross_node_tp(q), cross_node_tp(Query("张量并行是什么", "zh", Scenario()))
        (True, '')
    """
    from calculators.catalog.hardware import lookup_gpu, lookup_link

    s = query.scenario
    if s.inter_link is None or not asks_cross_node_tp(query.question):
        return ""
    link = lookup_link(s.inter_link)
    inside = lookup_link(lookup_gpu(s.gpu).intra_link if s.gpu else "NVLink 4")
    between = link.bytes_per_s * (s.nics_per_node or 1)
    ratio = inside.bytes_per_s / between
    if inside.kind != "nvlink" or ratio < _TOO_SLOW:
        return ""
    said = Msg(
        "concept.cross_node_tp",
        link=link.name,
        link_rate=between,
        link_bits=8 * between,
        inside=inside.name,
        inside_rate=inside.bytes_per_s,
        ratio=ratio,
    )
    return text(said, query.language)
