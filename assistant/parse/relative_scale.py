"""Changes a follow-up states as a multiple of the turn before's value ("翻倍", "减半", "多一半",
"3倍", "double the GPUs", "halve the users", "triple the tokens", "+50% QPS"), applied to the
slot named next to the word: the GPU or node count, the token budget, the context length, the
users in flight, the QPS, throughput or first-token target, the deadline
(`relative_counts.added_counts` uses them, as it uses "再加1台" / "少2张").

Examples:
    >>> scaled_units("qps翻倍呢"), scaled_units("what if the qps doubles?")
    (('target_qps', 2.0), ('target_qps', 2.0))
    >>> scaled_units("qps多1半呢"), scaled_units("and with 50% more tokens/s?")
    (('target_qps', 1.5), ('target_tokens_per_second', 1.5))
    >>> scaled_units("如果期限减半呢"), scaled_units("and in half the time?")
    (('deadline_seconds', 0.5), ('deadline_seconds', 0.5))
"""

from __future__ import annotations

import re

from assistant.records import Scenario

__all__ = ["scaled_slots", "scaled_units"]

#: A multiple said as a word: "翻倍" / "加倍" / "double(s)" / "twice" ×2, "多一半" ×1.5 (half as
#: many again), "减半" / "halve" / "half" ×0.5, "triple" ×3 (the text is normalised: "一倍" is
#: "1倍", "一半" is "1半").
_WORDS: tuple[tuple[float, re.Pattern[str]], ...] = (
    (2.0, re.compile(r"翻1?倍|加倍|(?:再|多)?加1倍|增加1倍|\bdoubl(?:e|es|ed|ing)\b|\btwice\b")),
    (1.5, re.compile(r"(?:多|加|增加)1半")),
    # "用一半的卡" is half; "多一半" is half as many again (above)
    (0.5, re.compile(r"减半|砍半|少1半|(?<![多加\d.])1半|\bhal(?:f|ve|ves|ved|ving)\b")),
    (3.0, re.compile(r"\btripl(?:e|es|ed|ing)\b")),
    (4.0, re.compile(r"\bquadrupl(?:e|es|ed|ing)\b")),
)
#: "3倍" / "增加到3倍" (the verb goes before a slot word: "上下文 3倍") / "3x the users" /
#: "2 times the context": ×N; "2x H100" is two cards, not a factor.
_MULTIPLE = re.compile(
    r"(?<![\d.])(\d{1,3}(?:\.\d+)?)\s*(?:倍|times\b|(?:x\b|×)(?!\s*(?:⟨gpu⟩|gpus?\b|cards?\b)))"
)
#: "+50%", "提高50%", "up 50%", "50% more": ×1.5; "-20%", "减少20%", "20% less": ×0.8.
_UP = re.compile(
    r"(?:\+|增加|提高|提升|上涨|涨|(?:\bup|\bincrease[sd]?|\bgrows?|\brise[sn]?)(?:\s+by)?)\s*"
    r"(\d{1,3}(?:\.\d+)?)\s*%|"
    r"(\d{1,3}(?:\.\d+)?)\s*%\s*(?:more|higher|larger|bigger|extra)\b"
)
_DOWN = re.compile(
    r"(?:(?<![\w.])-|减少|降低|下降|(?:\bdown|\bcut|\breduced?|\bdrops?|\bfalls?)(?:\s+by)?)\s*"
    r"(\d{1,2}(?:\.\d+)?)\s*%|"
    r"(\d{1,2}(?:\.\d+)?)\s*%\s*(?:less|fewer|lower|smaller)\b"
)

#: (slot, nouns): what a relative change applies to ("卡数减半", "double the GPUs", "数据翻倍",
#: "QPS多一半", "half the time"). A per-second token rate is a throughput target, not a budget;
#: the time to the first token is a latency target, not the deadline.
_RATE = (
    r"tokens?\s*/\s*(?:s\b|sec\b|秒)(?!\s*/)|\btok/s\b|tokens? per second|"
    r"每秒(?:生成|输出)?的?token"
)
_SCALED_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("nodes", re.compile(r"台|节点|机器|服务器|\bnodes?\b|\bservers?\b|\bmachines?\b")),
    ("gpu_count", re.compile(r"卡|gpu|显卡|⟨gpu⟩|\bcards?\b|\baccelerators?\b")),
    ("target_tokens_per_second", re.compile(_RATE + r"|吞吐|\bthroughput\b")),
    (
        "tokens",
        re.compile(
            r"数据|语料|(?<!每秒)(?<!每秒的)(?<!首)token(?!s?\s*/|s? per second)|词元|训练量|"
            r"\bdata(?:set)?\b"
        ),
    ),
    ("context_length", re.compile(r"上下文|序列长度|\bcontext\b|\bsequence length\b")),
    ("concurrency", re.compile(r"并发|用户|人数|\bconcurren\w*|\busers\b|\bpeople\b|\bsessions\b")),
    (
        "target_qps",
        re.compile(
            r"(?<![a-z])[qr]ps(?![a-z])|(?<!并发)请求|(?<!concurrent )\brequests?\b|"
            r"\btraffic\b|流量"
        ),
    ),
    (
        "target_first_token_seconds",
        re.compile(r"首\s*token|首字|\bttft\b|\bfirst[- ]token\b|\btime to first token\b"),
    ),
    (
        "deadline_seconds",
        re.compile(
            r"期限|截止|工期|时限|(?<!token)(?<!首字)(?<!响应)(?<!延迟)时间|\bdeadline\b|"
            r"(?<!token )(?<!response )\btime(?:line|frame)?\b(?!\s*(?:to|per)\b)|\bschedule\b"
        ),
    ),
)

