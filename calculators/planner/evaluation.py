"""What would it take: evaluate a plan (memory, compute, network, power, cost) and, when it
fails, find the smallest verified changes that make it work.

Verdicts: "feasible" when no check fails (ok or tight everywhere); "conditional" when a change
that needs no new hardware works (ZeRO stage, tensor parallelism inside the node, recompute,
offload, LoRA/QLoRA, quantization, or a deadline at most twice as long); "infeasible" otherwise
(only more or other GPUs or a faster fabric would do). Each suggestion is re-evaluated before
it is offered. Only working changes are offered; when none works, the one that fixes most is
offered alone and says what still fails.

Examples:
    >>> from calculators.catalog.hardware import lookup_gpu
    >>> from calculators.catalog.models import lookup_model
    >>> e = evaluate(Plan(task="inference", model=lookup_model("Llama-2-7B"),
    ...                   gpu=lookup_gpu("A100 80GB")))
    >>> e.verdict, e.check("memory").verdict
    ('feasible', 'ok')
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from calculators.errors import CalculatorInputError
from calculators.messages import Msg
from calculators.planner.checks import cost_check, network_check, power_check
from calculators.planner.compute import compute_check
from calculators.planner.compute_facts import ComputeFacts, compute_facts, step_flops_per_token
from calculators.planner.fabrics import fabric_remark
from calculators.planner.memory import memory_check, trainable_params
from calculators.planner.plan import (
    TIGHT_MARGIN,
    CheckKind,
    CheckResult,
    Evaluation,
    Outcome,
    Plan,
    PlanChange,
    PlanVerdict,
)
from calculators.planner.suggestions import Candidate, candidates, deadline_remark
from calculators.planner.validate import validate_plan

__all__ = [
    "HOW_KINDS",
    "CheckResult",
    "Evaluation",
    "Outcome",
    "Plan",
    "PlanChange",
    "evaluate",
    "layout_checks",
    "network_only",
    "run_checks",
    "suggest",
]

#: A longer deadline counts as a condition (not a new cluster) up to this factor.
DEADLINE_CONDITION_FACTOR = 2.0


def run_checks(plan: Plan, *, with_min_gpus: bool = True) -> tuple[CheckResult, ...]:
    """The five checks of a plan as given, without suggestions.

    The checks are pure functions of the (frozen) plan, and the same plan is checked several
    times per answer: as a layout trial, again as the chosen layout, again as a suggestion's
    outcome. They are computed once (`_checks`); `with_min_gpus` only adds the fewest GPUs to
    the memory check, so that check alone is recomputed with it, in the same order as before
    (validation, memory, then the rest).
    """
    if not with_min_gpus:
        return _checks(plan)
    validate_plan(plan)
    memory = memory_check(plan, with_min_gpus=True)
    return (memory, *_checks(plan)[1:])


#: Plans whose checks are kept: a batch of questions evaluates a few hundred distinct plans
#: per answer at most (layout trials and suggestions), so this bounds the memory (a few MB)
#: while the repeats inside one answer and across its follow-ups all hit.
CHECKS_CACHE_SIZE = 1024


def layout_checks(plan: Plan) -> tuple[CheckResult, ...]:
    """The checks a layout search needs of one candidate layout: the five of `run_checks`
    (without the fewest-GPU search) when its memory fits, the memory check alone when it does
    not. A layout whose GPUs cannot hold it is never chosen over one that fits; only its
    memory need is compared (the closest to fitting, when none fits), so timing its run,
    network, energy and cost is work no answer uses (about 40% of the layouts tried).
    """
    validate_plan(plan)
    memory = _memory(plan)
    return (memory,) if memory.verdict == "fail" else _checks(plan)


@lru_cache(maxsize=CHECKS_CACHE_SIZE)
def _memory(plan: Plan) -> CheckResult:
    return memory_check(plan, with_min_gpus=False)


@lru_cache(maxsize=CHECKS_CACHE_SIZE)
def _checks(plan: Plan) -> tuple[CheckResult, ...]:
    """The five checks, the memory check without the fewest-GPU search (see `run_checks`);
    the figures are never mutated by callers (they copy them), so sharing them is safe."""
    validate_plan(plan)
    memory = _memory(plan)
    facts = compute_facts(plan)
    compute = compute_check(plan, facts, memory_fits=memory.verdict != "fail")
    return (memory, compute, _network(plan, facts), *_power_and_cost(plan, facts, compute))


def _network(plan: Plan, facts: ComputeFacts) -> CheckResult:
    """The network check, with the efficiency the run time uses (`network_efficiency` of the
    compute check: traffic overlapped with compute) beside the no-overlap and overlap bounds,
    so the figure shown with the network agrees with the time."""
    result = network_check(
        plan,
        peak_flops_per_s=facts.peak_flops_per_s,
        mfu=facts.mfu,
        total_tokens=facts.tokens,
        trainable_params=trainable_params(plan),
        flops_per_token=step_flops_per_token(facts),
    )
    if plan.task == "inference" or "scaling_efficiency" not in result.figures:
        return result
    figures = {
        **result.figures,
        "network_efficiency": facts.network_efficiency,
        "network_efficiency_no_overlap": facts.network_efficiency_no_overlap,
    }
    if plan.mfu:  # a stated MFU is end to end: the traffic compute does not hide is in it
        figures["network_in_stated_mfu"] = True
    return replace(result, figures=figures)


def _power_and_cost(
    plan: Plan, facts: ComputeFacts, compute: CheckResult
) -> tuple[CheckResult, CheckResult]:
    if plan.task == "inference":
        # at a request rate, the tokens it delivers (not the batch decoding nonstop)
        rate = compute.figures.get("delivered_tokens_per_s") or compute.figures.get(
            "decode_tokens_per_s_all_replicas"
        )
        served = (
            float(rate) if compute.verdict != "n/a" and isinstance(rate, (int, float)) else None
        )
        seconds = plan.serving_seconds or 3600.0
        label = "stated serving period" if plan.serving_seconds else "one hour of serving"
        return (
            power_check(plan, seconds=seconds, label=label, tokens_per_s=served),
            cost_check(
                plan, gpu_hours=plan.gpus * seconds / 3600, label=label, tokens_per_s=served
            ),
        )
    hours = facts.seconds * plan.gpus / 3600 if facts.seconds is not None else None
    return (
        power_check(plan, seconds=facts.seconds, label="whole run"),
        cost_check(plan, gpu_hours=hours, label="whole run"),
    )


def network_only(plan: Plan) -> CheckResult:
    """The network check alone (for `gpu-advisor calc network`)."""
    validate_plan(plan)
    return _network(plan, compute_facts(plan))


def outcome(plan: Plan) -> Outcome:
    """Re-evaluate a changed plan: which checks still fail, and its key figures."""
    checks = run_checks(plan, with_min_gpus=False)
    failing = tuple(c.kind for c in checks if c.verdict == "fail")
    memory, compute, network = checks[0], checks[1], checks[2]
    figures = {
        "required_bytes_per_gpu": memory.figures.get("required_bytes_per_gpu"),
        "available_bytes_per_gpu": memory.figures.get("available_bytes_per_gpu"),
        "seconds": compute.figures.get("seconds"),
        "scaling_efficiency": network.figures.get("scaling_efficiency"),
        "gpus": plan.gpus,
    }
    paced = failing == ("network",) and plan.task != "inference"
    verdict: PlanVerdict = "infeasible" if failing and not paced else "feasible"
    return Outcome(verdict=verdict, failing=failing, figures=figures, paced=paced)


def _binding(checks: tuple[CheckResult, ...]) -> str | None:
    failing = [c for c in checks if c.verdict == "fail"]
    if not failing:
        return None
    return max(failing, key=lambda c: c.shortfall or 1.0).kind


def _is_condition(change: PlanChange, plan: Plan) -> bool:
    if change.hardware or not change.evaluation_after.works:
        return False
    if change.kind == "deadline":
        return change.new_plan.deadline_seconds <= DEADLINE_CONDITION_FACTOR * plan.deadline_seconds
    return True


def evaluate(plan: Plan, *, max_suggestions: int = 5) -> Evaluation:
    """All checks on the plan as given, the overall verdict, the binding constraint and, when
    something fails, the ranked verified suggestions.

    Raises:
        CalculatorInputError: an input is out of range (names the field).
    """
    checks = run_checks(plan)
    failing = any(c.verdict == "fail" for c in checks)
    changes = _suggest(plan, checks, max_suggestions) if failing else ()
    verdict: PlanVerdict = "feasible"
    if failing:
        conditional = any(_is_condition(c, plan) for c in changes)
        verdict = "conditional" if conditional else "infeasible"
    assumptions: tuple[Msg, ...] = (
        Msg("assume.compute.verdict_bands", ok=1.0 - TIGHT_MARGIN, tight=TIGHT_MARGIN),
    )
    if plan.task != "inference":
        assumptions += (Msg("assume.compute.deadline_days", seconds=plan.deadline_seconds),)
    return Evaluation(
        plan=plan,
        checks=checks,
        verdict=verdict,
        binding=_binding(checks),
        suggestions=changes,
        assumptions=assumptions,
        remarks=_remarks(plan, checks, changes),
    )


def _remarks(
    plan: Plan, checks: tuple[CheckResult, ...], changes: tuple[PlanChange, ...] = ()
) -> tuple[Msg, ...]:
    compute = next(c for c in checks if c.kind == "compute")
    remark = deadline_remark(plan) if compute.verdict == "fail" else None
    remarks: tuple[Msg, ...] = (remark,) if remark is not None else ()
    fabrics = [
        c.new_plan.gpu for c in changes if c.new_plan.inter_link not in (None, plan.inter_link)
    ]
    if fabrics:
        remarks += (fabric_remark(fabrics),)
    return remarks


def suggest(plan: Plan, *, max_suggestions: int = 5) -> tuple[PlanChange, ...]:
    """The smallest verified changes that make a failing plan work, ranked.

    Order: changes after which every check passes come first; then by kind (configuration
    changes, several at once, a longer deadline of at most two years, a faster fabric, more
    GPUs, another GPU), then by how big the change is (a lossless layout change before
    recompute/offload before quantization or LoRA; fewer extra GPUs first), then by the number
    of fields changed. Every suggestion is the re-evaluated outcome of its changed plan. Only
    changes after which every check passes are returned; when there is none, the single best
    partial change (what it still fails says what is missing).

    Returns an empty tuple when nothing fails.
    """
    checks = run_checks(plan, with_min_gpus=False)
    if not any(c.verdict == "fail" for c in checks):
        return ()
    return _suggest(plan, checks, max_suggestions)


def _suggest(plan: Plan, checks: tuple[CheckResult, ...], limit: int) -> tuple[PlanChange, ...]:
    failing: set[CheckKind] = {c.kind for c in checks if c.verdict == "fail"}
    seen: set[Plan] = {plan}
    verified: list[tuple[tuple[float, int, float, int], PlanChange]] = []
    for candidate in candidates(plan, failing, checks):
        if candidate.plan in seen:
            continue
        seen.add(candidate.plan)
        try:
            change = _verify(candidate)
        except CalculatorInputError:
            continue  # e.g. more GPUs than any plan may have (MAX_GPUS): not a suggestion
        fixed = failing - set(change.evaluation_after.failing)
        if not fixed:
            continue
        # one that clears everything first, then one a training run's network only paces
        after = change.evaluation_after
        still = 0.5 if after.paced else float(len(after.failing))
        verified.append(((still, candidate.rank, candidate.size, candidate.changes), change))
    verified.sort(key=lambda item: item[0])
    return _keep_useful([change for _, change in verified], limit)


#: Suggestion kinds that change how the job runs, not the job or the hardware.
HOW_KINDS = ("zero", "tensor_parallel", "recompute", "offload", "combined", "memory_utilization")


def _keep_useful(ranked: list[PlanChange], limit: int) -> tuple[PlanChange, ...]:
    """Working changes only; when none works, the single best partial one (its remaining
    failures say what is still missing). A failing variant of a change that also has a
    working variant (e.g. more GPUs without and with a faster fabric) is never shown."""
    working: list[PlanChange] = []
    sizes: set[tuple[str, str, int]] = set()
    for change in ranked:
        if not change.evaluation_after.works:
            continue
        new = change.new_plan
        size = (change.kind, new.gpu.name, new.gpus)
        if change.kind in ("gpus", "gpu") and size in sizes:
            continue  # the same cluster again, only with a faster fabric it does not need
        sizes.add(size)
        working.append(change)
    if not working:
        return tuple(ranked[:1])
    # A change of how the job runs (sharding, recompute, offload), not of the job or the
    # hardware, is the condition a verdict looks for: it stays even when cheaper-ranked
    # changes of the job (LoRA) or the hardware fill the list.
    extra = [c for c in working[limit:] if c.kind in HOW_KINDS and not c.hardware][:1]
    return (*working[:limit], *extra)


def _verify(candidate: Candidate) -> PlanChange:
    after = outcome(candidate.plan)
    return PlanChange(
        kind=candidate.kind,
        description=candidate.description,
        new_plan=candidate.plan,
        evaluation_after=after,
        hardware=candidate.hardware,
    )
