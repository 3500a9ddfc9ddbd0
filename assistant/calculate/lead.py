"""The lead of an answer: the direct answer to what was asked first ("需要几张" → a count,
"要多久" → a duration, "最大能训练多大" → a size), then the verdict's reasons, what changed in a
follow-up, and the checks the question named."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.asked_unit import in_asked_unit
from assistant.calculate.bottleneck import bottleneck_sentence
from assistant.calculate.fabric import fabric_sentence
from assistant.calculate.focus import (
    asked,
    duration_message,
    figure,
    focus_sentence,
    main_ask,
    needed_gpus,
    topic_sentences,
)
from assistant.calculate.followup import changed_note
from assistant.calculate.interactive import interactive_sentence
from assistant.calculate.largest import largest_model
from assistant.calculate.money_answers import token_price
from assistant.calculate.scope import ask_wording
from assistant.calculate.solvers import solved
from assistant.calculate.stream_speed import slow_stream
from assistant.calculate.total_cost import total_cost
from assistant.calculate.whole_nodes import asks_nodes, node_count
from assistant.calculate.zero_saving import saving_message
from assistant.i18n import join_sentences, text
from assistant.parse.asks import PER_TOKEN_PRICE, asks_about_scaling, asks_total
from assistant.records import Ask, Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE, PRACTICAL_SECONDS
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["head_count_bound", "with_focus"]

#: Quantities of a whole run: with no deadline stated, the run time they take is said after.
_RUN_QUANTITIES = ("cost", "gpu_hours", "energy_cost", "power")


def with_focus(query: Query, outcome: Outcome, ask: Ask) -> Outcome:
    """Put the direct answer to what was asked first, then the verdict's reasons."""
    scenario = outcome.scenario
    if scenario is None or not outcome.checks:
        return outcome
    if ask == "max_model":
        found = largest_model(outcome.checks, scenario, query.scenario)
        biggest = text(found, query.language) if found else ""
        probe = replace(scenario, params=None, active_params=None, tokens=None)
        lead = join_sentences((biggest or outcome.lead, changed_note(query)), query.language)
        return replace(outcome, lead=lead, scenario=probe)  # "那8张呢": what changed, after
    # the count that holds stated users, said with the speed each gets and the count that
    # gives each an interactive speed: one sentence, first, when more GPUs are needed for it
    interactive = interactive_sentence(query, outcome, ask)
    leading = interactive.leads and not outcome.focus
    focus = (
        outcome.focus
        or (interactive.sentence if leading else "")
        or solved(ask, scenario, query.language, open_format=query.scenario.precision is None)
        or _total(ask, outcome, scenario, query)
        or _answer(ask, outcome, scenario, query)
    )
    if ask in _SPEED_ASKS and not outcome.focus and _memory_fails(outcome):
        focus = ""  # "how many tok/s on one 4090" when it does not fit: no speed of a non-run
    saving = saving_message(query, outcome.checks, scenario) if ask == "memory" else None
    if saving is not None:  # "how much would ZeRO-2 save": the saving, then the memory it needs
        focus = join_sentences((text(saving, query.language), focus), query.language)
    fabric = fabric_sentence(query.question, outcome.checks, scenario, query.language)
    focus = join_sentences((fabric, focus), query.language) if fabric else focus
    focus = _quantities(ask, focus, outcome, query)
    if not leading:  # the layout that gives the bar on the same count, after the count
        focus = join_sentences((focus, interactive.sentence), query.language)
    if focus:  # the count (or verdict) sentence, then that it counts everyone at once
        focus = join_sentences((focus, _head_count_bound(query, ask)), query.language)
    power = "power" in (ask, *query.asks)  # then answered up front, not again among the topics
    # power and cost never appear in the verdict sentence; a passing network check neither
    kinds: tuple[str, ...] = ("power", "cost")
    if any(c.kind == "network" and c.verdict == "ok" for c in outcome.checks):
        kinds += ("network",)
    if query.followup and not query.changed_slots:  # "那网络呢?": that check, up front
        kinds = ("memory", "compute", "network", "power", "cost")
    # a money ask, first or later ("要多久、多少钱"), is answered up front: not again after
    if any(a in ("energy_cost", "cost", "gpu_hours") for a in (ask, *query.asks)):
        kinds = tuple(k for k in kinds if k not in ("power", "cost"))
    if power:
        kinds = tuple(k for k in kinds if k != "power")
    if "network" in (ask, *query.asks) and _network(query, outcome, scenario):
        kinds = tuple(k for k in kinds if k != "network")  # answered up front, not again
    # a figure the lead already gives is not repeated after it as a key-figures line: the
    # budget sentence states the cost, the duration answer the run time
    said = ("cost",) * (query.scenario.budget is not None) + ("compute",) * (ask == "duration")
    kinds = tuple(k for k in kinds if k not in said)
    if ask == "compare":  # the comparison names each option's figures; the checks under it
        kinds = ()  # are the first option's, so no single option's topic sentence up front
    extra = topic_sentences(query.topics, outcome.checks, query.language, kinds)
    body = _without_slow_stream(outcome, scenario, query) if interactive.sentence else outcome.lead
    lead = join_sentences((focus, body, changed_note(query), extra), query.language)
    return replace(outcome, lead=lead)


