"""A card to buy for home or on a small budget: desktop cards first, ranked by class.

"预算一万五，想买张卡在家跑qwen2.5-14b，买啥好" is a purchase at home: the catalog has no prices,
so the budget is never checked, but a desk-side buyer is not answered with a data-centre A100.
The card classes are ranked consumer first (a 24 GB desktop card, then a cheaper 16 GB one), one
card in the box; the first precision that serves the load is taken: the stated one, or, when the
question left the precision open, the default, then int8, then int4 (quantizing is then the
condition of the answer, never a change the user undid). None when no desktop card serves it,
and the usual purchase answer (`purchase.purchase_outcome`) is given instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.summaries import describe_setup
from assistant.i18n import join_sentences, text
from assistant.records import Language, Query, Scenario
from calculators.errors import CalculatorInputError
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["HOME_GPUS", "home_purchase", "modest_purchase"]

#: Desktop (consumer-class) cards tried for a home purchase, most capable first: the first that
#: serves the load is the pick, the next that does is the cheaper option (no prices: the order is
#: the class and memory, 24 GB before 16 GB, never a price).
HOME_GPUS = ("RTX 4090 24GB", "RTX 4060 Ti 16GB")
#: Precisions tried when the question left it open: the default (None), then 8-bit, then 4-bit.
_OPEN_PRECISIONS: tuple[str | None, ...] = (None, "int8", "int4")
#: Below this budget the class ranking starts at desktop cards. It is a ranking bound, not a
#: price: it is well under one 80 GB data-centre card, whatever a vendor quotes.
_SMALL_BUDGET = {"CNY": 50_000.0, "USD": 7_000.0, "EUR": 6_500.0}
#: "在家跑", "家用", "自己玩", "at home", "for my desktop", "personal use": a desk-side buyer.
_HOME = re.compile(
    r"(?<![大全])(?:在家|家里|家用)|自己(?:玩|用)|个人(?:用|使用|玩)|台式机|"
    r"\bat home\b|\bhome (?:use|lab|server|setup|pc|rig)\b|\bhomelab\b|"
    r"\bmy (?:own )?(?:desktop|pc)\b|"
    r"\bpersonal use\b|\bhobby\b",
    re.IGNORECASE,
)


def modest_purchase(query: Query) -> bool:
    """A purchase for home or on a small budget (see `_SMALL_BUDGET`), with no card named."""
    s = query.scenario
    if s.purchase_budget is None:
        return False
    small = s.purchase_budget < _SMALL_BUDGET.get(s.currency or "CNY", 0.0)
    return small or bool(_HOME.search(query.question))


def home_purchase(
    query: Query, works: Callable[[Outcome], bool], run: Callable[[Scenario], Outcome]
) -> Outcome | None:
    """The first desktop card that serves the load (see the module docstring), led by the
    purchase sentence; None when none does or the question is no modest purchase."""
    if not modest_purchase(query):
        return None
    s, lang = query.scenario, query.language
    picks = [p for p in (_first_precision(s, gpu, works, run) for gpu in HOME_GPUS) if p]
    if not picks:
        return None
    main, rest = picks[0], picks[1:]
    cheaper: Msg | str = _option(rest[0], "answer.purchase_home_cheaper", lang) if rest else ""
    said = Msg(
        "answer.purchase_home",
        main=_option(main, "answer.purchase_home_option", lang),
        cheaper=cheaper,
        budget=s.purchase_budget or 0.0,
        currency=s.currency or "CNY",
    )
    chosen = main.scenario.precision if main.scenario is not None else None
    # quantizing a model the user left at its published precision is the answer's condition
    verdict = "conditional" if s.precision is None and chosen in _PRECISION_KEY else main.verdict
    lead = join_sentences((text(said, lang), main.lead), lang)
    return replace(main, verdict=verdict, lead=lead)


def _first_precision(
    s: Scenario, gpu: str, works: Callable[[Outcome], bool], run: Callable[[Scenario], Outcome]
) -> Outcome | None:
    """One `gpu` in a desk-side box at the first precision that serves the load."""
    precisions = (s.precision,) if s.precision is not None else _OPEN_PRECISIONS
    for precision in precisions:
        tried = replace(s, gpu=gpu, nodes=1, gpus_per_node=1, gpu_count=None, precision=precision)
        try:
            outcome = run(tried)
        except CalculatorInputError:
            continue  # this card has no mode for that precision
        if works(outcome) and outcome.scenario is not None:
            return outcome
    return None


def _option(outcome: Outcome, key: str, lang: Language) -> Msg:
    from assistant.calculate.purchase import per_user_said

    assert outcome.scenario is not None  # `_first_precision` returns only evaluated set-ups
    scenario = outcome.scenario
    params: dict[str, Param] = {
        "setup": describe_setup(scenario, lang),
        "speed": per_user_said(outcome),
        "precision": Msg(_PRECISION_KEY.get(scenario.precision or "", _AS_IS)),
    }
    return Msg(key, **params)


_AS_IS = "answer.purchase_home_as_is"
#: How the pick's precision is said: quantized to 8 or 4 bits, or as the model is published.
_PRECISION_KEY = {
    "int8": "answer.purchase_home_int8",
    "int4": "answer.purchase_home_int4",
    "fp8": "answer.purchase_home_int8",
}
