"""The common basis a comparison's options are evaluated on, so their figures can be compared.

With no GPU count given, each option is evaluated at its own fewest GPUs that hold the job
(as a single-option "how many" question is: `sizing.sized`), not at a default count none of
them may fit. At the same GPU count, serving options are evaluated on the same split when every
option can use it: decode reads each GPU's share of the weights per token (Pope et al. 2022,
"Efficiently Scaling Transformer Inference", §2; knowledge/guides/inference-serving), so a
speed or headroom compared across different splits measures the split as much as the card
(8 × H20 at TP=2 × 4 replicas against 8 × 910B at TP=4 × 2 showed 1.28× for a 2.5× HBM
bandwidth ratio). When no split suits every option, each keeps its own best, said per option.
Serving options are then evaluated at one load (`on_common_load`): a speed or a cost per token
compared across loads measures the batch as much as the card.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.calculate.serving_pick import serving_goal
from assistant.calculate.sizing import sized
from assistant.calculate.targets import has_target
from assistant.i18n import text
from assistant.records import Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = [
    "OptionRun",
    "at_capacity_splits",
    "at_common_count",
    "at_own_counts",
    "default_count_basis",
    "load_of",
    "on_common_load",
    "on_common_split",
    "split_of",
]

OptionRun = Callable[[Scenario, str], "Outcome"]
"""Evaluate one option's scenario as its own question, with an assumption note ("" for none)."""

_RANK = {"feasible": 0, "conditional": 1, "infeasible": 2, "unknown": 3}


