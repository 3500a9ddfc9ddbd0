"""A generation volume over a day or an hour ("1 mil tokens/day", "每天生成1亿token"): the
average rate it needs, tokens a second, as `load.read_qps` averages "1M requests per day".

It is read (and masked) before the prompt and reply lengths, so "每天生成100000000token" is
no 100M-token reply. The answer says the figure is an average (`parse.token_volume`): the busy
hour needs more, and only the user knows by how much.

Examples:
    >>> round(read_token_volume("1 mil tokens/day of generation")[0], 2)
    11.57
    >>> read_token_volume("每天生成100000000token,用⟨model⟩")
    (1157.4074074074074, ' ,用⟨model⟩')
    >>> round(read_token_volume("日均输出50000000token")[0])
    579
    >>> read_token_volume("每小时3600000个token")[0], read_token_volume("生成1000 token")[0]
    (1000.0, None)
"""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, to_float

__all__ = ["read_token_volume"]

_SCALE = {
    None: 1.0, "k": 1e3, "m": 1e6, "mil": 1e6, "million": 1e6, "mn": 1e6,
    "b": 1e9, "bn": 1e9, "billion": 1e9, "万": 1e4, "亿": 1e8,
}  # fmt: skip
_SECONDS = {
    "day": 86400.0, "每天": 86400.0, "每日": 86400.0, "一天": 86400.0, "日均": 86400.0,
    "hour": 3600.0, "每小时": 3600.0, "一小时": 3600.0,
}  # fmt: skip
_VOLUME = (
    re.compile(
        NUMBER + r"\s*(k|m|mil|million|mn|b|bn|billion)?\s*(?:output |generated )?tokens?\s*"
        r"(?:/|per|a|an|each|every)\s*(day|hour)\b"
    ),
    re.compile(
        r"(每天|每日|一天|日均|每小时|一小时)\s*(?:要|需要|能|得)?\s*"
        r"(?:生成|输出|处理|产出|吐出?|跑)?\s*"
        r"(?:约|大约|大概|差不多)?\s*" + NUMBER + r"\s*(万|亿)?\s*(?:个)?\s*(?:tokens?|词元)"
    ),
)


def read_token_volume(text: str) -> tuple[float | None, str]:
    """(the average tokens a second a daily or hourly volume needs, the text with it masked),
    or (None, text)."""
    english = _VOLUME[0].search(text)
    if english is not None:
        amount = to_float(english.group(1)) * _SCALE[english.group(2)]
        rate = amount / _SECONDS[english.group(3)]
        return rate, text[: english.start()] + " " + text[english.end() :]
    chinese = _VOLUME[1].search(text)
    if chinese is None:
        return None, text
    amount = to_float(chinese.group(2)) * _SCALE[chinese.group(3)]
    rate = amount / _SECONDS[chinese.group(1)]
    return rate, text[: chinese.start()] + " " + text[chinese.end() :]