def _without_slow_stream(outcome: Outcome, scenario: Scenario, query: Query) -> str:
    """The plan's lead without its slow-stream sentence, when the interactive-count sentence
    already says each stream's speed and the bar (said once, not twice)."""
    slow = slow_stream(outcome.checks, scenario)
    if slow is None:
        return outcome.lead
    return re.sub(r" {2,}", " ", outcome.lead.replace(text(slow, query.language), "")).strip()


#: Asks answered by a deployment's speed: none is said first for a plan whose memory fails.
_SPEED_ASKS = ("throughput", "token_volume", "token_latency", "first_token", "request_rate")


def _head_count_bound(query: Query, ask: Ask) -> str:
    """ "公司200人用…要几张卡": the count is for everyone at once, an upper bound, said in the
    headline (the note below says why); "" when the load was stated as concurrent."""
    return head_count_bound(query) if ask in ("gpu_count", "feasibility") else ""


def head_count_bound(query: Query) -> str:
    """The headline's sentence that a head-count was evaluated as everyone at once (an upper
    bound), for any answer sized at that load (the model ladder too); "" when the load was
    stated as concurrent or no head-count was said."""
    from assistant.parse.audience import head_count_load
    from assistant.parse.numbers import normalize_numbers

    s = query.scenario
    if s.concurrency is None or s.concurrency < 2:
        return ""
    # the parse's own rule, on the text as the parse reads it ("三千人" is 3000人)
    if head_count_load(normalize_numbers(query.question.lower())) != s.concurrency:
        return ""
    return text(Msg("answer.head_count_bound", count=s.concurrency), query.language)


def _memory_fails(outcome: Outcome) -> bool:
    return any(c.kind == "memory" and c.verdict == "fail" for c in outcome.checks)


def _quantities(ask: Ask, focus: str, outcome: Outcome, query: Query) -> str:
    """`focus` with every other quantity asked after it ("要多久？电费多少？"), in the order asked,
    each said once: "how many GPU-hours, and how many days?" says the duration once, after
    the GPU-hours (a run quantity is always followed by how long it runs)."""
    scenario = outcome.scenario
    assert scenario is not None  # with_focus answers only evaluated scenarios
    took = ""
    if ask in _RUN_QUANTITIES and query.scenario.deadline_seconds is None:
        took = _duration(outcome, scenario, query)
    also = [_answer(a, outcome, scenario, query) for a in query.asks[1:]]
    said = dict.fromkeys(x for x in (focus, took, *also) if x)
    return join_sentences(tuple(said), query.language)


