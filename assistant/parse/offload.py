"""Offload to host memory as the question states it: asked for ("ZeRO-3 CPU offload", "offload
到内存") or ruled out ("without offload", "不用offload")."""

from __future__ import annotations

import re

__all__ = ["read_offload"]

_OFFLOAD = re.compile(r"off-?load(?:ing|ed)?|卸载到(?:cpu|内存|主机)|(?:cpu|内存)\s*卸载", re.ASCII)
_NO_OFFLOAD = re.compile(
    r"(?:\bno|\bwithout|\bnot|n't|不用|不要|不|没有|无)\s*(?:use\s+|using\s+|any\s+)?"
    r"(?:zero[- ]?\d\s*)?(?:cpu\s*|nvme\s*)?(?:off-?load|卸载)"
)


def read_offload(text: str) -> bool | None:
    """True when the question states offload to host memory ("ZeRO-3 CPU offload",
    "offload 到内存"), False when it rules it out ("without offload", "不用offload")."""
    if _NO_OFFLOAD.search(text):
        return False
    return True if _OFFLOAD.search(text) else None
