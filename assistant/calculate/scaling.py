"""Duration (training) or throughput (serving) at a few GPU counts around the evaluated one.

The chart of "time against GPU count" needs figures at counts the question did not name. Each
point is the planner's own `run_checks` on the evaluated plan with only the GPU count changed
(the chosen ZeRO stage, recomputation and TP/PP split are kept), so the chart never shows a
number the calculators did not produce. A point costs about 0.2 ms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.records import ScalePoint, Scaling
from calculators.errors import CalculatorInputError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from assistant.records import Scenario
    from calculators.planner.plan import CheckResult, Evaluation, Plan

__all__ = ["scaling_series"]

#: At most this many points (the user's count, fewest that fit, fewest in time, ½×, 2×, 4×).
MAX_POINTS = 6
#: Counts beyond this many times the user's are left out (their bars would flatten the rest).
FARTHEST = 64


def _figure(evaluation: Evaluation, kind: str, key: str) -> float | None:
    for check in evaluation.checks:
        if check.kind == kind:
            value = check.figures.get(key)
            return float(value) if isinstance(value, (int, float)) else None
    return None


def _round_up(count: int, step: int) -> int:
    return -(-count // step) * step


def _counts(evaluation: Evaluation) -> list[int]:
    """Counts to chart, most telling first: the user's, the fewest that fit memory with this
    layout, the fewest that meet the deadline (the compute check's), then half, double and four
    times the user's; each a multiple of TP × PP (whole model copies), at most MAX_POINTS."""
    plan = evaluation.plan
    split = plan.tensor_parallel * plan.pipeline_parallel
    deadline = _figure(evaluation, "compute", "gpus_for_deadline")
    wanted = [plan.gpus, _fewest_fitting(plan)]
    wanted.append(int(deadline) if deadline is not None else None)
    wanted += [plan.gpus // 2, plan.gpus * 2, plan.gpus * 4]
    counts: list[int] = []
    for count in wanted:
        # a count far beyond the user's would flatten every other bar to nothing
        if count is None or not 1 <= count <= plan.gpus * FARTHEST:
            continue
        rounded = _round_up(count, split)
        if rounded not in counts and len(counts) < MAX_POINTS:
            counts.append(rounded)
    return sorted(counts)


def _fits(plan: Plan, count: int) -> bool:
    from calculators.planner.memory import memory_check

    try:
        return memory_check(_at(plan, count)[0], with_min_gpus=False).verdict != "fail"
    except CalculatorInputError:
        return False


def _fewest_fitting(plan: Plan) -> int | None:
    """The fewest GPUs whose memory fits with the plan's layout, by bisection over whole model
    copies: memory per GPU never grows with more GPUs (ZeRO shards over data parallelism; a
    serving replica holds fewer sequences). None when none fits up to FARTHEST × the count."""
    split = plan.tensor_parallel * plan.pipeline_parallel
    low, high = 1, plan.gpus // split  # in model copies
    if not _fits(plan, high * split):
        low = high + 1
        while not _fits(plan, high * split):
            high *= 2
            if high * split > plan.gpus * FARTHEST:
                return None
    while low < high:
        middle = (low + high) // 2
        if _fits(plan, middle * split):
            high = middle
        else:
            low = middle + 1
    return high * split


def _at(plan: Plan, count: int) -> tuple[Plan, bool]:
    """The plan at `count` GPUs; past one node with no inter-node link stated, the default
    link the answer would assume (reported, never silent)."""
    from calculators.planner.fabrics import typical_fabric

    changed = plan.replace(gpus=count)
    if count <= plan.gpus_per_node or plan.inter_link is not None:
        return changed, False
    typical = typical_fabric(plan.gpu)
    return changed.replace(
        inter_link=typical.link, nics_per_node=typical.ports(plan.gpus_per_node)
    ), True


def _typical_link(plan: Plan) -> str:
    from calculators.planner.fabrics import typical_fabric

    return typical_fabric(plan.gpu).link.name


def _make(count: int, checks: Sequence[CheckResult], metric: str) -> ScalePoint:
    memory, compute = checks[0], checks[1]
    key = "seconds" if metric == "seconds" else "decode_tokens_per_s_all_replicas"
    value = compute.figures.get(key)
    fits = memory.verdict != "fail"
    shown = float(value) if isinstance(value, (int, float)) and fits else None
    return ScalePoint(gpu_count=count, value=shown, memory_fits=fits)


def _point(evaluation: Evaluation, count: int, metric: str) -> tuple[ScalePoint, bool] | None:
    """The point at `count`, and whether the default inter-node link was assumed for it. The
    user's own count comes from the evaluation itself, so it matches the answer's figures."""
    if count == evaluation.plan.gpus:
        return _make(count, evaluation.checks, metric), False
    at, assumed = _at(evaluation.plan, count)
    try:
        checks = _memory_and_compute(at)
    except CalculatorInputError:
        return None  # a count the planner refuses for this layout
    return _make(count, checks, metric), assumed


def _memory_and_compute(plan: Plan) -> tuple[CheckResult, CheckResult]:
    """The first two of the planner's `run_checks`, as it runs them (the time already includes
    the network's effect); network, power and cost are not charted, so not computed."""
    from calculators.planner.compute import compute_check, compute_facts
    from calculators.planner.memory import memory_check
    from calculators.planner.validate import validate_plan

    validate_plan(plan)
    memory = memory_check(plan, with_min_gpus=False)
    compute = compute_check(plan, compute_facts(plan), memory_fits=memory.verdict != "fail")
    return memory, compute


def scaling_series(evaluation: Evaluation, stated: Scenario) -> Scaling | None:
    """The series for the evaluated plan; None when fewer than two counts can be evaluated."""
    plan = evaluation.plan
    metric = "tokens_per_second" if plan.task == "inference" else "seconds"
    points: list[ScalePoint] = []
    assumed = False
    for count in _counts(evaluation):
        found = _point(evaluation, count, metric)
        if found is not None:
            points.append(found[0])
            assumed = assumed or found[1]
    if len(points) < 2 or all(p.value is None for p in points):
        return None
    return Scaling(
        metric=metric,  # type: ignore[arg-type]
        points=tuple(points),
        gpu_count=plan.gpus,
        deadline_seconds=stated.deadline_seconds if metric == "seconds" else None,
        target_tokens_per_second=stated.target_tokens_per_second
        if metric == "tokens_per_second"
        else None,
        assumed_inter_link=_typical_link(plan) if assumed else None,
    )
