"""The verdict rule: what the user fixed stays fixed.

`feasible` works as asked. `conditional` works after a change that needs no new hardware and
undoes nothing the user stated: a ZeRO stage, tensor parallelism inside a node, recomputation,
offload, or quantization / LoRA / a longer horizon only when the question left that open.
`infeasible` needs more or other hardware, or a different job than the one stated: switching a
stated FP16 to int8, a stated full fine-tune to LoRA, a stated deadline to a longer one, or a
stated 8 cards to 16 is a suggestion under an `infeasible` verdict, not a condition.

Examples:
    >>> PRACTICAL_SECONDS / 86400
    365.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.records import Check, Figure, Language, Scenario, Verdict
from calculators.defaults import PRACTICAL_SECONDS
from calculators.messages import Msg
from calculators.planner.evaluation import HOW_KINDS

if TYPE_CHECKING:
    from calculators.planner.plan import Evaluation, Outcome, Plan, PlanChange

__all__ = [
    "PRACTICAL_SECONDS",
    "UNBOUNDED_SECONDS",
    "SERVING_FORMATS",
    "budget_note",
    "budget_tokens",
    "first_fix",
    "host_ram_condition",
    "judged_on_memory",
    "keeps_stated",
    "network_pace",
    "on_memory",
    "on_open_horizon",
    "paced_by_network",
    "paced_checks",
    "respecting_verdict",
    "undoes_stated",
]

#: The horizon of a question judged on memory alone: the longest deadline a plan takes (about
#: 317 years, `calculators.validate`), so the run time hardly ever fails.
UNBOUNDED_SECONDS = 1e10

#: Plan fields that are hardware: changing any of them is never a condition.
_HARDWARE = ("gpu", "gpus", "gpus_per_node", "intra_link", "inter_link", "nics_per_node")
#: Plan field → the question's slot that fixes it (a stated slot may not be changed).
_STATED_SLOT = {
    "task": "task",
    "method": "method",
    "precision": "precision",
    "weight_dtype": "precision",
    "deadline_seconds": "deadline_seconds",
    "zero_stage": "zero_stage",
    "tensor_parallel": "tensor_parallel",
    "pipeline_parallel": "pipeline_parallel",
    "tokens": "tokens",
    "sequence_length": "context_length",
    "batch_size": "batch_size",
    "offload": "offload",
    "recompute": "recompute",
    "micro_batch_size": "micro_batch",
    "pp_microbatches": "pipeline_microbatches",
    "expert_parallel": "expert_parallel",
}


#: Stated precisions that fix the KV cache's format too ("serve it in FP16"); a weight format
#: ("int4 weights", "AWQ", "int8", FP8 checkpoints) leaves the KV cache's format open (16-bit
#: unless changed), as vLLM's separate `kv_cache_dtype` option does. A stated KV format
#: ("fp8 KV cache", `Scenario.kv_dtype`) is kept like any stated slot.
SERVING_FORMATS = ("fp32", "bf16", "fp16")


def keeps_stated(change: PlanChange, plan: Plan, stated: Scenario) -> bool:
    """True when `change` needs no new hardware and leaves every slot the user stated alone."""
    if change.hardware:
        return False
    new = change.new_plan
    if any(getattr(new, f) != getattr(plan, f) for f in _HARDWARE):
        return False
    if undoes_stated(change, plan, stated):
        return False
    return new.deadline_seconds <= max(plan.deadline_seconds, PRACTICAL_SECONDS)


def undoes_stated(change: PlanChange, plan: Plan, stated: Scenario) -> bool:
    """True when `change` alters a choice the user stated (a ZeRO stage, TP, a precision, a
    full fine-tune), hardware aside: "scale to 8 × A100 … ZeRO-3" after "ZeRO-0" undoes the
    stage as well as adding GPUs, and says so."""
    new = change.new_plan
    for plan_field, slot in _STATED_SLOT.items():
        if getattr(new, plan_field) != getattr(plan, plan_field) and (
            getattr(stated, slot) is not None
        ):
            return True
    if stated.task == "finetune" and stated.method == "full" and new.method != plan.method:
        return True
    return new.kv_dtype != plan.kv_dtype and (
        stated.kv_dtype is not None or stated.precision in SERVING_FORMATS
    )


def paced_by_network(evaluation: Evaluation) -> bool:
    """True when the network check fails on a training run: its bar (communication over
    compute per step) is a default, not something the user stated, and the run time already
    counts the communication that compute does not hide, so a slow fabric makes the run slower
    (the compute check against the deadline says whether that matters), never impossible."""
    network = evaluation.check("network")
    return network.verdict == "fail" and evaluation.plan.task != "inference"


def paced_checks(
    evaluation: Evaluation, checks: tuple[Check, ...]
) -> tuple[tuple[Check, ...], bool]:
    """`checks` with a network that only sets the pace shown as a warning ("tight"), and
    whether it does (see `paced_by_network`)."""
    if not paced_by_network(evaluation):
        return checks, False
    return tuple(replace(c, verdict="tight") if c.kind == "network" else c for c in checks), True


def _still_failing(failing: Iterable[str], paced: bool) -> set[str]:
    return {kind for kind in failing if not (paced and kind == "network")}


def respecting_verdict(evaluation: Evaluation, stated: Scenario) -> Verdict:
    """The verdict under the rule above, from the planner's evaluation and the stated slots.
    A plan that works only on more host RAM than its server's standard configuration, the RAM
    not stated, is conditional on it (`host_ram_condition`), never feasible outright."""
    verdict = _respecting(evaluation, stated)
    if verdict == "feasible" and host_ram_condition(evaluation) is not None:
        return "conditional"
    return verdict


def host_ram_condition(evaluation: Evaluation) -> Msg | None:
    """The condition of an offload planned past the standard host RAM of its server class (the
    RAM was not stated; within what such a server can be configured with): "needs ≥ 1.3 TB
    of host RAM per node: not stated, check your servers"; None otherwise."""
    need = evaluation.check("memory").figures.get("host_ram_required_bytes_per_node")
    if isinstance(need, bool) or not isinstance(need, (int, float)) or not need:
        return None
    return Msg("answer.host_ram_condition", need=need)


