"""One resolved scenario evaluated into an `Outcome`: the planner's best layout judged, the
verdict that respects what the user stated, the headline and its fix, a stated budget's bill
and the assumptions the answer lists. `outcome.calculate` routes a question here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.defaults import Resolved
from assistant.calculate.findings import marked, planner_checks, planner_suggestions, stated_first
from assistant.calculate.focus import figure
from assistant.calculate.headline import headline, recounted, speed_after_fix
from assistant.calculate.layout_notes import zero_shown
from assistant.calculate.layouts import deciding_notes, evaluate_best
from assistant.calculate.money import (
    serving_span,
    with_span,
)
from assistant.calculate.outcome_record import Outcome
from assistant.calculate.over_budget import budget_binding, headline_checks, rechecked_fixes
from assistant.calculate.scope import skipped
from assistant.calculate.serving_pick import serving_goal
from assistant.calculate.serving_room import few_sequences
from assistant.calculate.stream_speed import slow_stream
from assistant.calculate.summaries import evaluated_on
from assistant.calculate.targets import has_target
from assistant.calculate.verdict import (
    PRACTICAL_SECONDS,
    UNBOUNDED_SECONDS,
    budget_note,
    budget_tokens,
    first_fix,
    host_ram_condition,
    judged_on_memory,
    network_pace,
    on_memory,
    on_open_horizon,
    paced_checks,
    respecting_verdict,
    undoes_stated,
)
from assistant.i18n import join_sentences, text
from assistant.i18n.labels import CHECK_LABELS
from assistant.records import (
    Ask,
    Check,
    Language,
    Scenario,
)
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import Evaluation, PlanChange

__all__ = ["evaluate_scenario"]


def evaluate_scenario(
    resolved: Resolved,
    lang: Language,
    stated: Scenario,
    ask: Ask = "feasibility",
    *,
    judged: bool = True,
    fit: bool = False,
    network_asked: bool = False,
) -> Outcome:
    """Evaluate the effective scenario; the verdict respects what `stated` fixed. With
    `judged` False (a quantity asked with no hardware named) passing checks are not put in
    the lead: the quantity is the answer, not how it sits on a card the user never named."""
    scenario = resolved.scenario
    pue = scenario.pue or (resolved.site.pue if resolved.site else None)
    if pue is None and resolved.site is not None:  # a named site is a data centre
        from calculators.power import DEFAULT_PUE

        pue = DEFAULT_PUE
    evaluation, notes = evaluate_best(scenario, lang, pue, ask)
    if on_memory(ask, stated, fit) and scenario.task != "inference":  # serving has no deadline
        evaluation = judged_on_memory(evaluation)
    # a split chosen for the load or latency asked is part of the answer, not an assumption
    chosen_for = serving_goal(scenario, ask) if scenario.task == "inference" else "fit"
    led = tuple(notes) if chosen_for != "fit" else ()
    unbounded = scenario.deadline_seconds == UNBOUNDED_SECONDS  # judged on memory alone
    horizon = unbounded or (
        stated.deadline_seconds is None and scenario.deadline_seconds == PRACTICAL_SECONDS
    )
    if horizon:  # the year is no deadline of the user's: "lengthen it to 438 days" fixes nothing
        evaluation = replace(
            evaluation, suggestions=tuple(c for c in evaluation.suggestions if c.kind != "deadline")
        )
    if horizon and not unbounded:  # past the year: impractical in words, not the verdict
        evaluation = on_open_horizon(evaluation)
    plan = evaluation.plan
    scenario = replace(
        scenario,
        zero_stage=zero_shown(scenario, plan),
        tokens=scenario.tokens if scenario.task != "inference" else None,
        deadline_seconds=(  # no deadline stated, or one a memory question does not judge
            stated.deadline_seconds if unbounded else None if horizon else scenario.deadline_seconds
        ),
        tensor_parallel=plan.tensor_parallel,
        pipeline_parallel=plan.pipeline_parallel,
    )
    suggestions, _ = planner_suggestions(evaluation, lang)
    verdict = respecting_verdict(evaluation, stated)
    keeping, other = first_fix(evaluation, stated)
    checks, paced = paced_checks(evaluation, planner_checks(evaluation, lang, scenario.gpu or ""))
    binding = _binding(evaluation) if paced else evaluation.binding
    binding = binding if binding in CHECK_LABELS else None
    fix = (
        suggestions[keeping].change if keeping is not None and keeping < len(suggestions) else None
    )
    beyond = (
        suggestions[other].change
        if fix is None and other is not None and other < len(suggestions)
        else None
    )
    hardware = other is not None and evaluation.suggestions[other].hardware
    if beyond is not None and other is not None and hardware:
        if undoes_stated(evaluation.suggestions[other], plan, stated):  # "ZeRO-0" → ZeRO-3
            beyond = marked(suggestions[other], lang).change
    beyond_key = "answer.needs_hardware" if hardware else "answer.beyond_stated"
    if other is not None and _past_a_year(evaluation.suggestions[other], stated):
        beyond_key = "answer.beyond_horizon"  # the 90 days were assumed, not stated
    budget = budget_note(checks, stated, ask)
    serving = plan.gpus if plan.task == "inference" else 0  # how long a budget serves
    span, checks = serving_span(checks, stated, serving, scenario.gpu)
    over = budget is not None and budget.key.startswith("answer.over_budget")
    # a serving target's own sentence says what meets it: a fix for memory alone is no answer
    target = has_target(stated)
    top = headline(
        verdict,
        headline_checks(checks, stated) if over else checks,
        budget_binding(binding, stated) if over else binding,
        fix,
        lang,
        scenario.gpu or "GPU",
        beyond=beyond,
        beyond_key=beyond_key,
        skip=skipped(ask, stated, judged, network_asked=network_asked)
        + (("network",) if paced else ()),
        horizon=horizon,
        offer_fix=not (over or target),
        deadline_asked=stated.deadline_seconds is not None,
        memory_first=fit,
        recounted=recounted(evaluation, keeping if fix is not None else other),
        quiet_deadline=stated.deadline_seconds is None and ask != "feasibility",
    )
    works = plan.task == "inference" and not any(c.verdict == "fail" for c in checks)
    slow = slow_stream(checks, scenario) if works else None  # a plan that fails has its fix
    if slow is not None and not has_target(stated):  # a target's sentence flags its own load
        top = join_sentences((top, text(slow, lang)), lang)
    few = few_sequences(checks, stated, scenario) if works else None  # runs, but serves few
    top = join_sentences((top, text(few, lang) if few else ""), lang)
    if fix is not None and not (over or target) and any(c.verdict == "fail" for c in checks):
        top = join_sentences((top, speed_after_fix(evaluation, keeping, lang)), lang)
    # the pace explains the run time (a missed deadline included), not a plan that does not fit
    if paced and not any(c.verdict == "fail" and c.kind != "compute" for c in checks):
        top = join_sentences((top, network_pace(evaluation, lang)), lang)
    overlap = _overlap_needed(checks, stated) if verdict == "feasible" else None
    if overlap is not None:  # met only with the gradient sync hidden behind the backward pass
        top = join_sentences((top, text(overlap, lang)), lang)
    top, verdict = with_span(top, verdict, span, budget, stated, lang)
    if budget is not None:
        within = budget_tokens(checks, scenario, stated) if over else None
        said = tuple(text(m, lang) for m in (budget, within) if m is not None and not span)
        top = join_sentences((*said, top), lang)
        if over:
            verdict = "infeasible"  # a stated budget is a constraint, like a stated deadline
            checks = tuple(replace(c, verdict="fail") if c.kind == "cost" else c for c in checks)
            binding = budget_binding(binding, stated)  # the money binds, not the default year
        elif budget.key == "answer.budget_break_even" and verdict == "feasible":
            verdict = "unknown"  # whether the money is enough waits for a price: an estimate
    fixes = rechecked_fixes(suggestions, evaluation, stated, lang) if over else suggestions
    condition = host_ram_condition(evaluation) if verdict == "conditional" else None
    if condition is not None and fix is None:  # the plan works on RAM nobody stated
        top = join_sentences((top, text(condition, lang)), lang)
    elif verdict == "conditional" and fix is None and stated.deadline_seconds is None:
        seconds = figure(checks, "compute", "seconds")
        if seconds is not None:
            longer = Msg("answer.longer_horizon", seconds=seconds, deadline=plan.deadline_seconds)
            top = join_sentences((top, text(longer, lang)), lang)
    where = evaluated_on(scenario, stated, lang)
    return Outcome(
        verdict=verdict,
        lead=join_sentences((top, *led, where if judged else ""), lang),  # unjudged: reference
        scenario=scenario,
        binding=binding,  # type: ignore[arg-type]
        checks=checks,
        suggestions=stated_first(fixes, evaluation, stated, lang),
        assumptions=(
            *deciding_notes(evaluation, lang),
            *resolved.assumptions,
            *(n for n in notes if n not in led),
        ),
        site=resolved.site,
        remarks=tuple(text(r, lang) for r in evaluation.remarks),
        evaluation=evaluation,
    )


def _overlap_needed(checks: tuple[Check, ...], stated: Scenario) -> Msg | None:
    """A stated deadline the run meets only with its gradient sync overlapped with the backward
    pass (PyTorch DDP and FSDP overlap it by default, bucketed all-reduce; Li et al. 2020,
    arXiv:2006.15704 §3.2.3): said with the run time without overlap, the margin a tight network
    leaves ("4 nodes on 25GbE, 30 days": 22 days overlapped, about 31 without)."""
    deadline = stated.deadline_seconds
    seconds = figure(checks, "compute", "seconds")
    plain = figure(checks, "network", "scaling_efficiency")
    overlapped = figure(checks, "network", "scaling_efficiency_overlap")
    if not (deadline and seconds and plain and overlapped) or plain >= overlapped:
        return None
    without = seconds * overlapped / plain
    if seconds > deadline or without <= deadline:
        return None
    return Msg("answer.deadline_needs_overlap", deadline=deadline, seconds=without)


def _binding(evaluation: Evaluation) -> str | None:
    """The planner's binding rule (the failing check furthest past its limit) without the
    network of a run it only paces."""
    failing = [c for c in evaluation.checks if c.verdict == "fail" and c.kind != "network"]
    return max(failing, key=lambda c: c.shortfall or 1.0).kind if failing else None


def _past_a_year(change: PlanChange, stated: Scenario) -> bool:
    """A longer deadline past the practical year on a question that stated none: not a change
    of "what you stated" (the 90 days were a default) but a run too long to be practical."""
    deadline = change.new_plan.deadline_seconds
    return (
        change.kind == "deadline"
        and stated.deadline_seconds is None
        and deadline > PRACTICAL_SECONDS
    )
