"""The names a question mentions: a site, catalog GPUs and models, and names the catalog lacks.

Catalog names are found on the cleaned, lower-cased text and masked (`⟨site⟩`, `⟨model⟩`,
`⟨gpu⟩`), so that "4090" or "通义千问" are never read as numbers; then the numbers are
normalised. The result, :class:`Mentions`, is what the slot readers work on.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from assistant.parse import hardware as hw
from assistant.parse.distill import r1_distill
from assistant.parse.names import (
    BARE_R1,
    CPU_NAME,
    MODEL_VARIANT_AFTER,
    SPACED_VARIANT_AFTER,
    VARIANT_AFTER,
    as_typed,
    coined_model_names,
    cpu_only,
    deepseek_r1,
    digit_groups_fit,
    family_mention,
    is_computer,
    laptop_word,
    maker_spans,
    unknown_gpu_spans,
    unknown_names,
)
from assistant.parse.numbers import drop_change_verbs, normalize_numbers
from assistant.records import SiteProfile

__all__ = ["Mentions", "find_mentions", "gpu_index"]


def _catalog_indexes() -> tuple[Mapping[str, str], Mapping[str, str]]:
    from calculators.catalog.extend import catalog_generation

    return _catalog_indexes_at(catalog_generation())  # user GPU/model cards change them


@functools.lru_cache(maxsize=1)
def _catalog_indexes_at(generation: int) -> tuple[Mapping[str, str], Mapping[str, str]]:
    from calculators.catalog.hardware import gpu_alias_index

    try:
        from calculators.catalog.models import model_alias_index
    except ImportError:  # the model catalog is optional for reading hardware
        return dict(gpu_alias_index()), {}
    return dict(gpu_alias_index()), dict(model_alias_index())


def gpu_index() -> Mapping[str, str]:
    """The catalog's GPU alias index (normalised alias key -> canonical name)."""
    return _catalog_indexes()[0]


def _site_index(sites: Iterable[SiteProfile]) -> dict[str, str]:
    from calculators.catalog.names import normalize_name

    index: dict[str, str] = {}
    for site in sites:
        for alias in site.aliases:
            key = normalize_name(alias)
            if key:
                index[key] = site.id
    return index


def _model_spellings() -> Mapping[str, tuple[str, ...]]:
    from calculators.catalog.extend import catalog_generation

    return _model_spellings_at(catalog_generation())


@functools.lru_cache(maxsize=1)
def _model_spellings_at(generation: int) -> Mapping[str, tuple[str, ...]]:
    from calculators.catalog.models import MODELS

    return {m.name: (m.name, *m.aliases) for m in MODELS.values()}


@dataclass(frozen=True)
class Mentions:
    site: str | None
    gpus: tuple[str, ...]
    models: tuple[str, ...]
    text: str
    """Cleaned, lower-cased, catalog names masked, numbers normalised."""
    gpu_sequence: tuple[str, ...] = ()
    """Every GPU mark's catalog name in text order (repeats kept, for comparisons)."""
    unknown: tuple[str, ...] = ()
    """Product-like names the catalog does not hold."""
    plain: str = ""
    """Cleaned and lower-cased, nothing masked ("H100 PCIe-only" keeps its "pcie")."""

    @property
    def names_hardware(self) -> bool:
        """A card is named, known or not; a laptop or a CPU alone is none of the domain's
        hardware ("笔记本显卡散热不好怎么办")."""
        return bool(self.gpus or [n for n in self.unknown if not is_computer(n)])


#: "满血版DeepSeek-V3": the full V3, not the alias "满血版DeepSeek" (R1) followed by "-V3"; the
#: word is still read from the unmasked text as the released precision (slots.read_full_precision).
_FULL_BEFORE_V3 = re.compile(r"满血(?:版)?(?:的)?\s*(?=deepseek[\s_-]*v\d)")


