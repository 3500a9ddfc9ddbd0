"""Prices read from normalised question text: per GPU-hour ("$2/GPU-hour", "每卡时15元") and
per node-hour ("8xH100 node at $25/hour"), each with its currency; never invented.
"""

from __future__ import annotations

import re

from assistant.parse.numbers import CURRENCY, to_float

__all__ = [
    "MONTH_HOURS",
    "NODE_PRICES",
    "PRICE",
    "read_month_price",
    "read_node_price",
    "read_price",
]


# Signed, so that "$-2 per GPU-hour" is refused by name rather than silently dropped.
_SIGNED = r"([-−]?\d+(?:\.\d+)?)"
# "/hr", "per GPU-hour", "an hour", "每小时"; never the "h" of a word ("$10 a hundred …"); the
# card may come first: "per GPU per hour", "each per hour", "/GPU/hr"
_PER_GPU_HOUR = (
    r"\s*(?:(?:/|per|each|a)\s*(?:gpu|cards?|卡|⟨gpu⟩)?\s*,?\s*(?=(?:/|per|an?\b)))?"
    r"(?:/|per|每|an?\b)\s*(?:gpu|cards?|卡|⟨gpu⟩)?\s*[ -]?"
    r"(?:(?:hours?|hrs?|h)(?![a-z])|小时|(?<=卡)时)"  # "$2/卡时": the 时 of a 卡时
)
_YUAN = r"\s*(元|美元|块钱|块|刀)"
PRICE = re.compile(
    r"(\$|¥|￥|€|£|usd|rmb|cny|eur|gbp)\s*" + _SIGNED + _PER_GPU_HOUR + r"|" + _SIGNED
    + r"\s*(元|美元|块钱|块|刀|dollars?|usd|rmb|cny|yuan|euros?|eur|gbp)\s*(?:/|per|每)\s*"
    r"(?:张|gpu|cards?|卡)?[ -]?(?:卡)?\s*"
    # "15元每卡时", but not the budget of "预算20万元每卡时15元" (an amount follows: the price)
    r"(?:hour|hr|h|小时|卡时|时)(?!\s*[-−]?\d+(?:\.\d+)?\s*(?:元|美元|块))"
    # "每卡时15元", "每张卡每小时的费用是12元", "每卡时租金 8 元"; "卡时15块一个", "卡时单价8块钱"
    # (a 卡时 right after a number is an amount of GPU-hours: "10000卡时")
    # "每GPU小时2美元", "每张GPU每小时8元" (the card said as GPU)
    r"|(?:每(?:张)?\s*(?:卡|gpu|⟨gpu⟩)\s*(?:每)?(?:小)?时|(?<![\d.])卡时)\s*(?:的)?\s*"
    r"(?:费用|价格|租金|单价|成本|租价)?\s*"
    r"(?:是|为|:|约|大约|按)?\s*" + _SIGNED + r"\s*(元|美元|块钱|块)"
    # "H100每小时2.5美元", "A800 每小时的租金 12 元": a price per hour beside a card is per
    # GPU-hour (a server's is read by NODE_PRICE: "每台每小时160元")
    r"|⟨gpu⟩\s*(?:卡)?\s*(?:的)?\s*(?:租金|价格|租价|单价)?\s*(?:是|为)?\s*每\s*(?:张|卡)?\s*(?:每)?\s*"
    r"(?:小时|卡时)\s*(?:的)?\s*(?:费用|价格|租金|单价|成本|租价)?\s*(?:是|为|:|约|大约)?\s*"
    + _SIGNED + _YUAN
)  # fmt: skip


