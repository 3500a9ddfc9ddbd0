"""The interleaved pipeline schedule stated ("interleaved 1F1B, 2 virtual stages per GPU",
"交错式流水线，每卡4个虚拟阶段"): whether it is named, and its model chunks per GPU (v).

Megatron-LM's interleaved 1F1B gives each GPU v chunks of layers (virtual stages) and divides
the bubble time by v (Narayanan et al. 2021 §2.2.2); `calculate.bubble` uses the v read here.
"""

from __future__ import annotations

import re

__all__ = ["read_interleaving"]

_NAMED = re.compile(
    r"interleav|virtual[- _](?:pipeline|stage)|model chunks?|"
    r"交错|交织|虚拟(?:流水线|阶段|段|stage)",
    re.IGNORECASE,
)

_CHUNKS = re.compile(
    r"(?<![\d.])(\d+)\s*(?:个)?\s*(?:virtual[- _](?:pipeline[- _])?stages?|(?:model[- _])?chunks?|"
    r"虚拟(?:流水线)?(?:阶段|段|stage)|模型块)|"
    r"(?:(?<![a-z])v|virtual[- _]pipeline(?:[- _]model[- _]parallel)?(?:[- _]size)?|"
    r"虚拟流水线(?:并行)?(?:度|大小)?)\s*(?:=|:|：|为|是)\s*(\d+)(?![\d.])",
    re.IGNORECASE,
)


def read_interleaving(text: str) -> tuple[bool, int | None]:
    """(the interleaved schedule is named, its chunks per GPU when stated).

    Examples:
        >>> read_interleaving("interleaved 1F1B with 2 virtual stages per GPU")
        (True, 2)
        >>> read_interleaving("交错式流水线，每卡4个虚拟阶段")
        (True, 4)
        >>> read_interleaving("v=4, interleaved"), read_interleaving("interleaved, 8 stages")
        ((True, 4), (True, None))
        >>> read_interleaving("pp 8, 32 micro-batches")
        (False, None)
    """
    named = bool(_NAMED.search(text))
    found = _CHUNKS.search(text) if named else None
    chunks = next((g for g in found.groups() if g), None) if found else None
    return named, int(chunks) if chunks else None
