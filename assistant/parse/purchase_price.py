"""A stated purchase price: what one server or one card costs to buy ("一台8卡H20服务器报价120万",
"H100每张卡25万", "a DGX H100 costs $300k", "$30k per card").

A purchase price is capital expense, neither a rent price (per GPU-hour: "每卡时8元", "$2/hr",
read by `parse.prices`) nor an amount of GPU-hours ("10000卡时15元"), nor the budget that pays
for the hardware ("预算500万"). An amount followed or preceded by an hour word is never one.

Readers take the normalised, lower-cased text (numbers as digits: "120万" is "1200000").

Examples:
    >>> read_purchase_price("1台8卡 ⟨gpu⟩ 服务器报价1200000,预算5000000能买几台")[:3]
    (1200000.0, 'node', 'CNY')
    >>> read_purchase_price("a dgx  ⟨gpu⟩  costs $300k, how many can $2m buy")[:3]
    (300000.0, 'node', 'USD')
    >>> read_purchase_price(" ⟨gpu⟩ 每张卡250000,买8张多少钱")[:3]
    (250000.0, 'gpu', 'CNY')
    >>> read_purchase_price("8张 ⟨gpu⟩ 每卡时8元"), read_purchase_price("10000卡时15元")
    ((None, None), (None, None))
"""

from __future__ import annotations

import re

from assistant.parse.numbers import CURRENCY, CURRENCY_WORD, NUMBER, to_float

__all__ = ["PurchasePrice", "read_purchase_price", "without_purchase_price"]

#: (price, "node" | "gpu", currency, (start, end) of the amount and the unit after it).
PurchasePrice = tuple[float, str, str, tuple[int, int]]

_SCALE = {None: 1.0, "": 1.0, "k": 1e3, "w": 1e4, "万": 1e4, "m": 1e6, "mn": 1e6, "million": 1e6}
#: An amount of money: a currency before or after it, a scale after it ("$300k", "1200000元").
_AMOUNT = (
    r"(?:" + CURRENCY_WORD + r"\s*)?" + NUMBER + r"\s*(k|m(?:n|illion)?|w|万)?(?![a-z0-9])"
    r"\s*(?:" + CURRENCY_WORD + r"(?![a-z]))?"
)
#: After an amount: it is a price per time (a rent), not a purchase.
_PER_TIME = re.compile(
    r"\s*(?:/|per\b|an?\b|每|一)?\s*(?:gpu|cards?|卡|node|server|台)?\s*[- ]?"
    r"(?:hours?|hrs?|h\b|小时|卡时|时|months?|月|days?|天|year|年)"
)
#: A node-word clause: "一台…服务器报价", "每台", "a dgx h100 costs", "a server is priced at".
_ZH_NODE = r"(?:一台|每台|单台|1台|整台|整机|一个节点|每个节点|每节点|一套|服务器|机器)"
_ZH_CARD = r"(?:每张卡?|单张卡?|一张卡?|1张卡?|每块卡?|单卡|每卡(?!时))"
_ZH_VERB = (
    r"(?:的)?\s*(?:报价|价格|售价|单价|价钱|要价|卖|要|是|为|约|大约|花|需要?)?\s*"
    r"(?:是|为|约|大约|要)?"
)
_EN_NODE = r"\b(?:dgx|hgx|servers?|nodes?|machines?|boxe?s?|systems?)\b"
_EN_CARD = r"(?:⟨gpu⟩|\bgpus?\b|\bcards?\b)"
_EN_VERB = (
    r"\b(?:costs?|(?:is |are )?priced at|sells? for|go(?:es)? for|is|are|runs?)\s*"
    r"(?:about\s*)?"
)
#: Each form as (pattern, unit); the amount's groups are the last four of the pattern.
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(_ZH_CARD + r"\s*(?:⟨gpu⟩\s*(?:卡)?)?\s*" + _ZH_VERB + r"\s*" + _AMOUNT), "gpu"),
    (re.compile(_ZH_NODE + r"[^,，。;；?？!！]{0,24}?" + _ZH_VERB + r"\s*" + _AMOUNT), "node"),
    (re.compile(_AMOUNT + r"\s*(?:一|每|/|per\s*)\s*(?:张|块|卡(?!时))"), "gpu"),
    (re.compile(_AMOUNT + r"\s*(?:一|每|/|per\s*)\s*(?:台|节点)"), "node"),
    (re.compile(_AMOUNT + r"\s*(?:/|per|an?|each|apiece\s+per)\s*(?:card|gpu)\b"), "gpu"),
    (re.compile(_AMOUNT + r"\s*(?:/|per|an?)\s*(?:server|node|machine|box|dgx)\b"), "node"),
    (re.compile(_EN_NODE + r"[^,.;?!]{0,30}?" + _EN_VERB + _AMOUNT), "node"),
    (re.compile(_EN_CARD + r"[^,.;?!]{0,20}?" + _EN_VERB + _AMOUNT), "gpu"),
    (re.compile(_EN_NODE + r"[^,.;?!]{0,30}?\bat\s*" + _AMOUNT + r"\s*(?:each|apiece)"), "node"),
    # "花200万买一台8卡H100服务器": the money, then a server bought with it
    (
        re.compile(
            r"(?:花|用|出)\s*" + _AMOUNT + r"\s*(?:买|购买|购置)\s*(?:一台|一套|1台|整台)"
            # "或者花250万买一台，几个月回本": the server named before, the clause ends here
            r"(?:[^,，。;；?？!！]{0,24}?(?:服务器|整机|机器|节点)|(?=\s*(?:[,，。;；?？!！]|$|"
            # "和花250万买一台比哪个划算": or the comparison that follows it
            r"(?:相?比|哪个|哪种|还是|更|划算|合算))))"
        ),
        "node",
    ),
    # "or buy a box for $250k", "buying the server at $300k": the thing bought, then its price
    (
        re.compile(
            r"\bbuy(?:ing)?\s+(?:(?:a|an|the|one|our own|our|it)\s+)?(?:⟨gpu⟩\s*)?"
            + _EN_NODE
            + r"\s*(?:outright\s*)?(?:for|at)\s*"
            + _AMOUNT
        ),
        "node",
    ),
    (re.compile(_EN_CARD + r"[^,.;?!]{0,20}?\bat\s*" + _AMOUNT + r"\s*(?:each|apiece)"), "gpu"),
)


