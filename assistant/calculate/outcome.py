"""Query → effective scenario → calculator Plan → evaluation → checks, verdict, suggestions.

Every open slot gets a stated default (:mod:`.defaults`). The layout (ZeRO stage, recompute,
tensor/pipeline parallelism) is chosen as a competent engineer would (:mod:`.layouts`), and the
answer says which. With no hardware and no site, typical set-ups are evaluated and the answer
says which would work. "How many" and "how long" also get the direct number (:mod:`.focus`).
One resolved scenario is judged in :mod:`.evaluated`; this module routes the question to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from assistant.calculate.bottleneck import judged_on_network
from assistant.calculate.bubble import bubble_outcome
from assistant.calculate.buying import bought
from assistant.calculate.collective import collective_outcome
from assistant.calculate.compare import compare_options
from assistant.calculate.concepts import concept_outcome
from assistant.calculate.daily_use import daily_deadline, in_calendar_time
from assistant.calculate.defaults import Resolved, names_own_run, resolve, typical_setups
from assistant.calculate.device import computer_lead
from assistant.calculate.energy import energy_outcome
from assistant.calculate.evaluated import evaluate_scenario
from assistant.calculate.focus import main_ask
from assistant.calculate.interactive import fewest_layout
from assistant.calculate.job_compare import compare_jobs, job_side, without_job_options
from assistant.calculate.largest import PROBE_PARAMS, at_largest
from assistant.calculate.layouts import one_replica, to_plan
from assistant.calculate.lead import with_focus
from assistant.calculate.measured import with_measured_mfu, with_run_time
from assistant.calculate.method_choices import with_method_choices
from assistant.calculate.money import (
    bounded_tokens,
    money_outcome,
    tokens_in_horizon,
)
from assistant.calculate.names import generic_model_notes, unknown_names_lead
from assistant.calculate.one_card import with_note, with_one_card
from assistant.calculate.open_method import with_open_method
from assistant.calculate.outcome_record import Outcome, refused
from assistant.calculate.plural import at_plural_count
from assistant.calculate.power_budget import power_budget_outcome
from assistant.calculate.purchase import (
    bare_purchase,
    hardware_cost_asked,
    hardware_for_price,
    stated_purchase,
)
from assistant.calculate.recommend import recommend_outcome
from assistant.calculate.rental import rental_bill
from assistant.calculate.scaling import scaling_series
from assistant.calculate.scope import (
    OPEN_HORIZON,
    QUANTITY,
    ask_wording,
    fit_asked,
    network_asked,
)
from assistant.calculate.sixteen_bit import with_card_formats
from assistant.calculate.sizing import Evaluator, at_fewest_fitting, how_long, in_eight_bits, sized
from assistant.calculate.solvers import at_full_batch, at_longest_context, at_most_sequences
from assistant.calculate.stand_in import generic_card_lead, with_stand_in
from assistant.calculate.stream_floor import floor_asked, most_streams
from assistant.calculate.targets import has_target, meet_target
from assistant.calculate.typical import typical_outcome
from assistant.calculate.validate import validate, validate_hours_per_day
from assistant.calculate.verdict import (
    PRACTICAL_SECONDS,
    UNBOUNDED_SECONDS,
    on_memory,
)
from assistant.i18n import join_sentences, text
from assistant.parse.asks import yes_no_beside_network
from assistant.records import (
    Ask,
    Language,
    Query,
    Scenario,
    SiteProfile,
    Verdict,
)
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = ["Outcome", "calculate", "to_plan"]


def _site(query: Query, sites: Iterable[SiteProfile]) -> SiteProfile | None:
    """The named site profile, in the answer's language when both versions exist."""
    wanted = query.scenario.site_profile
    if not wanted:
        return None
    matches = [s for s in sites if s.id == wanted]
    return next((s for s in matches if s.lang == query.language), matches[0] if matches else None)


def _unknown(mode: str, lang: Language, lead: Msg, scenario: Scenario | None = None) -> Outcome:
    return Outcome(verdict="unknown", lead=text(lead, lang), scenario=scenario, mode=mode)


def calculate(query: Query, *, sites: Iterable[SiteProfile] = ()) -> Outcome:
    """Evaluate a parsed question; never raises for bad values (they become an `unknown` answer).

    The time-against-GPU-count series is computed once, for the evaluation the answer shows
    (not for every set-up or option tried on the way).
    """
    outcome = _answer(query, sites)
    if outcome.evaluation is None:
        return outcome
    return replace(outcome, scaling=scaling_series(outcome.evaluation, query.scenario))