def _total(ask: Ask, outcome: Outcome, scenario: Scenario, query: Query) -> str:
    """ "总共要花多少钱": the total cost (rent + electricity) and its parts, for a money ask
    worded as a total (`asks_total`); "" otherwise, or with no part priced."""
    # a follow-up naming its own money ask ("那电费呢") asks that; "换成H100呢" keeps the total
    own = main_ask(replace(query, asks=(), followup=False)) != "feasibility"
    if ask not in ("cost", "energy_cost") or not asks_total(
        query.question if own else asked(query)
    ):
        return ""
    found = total_cost(outcome.checks, scenario)
    return text(found, query.language) if found is not None else ""


def _network(query: Query, outcome: Outcome, scenario: Scenario) -> str:
    """ "通信会成为瓶颈吗": the network check's answer, with the batch it assumed (the step's
    compute, and so the network's share, depends on it)."""
    lang = query.language
    batch = ""
    if query.scenario.batch_size is None and scenario.batch_size and scenario.context_length:
        said = Msg(
            "answer.bottleneck.batch", batch=scenario.batch_size, context=scenario.context_length
        )
        batch = text(said, lang)
    scaling = asks_about_scaling(query.question.lower())  # how much, not whether
    sentence = bottleneck_sentence(outcome.checks, scenario, lang, batch, scaling=scaling)
    return join_sentences((sentence, _past_a_year(query, outcome, scenario)), lang)


def _past_a_year(query: Query, outcome: Outcome, scenario: Scenario) -> str:
    """ "在 16 张 A800 上约需 13.9 年：超过一年，不现实。" after a network answer on a run that
    takes more than a year, no deadline stated: the network being no bottleneck does not make
    the job practical (the label says so too, `render.answer.is_impractical`)."""
    seconds = figure(outcome.checks, "compute", "seconds")
    if query.scenario.deadline_seconds is not None or scenario.task == "inference":
        return ""
    if "duration" in (main_ask(query), *query.asks):  # "要多久？网络…": the time is said once
        return ""
    if seconds is None or seconds <= PRACTICAL_SECONDS:
        return ""
    long = duration_message(outcome.checks, scenario)
    return text(long, query.language) if long is not None else ""


def _answer(ask: Ask, outcome: Outcome, scenario: Scenario, query: Query) -> str:
    """The sentence that answers one ask; "要多少电" is answered by the power check itself."""
    language = query.language
    if ask == "network":
        return _network(query, outcome, scenario)
    if ask == "power":
        return topic_sentences(("power",), outcome.checks, language, ("power",))
    if ask == "gpu_count" and asks_nodes(ask_wording(query)):  # "how many nodes": in nodes
        per_node = scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE
        count = needed_gpus(outcome.checks, per_node)
        nodes = node_count(count, per_node, scenario.gpu or "GPU") if count else None
        if nodes is not None:
            return text(nodes, language)
    if ask == "layout" and outcome.evaluation is not None:  # "what TP degree should I use"
        from assistant.calculate.layout_notes import layout_answer

        return text(layout_answer(outcome.evaluation.plan), language)
    if ask == "duration":
        return _duration(outcome, scenario, query)
    if ask == "cost" and re.search(PER_TOKEN_PRICE, ask_wording(query), re.IGNORECASE):
        per_token = token_price(outcome.checks, scenario)  # "cost per 1M output tokens"
        if per_token is not None:
            return text(per_token, language)
    return focus_sentence(ask, outcome.checks, scenario, language, query.scenario)


def _duration(outcome: Outcome, scenario: Scenario, query: Query) -> str:
    """How long the run takes, in the unit the question asked for ("Days to train…?")."""
    message = duration_message(outcome.checks, scenario)
    if message is None:
        return ""
    return text(in_asked_unit(message, ask_wording(query)), query.language)
