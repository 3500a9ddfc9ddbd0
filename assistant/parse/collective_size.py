"""The size of a collective the question states ("All-reduce time for 10 GB of gradients",
"10GB梯度做一次all-reduce", "梯度大小为 4 GB"): bytes in SI (GB = 1e9, GiB = 2^30).

Only a size said with the collective or the gradients counts: "H100 80GB" is the card's memory,
"25GbE" and "200Gb IB" are link speeds in bits.
"""

from __future__ import annotations

import re

__all__ = ["read_collective_bytes"]

_UNITS = {"k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
_NUMBER = r"(\d+(?:\.\d+)?)\s*([kmgt])(i?)b?(?![a-z/])"
_COLLECTIVE = r"(?:all-?reduce|all-?gather|reduce-?scatter|梯度同步)"
_SIZES = (
    # "all-reduce of 10 GB", "allreduce一个4GB的张量"
    re.compile(_COLLECTIVE + r"\s*(?:of\s+)?(?:a\s+|一个\s*|一次\s*)?" + _NUMBER, re.IGNORECASE),
    # "10 GB of gradients", "10GB梯度", "a 4 GB all-reduce", "10 GB of bf16 gradients"
    re.compile(
        _NUMBER
        + r"\s*(?:of\s+)?(?:(?:bf16|fp16|fp32)\s+)?(?:的)?\s*(?:gradients?|梯度|"
        + _COLLECTIVE
        + r")",
        re.IGNORECASE,
    ),
    # "梯度大小为 4 GB", "gradients of 10 GB"
    re.compile(r"(?:梯度|gradients?)\s*(?:大小|量)?\s*(?:为|是|有|of|are|is)?\s*" + _NUMBER, re.I),
)
_NEEDS = re.compile(_COLLECTIVE + r"|gradient sync", re.IGNORECASE)


def read_collective_bytes(text: str) -> float | None:
    """Bytes of the collective the question states, or None.

    Examples:
        >>> read_collective_bytes("All-reduce time for 10 GB of gradients across 16 nodes")
        10000000000.0
        >>> read_collective_bytes("16台机器，10GiB梯度做一次all-reduce要多久")
        10737418240.0
        >>> read_collective_bytes("8x H100 80GB over 25GbE: all-reduce time per step?") is None
        True
    """
    if not _NEEDS.search(text):
        return None
    for pattern in _SIZES:
        match = pattern.search(text)
        if match:
            number, prefix, binary = match.groups()
            scale = 1024.0 ** "kmgt".index(prefix.lower()) * 1024 if binary else None
            return float(number) * (scale or _UNITS[prefix.lower()])
    return None
