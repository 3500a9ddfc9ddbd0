"""A budget to buy GPUs: the set-ups that serve the load, said before anything else.

"预算50万，买什么卡？" or "We have $200k to buy GPUs…: what should we buy?" asks which hardware
to buy. The catalog has no purchase prices, so the budget is never checked or turned into
rented GPU-hours (`parse.spending`); what the answer can say is which typical set-up serves the
stated load (the smallest that does), one cheaper class of card that also does (48 GB
workstation-class L40S, else a 24 GB RTX 4090, at the fewest cards in one node), with the
figures that are its caveats (speed per user, tensor-parallel traffic over PCIe), and then that
vendors' quotes decide the money.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.calculate.home_purchase import home_purchase
from assistant.calculate.summaries import describe_setup
from assistant.i18n import join_sentences, text
from assistant.records import Language, Query, Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.errors import CalculatorInputError
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = [
    "bare_purchase",
    "hardware_cost_asked",
    "hardware_for_price",
    "per_user_said",
    "per_user_speed",
    "purchase_outcome",
    "stated_purchase",
]

#: Cheaper classes tried after the typical set-ups, in order, each at 1, 2, 4, 8 cards in a node
#: (tensor parallelism needs a power of two that divides the heads).
CHEAPER_GPUS = ("L40S 48GB", "RTX 4090 24GB")
_COUNTS = (1, 2, 4, 8)
#: Below this share of each token's time, tensor-parallel traffic is not worth a caveat.
_TRAFFIC_WORTH_SAYING = 0.1
#: "要多少钱买硬件", "how much would the hardware cost": the price of buying, not of renting.
_HARDWARE_COST = re.compile(
    r"hardware (?:cost|price|budget|spend)|cost of (?:the )?hardware|"
    r"(?:cost|price)s? to (?:buy|build)|"
    r"硬件(?:成本|费用|投入|价格|预算|花|要|需要|大概)|"
    r"买[^，。,?？!！]{0,16}(?:多少钱|花多少|要多少|价格|费用)|(?:多少钱|花多少钱)[^，。,?？]{0,6}买|"
    r"采购[^，。,?？]{0,12}(?:多少钱|价格|费用|成本)|"
    # "大概要多少钱的硬件", "服务器要花多少钱", "整套设备什么价"
    r"(?:多少钱|花多少钱)的?(?:硬件|服务器|设备|机器|集群)|"
    r"(?:服务器|设备|整机|一体机|集群)[^，。,?？]{0,8}(?:多少钱|花多少|什么价|成本多少)",
    re.IGNORECASE,
)


def hardware_cost_asked(query: Query) -> bool:
    """A cost asked of buying the hardware for a job, with no price to total it: "私有化部署
    DeepSeek-R1满血版，大概要多少钱买硬件" (never rented GPU-hours, which were its answer)."""
    from assistant.calculate.focus import main_ask
    from assistant.parse.spending import buys_hardware

    s = query.scenario
    if s.price_per_gpu_hour is not None or s.purchase_price is not None:
        return False
    words = query.question
    asked = main_ask(query) == "cost" or "cost" in query.asks
    return asked and bool(_HARDWARE_COST.search(words) or buys_hardware(words))


def hardware_for_price(query: Query, answer: Callable[[Query], Outcome]) -> Outcome:
    """The hardware the job needs (the count asked instead of the cost), then that the catalog
    has no purchase prices and which quote would total it."""
    asks = tuple(dict.fromkeys(("gpu_count", *(a for a in query.asks if a != "cost"))))
    counted = replace(query, asks=asks)
    found = answer(counted)
    if found.scenario is None or found.mode == "invalid":
        return found
    said = Msg("answer.purchase_no_price", setup=describe_setup(found.scenario, query.language))
    lead = join_sentences((found.lead, text(said, query.language)), query.language)
    return replace(found, lead=lead)


def purchase_outcome(
    query: Query,
    chosen: Outcome,
    works: Callable[[Outcome], bool],
    run: Callable[[Scenario], Outcome],
) -> Outcome:
    """`chosen` (the typical set-up answered on) led by what a purchase question asks: the
    smallest set-up that serves the load, a cheaper class that does, and that the budget cannot
    be checked; `chosen` unchanged when the question states no purchase budget."""
    s, lang = query.scenario, query.language
    if s.purchase_budget is None or chosen.scenario is None or s.purchase_price is not None:
        return chosen
    home = home_purchase(query, works, run)  # a desk-side buyer: desktop cards first
    if home is not None:
        return home
    money: dict[str, Param] = {"budget": s.purchase_budget, "currency": s.currency or "CNY"}
    if not works(chosen):
        said = Msg("answer.purchase_none", **money)
        return replace(chosen, lead=join_sentences((text(said, lang), chosen.lead), lang))
    main = chosen.scenario.gpu
    cheaper: Msg | str = ""
    if main not in CHEAPER_GPUS:
        found = _cheaper(s, works, run)
        cheaper = (
            _cheaper_said(found, found.scenario, lang)
            if found is not None and found.scenario is not None
            else Msg("answer.purchase_no_cheaper")
        )
    said = Msg(
        "answer.purchase_setups",
        main=describe_setup(chosen.scenario, lang),
        speed=per_user_said(chosen),
        cheaper=cheaper,
        **money,
    )
    return replace(chosen, lead=join_sentences((text(said, lang), chosen.lead), lang))


