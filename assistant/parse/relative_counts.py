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

from assistant.records import Query, Scenario

__all__ = ["MAX_NAMED_COUNT", "added_counts", "added_units", "bare_count", "scaled_units"]


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
        return _scaled_counts(text, prev)  # "再加一倍卡呢", "数据翻倍呢", "half the tokens?"
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


#: (factor, pattern): "翻倍" / "再加一倍" / "double" / "twice" ×2, "减半" / "half" ×0.5, "变成3倍"
#: ×3 (the text is normalised: "一倍" is "1倍").
_FACTORS: tuple[tuple[float | None, re.Pattern[str]], ...] = (
    (2.0, re.compile(r"翻1?倍|(?:再|多)?加1倍|增加1倍|\bdoubl(?:e|ed|ing)\b|\btwice\b|\b2x\b")),
    # "用一半的卡" (一半 normalised to 1半) is half; "多一半" is half as many more, not read
    (0.5, re.compile(r"减半|砍半|少1半|(?<![多\d.])1半|\bhal(?:f|ve|ved|ving)\b")),
    (None, re.compile(r"(?:变成|变为|到|成|是原来的|\bto\b)\s*(\d{1,3})\s*(?:倍|x\b|times\b)")),
)
#: (slot, nouns): what a relative change applies to ("卡数减半", "double the GPUs", "数据翻倍").
_SCALED_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("nodes", re.compile(r"台|节点|机器|服务器|\bnodes?\b|\bservers?\b|\bmachines?\b")),
    ("gpu_count", re.compile(r"卡|gpu|显卡|⟨gpu⟩|\bcards?\b|\baccelerators?\b")),
    ("tokens", re.compile(r"数据|语料|token|词元|训练量|\bdata(?:set)?\b")),
    ("context_length", re.compile(r"上下文|序列长度|\bcontext\b|\bsequence length\b")),
    ("concurrency", re.compile(r"并发|用户|人数|\bconcurren\w*|\busers\b|\bpeople\b|\bsessions\b")),
)


#: Halves that scale nothing: "half precision", "in half a year".
_NOT_SCALED = re.compile(r"half[- ]precision|half an? (?:year|month|week|day|hour)|half[- ]year")
#: At most this many characters between the change and what it changes ("double the number
#: of GPUs"), so "in half a year with 8 GPUs" halves nothing.
_NEAR = 16


def scaled_units(text: str) -> tuple[str, float] | None:
    """("gpu_count", 2.0) for "再加一倍卡呢" / "double the GPUs", ("tokens", 0.5) for "half the
    tokens?": a change relative to the previous turn's value, applied to the thing named next
    to it (a bare "翻倍呢" is not read).

    >>> scaled_units("再加1倍卡呢"), scaled_units("数据翻倍呢"), scaled_units("half the tokens?")
    (('gpu_count', 2.0), ('tokens', 2.0), ('tokens', 0.5))
    >>> scaled_units("节点数翻倍呢"), scaled_units("翻倍呢"), scaled_units("8张⟨gpu⟩训练")
    (('nodes', 2.0), None, None)
    >>> scaled_units("8 gpus in half precision"), scaled_units("in half a year with 8 gpus")
    (None, None)
    >>> scaled_units("用1半的卡呢"), scaled_units("多1半的卡呢")
    (('gpu_count', 0.5), None)
    >>> scaled_units("用户数翻倍呢"), scaled_units("half as many people?")
    (('concurrency', 2.0), ('concurrency', 0.5))
    """
    text = _NOT_SCALED.sub(" ", text)
    for value, pattern in _FACTORS:
        for match in pattern.finditer(text):
            factor = value if value is not None else float(match.group(1))
            near = [
                (_gap(match.span(), noun.span()), slot)
                for slot, nouns in _SCALED_SLOTS
                for noun in nouns.finditer(text)
            ]
            near = [n for n in near if n[0] <= _NEAR]
            if factor > 0 and near:
                return min(near)[1], factor
    return None


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Characters between two spans (0 when they touch or overlap)."""
    return max(0, b[0] - a[1], a[0] - b[1])


def _scaled_base(slot: str, prev: Scenario) -> float | None:
    """The previous turn's value a relative change multiplies (tokens: the 20-per-parameter
    default when only a size was given, as the answer assumed)."""
    from calculators.defaults import CHINCHILLA_TOKENS_PER_PARAM

    if slot == "gpu_count" and prev.gpu_count is None and prev.nodes and prev.gpus_per_node:
        return float(prev.nodes * prev.gpus_per_node)
    if slot == "tokens" and prev.tokens is None and prev.params:
        return prev.params * CHINCHILLA_TOKENS_PER_PARAM
    value = getattr(prev, slot)
    return float(value) if value else None


def _scaled_counts(text: str, prev: Scenario) -> dict[str, float | int]:
    scaled = scaled_units(text)
    if scaled is None:
        return {}
    slot, factor = scaled
    base = _scaled_base(slot, prev)
    if base is None:
        return {}
    value = base * factor
    if slot == "tokens":
        return {slot: value}
    return {slot: max(1, round(value))}  # counts and lengths are whole


#: The largest bare number read as a count of a card named with no count (beyond: a year).
MAX_NAMED_COUNT = 1024
_BARE = re.compile(r"(?<![\w.⟩-])(\d{1,6})(?![\w.%⟨])")


def bare_count(text: str) -> int | None:
    """The one bare whole number of a follow-up ("and if we had 32?", "那64呢"), else None."""
    numbers = _BARE.findall(text)
    return int(numbers[0]) if len(numbers) == 1 else None
