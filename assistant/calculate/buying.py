"""A stated purchase price: how many servers or cards the budget buys, or what a count costs.

"一台8卡H20服务器报价120万，预算500万能买几台" divides the budget by the price (whole servers,
rounded down: 4 台 = 32 张 H20, 200,000 元 left); with a job too ("…能部署Llama-3-70B吗") the job
is judged on the cards the money buys, that count said first; with a count and no budget
("H100每张卡25万，买8张多少钱") the answer is the purchase cost. The price is the user's quote
(`Scenario.purchase_price`), never a rent price per GPU-hour.

Examples:
    >>> from assistant.parse import parse
    >>> bought(parse("一台8卡H20服务器报价120万，预算500万能买几台")).lead
    '5,000,000 元 按每台 1,200,000 元 可买 4 台（32 张 H20 96GB），剩余 200,000 元。'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from assistant.calculate.asked_unit import in_asked_unit
from assistant.calculate.daily_use import daily_share
from assistant.calculate.scope import ask_wording
from assistant.i18n import text
from assistant.records import Check, Query, Scenario
from calculators import purchase_cost, units_bought
from calculators.catalog.hardware import lookup_gpu
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg, Param

__all__ = ["Bought", "bought"]


@dataclass(frozen=True)
class Bought:
    """What the stated purchase price gives: the sentence said first, its check, and the
    scenario with the GPU count the money buys (the stated one when no budget is given)."""

    lead: str
    check: Check
    scenario: Scenario
    units: int
    """Servers or cards bought (or costed); 0 when the budget buys not one."""


def bought(query: Query) -> Bought | None:
    """The purchase the question states, or None when it states no purchase price (or neither a
    budget nor a count to apply it to)."""
    s = query.scenario
    if s.purchase_price is None:
        if s.price_per_gpu_hour is not None and s.gpu_count and _rent_or_buy_asked(query):
            return _rent_without_price(query, s.gpu_count, s.price_per_gpu_hour)
        return None
    if s.price_per_gpu_hour is not None and s.gpu_count:  # "rent at $2.5/GPU-hr, or buy a box?"
        return _rent_or_buy(query, s.gpu_count, s.purchase_price, s.price_per_gpu_hour)
    money = _money(query)
    if money is not None:
        return _with_budget(query, money, s.purchase_price)
    units = _stated_units(s)
    return _cost(query, units, s.purchase_price) if units else None


def _money(query: Query) -> float | None:
    """The money to buy with: a purchase budget, or a budget. Both are set only after a
    follow-up ("那预算改成800万呢" sets `budget` beside the purchase budget carried over): the one
    the latest turn stated wins, else the later `budget`."""
    s = query.scenario
    if "purchase_budget" in query.changed_slots and s.purchase_budget is not None:
        return s.purchase_budget
    return s.budget if s.budget is not None else s.purchase_budget


def _per_unit(s: Scenario) -> int | None:
    """Cards in one unit bought: one card, or a server's cards (None when no card is named)."""
    if s.purchase_unit == "gpu":
        return 1
    return s.gpus_per_node or (DEFAULT_GPUS_PER_NODE if s.gpu else None)


def _said(s: Scenario, price: float) -> dict[str, Param]:
    return {"price": price, "currency": s.currency or "CNY", "gpu": _gpu(s)}


def _cards_of(s: Scenario, cards: int | None) -> Msg | str:
    if not cards or not s.gpu or s.purchase_unit == "gpu":
        return ""
    return Msg("answer.buy_cards_of", hardware=Msg("common.gpus", count=cards, gpu=_gpu(s)))


def _gpu(s: Scenario) -> str:
    return lookup_gpu(s.gpu).name if s.gpu else "GPU"


def _with_budget(query: Query, money: float, price: float) -> Bought:
    s = query.scenario
    units, left = units_bought(budget=money, unit_price=price)
    per_unit = _per_unit(s)
    cards = units * per_unit if per_unit else None
    node = s.purchase_unit != "gpu"
    said = _said(s, price) | {"budget": money, "units": units, "left": left}
    if units == 0:
        key = "answer.buy_none_node" if node else "answer.buy_none_gpu"
        msg = Msg(key, short=price - money, **said)
    else:
        key = "answer.buy_gpus" if not node else "answer.buy_nodes"
        key = "answer.buy_nodes_one" if node and units == 1 else key
        msg = Msg(key, cards=_cards_of(s, cards), **said)
    counted = s
    if units and cards:
        nodes = units if node else None
        counted = replace(s, gpu_count=cards, nodes=nodes, gpus_per_node=per_unit if node else None)
    figures: dict[str, float | str] = {"units": units, "left": left, "cost": units * price}
    if cards:
        figures["gpus"] = cards
    check = _check(query, msg, figures, "formula.units_bought", {"budget": money, "price": price})
    return Bought(check.summary, check, counted, units)


def _stated_units(s: Scenario) -> int | None:
    """The servers or cards the question counts ("4 DGX H100 servers", "买8张")."""
    if s.purchase_unit == "gpu":
        return s.gpu_count or ((s.nodes or 0) * (s.gpus_per_node or 0)) or None
    if s.nodes:
        return s.nodes
    return None


