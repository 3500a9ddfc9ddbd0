"""A total cost asked ("总共要花多少钱", "what's the total cost", "all-in cost"): the sum first,
then its parts.

The parts of a training run's cost are its GPU rent (GPU-hours × the stated price per GPU-hour,
as the cost check computes it: knowledge/guides/cost-sourcing, "cost = GPU-hours × your price")
and its electricity (the power check's kWh, host and facility PUE included, × the stated price
per kWh). A part whose price the question does not give is never guessed: the total is what can
be computed, and the sentence says what it leaves out, with the GPU-hours or kWh to price it.
Whether a rental price already includes power is the offer's to say (cost-sourcing: "whether the
price includes power, cooling…"), so the sum says so too. Serving is left to its own cost
sentence: its rent is per hour of serving and its energy per stated period.

Examples:
    >>> from assistant.records import Check
    >>> checks = (
    ...     Check("cost", "ok", "", {"cost": 1200.0, "gpu_hours": 100.0}),
    ...     Check("power", "ok", "", {"kwh": 150.0}),
    ... )
    >>> s = Scenario(task="pretrain", price_per_gpu_hour=12.0, price_per_kwh=0.8, currency="CNY")
    >>> from assistant.i18n import text
    >>> print(text(total_cost(checks, s), "en"))  # 1,200 rent + 150 kWh × 0.8
    In total about 1,320 CNY: GPU rent 1,200 CNY (100 GPU-hours × 12 CNY) + electricity 120 CNY \
(150 kWh × 0.8 CNY/kWh). If the rental price already includes power, the total is the rent alone.
    >>> total_cost(checks, Scenario(task="pretrain", price_per_gpu_hour=12.0)).key
    'answer.total_rent_only'
"""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.calculate.money_answers import with_energy_basis
from assistant.records import Check, Scenario
from calculators.messages import Msg

__all__ = ["total_cost"]


def total_cost(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The total of the run's rent and electricity with both parts, or the one part that can be
    computed and what is left out; None for serving or when neither part has a price."""
    if scenario.task == "inference":
        return None
    rent = figure(checks, "cost", "cost")
    hours = figure(checks, "cost", "gpu_hours") or figure(checks, "compute", "gpu_hours") or 0.0
    kwh = figure(checks, "power", "kwh")
    price = scenario.price_per_kwh
    energy = kwh * price if kwh is not None and price is not None else None
    currency = scenario.currency or ""
    if rent is not None and energy is not None:
        both = Msg(
            "answer.total_cost",
            total=rent + energy,
            rent=rent,
            hours=hours,
            gpu_price=scenario.price_per_gpu_hour or rent / max(hours, 1.0),
            energy=energy,
            kwh=kwh or 0.0,
            price=price or 0.0,
            currency=currency,
        )
        counted = with_energy_basis(both, checks, scenario, kwh or 0.0)  # what the kWh count
        return Msg("answer.total_with_note", total=counted, note=Msg("answer.total_power_note"))
    if rent is not None:
        left = Msg("answer.total_no_energy", kwh=kwh) if kwh else Msg("answer.total_no_power")
        return Msg("answer.total_rent_only", total=rent, hours=hours, currency=currency, left=left)
    if energy is not None:
        bill = Msg(
            "answer.total_energy_only",
            total=energy,
            kwh=kwh or 0.0,
            price=price or 0.0,
            hours=hours,
            currency=currency,
        )
        return with_energy_basis(bill, checks, scenario, kwh or 0.0)
    return None
