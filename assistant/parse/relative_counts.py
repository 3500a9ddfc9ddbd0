"""Counts a follow-up states relative to the turn before (in normalised text: "再加1台",
"少2张", "翻倍", "half the tokens?"), or a bare number ("16呢") read as a count
(`followup.as_followup` uses them).

Examples:
    >>> added_units("再加1台呢"), added_units("少2张呢"), added_units("用8张")
    (('nodes', 1), ('gpu_count', -2), None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from assistant.parse.relative_scale import scaled_slots, scaled_units
from assistant.records import Query, Scenario

__all__ = [
    "MAX_NAMED_COUNT",
    "added_counts",
    "added_units",
    "bare_count",
    "scaled_units",
    "unapplied_change",
]


_ADD_VERB = r"(?:再加|再添|再多|多加|加上?|增加|添加|再买|\badd(?:ing)?|\bplus)"
_NODE_UNIT = r"(?:台|个节点|节点|个机器|机器|nodes?\b|servers?\b|machines?\b|boxes\b)"
_GPU_UNIT = r"(?:张|块|个?卡|gpus?\b|cards?\b|⟨gpu⟩)"
#: (slot, pattern): "再加一台" (normalised "再加1台"), "add 2 more nodes", "one more server".
_ADDED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(pattern))
    for slot, unit in (("nodes", _NODE_UNIT), ("gpu_count", _GPU_UNIT))
    for pattern in (
        _ADD_VERB + r"\s*(?:another\s+)?(\d{1,4})\s*(?:more\s+|extra\s+)?" + unit,
        r"(\d{1,4})\s+(?:more|extra|additional)\s+" + unit,
        r"\banother\s+()" + unit,
    )
)


#: "少2张呢", "再减1台", "去掉2张卡", "with 2 fewer GPUs", "remove 2 GPUs", "one less node": the
#: count goes down ("至少4张" / "不少于4张" say a bound, not a change).
_REMOVE_VERB = (
    r"(?:(?<![至最多不])少|减少|减掉|减去|再减|去掉|拿掉|撤掉|\bremov(?:e|ing)|\bdrop(?:ping)?|"
    r"\bminus|\btake away|\btake out|\bwithout)"
)
_REMOVED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(pattern))
    for slot, unit in (("nodes", _NODE_UNIT), ("gpu_count", _GPU_UNIT))
    for pattern in (
        _REMOVE_VERB + r"\s*(\d{1,4})\s*(?:of the\s+)?" + unit,
        r"(\d{1,4})\s+(?:fewer|less)\s+" + unit,
    )
)


def added_units(text: str) -> tuple[str, int] | None:
    """("nodes", 1) for "再加一台呢", ("gpu_count", 8) for "add 8 more GPUs", ("gpu_count", -2)
    for "少2张呢" / "with 2 fewer GPUs": a change relative to the previous turn's count (the
    text is normalised: "一台" is "1台").

    >>> added_units("再加1台呢"), added_units("what about 2 more nodes?"), added_units("16台呢")
    (('nodes', 1), ('nodes', 2), None)
    >>> added_units("少2张呢"), added_units("with 2 fewer gpus?"), added_units("至少4张卡")
    (('gpu_count', -2), ('gpu_count', -2), None)
    """
    for slot, pattern in _ADDED:
        match = pattern.search(text)
        if match is not None:
            return slot, int(match.group(1) or 1)
    for slot, pattern in _REMOVED:
        match = pattern.search(text)
        if match is not None:
            return slot, -int(match.group(1))
    return None


def added_counts(
    text: str, previous: Scenario | Query | None, site_nodes: Mapping[str, int]
) -> dict[str, float]:
    """The new total an "add N more" follow-up means: {"nodes": 3} for "再加一台呢" after two
    servers; empty when the text adds nothing or there is nothing known to add to.

    `site_nodes` maps a site profile id to its node count ("吉林GPU服务器" is one server).
    """
    if previous is None:
        return {}
    prev = previous.scenario if isinstance(previous, Query) else previous
    added = added_units(text)
    if added is None:
        return dict(scaled_slots(text, prev)[1])  # "再加一倍卡呢", "数据翻倍呢", "qps多1半呢"
    slot, delta = added
    if slot == "gpu_count":
        base = prev.gpu_count
    elif prev.nodes:
        base = prev.nodes
    elif prev.site_profile:
        base = site_nodes.get(prev.site_profile)
    else:
        base = 1 if prev.gpu_count else None  # "8张A100" is one server
    return {slot: base + delta} if base else {}


def unapplied_change(
    text: str, previous: Scenario | Query | None, site_nodes: Mapping[str, int]
) -> str | None:
    """The slot a relative change in `text` names when the previous turn has no value of it
    to change ("what if the QPS doubles?" after a question that stated no QPS; "再加2张" after
    "需要几张?"), else None: the answer says so rather than keeping the set-up silently.

    >>> prev = Scenario(model="Llama-3.1-8B", task="inference", gpu_count=2, concurrency=20)
    >>> unapplied_change("what if the qps doubles?", prev, {})
    'target_qps'
    >>> unapplied_change("并发翻倍呢", prev, {}) is None  # 20 users, doubled: applied
    True
    """
    if previous is None or added_counts(text, previous, site_nodes):
        return None
    added = added_units(text)
    if added is not None:
        return added[0]
    prev = previous.scenario if isinstance(previous, Query) else previous
    return scaled_slots(text, prev)[0]


#: The largest bare number read as a count of a card named with no count (beyond: a year).
MAX_NAMED_COUNT = 1024
_BARE = re.compile(r"(?<![\w.⟩-])(\d{1,6})(?![\w.%⟨])")


def bare_count(text: str) -> int | None:
    """The one bare whole number of a follow-up ("and if we had 32?", "那64呢"), else None."""
    numbers = _BARE.findall(text)
    return int(numbers[0]) if len(numbers) == 1 else None
