"""A training rate the user measured, per GPU ("3000 tokens/s/GPU", "每卡每秒3000 token"): with
no MFU stated it sets the run's MFU (`calculate.measured`)."""

from __future__ import annotations

import re

from assistant.parse.load import _K, _SCALE, _TOKS
from assistant.parse.numbers import NUMBER, first_match, to_float

__all__ = ["read_tokens_per_second_per_gpu"]

#: A training rate per GPU: "3000 tokens/s/GPU", "3k tok/s per GPU", "每卡每秒3000 token".
_PER_GPU = r"(?:/\s*|per\s+|a\s+|each\s+|每)\s*(?:gpu|card|卡|张卡)(?![a-z])"
_RATE_PER_GPU = (
    re.compile(NUMBER + _K + r"\s*(?:个)?\s*" + _TOKS + r"\s*" + _PER_GPU),
    re.compile(
        r"(?:每卡|每张卡|每个gpu|每张gpu)\s*(?:每秒)?\s*(?:能|可以|有|跑)?\s*"
        + NUMBER
        + _K
        + r"\s*(?:个)?\s*(?:tokens?|tok|词元)"
    ),
)


_TRAINING = re.compile(r"训练|训|微调|train|fine-?tun|\bsft\b|\bmfu\b")


def read_tokens_per_second_per_gpu(text: str) -> float | None:
    """A measured training rate per GPU ("3000 tokens/s/GPU", "每卡每秒3000 token"), in a
    training question only: serving's "1000 tok/s per GPU" stays the deployment's target.

    >>> read_tokens_per_second_per_gpu("mfu at 3k tokens/s per gpu")
    3000.0
    """
    match = first_match(_RATE_PER_GPU, text) if _TRAINING.search(text) else None
    return to_float(match.group(1)) * _SCALE[match.group(2)] if match else None