def _cost(query: Query, units: int, price: float) -> Bought:
    s = query.scenario
    cost = purchase_cost(units=units, unit_price=price)
    per_unit = _per_unit(s)
    node = s.purchase_unit != "gpu"
    key = "answer.buy_cost_nodes" if node else "answer.buy_cost_gpus"
    cards = units * per_unit if node and per_unit else None
    msg = Msg(key, units=units, cost=cost, cards=_cards_of(s, cards), **_said(s, price))
    check = _check(query, msg, {"units": units, "cost": cost}, "formula.purchase_cost", {})
    return Bought(check.summary, check, s, units)


def _rental(s: Scenario, gpus: int, rate: float) -> dict[str, Param]:
    """What a rent sentence says of the rental: the cards, the rate and its currency."""
    return {
        "hardware": Msg("common.gpus", count=gpus, gpu=_gpu(s)),
        "rate": rate,
        "gpus": gpus,
        "currency": s.currency or "USD",
    }


def _rent_or_buy(query: Query, gpus: int, price: float, rate: float) -> Bought:
    """Renting the stated GPUs at the stated rate against buying them at the stated price: the
    rent over the period asked (a stated deadline or span) and the time after which buying
    pays off (purchase ÷ rent per hour, in hours of use; with the hours of use a day stated,
    that many hours a day of calendar time), power, hosting and resale left out.

    Examples:
        >>> from assistant.parse import parse
        >>> found = bought(parse("买4张4090每张1.3万元还是租？每卡时2.5元，一天用10小时，多久回本"))
        >>> found.check.figures["breakeven_seconds"] / 86400  # 52,000 元 ÷ (4 × 2.5 元 × 10 h)
        520.0
    """
    s = query.scenario
    per_unit = _per_unit(s) or DEFAULT_GPUS_PER_NODE
    units = gpus if s.purchase_unit == "gpu" else -(-gpus // per_unit)
    buy = purchase_cost(units=units, unit_price=price)
    said = _rental(s, gpus, rate)
    hourly = gpus * rate
    use = buy / hourly * 3600.0  # seconds of rented use that cost the purchase
    # "一天用10小时": rent is paid for those hours of each day only, so the pay-off comes later
    # in calendar time (24/h times the hours of use); unstated, round the clock
    share = daily_share(s)
    breakeven = use / share
    period = s.deadline_seconds  # "for 6 months": the span the rent is for
    said |= {"buy": buy, "hourly": hourly, "breakeven": breakeven}
    if s.hours_per_day:
        said |= {"hours": s.hours_per_day, "use": use}
    figures: dict[str, float | str] = {"cost": buy, "purchase_cost": buy, "rent_per_hour": hourly}
    figures["breakeven_seconds"] = breakeven
    figures["breakeven_use_seconds"] = use
    daily = "_daily" if s.hours_per_day else ""
    if period:
        rent = hourly * period * share / 3600.0
        cheaper = Msg("answer.rent_cheaper" if rent < buy else "answer.buy_cheaper")
        msg = Msg(f"answer.rent_or_buy_period{daily}", seconds=period, rent=rent, cheaper=cheaper,
                  **said)  # fmt: skip
        figures["rent"] = figures["cost"] = rent  # the cost of the period asked, rented
    else:
        msg = Msg(f"answer.rent_or_buy{daily}", **said)
    # "break-even in how many months?": the pay-off time in the unit asked
    msg = in_asked_unit(msg, ask_wording(query), "breakeven")
    check = _check(query, msg, figures, "formula.rent_or_buy", {"price_per_gpu_hour": rate})
    return Bought(check.summary, check, s, units)


#: "rent … or buy them?", "租…还是买": renting set against buying, in one question.
_RENT = re.compile(r"\b(?:rent(?:ing|ed)?|leas(?:e|ing)|cloud)\b|租")
_BUY = re.compile(r"\b(?:buy(?:ing)?|purchas(?:e|ing)|own(?:ing)? (?:the|our|them|it))\b|买|购")


def _rent_or_buy_asked(query: Query) -> bool:
    wording = ask_wording(query).lower()
    return bool(_RENT.search(wording) and _BUY.search(wording))


def _rent_without_price(query: Query, gpus: int, rate: float) -> Bought:
    """Renting against buying with no purchase price: the rent over the period asked (a stated
    span, else a year), which is the price under which buying is the cheaper for that period;
    the purchase price is asked for, never assumed (a GPU's price is not in the catalog)."""
    s = query.scenario
    hourly = gpus * rate
    period = s.deadline_seconds or 365 * 86400.0
    rent = hourly * period * daily_share(s) / 3600.0
    said = _rental(s, gpus, rate) | {"seconds": period, "rent": rent}
    key = "answer.rent_no_price_period" if s.deadline_seconds else "answer.rent_no_price_year"
    if s.hours_per_day:  # "一天用10小时": the rent of those hours a day
        key = "answer.rent_no_price_daily"
        said["hours"] = s.hours_per_day
    figures: dict[str, float | str] = {"cost": rent, "rent": rent, "rent_per_hour": hourly}
    check = _check(
        query, Msg(key, **said), figures, "formula.rent_or_buy", {"price_per_gpu_hour": rate}
    )
    return Bought(check.summary, check, s, gpus)


def _check(
    query: Query, msg: Msg, figures: dict[str, float | str], formula: str, inputs: dict[str, float]
) -> Check:
    s, lang = query.scenario, query.language
    figures["currency"] = s.currency or "CNY"
    return Check(
        kind="cost",
        verdict="ok",
        summary=text(msg, lang),
        figures=figures,
        formula=text(Msg(formula), lang),
        inputs={**inputs, "purchase_price": s.purchase_price or 0.0},
    )