#: Halves that scale nothing: "half precision", "in half a year".
_NOT_SCALED = re.compile(r"half[- ]precision|half an? (?:year|month|week|day|hour)|half[- ]year")
#: At most this many characters between the change and what it changes ("double the number
#: of GPUs"), so "in half a year with 8 GPUs" halves nothing.
_NEAR = 16
#: A bare multiple ("3倍") sits right by its noun ("上下文 3倍", "3倍的并发", "3x the users");
#: one said further off, or by a card's name ("H100 是 A100 的 3 倍"), compares: no slot moves.
_NEAR_MULTIPLE = 5


def _factors(text: str) -> list[tuple[float, tuple[int, int], int]]:
    """(factor, span, how near its noun must be) of every relative change in `text`, the
    multiples said in words first."""
    found = [(f, m.span(), _NEAR) for f, p in _WORDS for m in p.finditer(text)]
    found += [(float(m.group(1)), m.span(), _NEAR_MULTIPLE) for m in _MULTIPLE.finditer(text)]
    for sign, pattern in ((1.0, _UP), (-1.0, _DOWN)):
        for match in pattern.finditer(text):
            percent = float(match.group(1) or match.group(2))
            found.append((1.0 + sign * percent / 100.0, match.span(), _NEAR))
    return found


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
    >>> scaled_units("用1半的卡呢"), scaled_units("用户多1半呢"), scaled_units("2x ⟨gpu⟩?")
    (('gpu_count', 0.5), ('concurrency', 1.5), None)
    >>> scaled_units("用户数翻倍呢"), scaled_units("half as many people?")
    (('concurrency', 2.0), ('concurrency', 0.5))
    >>> scaled_units("上下文 3倍呢"), scaled_units("triple the tokens"), scaled_units("qps -20%")
    (('context_length', 3.0), ('tokens', 3.0), ('target_qps', 0.8))
    """
    text = _NOT_SCALED.sub(" ", text)
    for factor, span, reach in _factors(text):
        near = [
            (_gap(span, noun.span()), slot, noun.group(0) == "⟨gpu⟩")
            for slot, nouns in _SCALED_SLOTS
            for noun in nouns.finditer(text)
        ]
        near = [n for n in near if n[0] <= reach and not (reach == _NEAR_MULTIPLE and n[2])]
        if factor > 0 and factor != 1 and near:
            return min(near)[1], factor
    return None


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Characters between two spans (0 when they touch or overlap)."""
    return max(0, b[0] - a[1], a[0] - b[1])


#: Slots that hold whole numbers: a scaled count or length is rounded (at least 1).
_WHOLE = frozenset({"nodes", "gpu_count", "concurrency", "context_length"})


def _base(slot: str, prev: Scenario) -> dict[str, float]:
    """The previous turn's value(s) a relative change of `slot` multiplies: {slot: value}, or
    the slots that stand for it (the GPUs of the nodes stated; the 20-tokens-per-parameter
    budget and the context the answer assumed when none was given (prompt + output when those
    were stated, else the model's own, at most the default); the batch of a
    serving question with no users; a per-stream speed for a throughput); empty when none."""
    from calculators.catalog.models import MODELS
    from calculators.defaults import (
        CHINCHILLA_TOKENS_PER_PARAM,
        DEFAULT_CONTEXT_TOKENS,
        DEFAULT_OUTPUT_TOKENS,
        DEFAULT_PROMPT_TOKENS,
    )

    value = getattr(prev, slot)
    if value:
        if slot == "concurrency" and prev.batch_size == prev.concurrency:
            return {slot: float(value), "batch_size": float(value)}  # the batch was the users
        return {slot: float(value)}
    if slot == "gpu_count" and prev.nodes and prev.gpus_per_node:
        return {slot: float(prev.nodes * prev.gpus_per_node)}
    if slot == "tokens" and prev.params:
        return {slot: prev.params * CHINCHILLA_TOKENS_PER_PARAM}
    if slot == "context_length" and (prev.prompt_tokens or prev.output_tokens):
        # serving lengths stated, no context: each sequence holds its prompt and its output
        prompt = prev.prompt_tokens or DEFAULT_PROMPT_TOKENS
        return {slot: float(prompt + (prev.output_tokens or DEFAULT_OUTPUT_TOKENS))}
    if slot == "context_length" and (prev.model or prev.params):
        model = MODELS.get(prev.model or "")
        own = model.context_length if model is not None else None
        return {slot: float(min(own or DEFAULT_CONTEXT_TOKENS, DEFAULT_CONTEXT_TOKENS))}
    if slot == "concurrency" and prev.task == "inference" and prev.batch_size:
        return {slot: float(prev.batch_size), "batch_size": float(prev.batch_size)}
    if slot == "target_tokens_per_second" and prev.target_seconds_per_token:
        # a speed per stream, kept as its seconds per token: twice the speed is half the time
        return {"target_seconds_per_token": 1.0 / prev.target_seconds_per_token}
    return {}


def scaled_slots(text: str, prev: Scenario) -> tuple[str | None, dict[str, float | int]]:
    """(the slot a relative change in `text` names, its new value(s) against `prev`): (None,
    {}) when the text scales nothing, (slot, {}) when `prev` has no value of that slot to scale
    (the answer says so: `followup.as_followup`)."""
    scaled = scaled_units(text)
    if scaled is None:
        return None, {}
    slot, factor = scaled
    out: dict[str, float | int] = {}
    for name, value in _base(slot, prev).items():
        if name == "target_seconds_per_token":
            out[name] = 1.0 / (value * factor)
        elif name in _WHOLE or name == "batch_size":
            out[name] = max(1, round(value * factor))  # counts and lengths are whole
        else:
            out[name] = value * factor
    return slot, out