def _answer(query: Query, sites: Iterable[SiteProfile]) -> Outcome:
    try:
        validate_hours_per_day(query.scenario)  # "一天用0小时": before any answer uses it
    except CalculatorInputError as exc:
        return refused(exc, query.language, query.scenario)
    buy = bought(query) if query.in_domain else None  # "一台…报价120万，预算500万能买几台"
    if buy is None:
        return _answer_job(query, sites)
    s = query.scenario
    if (s.model is None and s.params is None) or buy.units == 0:
        verdict: Verdict = "unknown" if s.model is None and s.params is None else "infeasible"
        return Outcome(verdict=verdict, lead=buy.lead, scenario=s, checks=(buy.check,))
    found = _answer_job(replace(query, scenario=buy.scenario), sites)  # the cards bought
    lead = join_sentences((buy.lead, found.lead), query.language)
    return replace(found, lead=lead, checks=(buy.check, *found.checks))


def _answer_job(query: Query, sites: Iterable[SiteProfile]) -> Outcome:
    if hardware_cost_asked(query):  # "要多少钱买硬件": the hardware, and the quote that prices it
        return hardware_for_price(query, lambda q: _answer_job(q, sites))
    lang = query.language
    s = query.scenario
    if not query.in_domain:
        return _unknown("offtopic", lang, Msg("answer.offtopic"))
    probing = main_ask(query) == "max_model" and s.model is None and s.params is None
    if probing:
        query = replace(query, scenario=replace(s, params=PROBE_PARAMS))
        s = query.scenario
    computer = computer_lead(query)  # "只用CPU", "MacBook Pro M3": never a stand-in card
    if computer:
        return Outcome(verdict="unknown", lead=computer, scenario=s, mode="invalid")
    generic = generic_model_notes(query)  # "FalconX-Ultra-70B": a generic 70B, said so
    cards, card_lead = generic_card_lead(query)  # "燧原S60（每张48GB）": a generic 48 GB card
    missing = unknown_names_lead(tuple(n for n in query.unknown_names if n not in cards), lang)
    query, stand_in = with_stand_in(query)  # "32GB的MI50": judged on its stated memory
    if generic is None and missing and (stand_in is None or (s.model is None and s.params is None)):
        return Outcome(verdict="unknown", lead=missing, scenario=s, mode="invalid")
    if s.model is None and s.params is None:
        try:
            validate(s)  # "1.5张H100功耗多少" is refused here too, never rounded to one card
            found = bubble_outcome(query) or power_budget_outcome(query)  # "PP8 bubble多大"
            found = found or collective_outcome(query)  # "10 GB all-reduce over 16 nodes"
            found = found or energy_outcome(query, _site(query, sites))
            found = found or money_outcome(query)  # then a pick (ladder), then a job-less buy
            found = found or recommend_outcome(query, lambda q: _calculate(q, None))
            return found or bare_purchase(query) or concept_outcome(query)
        except CalculatorInputError as exc:
            return refused(exc, lang, s)
    site = _site(query, sites)
    asked = query
    query, daily = daily_deadline(query)  # "一个月内，每天只能用12小时": 15 days of training
    query, one_card = with_one_card(query, site)  # "用4090跑7B": one consumer card
    query, took = with_run_time(query)  # "256 A100 in 14 days, what MFU": the run's time
    try:
        query = with_measured_mfu(query, lambda q: _calculate(q, site))  # "3000 tokens/s/GPU"
    except CalculatorInputError as exc:  # GPU-hours no run at the cards' peak fits in
        return refused(exc, lang, s)
    found = with_note(with_card_formats(query, lambda q: _calculate(q, site)), one_card)
    found = with_note(found, took)
    found = with_method_choices(query, found, lambda q: _calculate(q, site))  # "full vs LoRA"
    found = rental_bill(query, found, lambda q: _calculate(q, site))  # "rent … for 2 weeks"
    if probing:  # the largest model's own figures, not the probe's
        found = at_largest(query, found, lambda q: _calculate(q, site), open_count=site is None)
    found = in_calendar_time(asked, found, daily)  # "约需 14 小时" is 1.2 days at 12 h a day
    if stand_in is not None:
        lead = join_sentences((missing, found.lead, card_lead), lang)
        return replace(found, lead=lead, assumptions=(stand_in, *found.assumptions))
    if generic is not None and found.mode == "verdict":
        lead = join_sentences((found.lead, generic[0]), lang)
        return replace(found, lead=lead, assumptions=(generic[1], *found.assumptions))
    return found


