"""What the money in a question is for: rent (GPU-hours at a price) or a purchase.

A sum of money said beside a rent price is the budget even without the word "budget" / "预算"
("With $20k and H200s at $3.50/hr", "有20万块钱，H100每卡时20元"): it is what the hours are paid
from. A budget to buy hardware ("买什么卡", "purchase", "build a cluster") is capital expense:
the catalog has no purchase prices, so it is never divided into GPU-hours; the answer says so
and evaluates the load on typical set-ups instead.

Readers take the normalised, lower-cased text (numbers as digits: "20万" is "200000").

Examples:
    >>> money_held("with $20k and ⟨gpu⟩s at $3.50/hr")
    (20000.0, 'USD')
    >>> money_held("有200000块钱,⟨gpu⟩每卡时20元"), money_held("20000刀, ⟨gpu⟩ $2/hr")
    ((200000.0, 'CNY'), (20000.0, 'USD'))
    >>> money_held("⟨gpu⟩ at $3.50/hr")
    (None, None)
    >>> buys_hardware("预算500000,买什么卡"), buys_hardware("预算500000,租还是买")
    (True, False)
    >>> rents_for_period("rent a dgx h100 for ~2 weeks"), rents_for_period("租8张h100一个月")
    (True, True)
    >>> rents_for_period("rent 64 h100 to finish within 2 weeks")
    False
"""

from __future__ import annotations

import re

from assistant.parse.numbers import CURRENCY, CURRENCY_WORD, NUMBER, to_float
from assistant.parse.purchase_price import read_purchase_price, without_purchase_price
from calculators.messages import Msg

__all__ = ["buys_hardware", "is_money", "money_held", "rents_for_period", "settle_spending"]

_SCALE = {None: 1.0, "k": 1e3, "w": 1e4, "万": 1e4, "m": 1e6, "mn": 1e6, "million": 1e6}
_AMOUNT = re.compile(
    r"(?<![\d.])(?:" + CURRENCY_WORD + r"\s*)?" + NUMBER + r"\s*(k|m(?:n|illion)?|w|万)?(?![a-z])"
    r"\s*(?:" + CURRENCY_WORD + r")?"
)
#: After an amount: it is a price per something ("/hr", "per GPU-hour", "每卡时", "一度").
_PRICE_AFTER = re.compile(
    # (not "$40k/mo", "$40k per month": a sum for a period is a budget, spent over it)
    r"\s*(?:/(?!\s*(?:mo|mos|month|mth|yr|year|wk|week)\b)|per\b(?!\s+(?:month|year|week)\b)|an?\s+(?:hour|hr|gpu|card|node|kwh)|每|1?小时|1?度|kwh|一度|的?电费|"
    r"(?:gpu|卡)[- ]?(?:时|hour|hr))"
)
#: Before an amount: a price is being named ("at $3.5", "每卡时20元", "电价0.6").
_PRICE_BEFORE = re.compile(
    r"(?:\bat|@|每?卡时|每卡每小时|每小时|每卡|每\s*gpu\s*(?:每)?(?:小)?时|单价|价格|租金|电价|电费|"
    r"price(?: is| of)?|rate(?: is| of)?)"
    r"\s*(?:为|是|:|约|大约|按)?\s*$"
)


def money_held(text: str) -> tuple[float | None, str | None]:
    """The first sum of money that is not a price (an amount with a currency, not "per …"),
    and its currency; (None, None) when every amount is a price."""
    plain = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    for match in _AMOUNT.finditer(plain):
        before, number, scale, after = match.groups()
        symbol = before or after
        if symbol is None or number is None:
            continue  # "8张" or "70b": no currency, no money
        value = to_float(number) * _SCALE[scale]
        if symbol == "块" and value < 1000:
            continue  # "4块⟨gpu⟩": 块 counts cards too; "20万块" is money
        if _PRICE_AFTER.match(plain, match.end()) or _PRICE_BEFORE.search(plain[: match.start()]):
            continue
        return value, CURRENCY[symbol]
    return None, None


_SYMBOL_BEFORE = re.compile(r"(?:\$|¥|￥|€|£)\s*$")
_WORD_AFTER = re.compile(r"\s*" + CURRENCY_WORD + r"(?![a-z])")


def is_money(text: str, start: int, end: int) -> bool:
    """True when the number at text[start:end] is an amount of money: a currency symbol before
    it or a currency word after it ("$2m", "2m cny", "1.5b美元"), so not a model size.

    >>> is_money("budget $2m", 8, 10), is_money("2m cny budget", 0, 2), is_money("7b model", 0, 2)
    (True, True, False)
    """
    return bool(_SYMBOL_BEFORE.search(text, 0, start) or _WORD_AFTER.match(text, end))


