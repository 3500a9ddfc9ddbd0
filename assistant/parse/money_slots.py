"""Money, energy and utilisation stated in a question: a budget, a price per kWh, a PUE and an
MFU (the readers `load.read_load_slots` gathers with the serving load).

Examples:
    >>> read_budget("预算200000元"), read_price_per_kwh("电价0.6元/度")
    ((200000.0, 'CNY'), (0.6, 'CNY'))
    >>> read_pue("pue 1.3"), read_mfu("mfu只有30%")  # lower-cased, as the readers get it
    (1.3, 0.3)
"""

from __future__ import annotations

import re

from assistant.parse.numbers import (
    CURRENCY,
    CURRENCY_WORD,
    NUMBER,
    SET_TO,
    first_match,
    to_float,
)

__all__ = ["BUDGET_WORDS", "MFU_WORDS", "read_budget", "read_mfu", "read_price_per_kwh", "read_pue"]

_CUR = CURRENCY_WORD
# (never part of a longer number: "$25k/mo" is not "$2" followed by "5k")
_MONEY_K = r"\s*(k|m(?:n|illion)?|w|万)?(?![a-z\d])"
_SCALE = {None: 1.0, "k": 1e3, "w": 1e4, "万": 1e4, "m": 1e6, "mn": 1e6, "million": 1e6}

_BUDGET = (
    re.compile(
        r"(?:预算|budget)\s*(?:of|is|=|:|为|是|有|只有|约|大约|不超过|under|改成|改为|变成|"
        r"提高到|提到|增加到|加到|降到|降低到|减到|"
        r"(?:goes |went |raised |cut |increased |lowered )?to)?\s*"
        r"(?:" + _CUR + r")?\s*" + NUMBER + _MONEY_K + r"\s*(?:" + _CUR + r")?"
    ),
    # "$50k budget", "we have $25k/mo budget" (the month is the period, `parse.durations`)
    re.compile(
        _CUR + r"\s*" + NUMBER + _MONEY_K + r"\s*(?:(?:/|per|a)\s*(?:mo|month)\b\s*)?"
        r"(?:total |monthly )?budget"
    ),
    # "a 300k CNY budget", "a 50k USD total budget": the currency code after the amount
    re.compile(
        r"(?:" + _CUR + r")?\s*" + NUMBER + _MONEY_K + r"\s*" + _CUR + r"\s*(?:total\s+)?budget"
    ),
    # "we have $50,000", "手头有20万元": an amount of money held, not a price
    re.compile(
        r"(?:(?:we|i) (?:have|'ve got|got|can spend)|(?:总共|一共|手头|手上|只)有)\s*"
        r"(?:a total of\s*)?" + _CUR + r"?\s*" + NUMBER + _MONEY_K + r"\s*" + _CUR + r"?"
        r"(?!\s*(?:/|per|每|an? ))"
    ),
    # "有20万预算", "20万元的预算", "¥50万总预算": the amount before the word
    re.compile(
        r"(?:" + _CUR + r")?\s*" + NUMBER + _MONEY_K + r"\s*(?:" + _CUR + r")?\s*的?\s*总?预算"
    ),
    # "is $50k enough", "$30k buys", "$100k at $2.5/GPU-hour": money said with what it is to
    # cover or the rate it is spent at is the total (a price is the amount after "at")
    re.compile(
        _CUR + r"\s*" + NUMBER + _MONEY_K + r"\s*(?:" + _CUR + r")?\s*"
        r"(?:(?:be |is )?(?:enough|sufficient)|buys?\b|gets?\b|covers?\b|pays? for|"
        r",?\s*(?:at|@)\s*(?:\$|¥|￥)\s*\d)"
    ),
    # "花五十万租卡", "拿出100万买卡": money spent on what follows it ("花3天" is no money)
    re.compile(
        r"(?:花|花费|拿出|投入|砸)\s*了?\s*(?:"
        + _CUR
        + r")?\s*"
        + NUMBER
        + _MONEY_K
        + r"\s*(?:"
        + _CUR
        + r")?(?=\s*(?:钱|块钱)?\s*(?:租|买|采购|来|去|用|训|跑|部署|,|$))"
    ),
    # "50万够不够训练13B", "20万元钱够吗": an amount in 万 (or with a currency) that must suffice
    re.compile(
        r"(?<![每/])(?:" + _CUR + r")?\s*" + NUMBER + r"\s*(万|w)\s*(?:" + _CUR + r")?"
        r"\s*(?:的)?(?:钱|经费|资金)?\s*够"
    ),
)


