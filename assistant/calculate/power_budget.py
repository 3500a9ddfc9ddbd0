"""How many GPUs (or whole servers) a stated power budget feeds: "our DC has 10 MW, how many
H100s can we power?", "机房只有200kW供电，最多能放多少张H800", "a 30 kW rack: how many 8x H100
servers?".

Each GPU draws its TDP plus its share of the host at the socket (:func:`calculators.
gpus_within_power`); a facility's budget (a data centre, a machine room) also pays for cooling
and power delivery, so that draw is multiplied by the PUE (stated, else the industry average,
said). A rack's or IT budget is at the socket. The count is the answer: no job, no verdict.

Examples:
    >>> from assistant.parse import parse
    >>> room = power_budget_outcome(parse("机房只有200kW供电，最多能放多少张H800"))
    >>> room.checks[0].figures["gpus"]  # 200 kW / ((700 + 237) W x PUE 1.58)
    135
    >>> rack = power_budget_outcome(parse("a 30 kW rack: how many 8x H100 servers?"))
    >>> rack.checks[0].figures["servers"]  # 30 kW / (8 x 937 W), at the socket
    4
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import join_sentences, text
from assistant.parse.power_budget import power_scope, servers_asked
from assistant.records import Check, Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome
    from calculators import PowerBudget

__all__ = ["power_budget_outcome"]


def power_budget_outcome(query: Query) -> Outcome | None:
    """The GPUs (or servers) the stated power feeds, as an estimate with its check; None unless
    the question states a power budget and a card, and no job (a model or a size)."""
    from assistant.calculate.energy import energy_ask
    from assistant.calculate.outcome import Outcome
    from calculators import DEFAULT_PUE, gpus_within_power
    from calculators.catalog.hardware import lookup_gpu

    s = query.scenario
    if s.power_budget_watts is None or s.gpu is None or s.model or s.params:
        return None
    if s.deadline_seconds or energy_ask(query) == "energy_cost":
        return None  # "a 10 kW rack: 8 H100 a month, how much electricity?": the energy asked
    gpu = lookup_gpu(s.gpu)
    # a follow-up ("what about B200?") keeps whose power it is from the thread's question
    said_scope = power_scope(query.question) or power_scope(query.context)
    scope = "facility" if s.pue is not None else said_scope
    pue = s.pue if s.pue is not None else DEFAULT_PUE if scope == "facility" else 1.0
    per_server = _per_server(query)
    found = gpus_within_power(
        budget_watts=s.power_budget_watts,
        tdp_watts=gpu.tdp_watts,
        pue=pue,
        gpus_per_server=per_server,
    )
    said = _said(query, found, gpu.name, gpu.tdp_watts)
    notes = (*_assumed(query, found, scope, per_server), *_count_notes(s, per_server))
    check = _check(query, found, said, notes)
    stated = s.gpu_count if per_server is None else None  # "can 30 kW power 40 H100s?"
    if stated:
        return _stated_count(query, check, stated, found, gpu.name)
    scenario = replace(s, gpu=gpu.name, gpu_count=found.gpus, task=None)
    outcome = Outcome(
        verdict="unknown",
        lead=said,
        scenario=scenario,
        checks=(check,),
        assumptions=check.assumptions,
    )
    return replace(outcome, focus=said)


def _check(query: Query, found: PowerBudget, said: str, notes: tuple[Msg, ...]) -> Check:
    """The power check: the count, each GPU's draw, the formula and what was assumed."""
    lang = query.language
    return Check(
        kind="power",
        verdict="ok",
        summary=said,
        figures={
            "gpus": found.gpus,
            **({"servers": found.servers} if found.servers is not None else {}),
            "watts_per_gpu": found.watts_per_gpu,
            "facility_watts_per_gpu": found.facility_watts_per_gpu,
            "pue": found.pue,
            "budget_watts": found.budget_watts,
            "used_watts": found.used_watts,
        },
        formula=text(found.formula, lang),
        inputs=dict(found.inputs),
        assumptions=tuple(text(m, lang) for m in notes),
        sources=found.sources,
    )