_BUY = re.compile(
    r"买|采购|购买|购置|购入|\bbuy(?:ing)?\b|\bpurchas(?:e|ing)\b|\bcapex\b|"
    r"\bbuild(?:ing)? (?:a|an|our own|our|my own) (?:\w+ )?(?:cluster|server|rig|box)"
)
#: Choosing cards ("用什么卡比较好", "which GPUs should we get"): with a sum of money and no rent
#: price the money pays for the cards (with no price it cannot be hours); without money it is
#: a question of which card, not of buying.
_CHOOSE = re.compile(
    r"(?:用|选|配|上|挑|搞)(?:什么|哪种|哪款|哪些|啥)(?:样的)?(?:显?卡|gpu|硬件|服务器|机器)|"
    r"\b(?:which|what) (?:gpus?|cards?|hardware|servers?) (?:should|would|do) (?:we|i) "
    r"(?:get|use|pick|choose|go with)\b"
)
#: Renting, or buying time rather than hardware ("买算力", "buy GPU-hours", "buy time on …").
_RENT = re.compile(
    r"租|云上|上云|按小时|按需|(?:买|购买)\s*(?:算力|机时|卡时|时长|gpu\s*小时)|"
    r"\brent|\blease|\bcloud\b|per hour|/\s*h(?:ou)?r\b|"
    r"\bbuy(?:ing)? (?:time|compute|capacity|gpu[- ]?hours|hours)\b"
)


#: A price of one card or server ("$30k each", "每张20万"): a unit price, not the money held.
_EACH = re.compile(r"\beach\b|apiece|\bper (?:card|gpu|server|node)\b|每(?:张|块|台|卡)|单价|一张")


def buys_hardware(text: str) -> bool:
    """True when the money is to buy hardware, with no renting in the question."""
    return bool(_BUY.search(text)) and not _RENT.search(text)


def settle_spending(text: str, found: dict[str, object]) -> list[Msg]:
    """Read the budget the money in the question is (Scenario slots in `found`): a sum beside a
    rent price is the budget; a purchase budget is no rent budget, and the note says why it is
    not used (unless a purchase price is stated: then the money is divided by it)."""
    text = _priced_purchase(text, found)
    if "budget" not in found and "price_per_gpu_hour" in found:
        held, currency = money_held(text)
        if held is not None and currency == found.get("currency", currency):
            found["budget"] = held
            found.setdefault("currency", currency)
    priced = "purchase_price" in found
    if priced and "budget" not in found and (held := _held_bare(text)) is not None:
        found["budget"] = held  # "一台250万，我们有1000万": the money to buy with
    buying = priced or buys_hardware(text) or bool(_CHOOSE.search(text) and not _RENT.search(text))
    if "budget" not in found and "price_per_gpu_hour" not in found and buying:
        held, currency = money_held(text)  # "what GPU should I buy for $10k": the money to spend
        if held is not None and (priced or not _EACH.search(text)):
            found["budget"] = held
            found.setdefault("currency", currency)
    budget = found.get("budget")
    if isinstance(budget, float) and "price_per_gpu_hour" not in found and buying:
        found["purchase_budget"] = found.pop("budget")
        word = Msg(f"summary.currency.{found.get('currency') or 'CNY'}")
        return [] if priced else [Msg("parse.purchase_budget", budget=budget, currency=word)]
    return []


#: Money held said with no currency, beside a purchase price: "我们有10000000", "手里有3000000".
_HELD_BARE = re.compile(
    r"(?:有|资金|经费|总共|一共|能花|可花|拿出)\s*" + NUMBER + r"(?![\d.])\s*(?![a-z张台卡块个人])"
)


def _held_bare(text: str) -> float | None:
    match = _HELD_BARE.search(text)
    value = to_float(match.group(1)) if match else None
    return value if value is not None and value >= 1000 else None


def _priced_purchase(text: str, found: dict[str, object]) -> str:
    """Set the purchase-price slots the text states ("一台…报价120万", "$30k per card"); the
    text with that amount blanked, so it is never read again as the money held."""
    price = read_purchase_price(text)
    if price[0] is None:
        return text
    value, unit, currency, _ = price
    found.update(purchase_price=value, purchase_unit=unit)
    found.setdefault("currency", currency)
    return without_purchase_price(text)


_PERIOD = (
    r"(?:\d+(?:\.\d+)?|an?|one|two|three|four|six|twelve)\s*-?\s*"
    r"(?:hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?)\b"
)
#: A time the hardware is rented for ("rent a DGX for ~2 weeks", "a 3-month lease", "租8张H100
#: 一个月"), not a time to finish in ("rent 64 H100 to finish within 2 weeks").
_RENTAL_PERIOD = re.compile(
    r"\b(?:rent(?:s|ing|ed)?|leas(?:e|es|ing|ed)|reserv(?:e|es|ing|ed)|book(?:s|ing|ed)?)\b"
    r"[^.?!;]{0,60}?\bfor\s+(?:~\s*|about\s+|around\s+|roughly\s+|approx\w*\.?\s+)?"
    + _PERIOD
    + r"|\d+(?:\.\d+)?[- ](?:hour|day|week|month|year)s?\s+(?:rental|lease|reservation)\b|"
    r"租(?:用|了|下|借)?[^，,。？?；;]{0,20}?(?:\d+(?:\.\d+)?|[一两二三四五六七八九十半])\s*(?:个)?"
    r"(?:小时|天|周|星期|礼拜|月|年)",
    re.IGNORECASE,
)


def rents_for_period(text: str) -> bool:
    """Whether `text` rents its hardware for a stated period: the rent is paid for all of it,
    whatever part of it a job named beside it uses."""
    return bool(_RENTAL_PERIOD.search(text))