def _calculate(query: Query, site: SiteProfile | None) -> Outcome:
    lang = query.language
    s = query.scenario
    ask = main_ask(query)
    try:
        validate(s)
        if query.options and job_side(query):
            return with_focus(query, compare_jobs(query, _option_runner(query, site)), ask)
        query = without_job_options(query)  # "ZeRO-3比ZeRO-2多省多少": the saving, below
        if query.options:
            return with_focus(query, compare_options(query, _option_runner(query, site)), ask)
        open_count = site is None and s.gpu_count is None and s.nodes is None
        if has_target(s) and not _training(s):
            first = _typical(query, ask) if s.gpu is None and site is None else None
            first = first or evaluate_scenario(_resolve(query, site, ask), lang, s, ask)
            run = _rerun(query, ask, site)
            if floor_asked(s, ask) and not open_count:  # streams on the stated GPUs, not GPUs
                return with_focus(query, most_streams(s, first, run, lang), ask)
            return with_focus(query, meet_target(s, first, run, lang, counted=not open_count), ask)
        if s.gpu is None and site is None:
            typical = _typical(query, ask)
            typical = bounded_tokens(query, typical, _rerun) if ask == "tokens" else typical
            return with_focus(query, typical, ask)
        if ask in ("duration", *_OPEN_COUNT_QUANTITIES) and open_count and _training(s):
            # the count no default decides; a quantity other than time, at a practical count
            timed = how_long(query, _evaluator(query, ask), practical=ask != "duration")
            if ask != "duration":  # the money or energy is what was asked, then the time
                timed = replace(timed, focus="")
            return with_focus(query, timed, ask)
        if ask == "feasibility" and open_count and _training(s) and _open_ended(s):
            # "H800能训练7B吗": the card asked about, on the count that finishes in the default
            # horizon, not judged on a default 8 the user never chose
            on_cards = how_long(query, _evaluator(query, ask), practical=True)
            return with_focus(query, stated_purchase(query, on_cards), ask)  # "预算200万买H20…"
        outcome = evaluate_scenario(
            _resolve(query, site, ask),
            lang,
            s,
            ask,
            fit=fit_asked(query, ask),
            network_asked=network_asked(query),
        )
        if ask == "network" and not yes_no_beside_network(query.question):  # "能训吗，会卡…": both
            outcome = judged_on_network(outcome)
        if ask == "tokens":  # the run the money (or the time) pays for, in the horizon
            outcome = tokens_in_horizon(query, outcome, _rerun)
        if open_count and on_memory(ask, s) and _training(s):  # no default count decides
            outcome = at_fewest_fitting(query, outcome, _evaluator(query, ask))
        if open_count and ask == "feasibility" and not _training(s):  # "on H100s": the fewest
            outcome = at_plural_count(query, outcome, _evaluator(query, "gpu_count"))
        if open_count and ask in _OPEN_COUNT_QUANTITIES and not _training(s):  # serving's bill
            outcome = sized(query, outcome, _evaluator(query, "gpu_count"), "answer.open_count")
        if open_count and ask in ("gpu_count", "layout"):  # "what TP degree do I need": fewest
            outcome = sized(query, outcome, _evaluator(query, "gpu_count"))
            outcome = in_eight_bits(query, outcome, lambda q: _evaluator(q, "gpu_count"), ask)
            outcome = with_open_method(query, outcome, lambda q: _evaluator(q, "gpu_count"))
        return with_focus(query, stated_purchase(query, outcome), ask)
    except CalculatorInputError as exc:
        return refused(exc, lang, s)


#: Quantities of a training run that do not depend on the GPU count (GPU-hours, energy): with no
#: count they are evaluated on the layout "how long" picks, never on a default 8 GPUs.
_OPEN_COUNT_QUANTITIES: tuple[Ask, ...] = ("cost", "gpu_hours", "energy_cost", "power")


