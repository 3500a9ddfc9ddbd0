"""A power budget the hardware must fit in: "our DC has 10 MW", "机房只有200kW供电", "a 30 kW
rack". The question then asks how many GPUs (or whole servers) that power feeds.

Three things are read from the words: the budget in watts (a slot), whether it is the facility's
(a data centre, a machine room: cooling and distribution come out of it, so the draw is
multiplied by the PUE) or IT power (a rack's feed, "IT power": at the socket), and whether whole
servers are asked ("how many 8x H100 servers", "几台服务器").

Examples:
    >>> read_power_budget("our dc has 10 mw, how many h100s can we power?")
    10000000.0
    >>> read_power_budget("机房只有200kw供电，最多能放多少张h800"), read_power_budget("30 kw rack")
    (200000.0, 30000.0)
    >>> read_power_budget("8张a100满载一个月要多少电, 1000 kwh"), read_power_budget("功耗700w")
    (None, None)
    >>> power_scope("our DC has 10 MW"), power_scope("一个机柜20kW"), power_scope("1 MW")
    ('facility', 'it', None)
    >>> servers_asked("a 30 kw rack: how many 8x h100 servers?"), servers_asked("能放几台服务器")
    (True, True)
    >>> servers_asked("how many h100s can we power?")
    False
"""

from __future__ import annotations

import re
from typing import Literal

from assistant.parse.numbers import NUMBER, to_float

__all__ = ["PowerScope", "power_scope", "read_power_budget", "servers_asked"]

PowerScope = Literal["facility", "it"]

#: An amount of power: kW or MW ("10 MW", "200kW", "2兆瓦"), never an energy ("1000 kWh", "千瓦时").
_AMOUNT = re.compile(
    NUMBER + r"\s*(mw|kw|兆瓦|千瓦|万千瓦)(?![a-z]|时|·\s*h|\s*h\b|\s*/\s*h)", re.IGNORECASE
)
_SCALE = {"kw": 1e3, "千瓦": 1e3, "mw": 1e6, "兆瓦": 1e6, "万千瓦": 1e7}
#: Words that make an amount of power a budget to fit in, not a draw asked or stated.
_BUDGET = re.compile(
    r"供电|电力|配电|电源容量|功率预算|容量|只有|仅有|总共|一共|机柜|机架|机房|数据中心|园区|"
    r"\bpower\b|budget|\brack|cabinet|\bdc\b|data ?cent|datacenter|facility|\bsite\b|campus|"
    r"\bgrid\b|\bfeed|supply|\bit load|capacity|\bhas\b|\bhave\b|\bonly\b|\bwith\b|"
    r"how many|多少|几",
    re.IGNORECASE,
)
#: A rack's or IT feed (at the socket: no PUE), said before the facility words are looked at.
_IT = re.compile(
    r"\brack|cabinet|机柜|机架|(?<!can )(?<!could )(?<!will )\bit (?:power|load|capacity)|"
    r"it\s*(?:功率|负载|负荷)|"
    r"at the (?:socket|wall)|\bpdu|插座",
    re.IGNORECASE,
)
#: The facility's own power: cooling and distribution come out of it (x PUE).
_FACILITY = re.compile(
    r"\bdc\b|data ?cent|datacenter|facility|\bsite\b|campus|\bgrid\b|utility|substation|"
    r"机房|数据中心|园区|电网|市电|变电",
    re.IGNORECASE,
)
#: Whole servers asked ("how many 8x H100 servers", "能放几台", "多少台服务器").
_SERVERS = re.compile(
    r"how many\b[^?。？]{0,30}?\b(?:servers|nodes|machines|boxes|systems|dgx)|"
    r"(?:几|多少)\s*台|(?:几|多少)\s*(?:个|套)?\s*(?:\d+\s*卡)?\s*(?:服务器|整机|节点)",
    re.IGNORECASE,
)


def read_power_budget(text: str) -> float | None:
    """The power budget in watts ("10 MW", "200kW供电"), or None when no amount of power is
    said as a budget (an energy in kWh, or a card's draw in W, is none)."""
    if not _BUDGET.search(text):
        return None
    match = _AMOUNT.search(text)
    if match is None:
        return None
    return to_float(match.group(1)) * _SCALE[match.group(2).lower()]


def power_scope(text: str) -> PowerScope | None:
    """Whose power the budget is: "it" (a rack, IT power), "facility" (a data centre, a machine
    room), or None when the words do not say."""
    if _IT.search(text):
        return "it"
    return "facility" if _FACILITY.search(text) else None


def servers_asked(text: str) -> bool:
    """True when the question asks for whole servers, not GPUs."""
    return bool(_SERVERS.search(text))
