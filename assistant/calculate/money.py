"""Questions bounded by money: what a budget buys, and the run it pays for.

A budget question asks a quantity (GPU-hours, days, GPUs, tokens) or whether the money covers a
stated job; no default deadline decides it. With no job named, the answer is arithmetic on the
stated numbers (GPU-hours = budget ÷ price, :func:`calculators.budget_hours`); "how many tokens"
with a budget re-evaluates the job at the token count the budget pays for (GPU-hours, and so the
cost, grow in proportion to the tokens at a fixed layout).

Examples:
    >>> from assistant.parse import parse
    >>> money_outcome(parse("how many GPU-hours does $30k buy at $2.5")).lead
    '30,000 USD buys 12,000 GPU-hours at 2.5 USD per GPU-hour.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure, main_ask
from assistant.i18n import join_sentences, text
from assistant.records import Ask, Check, Language, Query, Scenario, Verdict
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["bounded_tokens", "money_outcome", "serving_span", "tokens_in_horizon", "with_span"]

#: `outcome._rerun`: a question's re-evaluator (scenario, note) -> Outcome, for an ask.
RerunFor = Callable[[Query, Ask], Callable[[Scenario, str], "Outcome"]]

#: The share of a stated deadline the tokens are sized to: steps and batches round, so a run
#: sized to the last second can come out a second late ("超出 1%" of a deadline it was sized to).
_INSIDE = 0.999
#: The question is about money: a budget said, or the word for one.
_MONEY = re.compile(r"预算|经费|budget|afford", re.IGNORECASE)


def money_outcome(query: Query) -> Outcome | None:
    """What a stated budget buys when no job is named, or what to add to compute it; None when
    the question is not about a budget (or names no count, period or GPU-hours to buy)."""
    from assistant.calculate.outcome import Outcome

    s = query.scenario
    if s.budget is None and not _MONEY.search(query.question):
        return None
    if s.purchase_budget is not None and s.budget is None and s.price_per_gpu_hour is None:
        if main_ask(query) != "gpu_count":
            return None
        # "预算3万块，买几张4090": money to buy cards, whose price the catalog does not hold
        said = Msg("solve.purchase_budget_missing", budget=s.purchase_budget,
                   currency=s.currency or "CNY", gpu=s.gpu or "GPU")  # fmt: skip
        return Outcome(verdict="unknown", lead=text(said, query.language), scenario=s)
    if s.budget is None or s.price_per_gpu_hour is None:
        if main_ask(query) not in ("gpu_count", "duration") and s.budget is None:
            return None  # "预算有限，选哪张卡", "预算要多少钱": not what a budget buys
        missing = tuple(
            Msg(key)
            for key, absent in (
                ("solve.budget_amount", s.budget is None),
                ("solve.budget_price", s.price_per_gpu_hour is None),
            )
            if absent
        )
        lead = text(Msg("solve.budget_missing", missing=missing), query.language)
        return Outcome(verdict="unknown", lead=lead, scenario=s, mode="verdict")
    check = _bought(s, query, s.budget, s.price_per_gpu_hour)
    return Outcome(
        verdict="unknown", lead=check.summary, scenario=replace(s, task=None), checks=(check,)
    )


def _bought(s: Scenario, query: Query, budget: float, price: float) -> Check:
    """The cost check of the money itself: GPU-hours, and the GPUs or time they give."""
    from calculators import budget_gpus, budget_hours
    from calculators.catalog.hardware import lookup_gpu

    hours = budget_hours(budget=budget, price_per_gpu_hour=price)
    count = s.gpu_count or (s.nodes or 0) * (s.gpus_per_node or 0)
    gpu = lookup_gpu(s.gpu).name if s.gpu else "GPU"
    said: dict[str, Param] = {
        "budget": budget,
        "currency": s.currency or "",
        "hours": hours,
        "price": price,
    }
    figures: dict[str, float | str] = {"cost": budget, "gpu_hours": hours}
    if count:
        seconds = hours * 3600.0 / count
        hardware = Msg("common.gpus", count=count, gpu=gpu)
        msg = Msg("solve.budget_runs", hardware=hardware, seconds=seconds, **said)
        figures.update(seconds=seconds, days=seconds / 86400)
    elif s.deadline_seconds and main_ask(query) == "gpu_count":
        most = budget_gpus(budget=budget, price_per_gpu_hour=price, seconds=s.deadline_seconds)
        key = "solve.budget_gpus" if most else "solve.budget_too_small"
        period = s.deadline_seconds / 3600.0
        msg = Msg(key, count=most, gpu=gpu, seconds=s.deadline_seconds, period=period, **said)
        figures.update(gpus=most, seconds=s.deadline_seconds)
    else:
        msg = Msg("solve.budget_hours", **said)
    figures["currency"] = s.currency or ""
    return Check(
        kind="cost",
        verdict="ok",
        summary=text(msg, query.language),
        figures=figures,
        formula=text(Msg("formula.budget_hours"), query.language),
        inputs={"budget": budget, "price_per_gpu_hour": price},
    )


#: Below this many seconds the span reads in hours already: no "(N hours)" after it.
_SAY_HOURS_FROM = 2 * 86400.0


def serving_span(
    checks: tuple[Check, ...], stated: Scenario, gpus: int, gpu: str | None = None
) -> tuple[Msg | None, tuple[Check, ...]]:
    """How long a stated budget keeps `gpus` serving (0: not serving): budget ÷ (GPUs × price per
    GPU-hour) hours, with the cost check carrying it (`budget_seconds`, `budget_days`); with no
    price, what the time depends on (None when a period is stated: its break-even price says
    it). `gpu` is the card evaluated (a typical set-up's when the question names none).
    Serving has no run to cost: one hour of it is never held against the budget.

    >>> from assistant.records import Scenario
    >>> msg, _ = serving_span((), Scenario(budget=50e3, price_per_gpu_hour=1.5), 1)
    >>> msg.key if msg else None, round(float(msg["hours"])) if msg else None
    ('answer.serving_budget_lasts', 33333)
    """
    if stated.budget is None or gpus < 1:
        return None, checks
    said: dict[str, Param] = {"budget": stated.budget, "currency": stated.currency or ""}
    said["hardware"] = Msg("common.gpus", count=gpus, gpu=gpu or stated.gpu or "GPU")
    price = stated.price_per_gpu_hour
    if price is None:
        unpriced = Msg("answer.serving_budget_price", count=gpus, **said)
        return (None if stated.deadline_seconds else unpriced), checks
    from calculators import budget_hours

    hours = budget_hours(budget=stated.budget, price_per_gpu_hour=price * gpus)
    seconds = hours * 3600.0
    also = Msg("answer.serving_budget_hours", hours=hours) if seconds >= _SAY_HOURS_FROM else ""
    lasts = Msg(
        "answer.serving_budget_lasts", price=price, seconds=seconds, hours=hours, also=also, **said
    )
    lasted = {"budget_seconds": seconds, "budget_days": seconds / 86400}
    return lasts, tuple(
        replace(c, figures={**c.figures, **lasted}) if c.kind == "cost" else c for c in checks
    )


#: A stated serving period held against the budget: the judgement, with how long it lasts.
_SPAN_JUDGED = {
    "answer.within_budget": "answer.serving_period_within",
    "answer.over_budget": "answer.serving_period_over",
    "answer.within_budget_hours": "answer.serving_period_within",
    "answer.over_budget_hours": "answer.serving_period_over",
}


def with_span(
    top: str,
    verdict: Verdict,
    span: Msg | None,
    budget: Msg | None,
    stated: Scenario,
    language: Language,
) -> tuple[str, Verdict]:
    """The headline `top` led by how long the money serves (`serving_span`), in one sentence
    with a stated period's verdict (`budget`, its cost against the budget); with no price, the
    verdict waits for one (an estimate, as for a run's break-even price)."""
    if span is None:
        return top, verdict
    said = span
    if budget is not None and budget.key in _SPAN_JUDGED and stated.deadline_seconds:
        said = Msg(_SPAN_JUDGED[budget.key], span=span, period=stated.deadline_seconds, **budget)
    if span.key == "answer.serving_budget_price" and verdict == "feasible":
        verdict = "unknown"
    return join_sentences((text(said, language), top), language), verdict


def bounded_tokens(query: Query, first: Outcome, rerun_for: RerunFor) -> Outcome:
    """ "How many tokens can 64 H100 pretrain a 7B on" with a budget (and price) or a deadline:
    the job re-evaluated at the tokens the money (or the time) pays for, that sentence first.
    `first` is the job at its default token count on the hardware evaluated (stated, or the
    typical set-up: then an estimate, no verdict); without a bound it is returned as it is.
    The re-evaluation states no budget: its cost is the budget, not "within budget"."""
    s, done = query.scenario, first.scenario
    cost = figure(first.checks, "cost", "cost")
    seconds = figure(first.checks, "compute", "seconds")
    if done is None or not done.tokens or done.task == "inference" or not seconds:
        return first
    scales = []
    if s.budget and cost:
        scales.append((s.budget / cost, "solve.budget_tokens"))
    if s.deadline_seconds:  # 0.1% inside the deadline: the re-evaluation is not exactly linear
        scales.append((s.deadline_seconds / seconds * _INSIDE, "solve.deadline_tokens"))
    if not scales:
        return first
    scale, key = min(scales)
    tokens = done.tokens * scale
    same = replace(
        s,
        tokens=tokens,
        task=done.task,
        gpu=done.gpu,
        gpu_count=done.gpu_count,
        nodes=done.nodes,
        gpus_per_node=done.gpus_per_node,
    )
    unbudgeted = replace(query, scenario=replace(s, budget=None))
    outcome = rerun_for(unbudgeted, main_ask(query))(same, "")
    if first.verdict == "unknown":  # a set-up the user never chose: the figures, no verdict
        outcome = replace(outcome, verdict="unknown", assumptions=first.assumptions)
    # the figures of the run evaluated, so the sentence agrees with the checks under it
    hours = figure(outcome.checks, "cost", "gpu_hours") or 0.0
    took = figure(outcome.checks, "compute", "seconds") or seconds * scale
    count = (outcome.scenario.gpu_count if outcome.scenario else None) or 0
    hardware = Msg("common.gpus", count=count, gpu=done.gpu or "GPU")
    bought = Msg(key, tokens=tokens, hours=hours, seconds=took, hardware=hardware)
    return replace(outcome, focus=text(bought, query.language))  # said first (with_focus)


def tokens_in_horizon(query: Query, first: Outcome, rerun_for: RerunFor) -> Outcome:
    """:func:`bounded_tokens`; with no GPU count stated, when the tokens the budget pays for
    would take longer than the default horizon on the count `first` was evaluated at, the
    run re-evaluated on the whole nodes that train them within it (the budget's GPU-hours
    hardly depend on the count): a default count never makes the answer "impractical"."""
    from assistant.calculate.defaults import DEFAULT_DEADLINE_SECONDS
    from assistant.calculate.sizing import practical_count
    from calculators.defaults import DEFAULT_GPUS_PER_NODE

    outcome = bounded_tokens(query, first, rerun_for)
    s, done, probe = query.scenario, outcome.scenario, first.scenario
    seconds = figure(outcome.checks, "compute", "seconds")
    if s.gpu_count or s.nodes or not s.budget or s.deadline_seconds or probe is None:
        return outcome
    if done is None or not done.gpu_count or not seconds or seconds <= DEFAULT_DEADLINE_SECONDS:
        return outcome
    per_node = done.gpus_per_node or DEFAULT_GPUS_PER_NODE
    count = practical_count(int(done.gpu_count), seconds, per_node)
    wider = replace(probe, gpu_count=count, nodes=max(1, count // per_node))
    again = rerun_for(query, main_ask(query))(wider, "")
    return bounded_tokens(query, again, rerun_for)
