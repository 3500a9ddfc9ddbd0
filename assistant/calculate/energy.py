"""Electricity (or rent) of hardware running for a stated time, with no job named:
"1024张H800跑30天电费多少", "the electricity bill for 64 H100 running for a week at $0.12 per
kWh", "H800每卡时12元，8卡跑一个月多少钱".

No model is needed: the GPUs draw their datasheet TDP (full load, an upper bound) plus the host's
share, times the facility's PUE (:func:`calculators.energy`). The figure is the answer; there is
no job to give a verdict on.

Examples:
    >>> from assistant.parse import parse
    >>> check, count = hardware_energy(parse("8张A100满载一个月要多少电"))
    >>> count, round(check.figures["kwh"])  # 8 x (400 + 237) W x 720 h x 1.58
    (8, 5797)
    >>> check, _ = hardware_energy(parse("8卡A100服务器整机功耗多少，配多大UPS"))
    >>> round(check.figures["average_power_watts"])  # 8 x (400 + 237) W at the socket, no PUE
    5096
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.daily_use import running_seconds
from assistant.calculate.focus import main_ask
from assistant.calculate.lead import with_focus
from assistant.i18n import join_sentences, text
from assistant.parse.ask_qualifiers import asks_rent_and_power
from assistant.parse.asks import asks_total
from assistant.records import Ask, Check, Language, Query, Scenario, SiteProfile
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg
from calculators.power import energy_cost

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["energy_ask", "energy_outcome", "hardware_energy", "hardware_rental"]


_HOUR = 3600.0
#: "每小时多少钱", "how much per hour", "hourly cost": the rent of one hour when no time is stated.
_PER_HOUR = re.compile(
    r"每(?:个)?小时|一小时|每钟头|per hour|an hour\b|hourly",
    re.IGNORECASE,
)

#: The machine's own draw asked ("整机功耗", "配多大的UPS", "电源够不够", "power supply"): what a
#: UPS or a PSU is sized for is the draw at the socket, before the site's cooling (PUE).
_AT_SOCKET = re.compile(
    r"整机|单机功耗|ups|电源|psu|插座|power supply|at the (?:socket|wall)|"
    # "一台多少瓦", "每台服务器功率多大", "how many watts does one server draw": one machine's draw
    r"(?:一|每|单)台(?:服务器|机器|主机)?(?:的)?(?:功率|功耗)?\s*(?:多少|几|多大)\s*(?:瓦|千瓦|w|kw|功率)?|"
    r"(?:服务器|机器|主机)(?:的)?(?:功率|功耗)|"
    r"how many (?:watts|kw|kilowatts) (?:does|do|will|would) (?:one|a|the|each|this|that) "
    r"(?:[\w×-]+ ){0,3}?(?:server|node|box|machine)|"
    r"(?:per|each|one) (?:server|node|box|machine)'?s? (?:power|draw)",
    re.IGNORECASE,
)


def _power_assumed(said: tuple[Msg, ...], at_socket: bool, lang: Language) -> tuple[str, ...]:
    """The energy estimate's assumptions; at the socket, the site-PUE one says why none counts."""
    from calculators import DEFAULT_PUE

    if not at_socket:
        return tuple(text(m, lang) for m in said)
    socket = Msg("assume.power.at_socket", average=DEFAULT_PUE)
    return tuple(text(socket if m.key == "assume.power.pue" else m, lang) for m in said)


def _stated_count(s: Scenario) -> int:
    """The GPUs the question states: a total, or nodes x GPUs per node; "一台8卡服务器" (GPUs
    per node and no node count) is one node; "a 4-node H100 cluster" (nodes, no GPUs per node)
    is nodes of the usual 8 GPUs, as a job on it is evaluated (:func:`_count_assumed`)."""
    if s.gpu_count:
        return int(s.gpu_count)
    if s.gpus_per_node or s.nodes:
        return int((s.nodes or 1) * (s.gpus_per_node or DEFAULT_GPUS_PER_NODE))
    return 0


def _count_assumed(s: Scenario, lang: Language) -> tuple[str, ...]:
    """The note on the GPUs per node a count of nodes was read with, when none was stated."""
    if s.gpu_count or s.gpus_per_node or not s.nodes:
        return ()
    return (text(Msg("default.per_node", per_node=DEFAULT_GPUS_PER_NODE), lang),)


