"""What serving costs in words: the load a rate is at, and an electricity bill per hour of
serving and per million generated tokens (all GPUs' power over all their tokens at the load
evaluated: `calculators.planner.checks`, figure `kwh_per_million_tokens`)."""

from __future__ import annotations

from assistant.records import Scenario
from calculators.messages import Msg

__all__ = ["load_said", "serving_bill"]


def serving_bill(scenario: Scenario, kwh: float, per_million: float) -> Msg:
    """Serving with no period stated: an hour's bill and a million generated tokens' (the
    power of all GPUs over all their tokens at the load evaluated), the load named."""
    price = scenario.price_per_kwh or 0.0
    return Msg(
        "answer.energy_cost_serving",
        kwh=kwh,
        price=price,
        cost=kwh * price,
        currency=scenario.currency or "",
        kwh_million=per_million,
        cost_million=per_million * price,
        load=load_said(scenario),
    )


def load_said(scenario: Scenario) -> Msg:
    """ "for one sequence at a time" or "at 103 concurrent sequences": the load a rate is at."""
    sequences = scenario.batch_size or 1
    return Msg("answer.load.many", sequences=sequences) if sequences > 1 else Msg("answer.load.one")