def _respecting(evaluation: Evaluation, stated: Scenario) -> Verdict:
    if evaluation.verdict == "feasible":
        return "feasible"
    paced = paced_by_network(evaluation)
    failing = _still_failing((c.kind for c in evaluation.checks if c.verdict == "fail"), paced)
    if not failing:
        return "feasible"  # only the network's pace: the duration already includes it
    plan = evaluation.plan
    for change in evaluation.suggestions:
        after = change.evaluation_after
        if not _still_failing(after.failing, paced) and keeps_stated(change, plan, stated):
            return "conditional"
    seconds = evaluation.check("compute").figures.get("seconds")
    if (
        failing == {"compute"}
        and stated.deadline_seconds is None
        and isinstance(seconds, (int, float))
        and seconds <= PRACTICAL_SECONDS
    ):
        return "conditional"  # the horizon was a stated default: a longer one is a condition
    return "infeasible"


#: Asks of a training run judged on memory alone (no token count or deadline changes them).
_ON_MEMORY = (
    "memory",
    "activations",
    "throughput",
    "token_volume",
    "request_rate",
    "token_latency",
    "mfu",
    "bubble",
    "max_micro_batch",
)


def on_memory(ask: str, stated: Scenario, fit: bool = False) -> bool:
    """A training memory question, or one asking its rate (tokens/s per GPU, which no token
    count or deadline changes), is judged on memory unless the user stated both the tokens
    and a deadline (then the time is theirs to judge too). `fit`: a yes/no asking whether it
    fits ("does it fit?", "放得下吗"), a memory question too: no default deadline decides it."""
    memory = ask in _ON_MEMORY or (fit and ask == "feasibility")
    if not memory or stated.task == "inference":
        return False
    return stated.tokens is None or stated.deadline_seconds is None


def judged_on_memory(evaluation: Evaluation) -> Evaluation:
    """A memory question ("每张卡要多少显存", "显存够吗"), evaluated with no practical time limit
    (`UNBOUNDED_SECONDS`): the run time on the assumed tokens is information (the compute
    check "n/a", with no deadline figures), never the verdict, and a fix is one for memory."""
    timed = evaluation.check("compute").verdict == "fail"
    checks = tuple(
        replace(c, verdict="n/a", figures=_untimed(c.figures), shortfall=None)
        if c.kind == "compute"
        else c
        for c in evaluation.checks
    )
    failing = [c for c in checks if c.verdict == "fail"]
    if not timed:
        return replace(evaluation, checks=checks)
    suggestions = tuple(
        replace(change, evaluation_after=_without_compute(change.evaluation_after))
        for change in evaluation.suggestions
        if failing and change.kind != "deadline"
    )
    return replace(
        evaluation,
        checks=checks,
        verdict=evaluation.verdict if failing else "feasible",
        binding=max(failing, key=lambda c: c.shortfall or 1.0).kind if failing else None,
        suggestions=suggestions,
        remarks=(),
    )


