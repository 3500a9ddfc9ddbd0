"""A card known only by its memory ("a 48GB card", "燧原S60, 48GB each"): a generic card.

The question fixes the memory and nothing else, so the generic card keeps exactly that memory.
Its bandwidth, FLOP/s, links and power come from a catalog card with the same memory (the
stand-in: the most common such card first, else the largest below, else the smallest above).
The stand-in's missing 16-bit mode is NOT the generic card's: nothing says the unknown card
lacks BF16 because a V100 does, so BF16 and FP16 both run at the stand-in's best 16-bit rate.
Nor are the stand-in's 8-bit tensor modes the generic card's: a "24GB card" may be an RTX 3090
as well as a 4090, so no FP8 or INT8 tensor cores are claimed for it, and 8-bit weights are
served weight-only (W8A16) with 16-bit matrix multiplies (`assistant.calculate.layouts.to_plan`),
as vLLM serves FP8 weights on cards without FP8: "FP8 models will run on compute capability
>= 7.5 (Turing) as weight-only W8A16, utilizing FP8 Marlin" (https://docs.vllm.ai/en/stable/features/quantization/fp8/).

The name carries the memory ("48GB GPU"), so ``lookup_gpu`` resolves it without any state.

Examples:
    >>> generic_name(48e9), generic_memory("48GB GPU"), generic_memory("L40S 48GB")
    ('48GB GPU', 48000000000.0, None)
    >>> stand_in_name(24e9), stand_in_name(32e9), stand_in_name(20e9)
    ('RTX 4090 24GB', 'V100 SXM2 32GB', 'P100 SXM2 16GB')
    >>> card = generic_gpu(32e9)
    >>> card.name, card.memory_bytes, card.dense_flops_per_s("bf16") == card.fp16_flops_per_s
    ('32GB GPU', 32000000000.0, True)
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU

__all__ = ["generic_gpu", "generic_memory", "generic_name", "is_generic", "stand_in_name"]

#: The most common card at its memory, tried before the catalog order (a "24GB card" is most
#: likely an RTX 4090, an "80GB card" an A100 or H100).
_COMMON_FIRST = ("RTX 4090 24GB", "A100 SXM 80GB", "H100 SXM 80GB")
#: Two memories within this share are the same card size (80 GB vs 81920 MiB shown by drivers).
_SAME_MEMORY = 0.02
_NAME = re.compile(r"^(\d+(?:\.\d+)?)GB GPU$")


def generic_name(memory_bytes: float) -> str:
    """The generic card's name, its memory in decimal GB: "48GB GPU"."""
    return f"{memory_bytes / 1e9:g}GB GPU"


def generic_memory(name: str) -> float | None:
    """The memory in bytes a generic card's name carries; None for any other name."""
    match = _NAME.match(str(name).strip())
    return float(match.group(1)) * 1e9 if match else None


def is_generic(gpu_name: str) -> bool:
    """True for a generic card's name ("48GB GPU"), False for a catalog card's."""
    return generic_memory(gpu_name) is not None


def stand_in_name(memory_bytes: float) -> str:
    """The catalog card whose figures a generic card of `memory_bytes` borrows."""
    from calculators.catalog.hardware import GPUS

    order = list(dict.fromkeys([*_COMMON_FIRST, *GPUS]))
    size = {name: GPUS[name].memory_bytes for name in order}
    same = [n for n in order if abs(size[n] - memory_bytes) <= _SAME_MEMORY * memory_bytes]
    if same:
        return same[0]
    below = [n for n in order if size[n] < memory_bytes]
    if below:
        return max(below, key=size.__getitem__)
    return min(order, key=size.__getitem__)


def generic_gpu(memory_bytes: float) -> GPU:
    """A card with `memory_bytes` and the stand-in's other figures, running BF16 and FP16 (and
    8-bit weights weight-only: no 8-bit tensor mode is claimed)."""
    from calculators.catalog.hardware import GPUS

    like = GPUS[stand_in_name(memory_bytes)]
    rates = (like.bf16_flops_per_s, like.fp16_flops_per_s, like.fp32_flops_per_s)
    half = max(rate for rate in rates if rate is not None)
    return replace(
        like,
        name=generic_name(memory_bytes),
        memory_bytes=float(memory_bytes),
        bf16_flops_per_s=like.bf16_flops_per_s or half,
        fp16_flops_per_s=like.fp16_flops_per_s or half,
        fp8_flops_per_s=None,  # no 8-bit tensor cores are claimed for an unknown card
        int8_ops_per_s=None,
        aliases=(),
        sources=(
            f"memory: as stated in the question; other figures: {like.name}",
            "BF16/FP16: the stand-in's best 16-bit rate; 8-bit formats are weight-only "
            "(vLLM FP8 W8A16, https://docs.vllm.ai/en/stable/features/quantization/fp8/)",
            *like.sources,
        ),
        notes=f"generic card: only its memory is known; figures of {like.name}",
        confidence="assumed",
    )