def find_mentions(cleaned: str, sites: Iterable[SiteProfile]) -> Mentions:
    text = hw.zero_typos(cleaned.lower())  # "256 H1OO": the same length, so spans still map
    site_matches = hw.find_aliases(text, _site_index(sites))
    text = hw.mask(text, site_matches, " ⟨site⟩ ")
    gpu_index, model_index = _catalog_indexes()
    spellings = _model_spellings()
    text = r1_distill(
        deepseek_r1(text), model_index
    )  # "r1的7b蒸馏版" is the 7B distill, not the 671B R1
    text = _FULL_BEFORE_V3.sub(" ", text)  # the alias "满血版DeepSeek" (R1) must not take V3
    model_matches = [
        m
        for m in hw.find_aliases(text, model_index)
        if digit_groups_fit(text[m.start : m.end], spellings.get(m.name, (m.name,)))
        and not MODEL_VARIANT_AFTER.match(text, m.end)
    ]
    model_matches, spaced = _spaced_variants(text, model_matches)
    spaced_names = [as_typed(text[v.start : v.end], cleaned) for v in spaced]
    text = hw.mask(hw.mask(text, model_matches, hw.MODEL_MARK), spaced, " ")
    spaced_names += [as_typed("r1", cleaned) for _ in BARE_R1.finditer(text)][:1]
    gpu_matches, variants = _gpu_matches(text, gpu_index)
    variant_names = [as_typed(text[v.start : v.end].strip(), cleaned) for v in variants]
    text = hw.mask(text, [*gpu_matches, *variants], hw.GPU_MARK)
    # a coined name ("Zephyr-Omega") is the model asked about only when no catalog model is named
    coined = () if model_matches else coined_model_names(cleaned, text)
    found = [*spaced_names, *variant_names, *(as_typed(n, cleaned) for n in unknown_names(text))]
    # "DeepSeek-R1" typed inside a distill the catalog lacks is part of that name, not another
    coined = tuple(c for c in coined if not any(c.lower() in f.lower() for f in found))
    unknown = tuple(dict.fromkeys([*found, *coined]))
    if model_matches:  # "按Llama-3的15T token训练Llama-3-70B": "Llama-3" is the family
        every = [s for names in spellings.values() for s in names]
        unknown = tuple(n for n in unknown if not family_mention(n, every))
    if gpu_matches:  # "a laptop and 8 H100 in the cloud": the cards are what is asked about
        unknown = tuple(n for n in unknown if not is_computer(n))
    else:
        laptop = laptop_word(text)
        unknown = (
            *unknown,
            *((laptop,) if laptop else ()),
            *((CPU_NAME,) if cpu_only(text) else ()),
        )
    text, strangers = _mask_strangers(text, beside_cards=bool(gpu_matches))
    in_order = sorted([*gpu_matches, *variants, *strangers], key=lambda m: m.start)
    return Mentions(
        site=site_matches[0].name if site_matches else None,
        gpus=tuple(dict.fromkeys(m.name for m in gpu_matches)),
        models=tuple(dict.fromkeys(m.name for m in model_matches)),
        text=drop_change_verbs(normalize_numbers(text)),
        gpu_sequence=tuple(m.name for m in in_order),
        unknown=unknown,
        plain=cleaned.lower(),
    )


#: A catalog name that carries its size: a size word after it describes something else.
_SIZED = re.compile(r"\d(?:\.\d+)?[BbMm](?![a-z])")


def _spaced_variants(
    text: str, matches: list[hw.CatalogMatch]
) -> tuple[list[hw.CatalogMatch], list[hw.CatalogMatch]]:
    """Catalog models, and the spans of those followed by a spaced size word ("Phi-4 mini" is
    not the 14B Phi-4; "Phi-3 medium" is an alias, matched whole before this)."""
    kept, variants = [], []
    for match in matches:
        variant = SPACED_VARIANT_AFTER.match(text, match.end)
        if variant is None or _SIZED.search(match.name):  # "Llama-3.1-8B small batch"
            kept.append(match)
        else:
            variants.append(hw.CatalogMatch("", "", match.start, variant.end()))
    return kept, variants


def _gpu_matches(
    text: str, gpu_index: Mapping[str, str]
) -> tuple[list[hw.CatalogMatch], list[hw.CatalogMatch]]:
    """Catalog GPU names in `text`, and the spans of catalog names followed by a variant the
    catalog lacks ("H100 NVL", "4090笔记本"): those are unknown cards, never the entry."""
    makers = maker_spans(text)  # "BI-V100" is Iluvatar's card, not a V100
    found = [
        m for m in hw.find_aliases(text, gpu_index) if not any(a <= m.start < b for a, b in makers)
    ]
    catalog, variants = [], []
    for match in found:
        variant = VARIANT_AFTER.match(text, match.end)
        if variant is None:
            catalog.append(match)
        else:
            variants.append(hw.CatalogMatch("", "", match.start, variant.end()))
    return catalog, variants


def _mask_strangers(text: str, *, beside_cards: bool) -> tuple[str, list[hw.CatalogMatch]]:
    """An unknown card still counts ("8 MI355X"): masked like a catalog one, with no name. A
    computer beside catalog cards is neither a card nor their memory ("a MacBook with 36GB and
    2 A100s"): masked apart."""
    strangers: list[hw.CatalogMatch] = []
    for a, b in sorted(unknown_gpu_spans(text), reverse=True):  # right to left: offsets hold
        computer = beside_cards and is_computer(text[a:b])
        if not computer:
            strangers.append(hw.CatalogMatch("", "", a, b))
        text = text[:a] + (" ⟨computer⟩ " if computer else hw.GPU_MARK) + text[b:]
    return text, strangers[::-1]