_SPENT = ("花", "拿出", "投入", "砸")


def read_budget(text: str) -> tuple[float | None, str | None]:
    """A total budget and its currency ("预算20万元" → 200000 CNY, "budget of $50k").

    >>> read_budget("花500000租卡,⟨gpu⟩每卡时8块"), read_budget("花3天训练")
    ((500000.0, 'CNY'), (None, None))
    >>> read_budget("power budget 30 kw"), read_budget("电力预算30千瓦")
    ((None, None), (None, None))
    >>> read_budget("my budget is -$3000 for renting")
    (-3000.0, 'USD')
    """
    # "-$3,000": the sign before the currency symbol is the amount's ("$-3000"), to be refused
    text = re.sub(r"(?<![\w.])[-−]\s*(\$|¥|￥)\s*(?=\d)", r"\1-", text)
    match = first_match(_BUDGET, text)
    if match is None:
        return None, None
    groups = match.groups()
    if len(groups) == 3:  # the "$50k budget" form
        currency, number, scale, after = groups[0], groups[1], groups[2], None
    else:
        currency, number, scale, after = groups
    said = match.group(0)
    if re.match(
        r"\s*(?:k?w\b|kilowatts?|watts?|mw\b|megawatts?|千瓦|瓦|兆瓦)", text[match.end() :]
    ):
        return None, None  # "power budget 30 kW", "电力预算30千瓦": power, not money
    named = said.startswith(("预算", "budget", *_SPENT)) or said.endswith(("预算", "够"))
    if currency is None and after is None and not named:
        return None, None  # "we have 8" is not money
    symbol = currency or after
    if symbol is None and not re.search(r"[\u4e00-\u9fff]", text):
        symbol = "$"
    return to_float(number) * _SCALE[scale], CURRENCY.get(symbol or "元", "CNY")


_KWH = r"(?:度电?|kwh|千瓦时|kw·h|kw-h)"
_ENERGY = (
    re.compile(
        r"(?:电价|电费)\s*(?:为|是|:|按)?\s*"
        + NUMBER
        + r"\s*"
        + _CUR
        # "电费0.5一度" (normalised "电费0.5 1度"): the price of one kWh
        + r"?\s*(?:/|每|per|1)\s*"
        + _KWH
    ),
    re.compile(_CUR + r"\s*" + NUMBER + r"\s*(?:/|per|a|每)\s*" + _KWH),
    # "0.6元/度", "0.8元一度" (一 is rewritten as 1)
    re.compile(NUMBER + r"\s*" + _CUR + r"\s*(?:/|per|a|每|1)\s*" + _KWH),
    re.compile(r"每度电?\s*" + NUMBER + r"\s*" + _CUR),
    # "电费按一度0.6元", "一度电0.8" (一 is rewritten as 1): the price follows the kWh, its
    # currency may go unsaid (the question's); never an amount ("1度电 3万元") or a count
    re.compile(
        r"(?<![\d.])(?:每|1)\s*度电?\s*(?:的?(?:电费|电价|价格|费用|价钱))?\s*"
        r"(?:是|为|要|收|按|算|约|:)?\s*"
        + NUMBER
        + r"(?![\d.])\s*"
        + _CUR
        + r"?(?!\s*(?:万|千|百|倍|度|%|[a-z]|个|张|卡|台|小时|天))"
    ),
    # "0.8块一度" (normalised "0.8块1度"): the price of one kWh
    re.compile(NUMBER + r"\s*" + _CUR + r"\s*1\s*(?:度电?|kwh|千瓦时)"),
    # "电价0.5元": an electricity price is per kWh (度) unless it says otherwise
    re.compile(r"电价\s*(?:为|是|:|按|约)?\s*" + NUMBER + r"\s*" + _CUR + r"(?!\s*(?:/|每|per))"),
    re.compile(NUMBER + r"\s*(cents?)\s*(?:/|per|a)\s*" + _KWH),
    # "电价0.6", "电价 0.8", "electricity price 0.12", "electricity at 0.15": an electricity
    # price with no unit is per kWh, in the question's currency (never a power or an amount)
    re.compile(
        r"(?:电价|(?<![a-z])electricity\s*(?:price|rate|tariff|cost)?|"
        r"(?<![a-z])(?:power|energy)\s*(?:price|rate|tariff))"
        r"\s*(?:为|是|:|按|约|of|at|is|=)?\s*"
        + NUMBER
        + r"(?![\d.])(?!\s*(?:[a-z%/]|万|千|倍|度|每|"
        + CURRENCY_WORD[1:-1]  # "电价0.5元每小时" is a price per hour, read (or not) above
        + "))"
    ),
)