def _resolve(
    query: Query, site: SiteProfile | None, ask: Ask, scenario: Scenario | None = None
) -> Resolved:
    """Fill the open slots; a how-long question with no deadline is judged on a year (the
    answer is the duration, and past a year it is called impractical), not on a default, and
    so is each option of a comparison ("H20和H800哪个快": which is faster, not which meets a
    90-day deadline nobody stated) and a run asked about its budget ("预算50万…钱够吗": the
    money, not the time)."""
    s = scenario or query.scenario
    lang = query.language
    own = names_own_run(query.question)
    if (ask == "max_concurrency" or at_full_batch(ask, ask_wording(query), s)) and not _training(s):
        return at_most_sequences(one_replica(resolve(s, site, lang, own_run=own)), lang)
    if ask == "max_context" and s.context_length is None and not _training(s):
        return at_longest_context(one_replica(resolve(s, site, lang, own_run=own)), lang)
    if on_memory(ask, s, fit_asked(query, ask)) and _training(s):  # on memory: no time limit
        resolved = resolve(replace(s, deadline_seconds=UNBOUNDED_SECONDS), site, lang, own_run=own)
        memory = ask in ("memory", "activations", "feasibility")  # feasibility: "does it fit?"
        note = text(Msg("answer.memory_only" if memory else f"answer.{ask}_only"), lang)
        return replace(resolved, assumptions=(note, *resolved.assumptions))
    yes_no = ask == "network" and yes_no_beside_network(query.question)  # "能训吗，会卡吗": both
    open_horizon = (ask in (*OPEN_HORIZON, "compare") and not yes_no) or s.budget is not None
    if not open_horizon or s.deadline_seconds is not None or not _training(s):
        return resolve(s, site, lang, own_run=own)
    resolved = resolve(replace(s, deadline_seconds=PRACTICAL_SECONDS), site, lang, own_run=own)
    note = text(Msg("answer.open_horizon"), lang)
    return replace(resolved, assumptions=(note, *resolved.assumptions))


def _option_runner(query: Query, site: SiteProfile | None) -> Callable[[Scenario, str], Outcome]:
    """Evaluate one comparison option as its own question (its stated slots fixed), with a
    note on why it is evaluated so ("" for none)."""

    def run(scenario: Scenario, note: str = "") -> Outcome:
        outcome = rerun(scenario, note)
        if not has_target(scenario) or _training(scenario):
            return outcome
        # a stated target is part of what each option must do ("20 tok/s per user")
        counted = scenario.gpu_count is not None or scenario.nodes is not None
        return meet_target(scenario, outcome, rerun, query.language, counted=counted)

    def rerun(scenario: Scenario, note: str) -> Outcome:
        resolved = _resolve(query, site, "compare", scenario)
        notes = (note,) if note else ()
        resolved = replace(resolved, assumptions=(*notes, *resolved.assumptions))
        return evaluate_scenario(resolved, query.language, scenario, "compare")

    return run


def _rerun(
    query: Query, ask: Ask, site: SiteProfile | None = None
) -> Callable[[Scenario, str], Outcome]:
    """Evaluate another scenario for the question (what it stated stays fixed), with a note;
    on the question's site, when it names one."""

    def run(scenario: Scenario, note: str) -> Outcome:
        resolved = _resolve(query, site, ask, scenario)
        if note:
            resolved = replace(resolved, assumptions=(note, *resolved.assumptions))
        fit = fit_asked(query, ask)
        net = network_asked(query)
        return evaluate_scenario(
            resolved, query.language, query.scenario, ask, fit=fit, network_asked=net
        )

    return run


def _evaluator(query: Query, ask: Ask) -> Evaluator:
    """Evaluate the question's scenario at another GPU count (for sizing)."""
    rerun = _rerun(query, ask)
    return lambda count, note: rerun(fewest_layout(query.scenario, count), note)


def _open_ended(s: Scenario) -> bool:
    """No deadline and no money to bound the run: a yes/no on the card alone."""
    return s.deadline_seconds is None and s.budget is None


def _training(s: Scenario) -> bool:
    """The task the defaults will choose (see `defaults._workload`): serving unless told."""
    if s.task is not None:
        return s.task != "inference"
    return bool(s.tokens or s.deadline_seconds)


def _typical(query: Query, ask: Ask) -> Outcome:
    """The question on the typical set-ups (see calculate.typical) when it names no GPU."""
    s = query.scenario
    counted = s.gpu_count is not None or s.nodes is not None
    judged = ask not in ("memory", "weights", "kv_cache", "kv_per_token", "gpu_count", *QUANTITY)
    setups = typical_setups(s, training=_training(s), counted=counted)

    def run(scenario: Scenario) -> Outcome:
        resolved = _resolve(query, None, ask, scenario)
        fit = fit_asked(query, ask)
        return evaluate_scenario(resolved, query.language, s, ask, judged=judged, fit=fit)

    return typical_outcome(query, setups, run, judged=judged)
