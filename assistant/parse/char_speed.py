"""A per-user speed said in Chinese characters ("每人每秒15个字"): read as tokens a second.

One Chinese character is about one token, more or less with each model's tokenizer; the answer
says the reading (`parse.chars_as_tokens`). A speed in tokens is `assistant.parse.load`.
"""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, to_float

__all__ = ["read_chars_per_second"]

#: "每人每秒15个字", "每路每秒20个汉字": a per-user speed said in Chinese characters; read as
#: tokens (one character is about one token, varying with the tokenizer), and the answer says so.
_CHAR_SPEED = re.compile(
    r"(?:每路|每个用户|每用户|每位用户|每人|每个人|每位|单路|单用户|每个请求)\s*(?:的)?"
    r"\s*(?:生成|输出|速度|出字)?\s*每秒\s*(?:要|需要|能|得|出)?\s*"
    r"(?:不低于|不少于|至少|大于|超过|>=|≥|>)?\s*" + NUMBER + r"\s*(?:个)?\s*汉?字(?!节)"
)


def read_chars_per_second(text: str) -> float | None:
    """A per-user speed in Chinese characters a second ("每人每秒15个字" → 15), or None.

    >>> read_chars_per_second("100个人同时用,每人每秒15个字"), read_chars_per_second("每秒15字节")
    (15.0, None)
    """
    match = _CHAR_SPEED.search(text)
    value = to_float(match.group(1)) if match else None
    return value if value else None