_NODE_WORD = r"(?:nodes?|servers?|machines?|boxes|instances?|dgx|hgx)"
_SYMBOL = r"(\$|¥|￥|€|£|usd|rmb|cny|eur|gbp)"
_HOUR = r"\s*(?:/|per|an|a)\s*(?:hour|hr|h)\b"
#: A price per server-hour, each form as (pattern, group of the amount, group of the currency):
#: "8xH100 node at $25/hour", "$98 per node-hour", "$25/node/hr", "$20/hr per node",
#: "每台每小时160元", "服务器每小时 200 元".
NODE_PRICES: tuple[tuple[re.Pattern[str], int, int], ...] = (
    (re.compile(
        _NODE_WORD + r"\s*(?:at|for|costs?|is|@|=|rents? for|rented at)?\s*(?:about\s*)?"
        + _SYMBOL + r"\s*" + _SIGNED + _HOUR, re.ASCII), 2, 1),
    (re.compile(
        _SYMBOL + r"\s*" + _SIGNED + r"\s*(?:/|per)\s*" + _NODE_WORD
        + r"\s*(?:[- /]|per\s*)?(?:hour|hr|h)\b", re.ASCII), 2, 1),
    (re.compile(
        _SYMBOL + r"\s*" + _SIGNED + _HOUR + r"\s*(?:per|/|for\s+(?:each|an?|the|one)|each|a)\s*"
        + _NODE_WORD, re.ASCII), 2, 1),
    (re.compile(
        r"(?:每台|一台|整台|整机|每个节点|每节点|一个节点|服务器|机器|节点)\s*(?:服务器|机器)?\s*(?:的)?\s*"
        r"(?:租金|价格|租价|费用)?\s*每\s*(?:小)?时\s*(?:的)?\s*(?:费用|价格|租金|单价|租价)?\s*"
        r"(?:是|为|:|约|大约)?\s*" + _SIGNED + _YUAN), 1, 2),
)  # fmt: skip


def read_node_price(text: str) -> tuple[float | None, str | None]:
    """A price per node-hour (a whole server rented by the hour), with its currency.

    >>> read_node_price("8x⟨gpu⟩ node at $25/hour"), read_node_price("$98 per node-hour")
    ((25.0, 'USD'), (98.0, 'USD'))
    >>> read_node_price("⟨gpu⟩ at $2/hour")
    (None, None)
    """
    found = [(m, v, c) for p, v, c in NODE_PRICES if (m := p.search(text)) is not None]
    if not found:
        return None, None
    match, value, currency = min(found, key=lambda f: f[0].start())
    amount = _signed(text, match.start(), to_float(match.group(value)))
    return amount, CURRENCY.get(match.group(currency), "USD")


#: A minus sign before the currency symbol ("at -$2 per GPU-hour", "-¥5/hr"): the amount is
#: negative, refused by name (`assistant.parse.bounds`), never read as $2.
_MINUS_BEFORE = re.compile(r"(?:^|[\s(:=@,，])[-−]\s*$")


def _signed(text: str, start: int, amount: float) -> float:
    """`amount`, negated when a minus sign stands right before the match at `start`."""
    return -abs(amount) if _MINUS_BEFORE.search(text[:start]) else amount


#: "how many GPU-hours does $30k buy at $2.5": a bare rate after "at" in a question about
#: GPU-hours is the price of one (never an amount in thousands, never per kWh).
_PRICE_AT = re.compile(
    r"(?:\bat|@)\s*(\$|¥|￥)\s*" + _SIGNED + r"(?![\d.]|\s*(?:k|m|万|w)\b|\s*(?:/|per)\s*kwh)"
)
_GPU_HOURS = re.compile(r"gpu[- ]?h(?:ou)?rs?|卡时|gpu 小时")


def read_price(text: str) -> tuple[float | None, str | None]:
    """A price per GPU-hour the user gives, with its currency; never invented."""
    match = PRICE.search(text)
    if match is None and _GPU_HOURS.search(text):
        bare = _PRICE_AT.search(text)
        if bare is not None:
            amount = _signed(text, bare.start(1), to_float(bare.group(2)))
            return amount, CURRENCY.get(bare.group(1), "USD")
    if match is None:
        return None, None
    if match.group(2):
        amount = _signed(text, match.start(), to_float(match.group(2)))
        return amount, CURRENCY.get(match.group(1), "USD")
    if match.group(3):
        return to_float(match.group(3)), CURRENCY.get(match.group(4), "USD")
    if match.group(5):
        return to_float(match.group(5)), CURRENCY.get(match.group(6), "CNY")
    return to_float(match.group(7)), CURRENCY.get(match.group(8), "CNY")


