"""Name normalization and alias indexes shared by the catalogs (private helpers)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping

from calculators.errors import UnknownNameError

__all__ = ["build_alias_index", "closest", "normalize_name", "resolve", "strip_fillers"]

_PUNCTUATION = re.compile(r"[\s\-_./·()（）,，:：'\"]+")
# "80G" and "80g" mean "80GB" in what people type; "80Gb" (bits) and "GbE" are left alone.
_BARE_G = re.compile(r"(\d)g(?!b)")
# Vendor words, product-line words and "card" suffixes that do not change which product is meant.
_FILLERS = (
    "nvidia",
    "英伟达",
    "辉达",
    "geforce",
    "tesla",
    "amd",
    "huawei",
    "华为",
    "instinct",
    "ascend",
    "昇腾",
    "显卡",
    "gpu",
    "加速卡",
    "卡",
    "型号",
    "的",
)


def normalize_name(text: str) -> str:
    """Case-, width-, space- and hyphen-insensitive key for catalog lookups.

    Examples:
        >>> normalize_name("A100 80G")
        'a10080gb'
        >>> normalize_name("a100-80gb")
        'a10080gb'
        >>> normalize_name("Ｈ１００ ＰＣＩｅ")
        'h100pcie'
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _BARE_G.sub(r"\1gb", _PUNCTUATION.sub("", folded))


def strip_fillers(key: str) -> str:
    """Remove vendor and "card" words from a normalized key ("英伟达h100显卡" -> "h100")."""
    for word in _FILLERS:
        key = key.replace(word, "")
    return key


def build_alias_index(entries: Iterable[tuple[str, Iterable[str]]], kind: str) -> dict[str, str]:
    """Map every normalized alias (and canonical name) to its canonical name.

    Raises:
        ValueError: two entries claim the same alias (a catalog data error).
    """
    index: dict[str, str] = {}
    for canonical, aliases in entries:
        for alias in (canonical, *aliases):
            key = normalize_name(alias)
            if index.get(key, canonical) != canonical:
                msg = f"{kind} alias {alias!r} is claimed by {index[key]!r} and {canonical!r}"
                raise ValueError(msg)
            index[key] = canonical
    return index


def resolve(name: str, index: Mapping[str, str], field: str, canonical: Iterable[str]) -> str:
    """Canonical name for ``name``; UnknownNameError with the closest entries otherwise."""
    key = normalize_name(name)
    for candidate in (key, strip_fillers(key)):
        if candidate and candidate in index:
            return index[candidate]
    raise UnknownNameError(field, name, closest(name, index, canonical))


def closest(name: str, index: Mapping[str, str], canonical: Iterable[str]) -> tuple[str, ...]:
    """Up to three canonical names closest to ``name`` (difflib over aliases and names)."""
    key = strip_fillers(normalize_name(name)) or normalize_name(name)
    found: list[str] = []
    for alias in difflib.get_close_matches(key, list(index), n=12, cutoff=0.5):
        if index[alias] not in found:
            found.append(index[alias])
    if not found:
        found = difflib.get_close_matches(name, list(canonical), n=3, cutoff=0.3)
    return tuple(found[:3])
