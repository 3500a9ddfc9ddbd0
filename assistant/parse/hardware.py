"""Hardware mentions: catalog names (GPUs, models, sites), and the memory of one GPU.

Catalog names are matched against the alias indexes the calculators publish
(`gpu_alias_index()`, `model_alias_index()`, `link_alias_index()`) and against the site
profiles of the knowledge base. Matched names are replaced by a placeholder so the digits inside
them ("4090", "A100") are never read as counts or sizes.

Counts (`assistant.parse.counts`) and links (`assistant.parse.links`) have their own modules;
the names tests and callers import from here are re-exported.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from assistant.parse.counts import Counts, read_counts
from assistant.parse.links import nvlink_note, read_links
from assistant.parse.numbers import NUMBER, to_float

__all__ = [
    "CatalogMatch",
    "Counts",
    "find_aliases",
    "mask",
    "nvlink_note",
    "read_counts",
    "read_links",
    "read_memory",
    "zero_typos",
]

GPU_MARK = " ⟨gpu⟩ "
MODEL_MARK = " ⟨model⟩ "


@dataclass(frozen=True)
class CatalogMatch:
    """One catalog name found in the text."""

    name: str
    """The canonical catalog name (or site id)."""
    alias: str
    start: int
    end: int


# A colon before a digit separates too: Ollama tags spell a size that way ("deepseek-r1:32b" is
# the 32B distill, never the 671B "deepseek-r1" with a stray "32b").
_SEP = r"(?:[\s\-_./·()（）]|:(?=\d))*"


_SEP_CHARS = re.compile(_SEP)
_GB_AFTER_DIGIT = re.compile(r"(?<=[0-9])gb")


def _prefix(key: str) -> str:
    """The part of `key` every match contains verbatim once separators are removed.

    `_alias_regex` lets "gb" after a digit also read "g" or "gib", so the key is cut there.
    """
    cut = _GB_AFTER_DIGIT.search(key)
    return key[: cut.start()] if cut else key


@functools.lru_cache(maxsize=4096)
def _alias_regex(key: str) -> re.Pattern[str]:
    """A pattern for a normalised alias key that tolerates the separators people type."""
    parts: list[str] = []
    i = 0
    while i < len(key):
        if key.startswith("gb", i) and i and key[i - 1].isdigit():
            parts.append("g(?:ib|b)?")
            i += 2
            continue
        parts.append(re.escape(key[i]))
        i += 1
    seps = [_SEP] * (len(parts) - 1)
    if len(key) > 1 and key[0].isalpha() and key[1].isdigit():
        seps[0] = ""  # "a10", "h20", "t4": never across a space ("train a 10^30 …")
    body = parts[0] + "".join(sep + part for sep, part in zip(seps, parts[1:]))
    # Word edges only where the alias itself starts or ends with a Latin letter or digit:
    # "吉林" must match in "吉林gpu服务器", "a100" must not match inside "a1000".
    # "8xh100": a count glued to the name with "x" still leaves the name a name.
    head = r"(?:(?<![a-z0-9])|(?<=[0-9]x))" if key[0].isascii() and key[0].isalnum() else ""
    tail = r"(?:s|es)?(?![a-z0-9])" if key[-1].isascii() and key[-1].isalnum() else ""
    if key[-1].isdigit():
        tail += r"(?!\.\d)"  # "gpt3.5" is not GPT-3: a number does not end before ".5"
    return re.compile(head + body + tail)


@functools.lru_cache(maxsize=16)
def _usable_keys(keys: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The keys worth matching, longest first, each with its separator-free prefix: sorted once
    per index rather than once per question (the catalog indexes hold about a thousand keys)."""
    usable = (k for k in keys if len(k) >= 2 and not (k.isdigit() and len(k) < 4))
    return tuple((key, _prefix(key)) for key in sorted(usable, key=len, reverse=True))


def find_aliases(text: str, index: Mapping[str, str]) -> list[CatalogMatch]:
    """Non-overlapping alias matches in `text` (longest alias first), in text order.

    `index` maps normalised alias keys (`calculators.catalog.names.normalize_name`) to canonical
    names. Keys shorter than two characters, or purely numeric ones shorter than four digits,
    are ignored as too ambiguous.
    """
    found: list[CatalogMatch] = []
    used = [False] * len(text)
    squashed = _SEP_CHARS.sub("", text)
    for key, prefix in _usable_keys(tuple(index)):
        if prefix not in squashed:
            continue  # cannot match: skips compiling ~200 patterns per process (0.8 s)
        for match in _alias_regex(key).finditer(text):
            if any(used[match.start() : match.end()]) or _swallows_number(text, match):
                continue
            if key.isdigit() and _NUMBER_AFTER.match(text, match.end()):
                continue  # "3080亿 token", "prompts of 4080 tokens": a number, not a card
            used[match.start() : match.end()] = [True] * (match.end() - match.start())
            found.append(CatalogMatch(index[key], key, match.start(), match.end()))
    return sorted(found, key=lambda m: m.start)


#: What makes a number after a name a quantity of its own: more of the number ("3.5"), a count
#: word ("4卡", "2张", "8 GPUs") or a magnitude ("3万亿", "7b").
_QUANTITY_AFTER = re.compile(
    r"\.?\d|\s*(?:张|块|片|颗|个|卡|台|万|亿|千|百|[x×*](?![a-z])|%|gpus?\b|cards?\b|"
    r"nodes?\b|servers?\b|[kmbt](?![a-z]))"
)