def split_of(s: Scenario) -> Msg:
    """The serving split an option was evaluated on ("TP=4, PP=1, 2 replicas")."""
    tp, pp = s.tensor_parallel or 1, s.pipeline_parallel or 1
    count = max(1, (s.gpu_count or 1) // (tp * pp))
    replicas = Msg("default.replica" if count == 1 else "default.replicas", count=count)
    return Msg("answer.compare_split", tp=tp, pp=pp, replicas=replicas)


def _fits(outcome: Outcome) -> bool:
    return any(c.kind == "memory" and c.verdict != "fail" for c in outcome.checks)


def at_own_counts(
    query: Query, scenarios: Sequence[Scenario], outcomes: Sequence[Outcome], run: OptionRun
) -> list[Outcome]:
    """Each option re-evaluated at its own fewest GPUs that hold the job, when no count was
    given. Serving is always sized (its default is one GPU); a training run only when its
    default count does not hold it (its count also sets the run time, which a comparison of
    training runs is about). An option with a serving target is left to that target's own
    search for the count (`targets.meet_target`)."""
    out: list[Outcome] = []
    for scenario, outcome in zip(scenarios, outcomes, strict=True):
        evaluated = outcome.scenario
        training = evaluated is not None and evaluated.task != "inference"
        if evaluated is None or has_target(scenario) or (training and _fits(outcome)):
            out.append(outcome)
            continue

        def evaluate(count: int, note: str, s: Scenario = scenario) -> Outcome:
            return run(replace(s, gpu_count=count), note)

        out.append(sized(query, outcome, evaluate, "compare.own_count"))
    return out


def at_common_count(
    outcomes: Sequence[Outcome], run: OptionRun
) -> tuple[list[Outcome], Msg | None]:
    """Training options sized to different counts, re-evaluated at one count: the largest of
    them, so every option holds the job, with the sentence saying the basis. A speed compared
    across counts measures the count as much as the card (64 × H800 against 168 × A800 read
    "99% of the time" for a card 3× as fast); at one count the times' ratio is the cards'.
    Unchanged (and None) for serving, or when the counts already agree."""
    evaluated = [o.scenario for o in outcomes]
    if any(e is None or e.task == "inference" or e.gpu_count is None for e in evaluated):
        return list(outcomes), None
    counts = {int(e.gpu_count or 0) for e in evaluated if e is not None}
    if len(counts) == 1:
        return list(outcomes), None
    count = max(counts)
    out = [
        o if e is not None and e.gpu_count == count else run(replace(e, gpu_count=count), "")
        for o, e in zip(outcomes, evaluated, strict=True)
        if e is not None
    ]
    return out, Msg("compare.basis_same_count", count=count)


def on_common_split(
    scenarios: Sequence[Scenario], outcomes: Sequence[Outcome], run: OptionRun
) -> tuple[list[Outcome], Msg | None]:
    """The options re-evaluated on one split when they are served on the same GPU count, with
    the sentence saying the basis; unchanged (and None) when the split was stated, the counts
    differ, a target chooses each split, or the task is training. The common split is one of
    the splits the options chose for themselves that every option can use (memory fits, its
    verdict no worse): for a load, the one costing the options least of their own best
    tokens/s (the geometric mean of the ratios); else the fewest GPUs per replica. A question
    about one stream's speed (`Scenario.fastest_stream`) keeps each option on its own split with
    the least time per token: a common split would slow some option's single user down (8 ×
    H20 at TP=2 with 4 idle replicas read 38 tokens/s; at TP=8, 65)."""
    evaluated = [o.scenario for o in outcomes]
    stated = any(s.tensor_parallel or s.pipeline_parallel or has_target(s) for s in scenarios)
    if stated or any(e is None or e.task != "inference" for e in evaluated):
        return list(outcomes), None
    shown = [e for e in evaluated if e is not None]
    splits = list(dict.fromkeys((e.tensor_parallel or 1, e.pipeline_parallel or 1) for e in shown))
    if serving_goal(scenarios[0], "compare") == "stream":  # each at its own fastest for one user
        same = len(splits) == 1 and len({e.gpu_count for e in shown}) == 1
        said = Msg("compare.basis_stream_same", split=split_of(shown[0])) if same else None
        return list(outcomes), said or Msg("compare.basis_stream")
    if len({e.gpu_count for e in shown}) != 1:
        return list(outcomes), None
    if len(splits) == 1:
        return list(outcomes), Msg("compare.basis_split", split=split_of(shown[0]))
    usable: list[tuple[tuple[int, int], list[Outcome]]] = []
    for tp, pp in splits:
        tried = [
            run(replace(s, gpu_count=e.gpu_count, tensor_parallel=tp, pipeline_parallel=pp), "")
            for s, e in zip(scenarios, shown, strict=True)
        ]
        if all(
            _fits(t) and _RANK[t.verdict] <= _RANK[o.verdict]
            for t, o in zip(tried, outcomes, strict=True)
        ):
            usable.append(((tp, pp), tried))
    if not usable:
        return list(outcomes), Msg("compare.basis_own_splits")
    if serving_goal(scenarios[0], "compare") == "throughput":
        _, chosen = max(usable, key=lambda u: _kept_share(u[1], outcomes))
    else:
        _, chosen = min(usable, key=lambda u: u[0][0] * u[0][1])
    basis = chosen[0].scenario or shown[0]
    return chosen, Msg("compare.basis_split", split=split_of(basis))


def at_capacity_splits(
    scenarios: Sequence[Scenario], outcomes: Sequence[Outcome], run: OptionRun
) -> tuple[list[Outcome], Msg | None]:
    """The serving options each re-evaluated on the split of its own GPUs that holds the most
    concurrent sequences, for "which holds more users": replicas each keep a whole copy of the
    weights, so the split that fits fastest (8 × L40S at TP=4 × 2 for a 70B model: 46
    sequences) can hold a third of what one TP=8 replica holds (151), and a common split would
    measure the split, not the card. A stated split, or training, is kept (None)."""
    from assistant.calculate.solvers import max_sequences

    if any(s.tensor_parallel or s.pipeline_parallel for s in scenarios):
        return list(outcomes), None
    out = list(outcomes)
    for i, (s, o) in enumerate(zip(scenarios, outcomes, strict=True)):
        e = o.scenario
        if e is None or e.task != "inference":
            return list(outcomes), None
        per_node = min(e.gpu_count or 1, e.gpus_per_node or DEFAULT_GPUS_PER_NODE)
        held = {}
        for tp in (d for d in (1, 2, 4, 8, 16) if d <= per_node and (e.gpu_count or 1) % d == 0):
            held[tp] = max_sequences(replace(e, tensor_parallel=tp, pipeline_parallel=None)) or 0
        best = max(held, key=lambda tp: (held[tp], -tp), default=None)
        if best is not None and held[best] > 0 and best != (e.tensor_parallel or 1):
            out[i] = run(replace(s, gpu_count=e.gpu_count, tensor_parallel=best), "")
    return out, Msg("compare.basis_capacity")


def _kept_share(tried: Sequence[Outcome], own: Sequence[Outcome]) -> float:
    """The geometric mean, over the options, of their tokens/s on a split over on their own."""
    logs = []
    for t, o in zip(tried, own, strict=True):
        mine = _rate(t)
        best = _rate(o)
        logs.append(math.log(mine / best) if mine > 0 and best > 0 else -math.inf)
    return sum(logs) / max(len(logs), 1)


def _rate(outcome: Outcome) -> float:
    checks = outcome.checks
    return (
        figure(checks, "compute", "decode_tokens_per_s_all_replicas")
        or figure(checks, "compute", "decode_tokens_per_s")
        or 0.0
    )


def load_of(outcome: Outcome) -> int:
    """The concurrent sequences a serving option was evaluated at (1 when not said)."""
    sequences = figure(outcome.checks, "compute", "concurrent_sequences")
    return int(sequences) if sequences else 1


def on_common_load(
    query: Query, scenarios: Sequence[Scenario], outcomes: Sequence[Outcome], run: OptionRun
) -> tuple[list[Outcome], Msg | None]:
    """The serving options that hold the job re-evaluated at one load, with the sentence saying
    it: the stated concurrency (or batch); else, when they were evaluated at the most sequences
    each holds (a cost per token, a throughput: `solvers.at_full_batch`), the most that every
    one holds. Tokens/s and cost per token compared across loads measure the batch, not the
    card: 2 × H200 at 83 sequences against 2 × H100 at the one it holds read "68× faster".
    Unchanged (and None) for training, for a target (`targets.meet_target` sizes each option
    to it) and at one sequence each (the speed sentence says so)."""
    if any(o.scenario is None or o.scenario.task != "inference" for o in outcomes) or any(
        has_target(s) for s in scenarios
    ):
        return list(outcomes), None
    holding = [i for i, o in enumerate(outcomes) if _fits(o)]
    loads = {i: load_of(outcomes[i]) for i in holding}
    stated = any(s.concurrency or s.batch_size for s in scenarios)
    if len(holding) < 2 or (not stated and max(loads.values()) == 1):
        return list(outcomes), None
    common = min(loads.values())
    out = list(outcomes)
    for i in (i for i in holding if loads[i] != common):
        out[i] = _at_load(query, scenarios[i], outcomes[i], common, run)
    return out, Msg(_LOAD_KEYS[(stated, common == 1)], count=common)


#: The load sentence by (the load was stated, it is one sequence).
_LOAD_KEYS = {
    (True, False): "compare.load_stated",
    (True, True): "compare.load_stated_one",
    (False, False): "compare.load_common",
    (False, True): "compare.load_common_one",
}


def _at_load(
    query: Query, scenario: Scenario, outcome: Outcome, load: int, run: OptionRun
) -> Outcome:
    """One option re-evaluated at `load` sequences on the GPUs and split it was evaluated on,
    keeping the note on its own GPU count."""
    e = outcome.scenario or scenario
    own = text(Msg("compare.own_count", count=e.gpu_count or 1), query.language)
    note = text(Msg("compare.load_note", count=load), query.language)
    notes = " ".join([*(a for a in outcome.assumptions if a == own), note])
    at = replace(
        scenario,
        gpu_count=e.gpu_count,
        tensor_parallel=e.tensor_parallel,
        pipeline_parallel=e.pipeline_parallel,
        batch_size=load,
    )
    return run(at, notes)


def default_count_basis(outcomes: Sequence[Outcome]) -> tuple[Msg, ...]:
    """Training options that all hold the job on the default count, compared there: the count
    said as the basis, with the fewest GPUs each holds the job on ("1 × L20 48GB, 2 × RTX
    4090 24GB": the fact that decides "which suits a LoRA of 14B" when one card cannot)."""
    evaluated = [o.scenario for o in outcomes]
    if any(e is None or e.task == "inference" or not e.gpu_count for e in evaluated):
        return ()
    counts = {e.gpu_count for e in evaluated if e is not None}
    fewest = [figure(o.checks, "memory", "min_gpus") for o in outcomes]
    if len(counts) != 1 or not all(fewest):
        return ()
    held = tuple(
        Msg("common.gpus", count=int(n or 1), gpu=e.gpu or "GPU")
        for n, e in zip(fewest, evaluated, strict=True)
        if e is not None
    )
    return (Msg("compare.basis_default_count", count=counts.pop(), fewest=held),)
