"""Question → :class:`~assistant.records.Query`: language, domain, typed scenario slots.

Order matters: catalog names (sites, GPUs, models) are found and masked on the cleaned,
lower-cased text first, so that "4090" or "通义千问" are never read as numbers; then Chinese
numerals and English number words are rewritten as digits and the slots are read. The stages
have their own modules: `language` (zh or en), `mentions` (names found and masked) and
`scenario` (the slots and the notes on them); this one runs them and reads a follow-up.

Examples:
    >>> q = parse("两台8卡训练千亿模型, 三个月内")
    >>> q.language, q.scenario.nodes, q.scenario.gpus_per_node, q.scenario.gpu_count
    ('zh', 2, 8, 16)
    >>> q.scenario.params, q.scenario.deadline_seconds / 86400
    (100000000000.0, 90.0)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from assistant.parse import slots
from assistant.parse.asks import asks_sync_time, implied_task, narrowed, read_asks
from assistant.parse.bounds import refuse_nonsense
from assistant.parse.domain import classify
from assistant.parse.followup import added_counts, as_followup, bare_count, merge_followup
from assistant.parse.job_options import job_options
from assistant.parse.language import detect_language, says_no_language
from assistant.parse.mentions import find_mentions
from assistant.parse.numbers import clean_text
from assistant.parse.options import hardware_options
from assistant.parse.relative_counts import unapplied_change
from assistant.parse.scenario import (
    compared_counts,
    option_precisions,
    parse_note,
    scenario_slots,
    training_framework,
)
from assistant.parse.stated import without_stated
from assistant.parse.thread import job_behind, keep_thread
from assistant.records import Ask, Language, Query, Scenario, SiteProfile
from calculators.messages import Msg

__all__ = [
    "MAX_QUESTION_CHARS",
    "detect_language",
    "mentioned_gpus",
    "merge_followup",
    "parse",
]

#: Longer pastes are cut (and the answer says so): slot patterns are linear but the answer is not
#: helped by 100 KB of text.
MAX_QUESTION_CHARS = 4000


def mentioned_gpus(question: str) -> tuple[str, ...]:
    """Every catalog GPU the question names, in order ("H100 和 A100 有什么区别")."""
    return find_mentions(clean_text(question)[:MAX_QUESTION_CHARS], ()).gpus


def parse(
    question: str,
    *,
    sites: Iterable[SiteProfile] = (),
    previous: Scenario | Query | None = None,
    language: Language | None = None,
) -> Query:
    """Read the typed scenario out of a question (Chinese or English).

    Args:
        question: The user's text, as typed.
        sites: Site profiles whose aliases ("吉林", "Jilin") resolve to a profile id.
        previous: The previous turn's query or scenario; a follow-up ("那用H100呢?") changes only
            the slots it names.
        language: Force the language; None detects it from the text.

    Returns:
        The parsed :class:`Query`; `in_domain` is False when the text is not about GPUs and models.
    """
    warnings: list[str] = []
    sites = tuple(sites)  # read twice: aliases, and the node count "再加一台" adds to
    cleaned = clean_text(question)
    lang: Language = language or detect_language(cleaned)
    if len(cleaned) > MAX_QUESTION_CHARS:
        cleaned = cleaned[:MAX_QUESTION_CHARS]
        warnings.append(parse_note(Msg("parse.question_cut", limit=MAX_QUESTION_CHARS), lang))
    mentions = find_mentions(cleaned, sites)
    refuse_nonsense(cleaned.lower(), mentions.text, {})
    comparing = "compare" in read_asks(mentions.text)
    found, slot_warnings = scenario_slots(mentions, lang, comparing=comparing)
    refuse_nonsense("", "", found)
    text = mentions.text
    has_job = bool({"model", "params"} & found.keys())
    evidence = classify(
        text,
        named_job=has_job,
        # a card given by its memory ("8张48GB的卡") is hardware as a named card is, and so is a
        # site ("今天吉林天气怎么样" names the site's alias, but asks of the weather)
        named_hardware=mentions.names_hardware
        or "gpu_memory_bytes" in found
        or bool(mentions.site),
    )
    before = previous.scenario if isinstance(previous, Query) else previous
    thread_job = before is not None and (before.model is not None or before.params is not None)
    asks = _refine_asks(read_asks(text, has_job=has_job, thread_job=thread_job), found, text)
    own = _own_asks(text, asks, found, has_job=has_job, thread_job=thread_job) if before else asks
    if "gpu_hours" in found and "task" not in found:
        found["task"] = "pretrain"  # GPU-hours a run took are a training run's, read as "训练"
    if has_job and "task" not in found and "network" in asks and asks_sync_time(text):
        found["task"] = "pretrain"  # "how long does a gradient all-reduce take for a 7B": training
    if has_job and "task" not in found and implied_task(asks):
        found["task"] = implied_task(asks)  # "What's the KV cache of Mixtral at 32k?": serving
    options = hardware_options(text, mentions.gpu_sequence) if "compare" in asks else ()
    if not options:  # "ZeRO-2 vs ZeRO-3", "LoRA和全参微调": a job setting set against another
        options = job_options(text)
    slot_warnings = compared_counts(options, slot_warnings, text, lang)
    base = Query(
        question=cleaned,
        language=lang,
        scenario=Scenario(**found),  # type: ignore[arg-type]
        in_domain=evidence.in_domain,
        topics=slots.read_topics(text),
        warnings=tuple(warnings + slot_warnings),
        asks=asks,
        options=tuple(Scenario(**o) for o in option_precisions(mentions, found, options)),  # type: ignore[arg-type]
        unknown_names=mentions.unknown,
    )
    offtopic = bool(evidence.elsewhere or evidence.drafting)
    query = _with_previous(
        base, found, previous, text=text, offtopic=offtopic, sites=sites, own_asks=own
    )
    # "ok, and how much would it save for 7B?" after "What is ZeRO stage 2?": the ZeRO it means
    framework = training_framework(text) or (
        training_framework(query.context.lower()) if query.followup else None
    )
    return _framework_task(query, framework)


def _framework_task(query: Query, framework: str | None) -> Query:
    """ "ZeRO-3 over 10GbE for 70B": a training-only framework with no task word (and none
    kept from the turn before) is a training job, pre-training as a bare "训练" / "train" is
    read; the answer says so. "ZeRO-3 是什么?" names no job: a concept, no task."""
    s = query.scenario
    if framework is None or s.task is not None or (s.model is None and s.params is None):
        return query
    note = parse_note(Msg("parse.training_framework", name=framework), query.language)
    return replace(query, scenario=replace(s, task="pretrain"), warnings=(*query.warnings, note))


def _with_previous(
    base: Query,
    found: Mapping[str, object],
    previous: Scenario | Query | None,
    *,
    text: str,
    offtopic: bool,
    sites: tuple[SiteProfile, ...],
    own_asks: tuple[Ask, ...],
) -> Query:
    """`base`, or `base` as a follow-up of `previous` (assistant.parse.followup decides);
    `text` is the masked, normalised question the counts are read from, `own_asks` what it
    asks besides the slots it sets."""
    if isinstance(previous, Query) and not previous.in_domain and previous.thread is not None:
        previous = previous.thread  # an off-topic turn in between keeps the thread
    nodes = {s.id: s.nodes for s in sites}
    if isinstance(previous, Query) and previous.thread is not None:  # a concept turn between
        counts = bare_count(text) is not None or bool(added_counts(text, previous.thread, nodes))
        previous = job_behind(previous, base, found, counts=counts)
    added = added_counts(text, previous, nodes)
    followup = as_followup(
        base,
        found,
        previous,
        offtopic=offtopic,
        bare=bare_count(text),
        added=added,
        own_asks=own_asks,
        unapplied=unapplied_change(text, previous, nodes),
    )
    if followup and isinstance(previous, Query) and says_no_language(base.question):
        return replace(followup, language=previous.language)  # "4-bit?" after a Chinese turn
    if followup is None and not base.in_domain and isinstance(previous, Query):
        return replace(base, thread=previous if previous.in_domain else previous.thread)
    return keep_thread(followup or base, previous)


def _own_asks(
    text: str,
    asks: tuple[Ask, ...],
    found: Mapping[str, object],
    *,
    has_job: bool,
    thread_job: bool,
) -> tuple[Ask, ...]:
    """What a possible follow-up asks besides the words that set its slots: "那KV cache用FP8呢"
    sets the KV format and asks nothing (the turn before's kind carries); "KV cache用FP8的话每路
    占多少显存" asks for the KV cache (assistant.parse.stated)."""
    unstated = without_stated(text)
    own = read_asks(unstated, has_job=has_job, thread_job=thread_job)
    return narrowed(_refine_asks(own, found, unstated), asks)


#: "钱够吗", "can we afford it": whether the money covers the run.
_MONEY_ENOUGH = re.compile(
    r"钱(?:够|不够)|(?:money|budget|funds?) (?:be |is )?enough|enough (?:money|budget|funds?)|"
    r"\bafford"
)


#: An amount of energy asked ("耗电多少", "how much energy"), not a power draw ("功率多少").
_ENERGY_WORDS = re.compile(r"耗电|用电|多少电|多少度|能耗|\benergy\b|\bkwh\b", re.IGNORECASE)


def _refine_asks(asks: tuple[Ask, ...], found: Mapping[str, object], text: str) -> tuple[Ask, ...]:
    """ "$0.12 per kWh, what does it cost?" asks for the energy cost, not the GPU-hour cost; an
    electricity price with no job and no question word asks for the bill too.
    "8张H100训练7B，钱够吗" with no budget asks for what the run costs (no money was given to
    judge); with a budget it stays a yes/no whose headline is the budget sentence. GPU-hours
    asked with a price per GPU-hour given ("…and what's that at $2/hr?") ask for the cost too."""
    if "cost" in asks and "price_per_kwh" in found and "price_per_gpu_hour" not in found:
        asks = tuple("energy_cost" if a == "cost" else a for a in asks if a != "energy_cost")
    if "power" in asks and "price_per_kwh" in found and _ENERGY_WORDS.search(text):
        # "每百万token耗电多少，电价0.8元/度": the energy, priced: the bill gives both
        asks = tuple("energy_cost" if a == "power" else a for a in asks if a != "energy_cost")
    if not asks and "price_per_kwh" in found and not {"model", "params"} & found.keys():
        asks = ("energy_cost",)  # "8x 4090 flat out for a month, electricity at $0.15/kWh"
    if found.get("budget") is None and "cost" not in asks and _MONEY_ENOUGH.search(text):
        asks = ("cost", *asks)
    if "request_rate" in asks and "target_qps" in found:  # "QPS 10 …需要几张": a target
        asks = tuple(a for a in asks if a != "request_rate")
    if "gpu_hours" in asks and "cost" not in asks and "price_per_gpu_hour" in found:
        asks = (*asks, "cost")  # "how many GPU-hours, and what's that at $2/hr?": priced too
    return asks