def _stated_count(query: Query, check: Check, stated: int, found: PowerBudget, gpu: str) -> Outcome:
    """A stated count against what the power feeds: feasible when it fits, else infeasible
    (more power or fewer GPUs); the PUE at which it would fit is said for a facility's power."""
    from assistant.calculate.outcome import Outcome

    lang = query.language
    fits = stated <= found.gpus
    key = "answer.power_budget_holds" if fits else "answer.power_budget_short"
    lead = text(Msg(key, stated=stated, gpu=gpu, gpus=found.gpus), lang)
    notes = check.assumptions
    if found.pue > 1:  # the PUE it would take: budget / (stated x draw at the socket)
        limit = found.budget_watts / (stated * found.watts_per_gpu)
        notes = (*notes, text(Msg("assume.power.budget_pue_limit", pue=limit), lang))
    return Outcome(
        verdict="feasible" if fits else "infeasible",
        lead=lead,
        scenario=replace(query.scenario, gpu=gpu, task=None),
        binding=None if fits else "power",
        checks=(replace(check, verdict="ok" if fits else "fail"),),
        assumptions=notes,
        focus=lead,
    )


def _per_server(query: Query) -> int | None:
    """GPUs per server when whole servers are asked ("8x H100 servers", "8卡服务器"), else None."""
    if not (servers_asked(query.question) or servers_asked(query.context)):
        return None
    s = query.scenario
    return s.gpus_per_node or s.gpu_count or DEFAULT_GPUS_PER_NODE


def _said(query: Query, found: PowerBudget, gpu: str, tdp: float) -> str:
    """The count, then each GPU's draw (at the socket, and from the facility at its PUE)."""
    # the unit the size calls for: "10 MW", "200 kW" (symbols, the same in both languages)
    mega = found.budget_watts >= 1e6
    amount = found.budget_watts / (1e6 if mega else 1e3)
    unit = "MW" if mega else "kW"
    if found.gpus == 0:
        lead = Msg(
            "answer.power_budget_none",
            amount=amount,
            unit=unit,
            gpu=gpu,
            drawn=found.facility_watts_per_gpu,
        )
    elif found.servers is not None:
        per_server = found.gpus // max(found.servers, 1)
        lead = Msg(
            "answer.power_budget_servers",
            amount=amount,
            unit=unit,
            servers=found.servers,
            per_server=per_server,
            gpu=gpu,
            gpus=found.gpus,
        )
    else:
        lead = Msg("answer.power_budget_gpus", amount=amount, unit=unit, gpus=found.gpus, gpu=gpu)
    draw = Msg(
        "answer.power_budget_draw_site" if found.pue > 1 else "answer.power_budget_draw",
        socket=found.watts_per_gpu,
        tdp=tdp,
        host=found.watts_per_gpu - tdp,
        drawn=found.facility_watts_per_gpu,
        pue=found.pue,
    )
    lang = query.language
    return join_sentences((text(lead, lang), text(draw, lang)), lang)


def _assumed(
    query: Query, found: PowerBudget, scope: str | None, per_server: int | None
) -> list[Msg]:
    """Whose power it was read as (and the PUE), and what the per-GPU draw leaves out."""
    from calculators import DEFAULT_PUE, gpus_within_power

    s = query.scenario
    host = Msg("assume.power.host_overhead", watts=found.watts_per_gpu - found.inputs[1][1])
    if s.pue is not None:
        whose = Msg("assume.power.budget_site_stated", pue=s.pue)
    elif scope == "facility":
        whose = Msg("assume.power.budget_site", pue=found.pue)
    elif scope == "it":
        whose = Msg("assume.power.budget_it")
    else:  # not said: IT power, and the count if it is the facility's
        site = gpus_within_power(
            budget_watts=found.budget_watts,
            tdp_watts=found.inputs[1][1],
            pue=DEFAULT_PUE,
            gpus_per_server=per_server,
        )
        whose = Msg("assume.power.budget_unsaid", gpus=site.gpus, pue=DEFAULT_PUE)
    return [whose, host, Msg("assume.power.budget_nameplate")]


def _count_notes(s: Scenario, per_server: int | None) -> list[Msg]:
    """The GPUs per server, when servers were asked and the question gave none."""
    if per_server is None or s.gpus_per_node or s.gpu_count:
        return []
    return [Msg("assume.power.per_server", per_server=per_server)]
