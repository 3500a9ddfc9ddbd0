"""Choosing among evaluated layouts: the fastest with nothing failing (ties to the simpler),
the one with no unpriced TP traffic on PCIe, the one closest to fitting (see `layouts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculators.planner.plan import CheckResult

__all__ = ["TIME_TIE", "closest", "least_exposed", "pick", "split", "unpriced_tp"]

#: Run times within 1% of the fastest count as a tie (well inside the model's own precision),
#: so a tight layout is not chosen over an all-ok one for a rounding difference.
TIME_TIE = 0.01


def split(layout: dict[str, object]) -> int:
    """GPUs per replica of a serving layout (TP x PP)."""
    tp, pp = layout.get("tensor_parallel"), layout.get("pipeline_parallel")
    return (tp if isinstance(tp, int) else 1) * (pp if isinstance(pp, int) else 1)


def unpriced_tp(checks: tuple[CheckResult, ...]) -> bool:
    """Whether a training layout runs TP over PCIe that its run time leaves out and that the
    network check warns of (a quarter of a step or more): the planner's time charges TP beyond
    what a measured MFU pays, but the PCIe and consumer defaults are no TP measurement, so
    their TP all-reduces (on the critical path, Megatron-LM §3) are exposed traffic the time
    does not show."""
    network = next((c for c in checks if c.kind == "network"), None)
    if network is None or not str(network.inputs.get("intra_link", "")).startswith("PCIe"):
        return False  # NVLink, HCCS: TP stays inside the node's fabric
    value = network.figures.get("tp_outside_time_seconds_per_step")
    # only where the network check warns: TP=2 at 7% of a step is a fine way to fit
    return isinstance(value, (int, float)) and value > 0 and network.verdict != "ok"


def least_exposed(
    tried: list[tuple[int, float, dict[str, object]]], exposed: list[bool]
) -> list[tuple[int, float, dict[str, object]]]:
    """The layouts without unpriced TP traffic when one of them has nothing failing: on PCIe
    cards without NVLink or P2P, ZeRO data parallel is the usual choice over TP across the
    bus (8 x RTX 4090 fully fine-tuning an 8B model: ZeRO-3, 2% of a step in gradient
    traffic, rather than TP=8 at 37%), and its run time is the one the model can state.

    Examples:
        >>> a, b = {"tensor_parallel": 8}, {"zero_stage": 3}
        >>> least_exposed([(1, 1.0, a), (1, 1.3, b)], [True, False]) == [(1, 1.3, b)]
        True
        >>> len(least_exposed([(1, 1.0, a), (2, 1.3, b)], [True, False]))  # b fails a check
        2
    """
    clean = [t for t, e in zip(tried, exposed, strict=True) if not e and t[0] <= 1]
    return clean if clean else tried


def closest(needs: list[tuple[float, dict[str, object]]]) -> dict[str, object]:
    """The layout needing the least memory per GPU, in trial order; needs within TIME_TIE of
    the least count as equal and the earlier (simpler) layout wins, as for run times: 16 x
    H800 cannot hold Qwen2.5-72B's 72.7 GB of model states per GPU either as ZeRO-3 + TP=8
    (73.8 GB) or as TP=8 x PP=2 (73.5 GB), and the fixes are said from the simpler one.

    Examples:
        >>> a, b = {"zero_stage": 3}, {"pipeline_parallel": 2}
        >>> closest([(73.8, a), (73.5, b)]) is a, closest([(80.0, a), (73.5, b)]) is b
        (True, True)
    """
    least = min(need for need, _ in needs)
    return next(layout for need, layout in needs if need <= least * (1 + TIME_TIE))


def pick(
    tried: list[tuple[int, float, dict[str, object]]],
    *,
    by_time: bool,
    failing: list[int] | None = None,
) -> dict[str, object] | None:
    """The layout to use from (rank, seconds, layout) in trial order (see the module docstring):
    among run times that tie, the best rank, then the fewest failing checks (`failing`, one
    count per trial: when every layout misses the deadline, a ZeRO-3 micro-batch of 4 whose
    gathers fit under its compute beats micro-batch 1 whose 61 gathers a step do not, at the
    same overlapped run time), then the fewest GPUs per model replica (TP x PP:
    tensor parallelism only as far as memory needs, Narayanan et al. 2021 §3.3, as 13B on
    8 x H100 runs ZeRO-3 data parallel rather than TP=8 at the same speed), then trial order.

    Examples:
        >>> a, b, c = {"zero_stage": 1}, {"zero_stage": 3}, {"zero_stage": 2}
        >>> pick([(1, 256.0, a), (0, 292.0, b)], by_time=True) is a  # faster, only tight
        True
        >>> pick([(1, 219.0, a), (0, 219.5, b)], by_time=True) is b  # a tie: the all-ok one
        True
        >>> pick([(2, 100.0, c), (1, 300.0, b)], by_time=True) is b  # nothing failing first
        True
        >>> pick([(1, 256.0, a), (0, 292.0, b)], by_time=False) is b  # serving: fewest tight
        True
        >>> tp8 = {"zero_stage": 1, "tensor_parallel": 8}
        >>> pick([(2, 677.6, tp8), (2, 677.6, b)], by_time=True) is b  # a tie: no TP needed
        True
        >>> pick([(2, 5.0, b), (2, 5.0, tp8)], by_time=True, failing=[2, 1]) is tp8
        True
    """
    fails = failing if failing is not None else [0] * len(tried)
    for tier in ((0, 1), (2,)) if by_time else ((0,), (1,), (2,)):
        pool = [(i, t) for i, t in enumerate(tried) if t[0] in tier]
        if not pool:
            continue
        fastest = min(t[1] for _, t in pool)
        near = [
            (t[0], fails[i], split(t[2]) if by_time else 0, i, t[2])
            for i, t in pool
            if not by_time or t[1] <= fastest * (1 + TIME_TIE)
        ]
        return min(near, key=lambda item: item[:4])[4]
    return None
