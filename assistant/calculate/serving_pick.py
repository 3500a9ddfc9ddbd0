"""The serving layout chosen on the given GPUs, by what the question asks of them.

A question with a load (concurrent users, a batch, a tokens/s or QPS target) is answered on the
split (TP x PP, the other GPUs as replicas) with the highest aggregate decode rate that meets any
stated latency target. Decode is memory-bound: each step reads a replica's share of the weights
and its sequences' KV cache (Pope et al. 2022, "Efficiently Scaling Transformer Inference", §2;
knowledge/guides/inference-serving), so at a fixed number of users a wider split that reads
1/TP of the weights per GPU usually serves them faster than more, narrower replicas; the
planner's speed model (`calculators.serving.serving_speed`) charges the all-reduces a wider
split adds, so where communication dominates the narrower one wins. A latency target alone
(one user, "40 tok/s per user", "first token under 200 ms") is met with the fewest GPUs per
replica; when no split meets it, the fastest per-token split is the closest. A question about one
stream's own speed ("fastest single-user decode", "单路哪个快": `Scenario.fastest_stream`) is
answered on the split with the least time per token: at batch 1 decode reads each GPU's 1/TP
share of the weights, so tensor parallelism across the node's GPUs is the fastest (Pope et al.
2022; knowledge/guides/inference-serving: latency per token ≈ bytes read / bandwidth) unless
its all-reduces cost more (PCIe), and replicas serve no one. With none of these (a yes/no "can
it serve…"), the smallest split that fits with headroom, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from assistant.records import Scenario
from calculators.messages import Msg

__all__ = [
    "Goal",
    "Tried",
    "faster_tight",
    "layout_reason",
    "pick_serving",
    "reason_key",
    "serving_goal",
]

Goal = Literal["fit", "throughput", "latency", "stream"]

#: Aggregate rates within 1% count as a tie (inside the model's own precision): then the
#: split with every check ok, then the one with fewer GPUs per replica (more replicas).
RATE_TIE = 0.01


@dataclass(frozen=True)
class Tried:
    """One serving split whose memory fits, with what the planner's checks found."""

    layout: dict[str, object]
    rank: int
    """0 every check ok, 1 nothing failing, 2 a check other than memory failing."""
    gpus_per_replica: int
    tokens_per_second: float
    """All replicas' decode rate at the question's load."""
    seconds_per_token: float
    """Time per token of the fullest replica (what each user sees)."""
    first_token_seconds: float


#: Asks about what the job needs (memory, weights, KV cache, how many GPUs): answered on the
#: smallest split that fits, whose need per replica is the figure asked for.
NEED_ASKS = ("memory", "weights", "kv_cache", "gpu_count")


def serving_goal(s: Scenario, ask: str = "feasibility") -> Goal:
    """What the split is chosen for: a load → throughput, a latency target → latency, one
    stream's speed asked (`fastest_stream`) → stream; a question about what the job needs
    (`NEED_ASKS`) → the smallest split that fits.

    Examples:
        >>> serving_goal(Scenario(concurrency=64)), serving_goal(Scenario(batch_size=1))
        ('throughput', 'fit')
        >>> serving_goal(Scenario(target_seconds_per_token=0.025))
        'latency'
        >>> serving_goal(Scenario(concurrency=64), "memory")
        'fit'
        >>> serving_goal(Scenario(concurrency=1, fastest_stream=True), "compare")
        'stream'
        >>> serving_goal(Scenario(), "first_token")
        'stream'
    """
    if ask in NEED_ASKS:
        return "fit"
    load = max(s.batch_size or 1, s.concurrency or 1) > 1
    if load or s.target_tokens_per_second is not None or s.target_qps is not None:
        return "throughput"
    if s.target_seconds_per_token is not None or s.target_first_token_seconds is not None:
        return "latency"
    # one stream's own latency asked: its time per token, or its first token (`first_token`)
    return "stream" if s.fastest_stream or ask in ("first_token", "token_latency") else "fit"


def _meets(t: Tried, s: Scenario) -> bool:
    per_token = s.target_seconds_per_token
    first = s.target_first_token_seconds
    return (per_token is None or t.seconds_per_token <= per_token * (1 + 1e-9)) and (
        first is None or t.first_token_seconds <= first * (1 + 1e-9)
    )


def _shortfall(t: Tried, s: Scenario) -> float:
    """How far a split is from the latency targets stated (1.0: met), the worst of them."""
    return max(
        t.seconds_per_token / (s.target_seconds_per_token or t.seconds_per_token or 1.0),
        t.first_token_seconds / (s.target_first_token_seconds or t.first_token_seconds or 1.0),
    )


