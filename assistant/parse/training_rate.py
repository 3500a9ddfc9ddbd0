"""A training rate the user measured, per GPU ("3000 tokens/s/GPU", "每卡每秒3000 token"), or the
GPU-hours a run took ("2.788M H800 GPU-hours", "278.8万H800 GPU小时"): with no MFU stated either
sets the run's MFU (`calculate.measured`)."""

from __future__ import annotations

import re

from assistant.parse.load import _K, _SCALE, _TOKS
from assistant.parse.numbers import NUMBER, first_match, to_float

__all__ = ["read_gpu_hours_spent", "read_tokens_per_second_per_gpu"]

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


#: GPU-hours spent: "2.788M H800 GPU-hours", "278.8万H800 GPU小时", "10000卡时", "5000 A100-hours"
#: (a price per GPU-hour has no number before the unit: "每GPU小时2美元", "$2 per GPU-hour").
_GPU_HOURS_SPENT = (
    re.compile(
        NUMBER
        + r"\s*(k|m(?:illion)?|万|百万)?(?![a-z])\s*"
        + r"(?:⟨gpu⟩\s*(?:gpu|卡)?|gpu|卡)\s*[-·]?\s*(?:小时|hours?\b|hrs?\b|h\b)"
    ),
    re.compile(NUMBER + r"\s*(k|万)?\s*(?:⟨gpu⟩\s*)?卡时"),
)
_HOURS_SCALE = {None: 1.0, "k": 1e3, "m": 1e6, "million": 1e6, "万": 1e4, "百万": 1e6}


def read_gpu_hours_spent(text: str) -> float | None:
    """GPU-hours a training run took, as stated ("DeepSeek-V3 used 2.788M H800 GPU-hours").

    >>> read_gpu_hours_spent("训练用了278.8万⟨gpu⟩ gpu小时，按每gpu小时2美元")
    2788000.0
    >>> read_gpu_hours_spent("2.788m ⟨gpu⟩ gpu-hours"), read_gpu_hours_spent("$2 per gpu-hour")
    (2788000.0, None)
    >>> read_gpu_hours_spent("用了5万卡时"), read_gpu_hours_spent("a 2-hour job on 8 gpus")
    (50000.0, None)
    """
    match = first_match(_GPU_HOURS_SPENT, text)
    if match is None:
        return None
    return to_float(match.group(1)) * _HOURS_SCALE[match.group(2)]
