"""The money and energy answers of "要花多少钱", "多少GPU小时", "多少电费": the cost at the
stated price (or the price a budget covers), the GPU-hours at the evaluated MFU, the energy bill
and what it counts. Readers of `focus._ANSWERS`, imported when asked (this module imports
`focus.figure`).
"""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.calculate.serving_bills import load_said, serving_bill
from assistant.records import Check, Scenario
from calculators.messages import Msg

__all__ = [
    "break_even",
    "cost_answer",
    "energy_cost_answer",
    "gpu_hours_answer",
    "token_price",
    "with_energy_basis",
]


def break_even(budget: float, currency: str | None, hours: float) -> Msg:
    """A budget with no price per GPU-hour: the price up to which it covers `hours`."""
    return Msg(
        "answer.budget_break_even",
        budget=budget,
        currency=currency or "",
        hours=hours,
        price=budget / hours,
    )


def gpu_hours_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The run's GPU-hours ("how many H100 GPU-hours") at the MFU it was evaluated at."""
    hours = figure(checks, "cost", "gpu_hours") or figure(checks, "compute", "gpu_hours")
    mfu = figure(checks, "compute", "mfu")
    if not hours:
        return None
    stated = any(c.kind == "compute" and c.figures.get("mfu_stated") for c in checks)
    peak = (scenario.precision or "bf16").upper()  # the peak a stated MFU is measured against
    key = "answer.at_stated_mfu" if stated else "answer.at_mfu"
    at = Msg(key, mfu=mfu, precision=peak) if mfu else ""
    if scenario.task == "inference":  # serving: the rent over its period, no training MFU
        at = ""
    return Msg("answer.gpu_hours", hours=hours, gpu=scenario.gpu or "GPU", at=at)


def cost_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The run's cost at the stated price per GPU-hour (serving: the rent and a million
    tokens' price), else the price a stated budget covers, else the GPU-hours alone."""
    cost = figure(checks, "cost", "cost")
    hours = figure(checks, "cost", "gpu_hours")
    if cost is None and hours and scenario.budget:  # "50万预算够不够": the price it covers
        return break_even(scenario.budget, scenario.currency, hours)
    if cost is None:
        return Msg("answer.cost_hours", hours=hours) if hours else None
    per_million = figure(checks, "cost", "cost_per_million_tokens")
    if per_million is not None:  # serving: the rent and what a million generated tokens cost
        return _serving_cost(checks, scenario, cost, hours or 0.0, per_million)
    return Msg("answer.cost", cost=cost, currency=scenario.currency or "", hours=hours or 0)


def _serving_cost(
    checks: tuple[Check, ...], scenario: Scenario, cost: float, hours: float, per_million: float
) -> Msg:
    period = next((c.figures.get("period") for c in checks if c.kind == "cost"), None)
    per = Msg("summary.cost.per_hour_of_serving") if period == "one hour of serving" else ""
    rent = Msg("summary.cost.gpu_hour" if hours == 1 else "summary.cost.gpu_hours")
    return Msg(
        "answer.cost_serving",
        cost=cost,
        currency=scenario.currency or "",
        rent=Msg(rent.key, hours=hours, per=per),
        per_million=per_million,
        load=load_said(scenario),
    )


def token_price(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """ "About 0.24 USD per million generated tokens at 32 concurrent sequences (2.00 USD per
    hour of serving)": the per-token price asked first; None when serving was not costed."""
    per_million = figure(checks, "cost", "cost_per_million_tokens")
    cost = figure(checks, "cost", "cost")
    period = next((c.figures.get("period") for c in checks if c.kind == "cost"), None)
    if per_million is None or cost is None or period != "one hour of serving":
        return None  # a stated period ("for a month") keeps its total first
    return Msg(
        "answer.cost_per_million_first",
        per_million=per_million,
        cost=cost,
        currency=scenario.currency or "",
        load=load_said(scenario),
    )


def energy_cost_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The run's energy and, at a stated price per kWh, its bill, with what it counts."""
    kwh = figure(checks, "power", "kwh") or figure(checks, "power", "kwh_per_hour")
    per_hour = figure(checks, "power", "kwh_per_hour")
    if per_hour is not None and scenario.task == "inference" and scenario.deadline_seconds:
        kwh = per_hour * scenario.deadline_seconds / 3600  # serving over the stated "一天"
    if kwh is None:
        return None
    if scenario.price_per_kwh is None:
        return with_energy_basis(Msg("answer.energy", kwh=kwh), checks, scenario, kwh)
    per_million = figure(checks, "power", "kwh_per_million_tokens")
    if per_million is not None and scenario.task == "inference" and kwh == per_hour:
        return with_energy_basis(serving_bill(scenario, kwh, per_million), checks, scenario, kwh)
    bill = Msg(
        "answer.energy_cost",
        kwh=kwh,
        cost=kwh * scenario.price_per_kwh,
        currency=scenario.currency or "",
        price=scenario.price_per_kwh,
    )
    return with_energy_basis(bill, checks, scenario, kwh)


def with_energy_basis(bill: Msg, checks: tuple[Check, ...], scenario: Scenario, kwh: float) -> Msg:
    """The bill and what it counts: the GPUs' own share at full load, then the host and the
    facility's PUE (a data-centre average unless stated), which a desk-side box may not pay."""
    gpu_j = figure(checks, "power", "gpu_energy_joules")
    total_j = figure(checks, "power", "energy_joules")
    host_j = figure(checks, "power", "host_energy_joules")
    if not (gpu_j and total_j and host_j is not None):
        return bill
    key = "answer.energy_basis_stated" if scenario.pue is not None else "answer.energy_basis"
    if scenario.pue is None and total_j == gpu_j + host_j:  # no facility overhead: a desk box
        key = "answer.energy_basis_office"
    basis = Msg(key, gpu_kwh=kwh * gpu_j / total_j, pue=total_j / (gpu_j + host_j))
    return Msg("answer.energy_with_basis", bill=bill, basis=basis)