def read_price_per_kwh(text: str) -> tuple[float | None, str | None]:
    """An electricity price per kWh and its currency ("电价0.6元/度", "$0.12 per kWh")."""
    match = first_match(_ENERGY, text)
    if match is None:
        return None, None
    groups = [g for g in match.groups() if g is not None]
    numbers = [g for g in groups if re.fullmatch(r"[-−]?\d+(?:\.\d+)?(?:e[+-]?\d+)?", g)]
    symbols = [g for g in groups if g not in numbers]
    value = to_float(numbers[0])
    if symbols and symbols[0].startswith("cent"):
        return value / 100, "USD"
    if not symbols:  # no currency said: the question's ("电价0.6" is yuan, "price 0.12" dollars)
        return value, "CNY" if re.search(r"[\u4e00-\u9fff]", text) else "USD"
    return value, CURRENCY.get(symbols[0], "CNY")


_PUE = (
    # "机房PUE 1.4": a Chinese word before it is no word boundary for \b, so letters only
    re.compile(
        r"(?<![a-z])pue\s*(?:of|=|:|：|为|是|约|大约|按|取|at|is|" + SET_TO + r")?\s*" + NUMBER
    ),
    re.compile(NUMBER + r"\s*(?:的)?\s*pue(?![a-z])"),
)


def read_pue(text: str) -> float | None:
    """The facility's PUE when stated ("PUE 1.3", "PUE为1.2", "a PUE of 1.25", "1.4的PUE");
    kept as typed (a PUE below 1 is refused by the plan's validation, never replaced).

    >>> read_pue("pue降到1.15呢"), read_pue("pue改回1.5")  # a follow-up's new value
    (1.15, 1.5)
    >>> read_pue("机房pue 1.4，一年电费多少")
    1.4
    """
    match = first_match(_PUE, text)
    return to_float(match.group(1)) if match else None


_MFU = (
    re.compile(
        r"()(?<![\d.])(-?\d+(?:\.\d+)?)\s*(%)\s*(?:的\s*)?"
        r"(?:(?<![a-z])mfu(?![a-z])|(?:算力|gpu ?)?利用率)"
    ),
    re.compile(r"(?<![a-z])mfu(?![a-z])(\D{0,12}?)(-?\d+(?:\.\d+)?)\s*(%)?"),
    re.compile(r"(?<!显存)(?<!内存)(?:算力|gpu ?)?利用率(\D{0,6}?)(-?\d+(?:\.\d+)?)\s*(%)?"),
)
#: Only separators between "MFU" and its number ("MFU 150", "mfu=0"): the number is the MFU
#: even beyond 100 (then refused, `bounds.refuse_nonsense`), not a count said after it.
_MFU_GAP = re.compile(r"[\s:=：为是约]*")


def read_mfu(text: str) -> float | None:
    """A stated MFU as a fraction ("at 40% MFU", "MFU=0.4", "利用率40%", "50% MFU"); a bare
    number above 1 is a percentage ("MFU 45"); the memory's utilisation ("显存利用率") is not.
    An impossible one is kept as stated, for the parse to refuse ("150% MFU" is 1.5): never
    dropped for the default.

    >>> read_mfu("at 150% mfu"), read_mfu("mfu 0.45"), read_mfu("算力利用率150%")
    (1.5, 0.45, 1.5)
    >>> read_mfu("mfu on 256 gpus"), read_mfu("mfu if i get 3000 tokens/s")
    (None, None)
    """
    for pattern in _MFU:
        match = pattern.search(text)
        if match is None:
            continue
        gap, number, percent = match.groups()  # (words between "MFU" and the number, …)
        value = to_float(number)
        said_alone = _MFU_GAP.fullmatch(gap) is not None
        if (value > 100 and not (percent or said_alone)) or re.match(
            r"\s*(?:k\b|tok|tokens?|samples?|/|gpus?\b|cards?\b|张|卡)", text[match.end() :]
        ):
            continue  # "MFU if I get 3000 tokens/s": a rate, not a percentage
        return value / 100 if percent or value > 1 else value
    return None


#: The patterns that state a budget and an MFU (`load.STATED`).
BUDGET_WORDS = _BUDGET
MFU_WORDS = _MFU