#: What makes a bare GeForce number ("3060", "3080", "4090") a quantity instead of a card: a
#: magnitude or a unit right after it; "万兆" / "千兆" after it are a link ("两台8卡4090 万兆"
#: is 4090s on 10 GbE), no magnitude.
_NUMBER_AFTER = re.compile(
    r"\s*(?:万(?!兆)|亿|千(?!兆)|百|个|条|步|次|字|秒|[kmbt](?![a-z])|tokens?\b|steps?\b|samples?\b|"
    r"words?\b|seconds?\b)"
)


def _swallows_number(text: str, match: re.Match[str]) -> bool:
    """True when an alias ends in a digit group typed after a space that is really a number of
    its own: "910B 3.5万亿token" is the 910B and 3.5 trillion tokens, not the 910B3; "A100 SXM
    4卡" is four A100 SXM cards, not one A100 SXM4."""
    if not re.search(r"[a-z0-9]\s+\d+$", match.group(0)):
        return False
    return bool(_QUANTITY_AFTER.match(text, match.end()))


#: A product number typed with the letter O for a zero ("H1OO", "a1oo", "4O9O", "V1OOs"): a
#: letter prefix of at most three, a digit, then two to four digits or O's, at least one an O.
#: Never "gpt-4o" or "o1" (one character after the digit), never a word without a digit.
_ZERO_TYPO = re.compile(r"(?<![\w.])([a-z]{0,3}\d)([\do]{2,4})(?=s?\b)")


def zero_typos(text: str) -> str:
    """The lower-cased text with letter-O zeros in product numbers made digits (same length).

    >>> zero_typos("256 h1oo and a 4o9o, not gpt-4o or o1")
    '256 h100 and a 4090, not gpt-4o or o1'
    """
    return _ZERO_TYPO.sub(lambda m: m[1] + m[2].replace("o", "0"), text)


def mask(text: str, matches: Iterable[CatalogMatch], mark: str) -> str:
    """Replace each match with `mark` (right to left, so offsets stay valid)."""
    for match in sorted(matches, key=lambda m: m.start, reverse=True):
        text = text[: match.start] + mark + text[match.end :]
    return text


# Host RAM ("512GB 内存", "host memory") is read elsewhere (parsing.load), never as GPU memory.
_MEMORY = re.compile(
    NUMBER + r"\s*(gib|gb|g)\s*(?:的)?\s*(?:显存|(?<!host )memory|vram|hbm|"
    r"(?:graphics )?cards?\b|gpus?\b|显卡|卡)"
    r"|(?:显存|vram|gpu memory)\s*(?:为|是|有|of|:)?\s*" + NUMBER + r"\s*(gib|gb|g)"
    # "24 GB of VRAM" (not "64 GB of memory": a machine's RAM as often as a card's)
    r"|" + NUMBER + r"\s*(gib|gb|g)\s+of\s+(?:vram|hbm|gpu memory|video memory|graphics memory)"
    # "32GB的MI50", "魔改48G的4090": the size typed before a card's mark
    r"|" + NUMBER + r"\s*(gib|gb|g)\s*(?:的|版)?\s*(?=" + GPU_MARK.strip() + ")"
    # "A800 40G" (no such catalog entry: the mark is the A800, the size is the user's), never a
    # link speed ("H100 100G RoCE", "25G以太网")
    r"|" + GPU_MARK.strip() + r"\s*(?:\(|（)?" + NUMBER + r"\s*(gib|gb|g)(?![a-z])"
    r"(?!\s*(?:roce|ib\b|infiniband|ethernet|以太网|网|nic))"
    # "4 MI325X with 256GB each", "Hygon K100 has 64GB", "MI325X, 256 GB apiece", "每张256G",
    # "单卡 48GB": the size of each card, never the host's ("with 512 GB of RAM")
    r"|"
    + GPU_MARK.strip()
    + r"\s*(?:,|，)?\s*(?:each\s+)?(?:with|having|of|has|have)\s+"
    + NUMBER
    + r"\s*(gib|gb|g)(?![a-z/])"
    r"(?!\s*(?:of\s+)?(?:host|system|cpu|ram|dram|内存|roce|ib\b|infiniband|ethernet|nic))"
    r"|" + NUMBER + r"\s*(gib|gb|g)\s*(?:each|apiece|per (?:card|gpu|device))\b"
    r"|(?:每张|每卡|单卡)\s*(?:显存)?\s*" + NUMBER + r"\s*(gib|gb|g)(?![a-z])"
    r"(?!\s*(?:内存|roce|ib\b|以太网|网))",
    re.ASCII,
)


def read_memory(text: str) -> float | None:
    """Per-GPU memory in bytes when stated ("24GB显存", "显存80G"); GB = 1e9, GiB = 2^30."""
    match = _MEMORY.search(text)
    if match is None:
        return None
    number = next(g for g in match.groups()[0::2] if g is not None)
    unit = next(g for g in match.groups()[1::2] if g is not None)
    return to_float(number) * (2**30 if unit == "gib" else 1e9)