def on_open_horizon(evaluation: Evaluation) -> Evaluation:
    """A how-long (or how-much) question with no deadline, evaluated on the practical year
    (`PRACTICAL_SECONDS`): past it the run is impractical, said in words with the count that
    finishes within a year, but the year is a default, so the run time never decides the
    verdict ("8张A800训练13B、1T token要多久" runs: feasible, about 2.8 years). The compute
    check becomes a warning ("tight") and each fix is judged on the other checks."""
    if evaluation.check("compute").verdict != "fail":
        return evaluation
    checks = tuple(
        replace(c, verdict="tight") if c.kind == "compute" else c for c in evaluation.checks
    )
    failing = [c for c in checks if c.verdict == "fail"]
    suggestions = tuple(
        replace(change, evaluation_after=_without_compute(change.evaluation_after))
        for change in evaluation.suggestions
    )
    if failing:  # the planner's fixes met the year too; same-hardware ones need not
        suggestions += _untimed_fixes(evaluation, {c.kind for c in suggestions})
    return replace(
        evaluation,
        checks=checks,
        verdict=evaluation.verdict if failing else "feasible",
        binding=max(failing, key=lambda c: c.shortfall or 1.0).kind if failing else "compute",
        suggestions=suggestions,
    )


def _untimed_fixes(evaluation: Evaluation, kinds: set[str]) -> tuple[PlanChange, ...]:
    """Fixes on the same hardware for the checks other than the run time (ZeRO-Offload for a
    memory that does not fit), found with no time limit: under the practical year the planner
    drops them, as they leave the run as long as it was."""
    from calculators.planner import evaluate

    horizon = evaluation.plan.deadline_seconds
    untimed = evaluate(replace(evaluation.plan, deadline_seconds=UNBOUNDED_SECONDS))
    return tuple(
        replace(
            change,
            new_plan=replace(change.new_plan, deadline_seconds=horizon),  # no longer deadline
            evaluation_after=_without_compute(change.evaluation_after),
        )
        for change in untimed.suggestions
        if not change.hardware and change.kind not in kinds and change.evaluation_after.works
    )


def _untimed(figures: Mapping[str, Figure]) -> dict[str, Figure]:
    dropped = ("gpus_for_deadline", "deadline_seconds")
    return {k: v for k, v in figures.items() if k not in dropped}


def _without_compute(after: Outcome) -> Outcome:
    failing = tuple(kind for kind in after.failing if kind != "compute")
    return replace(after, failing=failing, verdict=after.verdict if failing else "feasible")


def network_pace(evaluation: Evaluation, lang: Language) -> str:
    """For a run paced by its network: how much of a step is communication (the duration
    already includes it) and, between nodes, the run time on the fabric the planner suggests."""
    from assistant.i18n import join_sentences, text

    figures = evaluation.check("network").figures
    comm, compute = figures.get("comm_seconds_per_step"), figures.get("compute_seconds_per_step")
    if not isinstance(comm, (int, float)) or not isinstance(compute, (int, float)) or not compute:
        return ""
    seconds = evaluation.check("compute").figures.get("seconds")
    if not isinstance(seconds, (int, float)):
        return ""
    # the efficiency the run time uses (`compute_facts._network_efficiencies`), so the sentence and
    # the network line under it ("扩展效率 100%") come from one figure
    efficiency = figures.get("network_efficiency")
    if not isinstance(efficiency, (int, float)):
        efficiency = 1.0
    if efficiency >= _HIDDEN:  # every second of the traffic is hidden or already in the MFU
        sync = _hidden_seconds(figures)
        hidden = Msg("answer.network_hidden", sync=sync, compute=compute, efficiency=efficiency)
        return text(hidden, lang)
    pace = Msg(
        "answer.network_bound", comm=comm, compute=compute, seconds=seconds, efficiency=efficiency
    )
    sentence = text(pace, lang)
    for change in evaluation.suggestions:
        faster = change.evaluation_after.figures.get("seconds")
        if change.kind != "inter_link" or not isinstance(faster, (int, float)) or not faster:
            continue
        if seconds > faster:
            # mid-sentence: "… about 1.1 h: connect nodes with …" (a no-op on Chinese)
            fabric = _lower_first(text(change.description, lang))
            more = Msg(
                "answer.faster_fabric", fabric=fabric, faster=faster, speedup=seconds / faster
            )
            sentence = join_sentences((sentence, text(more, lang)), lang)
        break
    return sentence