def hardware_energy(query: Query) -> tuple[Check, int] | None:
    """The power check of the stated GPUs over the stated time, and the GPU count; None unless
    the question asks for energy or its cost and states a GPU, a count and a duration."""
    from calculators import DEFAULT_PUE, energy
    from calculators.catalog.hardware import lookup_gpu
    from calculators.planner.host import desk_box

    s = query.scenario
    count = _stated_count(s)
    ask = energy_ask(query)
    if ask not in ("energy_cost", "power") or not (s.gpu and count):
        return None
    # "8卡A100服务器满载功率多少": a power needs no duration; its energy is for one hour
    seconds = s.deadline_seconds or (_HOUR if ask == "power" else None)
    if not seconds:
        return None
    lang = query.language
    gpu = lookup_gpu(s.gpu)
    # consumer cards sit in a desk-side box (its own host); "PUE 1.2" is the room it stands in,
    # applied on top of that box, never a switch to a data-centre server's host
    box = desk_box(gpu, count)
    at_socket = ask == "power" and bool(_AT_SOCKET.search(query.question))
    pue = s.pue if s.pue is not None or box else 1.0 if at_socket else DEFAULT_PUE
    span, seconds = seconds, running_seconds(s, seconds)  # "每天用6小时": those hours of each day
    est = energy(
        gpus=count, tdp_watts=gpu.tdp_watts, seconds=seconds, pue=pue, box=box, gpus_per_box=count
    )
    hardware = Msg("common.gpus", count=count, gpu=gpu.name)
    summary = Msg(
        # with a facility PUE the draw is the site's, not the machines' at their socket
        "answer.hardware_energy" if box is not None or pue == 1 else "answer.hardware_energy_site",
        hardware=hardware,
        seconds=est.seconds,
        kw=est.average_power_watts / 1000,
        kwh=est.kwh,
    )
    check = Check(
        kind="power",
        verdict="ok",
        summary=_with_daily_use(text(summary, lang), s, span, lang),
        figures={
            "kwh": est.kwh,
            "energy_joules": est.energy_joules,
            "average_power_watts": est.average_power_watts,
            "gpu_energy_joules": est.gpu_energy_joules,
            "host_energy_joules": est.host_energy_joules,
            "facility_overhead_joules": est.facility_overhead_joules,
            "seconds": est.seconds,
            # the bill at a stated price per kWh ("电费0.65元一度"), as the planner's check has it
            **(
                {
                    "price_per_kwh": s.price_per_kwh,
                    "energy_cost": energy_cost(kwh=est.kwh, price_per_kwh=s.price_per_kwh),
                }
                if s.price_per_kwh is not None
                else {}
            ),
        },
        formula=text(est.formula, lang),
        inputs=dict(est.inputs),
        assumptions=(*_power_assumed(est.assumptions, at_socket, lang), *_count_assumed(s, lang)),
        sources=est.sources,
    )
    return check, count


def energy_ask(query: Query) -> Ask:
    """What an energy question with no job asks: "8张H100跑一个月多少钱" with no price of any
    kind is answered with the energy it uses (the bill of cards one owns is electricity; the
    GPU-hours of renting them are said after), never a concept fallback."""
    s = query.scenario
    ask = main_ask(query)
    unpriced = s.price_per_gpu_hour is None and s.budget is None and s.price_per_kwh is None
    return "energy_cost" if ask == "cost" and unpriced else ask


def hardware_rental(query: Query) -> tuple[Check, int] | None:
    """The rent of the stated GPUs over the stated time at the stated price per GPU-hour (GPU
    count x hours x price, :func:`calculators.cost`), and the count; None unless the question
    asks what it costs and states a count, a duration and a price."""
    from assistant.calculate.summaries import currency_words
    from calculators import cost

    s = query.scenario
    count = _stated_count(s)
    price = s.price_per_gpu_hour
    asked_hourly = _PER_HOUR.search(_without_price(query.question))
    seconds = s.deadline_seconds or (_HOUR if asked_hourly else None)
    if main_ask(query) != "cost" or not (count and seconds and price):
        return None
    hours = count * running_seconds(s, seconds) / 3600  # at "6 hours a day", those hours are rented
    value = cost(gpu_hours=hours, price_per_gpu_hour=price)
    code = (s.currency or "CNY").upper()
    currency = currency_words(code)
    hardware = Msg("common.gpus", count=count, gpu=s.gpu or "GPU")
    summary = Msg(
        "answer.hardware_rental",
        hardware=hardware,
        seconds=seconds,
        hours=hours,
        cost=value,
        currency=currency,
    )
    lang = query.language
    check = Check(
        kind="cost",
        verdict="ok",
        summary=_with_daily_use(text(summary, lang), s, seconds, lang),
        figures={
            "cost": value,
            "gpu_hours": hours,
            "currency": code,
            "seconds": seconds,
        },
        formula=text(Msg("formula.cost.gpu_hours"), lang),
        inputs={"price_per_gpu_hour": price, "gpu_hours": hours},
        assumptions=(text(Msg("assume.cost.user_price"), lang), *_count_assumed(s, lang)),
    )
    return check, count