#: Hours in the month a monthly rent covers: 30 days, as "一个月" is read as a span
#: (`assistant.parse.durations`).
MONTH_HOURS = 720.0
_MONTH_AMOUNT = _SIGNED + r"\s*(元|块钱|块|美元|刀)"
_CARD = r"(?:张|块)?\s*(?:卡|gpu|⟨gpu⟩)"
#: After a month: its rent, said with or without a currency ("一个月每张卡1万2"), never a count
_MONTH_BARE = (
    _SIGNED + r"\s*(元|块钱|块|美元|刀)?(?![\d.]|\s*(?:张|台|卡|个|条|天|小时|万|亿|%|度|[a-z]))"
)
#: A rent per month ("一个月1.5万元", "月租15000元", "15000元/月", "每张卡每月3000块", "一个月每张
#: 卡1万2"): a rate, not a deadline of a month nor a budget. Only in a question that rents.
_MONTH_PRICE = re.compile(
    r"(?:(?:每|一|1)\s*个?\s*月|月租金?|包月)\s*(?:的)?\s*(?:(?:每|单|1)\s*" + _CARD + r")?\s*"
    r"(?:的)?\s*(?:租金|费用|价格|租价)?\s*(?:是|为|:|约|大约|大概|要|花)?\s*" + _MONTH_BARE
    + r"|" + _MONTH_AMOUNT + r"\s*(?:/|每|一|1)\s*个?\s*月(?!\s*[内里])"
)  # fmt: skip
_RENTS = re.compile(r"租|云上|云服务|上云|包月")
_PER_CARD = re.compile(r"(?:每|单)\s*" + _CARD + r"|(?<![\d.])1\s*(?:张|块)\s*(?:卡|gpu|⟨gpu⟩)?")
_PER_NODE = re.compile(r"(?:每|1)\s*(?:台|个节点|节点)\s*(?:的)?\s*(?:每|1)?\s*个?\s*月")
#: A bare number after a month is a rent only from this much up (never "1个月2次").
_LEAST_BARE_RENT = 100.0


def read_month_price(text: str) -> tuple[float, str, str, tuple[int, int]] | None:
    """A rent per month: (amount, currency, what it rents, span); `what` is "gpu" (每张卡每月),
    "node" (每台每月) or "all" (the hardware as stated); None when the text rents nothing.

    >>> read_month_price("云上租一台8卡⟨gpu⟩,1个月15000元,训7b")[:3]
    (15000.0, 'CNY', 'all')
    >>> read_month_price("租⟨gpu⟩每张卡每月3000块")[:3]
    (3000.0, 'CNY', 'gpu')
    >>> read_month_price("租4台,每台每月20000元")[:3]
    (20000.0, 'CNY', 'node')
    >>> read_month_price("租⟨gpu⟩1个月每张卡12000,8张卡训7b")[:3]
    (12000.0, 'CNY', 'gpu')
    >>> read_month_price("预算15000元,1个月内训完"), read_month_price("租8张卡1个月内训完7b")
    (None, None)
    """
    match = _MONTH_PRICE.search(text)
    if match is None or not _RENTS.search(text):
        return None
    amount, currency = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
    if currency is None and abs(to_float(amount)) < _LEAST_BARE_RENT:
        return None
    around = text[max(0, match.start() - 12) : match.end()]
    what = "gpu" if _PER_CARD.search(around) else "node" if _PER_NODE.search(around) else "all"
    return (
        _signed(text, match.start(), to_float(amount)),
        CURRENCY.get(currency, "CNY"),
        what,
        match.span(),
    )