#: A run that keeps this share of its compute time or more is not slowed by its network (the
#: percentage shows as 100%).
_HIDDEN = 0.995


def _hidden_seconds(figures: Mapping[str, Figure]) -> float:
    """The traffic that overlaps with compute: data-parallel gradient sync plus pipeline sends."""
    total = 0.0
    for key in ("allreduce_seconds_per_step", "pp_seconds_per_step"):
        value = figures.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            total += float(value)
    return total


def _lower_first(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


def first_fix(evaluation: Evaluation, stated: Scenario) -> tuple[int | None, int | None]:
    """Indexes of the first working change that keeps the stated slots, and of the first
    working change of any kind (a suggestion beyond what was stated), where more hardware that
    keeps the stated choices goes before more hardware that also undoes one ("ZeRO-0" stays
    ZeRO-0 on more GPUs when that works); None when absent."""
    keeping = other = None
    paced = paced_by_network(evaluation)
    plan = evaluation.plan
    for index, change in enumerate(evaluation.suggestions):
        if _still_failing(change.evaluation_after.failing, paced):
            continue
        if keeping is None and keeps_stated(change, plan, stated):
            keeping = index
        if other is None:
            other = index
        elif _keeps_on_more_hardware(change, plan, stated) and not _keeps_on_more_hardware(
            evaluation.suggestions[other], plan, stated
        ):
            other = index if evaluation.suggestions[other].hardware else other
        elif _relayout(change) and not _relayout(evaluation.suggestions[other]):
            # "DDP" → ZeRO-1 on the same GPUs undoes less than LoRA: a setting, not another job
            other = index if not evaluation.suggestions[other].hardware else other
    return keeping, other


def _relayout(change: PlanChange) -> bool:
    """A change of how the same job runs on the same GPUs (`planner.evaluation.HOW_KINDS`)."""
    return change.kind in HOW_KINDS and not change.hardware


def _keeps_on_more_hardware(change: PlanChange, plan: Plan, stated: Scenario) -> bool:
    return change.hardware and not undoes_stated(change, plan, stated)


def budget_note(checks: tuple[Check, ...], stated: Scenario, ask: str = "") -> Msg | None:
    """The cost against a stated budget (same currency); with no price, the price up to which
    the budget covers the GPU-hours (a cost question says it as its answer, not here); None
    without a budget."""
    from assistant.calculate.focus import figure
    from assistant.calculate.money_answers import break_even

    if any(c.kind == "cost" and c.figures.get("period") == "one hour of serving" for c in checks):
        return None  # serving with no period: how long the money lasts (money.serving_span)
    cost = figure(checks, "cost", "cost")
    hours = figure(checks, "cost", "gpu_hours")
    if stated.budget is not None and stated.price_per_gpu_hour is None and hours:
        return break_even(stated.budget, stated.currency, hours) if ask != "cost" else None
    if stated.budget is None or cost is None:
        return None
    key = "answer.over_budget" if cost > stated.budget else "answer.within_budget"
    short = cost - stated.budget  # "还差约 …": what the money lacks
    currency = stated.currency or ""
    price = stated.price_per_gpu_hour
    if price and hours:  # "how many GPU-hours is that, and is it enough": both, side by side
        bought = stated.budget / price
        return Msg(
            f"{key}_hours",
            cost=cost,
            budget=stated.budget,
            short=short,
            currency=currency,
            hours=hours,
            bought=bought,
            price=price,
        )
    return Msg(key, cost=cost, budget=stated.budget, short=short, currency=currency)


def budget_tokens(checks: tuple[Check, ...], scenario: Scenario, stated: Scenario) -> Msg | None:
    """The tokens a stated budget pays for on this set-up (the cost is GPU-hours x price, and
    GPU-hours grow in proportion to the tokens), or None for serving or without a cost."""
    from assistant.calculate.focus import figure

    cost = figure(checks, "cost", "cost")
    if stated.budget is None or not cost or scenario.task == "inference" or not scenario.tokens:
        return None
    return Msg("answer.budget_tokens", tokens=scenario.tokens * stated.budget / cost)