def _with_daily_use(said: str, s: Scenario, span: float, lang: Language) -> str:
    """`said`, and how the stated hours a day were counted over the span."""
    running = running_seconds(s, span)
    if running == span:
        return said
    note = Msg("answer.hours_a_day", hours=s.hours_per_day, running=running, span=span)
    return join_sentences([said, text(note, lang)], lang)


def _without_price(question: str) -> str:
    """The question without its price per GPU-hour ("每卡时2.49美元", "$2.49/GPU-hour"): that
    hour is the price's unit, not the period asked about."""
    return re.sub(
        r"每卡(?:每)?(?:小)?时|per gpu[- ]hour|/\s*gpu[- ]?(?:hour|hr|h)\b|gpu[- ]hours?",
        " ",
        question,
        flags=re.IGNORECASE,
    )


def _on_site(query: Query, site: SiteProfile | None) -> tuple[Query, tuple[str, ...]]:
    """ "吉林GPU服务器一个月电费多少": the named site's GPUs, counts and PUE (what the question
    states wins), and the note saying the hardware came from its profile."""
    if site is None:
        return query, ()
    from assistant.calculate.defaults import site_hardware

    s, notes = site_hardware(query.scenario, site, query.language)
    if s.pue is None and site.pue is not None:
        s = replace(s, pue=site.pue)
    return replace(query, scenario=s), notes


def _stated_checks(query: Query) -> tuple[tuple[Check, ...], int] | None:
    """The checks of the stated hardware over the stated time, and the GPU count: for a total
    asked ("总共多少钱", `asks_total`) the rent and the energy both (the sum needs each part),
    else the one asked (:func:`hardware_energy` or :func:`hardware_rental`)."""
    if asks_total(query.question) or asks_rent_and_power(query.question):
        rental = hardware_rental(replace(query, asks=("cost",)))
        energy = hardware_energy(replace(query, asks=("energy_cost",)))
        parts = [found for found in (rental, energy) if found is not None]
        if parts:
            return tuple(c for c, _ in parts), parts[0][1]
    found = hardware_energy(query) or hardware_rental(query)
    return None if found is None else ((found[0],), found[1])


def energy_outcome(query: Query, site: SiteProfile | None = None) -> Outcome | None:
    """The answer for :func:`hardware_energy` (or :func:`hardware_rental`): its figures first,
    no verdict (an estimate). A named `site` gives the hardware the question leaves open."""
    from assistant.calculate.outcome import Outcome

    query, site_notes = _on_site(query, site)
    found = _stated_checks(query)
    if found is None:
        return None
    checks, count = found
    scenario = replace(query.scenario, gpu_count=count, task=None)
    notes = tuple(dict.fromkeys((*site_notes, *(a for c in checks for a in c.assumptions))))
    outcome = Outcome(
        verdict="unknown", lead="", scenario=scenario, checks=checks, assumptions=notes
    )
    ask = energy_ask(query)
    outcome = with_focus(query, outcome, ask)
    rent = ""
    if ask != main_ask(query) and scenario.deadline_seconds:  # "多少钱" with no price at all
        hours = count * scenario.deadline_seconds / _HOUR
        rent = text(Msg("answer.hardware_hours_no_price", hours=hours), query.language)
    # "要多少电": a sentence the answer already is is not said again
    said = [c.summary for c in checks if c.summary not in outcome.lead]
    lead = join_sentences((outcome.lead, *said, rent), query.language)
    return replace(outcome, lead=lead)