def _cheaper(
    s: Scenario, works: Callable[[Outcome], bool], run: Callable[[Scenario], Outcome]
) -> Outcome | None:
    """The first cheaper-class set-up (fewest cards in one node) that serves the load."""
    for gpu in CHEAPER_GPUS:
        for count in _COUNTS:
            tried = replace(s, gpu=gpu, nodes=1, gpus_per_node=count, gpu_count=None)
            try:
                outcome = run(tried)
            except CalculatorInputError:
                break  # this card cannot run what the question states (its precision)
            if works(outcome) and outcome.scenario is not None:
                return outcome
    return None


def _cheaper_said(outcome: Outcome, scenario: Scenario, lang: Language) -> Msg:
    share = figure(outcome.checks, "network", "comm_share_of_token_time") or 0.0
    traffic = (
        Msg("answer.purchase_traffic", share=share, link=lookup_gpu(scenario.gpu).intra_link)
        if share >= _TRAFFIC_WORTH_SAYING and scenario.gpu
        else ""
    )
    return Msg(
        "answer.purchase_cheaper",
        setup=describe_setup(scenario, lang),
        speed=per_user_said(outcome, traffic),
    )


def per_user_said(outcome: Outcome, traffic: Msg | str = "") -> Msg | str:
    """ "（每个用户约 48.7 token/s）" for a serving option; "" for a training run (no time per
    token: "约 0 token/s" would read as a set-up that does not run)."""
    speed = per_user_speed(outcome)
    return Msg("answer.purchase_speed", speed=speed, traffic=traffic) if speed > 0 else ""


def per_user_speed(outcome: Outcome) -> float:
    """Tokens per second one user (one sequence) gets: the inverse of the time per token."""
    seconds = figure(outcome.checks, "compute", "seconds_per_token")
    return 1.0 / seconds if seconds else 0.0


def stated_purchase(query: Query, outcome: Outcome) -> Outcome:
    """A purchase budget beside hardware the question names ("预算50万买8张L40S部署70B够吗"):
    that set-up serves the job or not (the verdict), and the money cannot be checked (no
    purchase prices), said in the headline, not only in a note."""
    s, lang = query.scenario, query.language
    if s.purchase_budget is None or outcome.scenario is None or outcome.mode != "verdict":
        return outcome
    if s.purchase_price is not None:  # the money was divided by the stated price (`buying`)
        return outcome
    key = (
        "answer.purchase_stated_works"
        if outcome.verdict == "feasible"
        else "answer.purchase_stated"
    )
    said = text(
        Msg(
            key,
            budget=s.purchase_budget,
            currency=s.currency or "CNY",
            setup=describe_setup(outcome.scenario, lang),
        ),
        lang,
    )
    parts = (said, outcome.lead) if outcome.verdict == "feasible" else (outcome.lead, said)
    return replace(outcome, lead=join_sentences(parts, lang))


#: "买什么卡", "选哪款显卡", "what GPU should I buy", "which card to buy": a card to be picked.
_PICK = re.compile(
    r"(?:买|选|采购|购买|购置)\s*(?:什么|哪种|哪款|哪张|哪个|哪些)|什么(?:卡|显卡|gpu)|"
    r"what (?:gpus?|cards?|hardware|accelerators?)|which (?:gpus?|cards?|one)|"
    r"(?:gpus?|cards?|hardware) (?:should|to) (?:i|we) (?:buy|get)"
)


def bare_purchase(query: Query) -> Outcome | None:
    """A purchase question with no job ("预算50万买什么卡", "what GPU should I buy for $10k"):
    the catalog has no purchase prices and nothing was asked to run, so there is no pick and no
    verdict; the answer says so and asks for the job, listing what it can compute. None when
    the question is not one."""
    from assistant.calculate.outcome import Outcome
    from assistant.parse.spending import buys_hardware

    s, lang = query.scenario, query.language
    words = query.question.lower()
    if s.purchase_budget is None and not (buys_hardware(words) and _PICK.search(words)):
        return None
    if s.purchase_budget is not None:
        said = Msg("answer.purchase_no_job", budget=s.purchase_budget, currency=s.currency or "CNY")
    else:
        said = Msg("answer.purchase_no_job_open")
    return Outcome(verdict="unknown", lead=text(said, lang), scenario=s)