#: "… 8x H100 node at $2.5/gpu/hr vs buying one for $300k": a pronoun bought, whose unit is the
#: server or card named last before it (`_antecedent`).
_ONE_BOUGHT = re.compile(r"\bbuy(?:ing)?\s+(?:one|1|it)\s+(?:outright\s*)?(?:for|at)\s*" + _AMOUNT)
#: A server or a card named (not "/gpu/hr" or "per gpu": the unit of a rent).
_NAMED_UNIT = re.compile(_EN_NODE + r"|(?<!/)(?<!per )(?:⟨gpu⟩|\bgpus?\b|\bcards?\b)")


def _antecedent(before: str) -> str:
    """ "node" or "gpu": what the last server or card named before a "buying one" is."""
    named = [m.group() for m in _NAMED_UNIT.finditer(before)]
    return "node" if named and re.fullmatch(_EN_NODE, named[-1]) else "gpu"


def read_purchase_price(text: str) -> PurchasePrice | tuple[None, None]:
    """The first stated purchase price in the text, its unit, currency and span; (None, None)
    when the text states none (an amount needs a currency, or a 台/张 beside it in Chinese).

    >>> read_purchase_price("8x ⟨gpu⟩ node at $2.5/gpu/hr vs buying 1 for $300k")[:3]
    (300000.0, 'node', 'USD')
    >>> read_purchase_price("⟨gpu⟩ at $2/hr or buying one at $25k?")[:3]
    (25000.0, 'gpu', 'USD')
    >>> without_purchase_price("buy 8x ⟨gpu⟩ at $30k each or rent them")
    'buy 8x ⟨gpu⟩ at           or rent them'
    """
    found = [
        (match.start(2), order, one)
        for order, (pattern, unit) in enumerate(_FORMS)
        for match in _matches(pattern, text)
        if (one := _priced(text, match, unit)) is not None
    ]
    found += [
        (match.start(2), len(_FORMS), one)
        for match in _matches(_ONE_BOUGHT, text)
        if (one := _priced(text, match, _antecedent(text[: match.start()]))) is not None
    ]
    # the first amount; read by both a server's and a card's form ("a dgx h100 costs"), the
    # server's (earlier in `_FORMS`)
    return min(found)[2] if found else (None, None)


def _matches(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Every match, overlapping ones too: "服务器1台2500000" is first matched as "服务器1" (a count,
    no price), then as "1台2500000"."""
    found, at = [], 0
    while (match := pattern.search(text, at)) is not None:
        found.append(match)
        at = match.start() + 1
    return found


#: Words that make the amount no purchase price: a rent, a power, a memory, a bandwidth.
_NOT_PRICE = re.compile(
    r"小时|卡时|每时|/\s*h|hour|\bhr\b|月|month|租|rent|功耗|功率|电|显存|内存|带宽|token"
)
#: After an amount with no currency (Chinese only): a unit, so a count or a size, not money.
_BARE_UNIT = re.compile(r"\s*(?:[a-z%×*]|卡|张|台|个|人|路|条|倍|位|层|秒|分|[千百]?亿?参数)")


#: A card an English form starts with ("⟨gpu⟩ at $30k each", "gpus cost $30k", or the "gpu" inside
#: "⟨gpu⟩" where an overlapping match begins): it is named, so it is not blanked with the price.
_LEADING_CARD = re.compile(r"⟨?gpu|cards?\b")


def _priced(text: str, match: re.Match[str], unit: str) -> PurchasePrice | None:
    before, number, scale, after = match.groups()[-4:]
    symbol = before or after
    if number is None or _NOT_PRICE.search(match.group()):
        return None
    end = max(match.end(g) for g in range(1, 5) if match.group(g) is not None)
    if _PER_TIME.match(text, end):
        return None  # "$2 per GPU-hour", "8元/小时": a rent
    if symbol is None and not (
        re.search(r"[\u4e00-\u9fff]", match.group()) and not _BARE_UNIT.match(text, end)
    ):
        return None  # "单卡989 tflops", an English amount with no currency: no price
    value = to_float(number) * _SCALE[scale]
    if value < 100:
        return None  # "每台8卡": a count, not a price
    start = match.start(1) if before else match.start(2)
    if unit == "gpu" and not _LEADING_CARD.match(match.group()):
        start = match.start()  # "一张25万": no count of one card; "8x ⟨gpu⟩ at $30k" keeps its 8
    return value, unit, CURRENCY[symbol] if symbol else "CNY", (start, max(end, match.end()))


def without_purchase_price(text: str) -> str:
    """`text` with the stated purchase price blanked (same length), so that "25万一张" is no
    count of one card and "$300k" no money held."""
    price = read_purchase_price(text)
    if price[0] is None:
        return text
    start, end = price[3]
    return text[:start] + " " * (end - start) + text[end:]