def pick_serving(
    tried: Sequence[Tried], s: Scenario, ask: str = "feasibility"
) -> tuple[dict[str, object], str] | None:
    """(the split, why: "throughput", "latency", "stream", "missed" or "only") from the fitting
    splits tried, in trial order (fewest GPUs per replica first); None when none fits.

    Examples:
        >>> a = Tried({"tensor_parallel": 1}, 0, 1, 1641.0, 0.039, 0.375)
        >>> b = Tried({"tensor_parallel": 4}, 0, 4, 3718.0, 0.017, 0.108)
        >>> c = Tried({"tensor_parallel": 8}, 1, 8, 3706.0, 0.017, 0.067)
        >>> pick_serving([a, b, c], Scenario(concurrency=64))[0]  # a tie with 8: the all-ok 4
        {'tensor_parallel': 4}
        >>> pick_serving([a, b, c], Scenario(target_seconds_per_token=0.02))[0]  # fewest GPUs
        {'tensor_parallel': 4}
        >>> pick_serving([a, b, c], Scenario(target_first_token_seconds=0.05))  # none meets it
        ({'tensor_parallel': 8}, 'missed')
        >>> pick_serving([c], Scenario(concurrency=64))  # one split fits: no choice to make
        ({'tensor_parallel': 8}, 'only')
        >>> pick_serving([a, b, c], Scenario(fastest_stream=True))  # 4 ties 8, fewer GPUs
        ({'tensor_parallel': 4}, 'stream')
        >>> pick_serving([a, b, c], Scenario(), "first_token")  # the first token: 8 is first
        ({'tensor_parallel': 8}, 'first_token')
    """
    pool = [t for t in tried if t.rank < 2] or list(tried)
    if not pool:
        return None
    if len(pool) == 1 and _meets(pool[0], s):
        return pool[0].layout, "only"  # no choice was made: say so, not "the best of one"
    meeting = [t for t in pool if _meets(t, s)]
    if not meeting:  # no split meets the latency target: the one closest to it
        return min(pool, key=lambda t: _shortfall(t, s)).layout, "missed"
    order = {id(t): i for i, t in enumerate(meeting)}
    goal = serving_goal(s, ask)
    if goal == "stream":  # the least latency asked; a tie: the all-ok one, then fewer GPUs
        first = ask == "first_token"
        least = min(_latency(t, first=first) for t in meeting)
        near = [t for t in meeting if _latency(t, first=first) <= least * (1 + RATE_TIE)]
        best = min(near, key=lambda t: (t.rank, t.gpus_per_replica, order[id(t)]))
        return best.layout, "first_token" if first else "stream"
    if goal == "latency":
        best = min(meeting, key=lambda t: (t.gpus_per_replica, t.rank, order[id(t)]))
        return best.layout, "latency"
    top = max(t.tokens_per_second for t in meeting)
    near = [t for t in meeting if t.tokens_per_second >= top * (1 - RATE_TIE)]
    return min(near, key=lambda t: (t.rank, order[id(t)])).layout, "throughput"


#: A split whose memory is only tight is taken for a need asked (`fit`) over the smallest split
#: with every check ok when each stream's decode is at least this much faster on it: far beyond
#: the speed model's precision, so headroom that costs half the speed is not preferred.
TIGHT_SPEEDUP = 1.5


def faster_tight(
    tried: Sequence[Tried], roomy: dict[str, object] | None
) -> dict[str, object] | None:
    """The fastest split that fits only tightly (rank 1) when it decodes each stream at least
    `TIGHT_SPEEDUP` times faster than `roomy`, the smallest split with every check ok; None
    otherwise. Where tensor parallelism does not split the KV cache (DeepSeek's MLA latent),
    the roomiest split is the deepest pipeline (TP1 x PP32 for 500 users on 32 910B, ~0.8
    tok/s per stream), and TP2 x PP16, which reads each stage's weights over two cards, serves
    the same users about twice as fast within memory (vLLM keeps ~10% of HBM free by default,
    `gpu_memory_utilization=0.9`, so tight is still within what the engine allows).

    Examples:
        >>> a = Tried({"tensor_parallel": 1, "pipeline_parallel": 32}, 0, 32, 421.0, 1.19, 0.85)
        >>> b = Tried({"tensor_parallel": 2, "pipeline_parallel": 16}, 1, 32, 747.0, 0.67, 0.43)
        >>> faster_tight([a, b], a.layout) == b.layout
        True
        >>> c = Tried({"tensor_parallel": 2}, 1, 2, 500.0, 1.0, 0.5)  # only 1.19x faster
        >>> faster_tight([a, c], a.layout) is None
        True
    """
    base = next((t for t in tried if t.layout == roomy and t.rank == 0), None)
    if base is None:
        return None
    faster = [
        t
        for t in tried
        if t.rank == 1 and 0.0 < t.seconds_per_token * TIGHT_SPEEDUP <= base.seconds_per_token
    ]
    if not faster:
        return None
    least = min(t.seconds_per_token for t in faster)
    near = [t for t in faster if t.seconds_per_token <= least * (1 + RATE_TIE)]
    return min(near, key=lambda t: t.gpus_per_replica).layout


def _latency(t: Tried, *, first: bool) -> float:
    """One stream's latency a stream goal minimises: the first token when that is what is
    asked (prefill is compute-bound, so the split that spreads one prompt over the most GPUs
    wins unless its all-reduces cost more; knowledge/guides/inference-serving), else the time
    per token."""
    return t.first_token_seconds if first else t.seconds_per_token


def reason_key(why: str) -> str:
    """The catalog key of the layout note for why the split was chosen."""
    return {
        "throughput": "default.layout_serving_throughput",
        "latency": "default.layout_serving_latency",
        "stream": "default.layout_serving_stream",
        "first_token": "default.layout_serving_first_token",
        "missed": "default.layout_serving_missed",
        "only": "default.layout_serving_only",
        "tight": "default.layout_serving_tight",
        "room": "default.layout_serving_room",
    }.get(why, "default.layout_serving")


def layout_reason(why: str, tp: int, pp: int, replicas: Msg, rate: float, users: int) -> Msg:
    """The layout note: the split and why it was chosen."""
    return Msg(
        reason_key(why), tp=tp, pp=pp, replicas=replicas, rate=rate, n=users, speedup=TIGHT_SPEEDUP
    )
