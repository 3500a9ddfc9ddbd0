"""DeepSeek-R1's distilled models named in words ("deepseek-r1的7b蒸馏版", "R1 蒸馏的 Qwen 14B",
"the R1-distilled Llama 8B", "r1 32b"): rewritten to the catalog's spelling before names are
matched, so a size said beside R1 picks the distill of that size, never the 671B R1.

The distills and their bases are those of the DeepSeek-R1 release (DeepSeek-AI 2025,
arXiv:2501.12948 §2.4 and the deepseek-ai/DeepSeek-R1 README "Distilled Models" table):
Qwen2.5 1.5B, 7B, 14B, 32B and Llama 8B, 70B. A family named with another size is rewritten
as said ("R1 蒸馏的 Qwen 8B"), so the name is reported as one the catalog lacks.

Examples:
    >>> r1_distill("3060能跑deepseek-r1的7b蒸馏版吗")
    '3060能跑 deepseek-r1-distill-qwen-7b 吗'
    >>> r1_distill("can a 4090 run the r1-distilled llama 8b")
    'can a 4090 run the  deepseek-r1-distill-llama-8b '
    >>> r1_distill("8张h200跑deepseek-r1 671b")
    '8张h200跑deepseek-r1 671b'
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping

from calculators.catalog.names import normalize_name

__all__ = ["DISTILL_FAMILY", "r1_distill"]

#: Size in billions (as typed) → the base family of the R1 distill of that size.
DISTILL_FAMILY: Mapping[str, str] = {
    "1.5": "qwen",
    "7": "qwen",
    "14": "qwen",
    "32": "qwen",
    "8": "llama",
    "70": "llama",
}

_R1 = r"(?<![a-z0-9_.])(?:deepseek[-\s]?)?r1"
_DISTILL = r"(?:蒸馏|distill(?:ed|ation)?)"
_SIZE = r"(\d+(?:\.\d+)?)\s*b(?![a-z0-9])"
#: "qwen", "qwen2.5", "llama-3.1": a base family, its version digits skipped lazily
_FAMILY = r"(?:(qwen|llama)[\d.\s-]*?)"
_ONE_WORD = re.compile(r"\s*[a-z0-9.:_-]+\s*")
_VERSION = r"(?:版本?|模型)?"
_LINK = r"(?:\s|-|的|版本?|出来的|出的|模型|into|to|of|the)*"

#: Each form: (pattern, group of the size, group of the family or 0).
_FORMS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    # "deepseek-r1的7b蒸馏版", "r1 14b distill"
    (re.compile(_R1 + r"\s*(?:的|\s)*" + _FAMILY + "?" + _SIZE + r"\s*(?:的)?\s*" + _DISTILL
                + _VERSION), 2, 1),
    # "R1蒸馏7B", "DeepSeek-R1 蒸馏的 Qwen 14B", "r1-distilled llama 8b", "r1 distill qwen 32b"
    (re.compile(_R1 + r"[\s-]*(?:的)?\s*" + _DISTILL + _LINK + _FAMILY + "?" + _SIZE), 2, 1),
    # "7b的r1蒸馏版", "qwen 14b 的 r1 蒸馏版", "the 32b r1 distill"
    (re.compile(_FAMILY + "?" + _SIZE + r"\s*(?:的)?\s*" + _R1 + r"[\s-]*" + _DISTILL + _VERSION),
     2, 1),
    # "r1 32b", "deepseek r1:7b": a distill's size beside R1 (671B is the R1 itself)
    (re.compile(_R1 + r"[\s:-]*(1\.5|7|8|14|32|70)\s*b(?![a-z0-9])"), 1, 0),
)  # fmt: skip


def _spelled(match: re.Match[str], size: int, family: int, known: Container[str] | None) -> str:
    billions = match.group(size)
    base = (match.group(family) if family else None) or DISTILL_FAMILY.get(billions)
    name = f"deepseek-r1-distill-{base}-{billions}b"
    said = match.group(0)
    if base is None or said.strip() == name:
        return said
    if known is not None and normalize_name(name) not in known and _ONE_WORD.fullmatch(said):
        return said  # "deepseek-r1:1.5b": a distill the catalog lacks, reported as typed
    return f" {name} "  # a distill the catalog lacks said in words is reported by its name


def r1_distill(text: str, known: Container[str] | None = None) -> str:
    """`text` (lower-cased) with every R1 distill said in words spelled as the catalog names it;
    with `known` (normalised catalog model names), only distills the catalog has are rewritten."""
    for pattern, size, family in _FORMS:
        text = pattern.sub(lambda m: _spelled(m, size, family, known), text)
    return text
