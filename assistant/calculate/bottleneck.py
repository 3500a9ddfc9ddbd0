"""'Will the network be the bottleneck?': each step's communication against its compute, said
first, from the network check (:func:`calculators.network`), whatever fabric was evaluated.

The answer is read off the figures of that check: the traffic per step between the nodes
(data-parallel gradient sync, pipeline and expert traffic), the compute per step, and the
scaling efficiency the run time uses (the sync overlapped with the backward pass) beside the
one if nothing overlapped. Those depend on the global batch (a bigger batch is more
compute per gradient sync), so a batch the question did not state is said with the answer.

Examples:
    >>> from assistant.records import Check, Scenario
    >>> net = Check(kind="network", verdict="ok", summary="", figures={
    ...     "nodes": 2, "allreduce_seconds_per_step": 2.0, "compute_seconds_per_step": 40.0})
    >>> bottleneck_sentence((net,), Scenario(inter_link="InfiniBand NDR"), "en", "")[:50]
    'The network (InfiniBand NDR) is not the bottleneck'
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.i18n import join_sentences, text
from assistant.records import Check, Language, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["bottleneck_sentence", "judged_on_network", "network_bound", "no_overlap_efficiencies"]

#: At or below this share of the compute the communication hides behind it (the network
#: check's "ok" band, `calculators.planner.checks.NETWORK_OK_RATIO`).
_HIDDEN_RATIO = 0.25


def bottleneck_sentence(
    checks: tuple[Check, ...],
    scenario: Scenario,
    lang: Language,
    batch_note: str,
    *,
    scaling: bool = False,
) -> str:
    """Whether the network is the bottleneck of the evaluated training step (or, `scaling`,
    how much it costs the scaling: "how badly does the network hurt scaling?", the efficiency
    first), then the line-rate caveat of plain TCP and `batch_note` (the assumed batch the
    figures are for, "" when stated); "" with no figures.

    The traffic judged is what overlaps with compute across the nodes (gradient sync, pipeline
    sends) plus the MoE all-to-all; tensor-parallel all-reduces stay inside the node and the
    MFU already pays for them (`calculators.planner.compute_facts._network_efficiencies`), so the
    efficiency said is the one the run time uses."""
    compute = figure(checks, "network", "compute_seconds_per_step")
    sync = figure(checks, "network", "allreduce_seconds_per_step")
    if compute is None or sync is None or compute <= 0:
        return ""
    inter = _between_nodes(checks)
    nodes = figure(checks, "network", "nodes") or 1
    overlap, plain = no_overlap_efficiencies(checks)
    if nodes <= 1:  # all the traffic stays inside the node (NVLink or PCIe)
        inside = figure(checks, "network", "comm_seconds_per_step") or inter
        said = Msg("answer.bottleneck.one_node", comm=inside, compute=compute, efficiency=overlap)
        return join_sentences((text(said, lang), batch_note), lang)
    times = Msg("answer.bottleneck.times", comm=inter, compute=compute)
    link = scenario.inter_link or ""
    if scaling:
        said = _scaling(times, link, overlap=overlap, plain=plain, ratio=inter / compute)
    else:
        said = Msg(
            f"answer.bottleneck.{_band(checks, inter / compute)}",
            times=times,
            link=Msg("answer.bottleneck.link", link=link) if link else "",
            overlap=overlap,
            plain=plain,
        )
    tcp = _line_rate(checks, inter / compute)
    caveat = text(tcp, lang) if tcp is not None else ""
    return join_sentences((text(said, lang), caveat, batch_note), lang)


def no_overlap_efficiencies(checks: tuple[Check, ...]) -> tuple[float, float]:
    """(the scaling efficiency the run time uses, the same with nothing overlapped): the
    planner's `network_efficiency` and `network_efficiency_no_overlap` figures, the one pair
    every sentence of an answer says (the headline, the key figures). A check without them
    (built by hand) falls back to the traffic between the nodes alone."""
    compute = figure(checks, "network", "compute_seconds_per_step") or 0.0
    inter = _between_nodes(checks)
    used = figure(checks, "network", "network_efficiency")
    plain = figure(checks, "network", "network_efficiency_no_overlap")
    hidden = compute / max(compute, inter) if compute > 0 else 1.0
    overlap = used if used is not None else hidden
    if plain is None:
        plain = (overlap / hidden) * compute / (compute + inter) if compute > 0 else overlap
    return overlap, min(plain, overlap)


def _band(checks: tuple[Check, ...], ratio: float) -> str:
    """Not / close to / the bottleneck, in the network check's own terms so the sentence up
    front and the check's word agree: the bottleneck when the traffic between the nodes
    outlasts the compute (`network_bound`, what makes the run infeasible) or the check fails;
    close when the check is tight on its traffic; not when it passes, or is tight only because
    the nodes talk plain TCP (the line-rate caveat says that). By `ratio` (the traffic between
    the nodes over the compute) for a check with no verdict to read."""
    verdict = next((c.verdict for c in checks if c.kind == "network"), None)
    if ratio > 1 or verdict == "fail":
        return "yes"
    if verdict == "tight" and not _tight_for_tcp_only(checks):
        return "close"
    if verdict in ("ok", "tight"):
        return "no"
    return "no" if ratio <= _HIDDEN_RATIO else "close"


def _tight_for_tcp_only(checks: tuple[Check, ...]) -> bool:
    """The check's traffic not paid in the MFU is within its ok band, and only plain TCP
    between the nodes makes it tight (`calculators.planner.checks._network_verdict`)."""
    rdma = next((c.figures.get("inter_node_rdma") for c in checks if c.kind == "network"), None)
    comm = figure(checks, "network", "comm_seconds_per_step") or 0.0
    paid = figure(checks, "network", "tp_in_mfu_seconds_per_step") or 0.0
    compute = figure(checks, "network", "compute_seconds_per_step") or 0.0
    return rdma is False and compute > 0 and (comm - paid) / compute <= _HIDDEN_RATIO


def _scaling(times: Msg, link: str, *, overlap: float, plain: float, ratio: float) -> Msg:
    """ "How badly does the network hurt scaling?": the scaling efficiency, as a range when
    overlapping the sync with the backward pass matters (the run time uses the overlapped
    one), then the traffic against the compute."""
    where = Msg("answer.bottleneck.over", link=link) if link else ""
    if overlap - plain < 0.005:  # the same to the percent: one figure
        return Msg("answer.bottleneck.scaling_one", where=where, overlap=overlap, times=times)
    return Msg(
        "answer.bottleneck.scaling",
        where=where,
        overlap=overlap,
        plain=plain,
        times=times,
        ratio=ratio,
    )


def _line_rate(checks: tuple[Check, ...], ratio: float) -> Msg | None:
    """Plain TCP between the nodes: the figures are at the link's line rate, which NCCL's
    socket transport reaches only in part (knowledge/guides/networking, "Ethernet, TCP and
    RoCE"); the sync still hides behind the compute while it gets at least `ratio` of that
    rate. None on an RDMA fabric, or when the traffic outlasts the compute already."""
    rdma = next((c.figures.get("inter_node_rdma") for c in checks if c.kind == "network"), None)
    if rdma is not False or ratio >= 1:
        return None
    return Msg("answer.bottleneck.line_rate", share=ratio)


def network_bound(checks: tuple[Check, ...]) -> bool:
    """True when the traffic between the nodes takes longer than each step's compute: the
    stated fabric is not enough for the job as stated (a faster one is other hardware)."""
    compute = figure(checks, "network", "compute_seconds_per_step")
    nodes = figure(checks, "network", "nodes") or 1
    inter = _between_nodes(checks)
    return nodes > 1 and compute is not None and inter > compute


def _between_nodes(checks: tuple[Check, ...]) -> float:
    """Seconds per step of the traffic judged: gradient sync, pipeline sends, MoE all-to-all."""
    keys = ("allreduce_seconds_per_step", "pp_seconds_per_step", "moe_seconds_per_step")
    return sum(figure(checks, "network", key) or 0.0 for key in keys)


def judged_on_network(outcome: Outcome) -> Outcome:
    """ "Is 10GbE enough?": a run the network check finds network-bound (each step waits on the
    traffic between the nodes even at the default ~4M-token batch) does not work as asked on
    that fabric; the verdict says so even when the run time alone was not judged."""
    if outcome.verdict != "feasible" or not network_bound(outcome.checks):
        return outcome
    return replace(outcome, verdict="infeasible", binding="network")
