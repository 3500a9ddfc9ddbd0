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
    >>> read_power_budget("30,000 watts of power?"), read_power_budget("7.5 kw circuit")
    (30000.0, 7500.0)
    >>> read_power_budget("功率上限 8000 瓦"), read_power_budget("预算2w在家微调, 买几张卡")
    (8000.0, None)
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

#: A number with thousands separators ("30,000") or without (NUMBER).
_GROUPED = r"(?<![a-z0-9.,])([-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?)|" + NUMBER
#: An amount of power: W, kW or MW ("10 MW", "200kW", "2兆瓦", "30,000 watts", "8000 瓦"; "15千瓦"
#: reaches here as "15000瓦"), never an energy ("1000 kWh", "千瓦时", "瓦时").
_AMOUNT = re.compile(
    f"(?:{_GROUPED})"
    r"\s*(mw|kw|兆瓦|千瓦|万千瓦|watts?|瓦特?|w)(?![a-z]|时|·\s*h|\s*h\b|\s*/\s*h)",
    re.IGNORECASE,
)
_SCALE = {"kw": 1e3, "千瓦": 1e3, "mw": 1e6, "兆瓦": 1e6, "万千瓦": 1e7}
#: Below this, an amount in plain watts is a card's or a server's draw ("700W"), not a budget.
_MIN_WATTS_BUDGET = 2000.0
#: Words before a plain-watts amount that make it a draw, not a budget ("TDP 700W", "每卡 700 瓦").
_DRAW = re.compile(r"tdp|功耗|耗电|每张|每卡|单卡|per (?:gpu|card)|each|draws?|consum", re.I)
#: A bare "w" is 万 in a price ("预算2w"): only a power word elsewhere makes it watts.
_POWER_WORD = re.compile(r"功率|供电|电力|电源|power|circuit|breaker|psu|supply|\bfeed", re.I)
#: Words that make an amount of power a budget to fit in, not a draw asked or stated.
_BUDGET = re.compile(
    r"供电|电力|配电|电源容量|功率预算|容量|只有|仅有|总共|一共|机柜|机架|机房|数据中心|园区|"
    r"\bpower\b|budget|\brack|cabinet|\bdc\b|data ?cent|datacenter|facility|\bsite\b|campus|"
    r"\bgrid\b|\bfeed|supply|\bit load|capacity|\bhas\b|\bhave\b|\bonly\b|\bwith\b|"
    r"\bhalls?\b|\b(?:server|machine|data|computer) rooms?\b|\bbuilding\b|\bhost\b|"
    r"上限|最多|最大|不超过|circuit|breaker|\blimit|\bcap\b|at most|up to|"
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
    r"\bhalls?\b|\b(?:server|machine|data|computer) rooms?\b|\bbuilding\b|"
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
    for match in _AMOUNT.finditer(text):
        number, unit = (match.group(1) or match.group(2)).replace(",", ""), match.group(3).lower()
        if unit in _SCALE:
            return to_float(number) * _SCALE[unit]
        if _plain_watts_budget(text, match.start(), to_float(number), unit):
            return to_float(number)
    return None


def _plain_watts_budget(text: str, start: int, watts: float, unit: str) -> bool:
    """An amount in plain watts is a budget when it is more than one machine draws and no draw
    word just before it says otherwise; a bare "w" only beside a power word (else 万)."""
    if watts < _MIN_WATTS_BUDGET or _DRAW.search(text[max(0, start - 12) : start]):
        return False
    return unit != "w" or bool(_POWER_WORD.search(text))


def power_scope(text: str) -> PowerScope | None:
    """Whose power the budget is: "it" (a rack, IT power), "facility" (a data centre, a machine
    room), or None when the words do not say."""
    if _IT.search(text):
        return "it"
    return "facility" if _FACILITY.search(text) else None


def servers_asked(text: str) -> bool:
    """True when the question asks for whole servers, not GPUs."""
    return bool(_SERVERS.search(text))
