"""Question → :class:`~assistant.records.Query`: language, domain, typed scenario slots.

Order matters: catalog names (sites, GPUs, models) are found and masked on the cleaned,
lower-cased text first, so that "4090" or "通义千问" are never read as numbers; then Chinese
numerals and English number words are rewritten as digits and the slots are read.

Examples:
    >>> q = parse("两台8卡训练千亿模型, 三个月内")
    >>> q.language, q.scenario.nodes, q.scenario.gpus_per_node, q.scenario.gpu_count
    ('zh', 2, 8, 16)
    >>> q.scenario.params, q.scenario.deadline_seconds / 86400
    (100000000000.0, 90.0)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from assistant.parse import hardware as hw
from assistant.parse import slots
from assistant.parse.asks import read_asks
from assistant.parse.bounds import refuse_nonsense
from assistant.parse.domain import classify
from assistant.parse.followup import added_counts, as_followup, bare_count, merge_followup
from assistant.parse.kv import read_kv_format
from assistant.parse.lengths import read_lengths
from assistant.parse.load import read_load_slots
from assistant.parse.names import (
    CPU_NAME,
    MODEL_VARIANT_AFTER,
    VARIANT_AFTER,
    as_typed,
    closest_entries,
    coined_model_names,
    cpu_only,
    digit_groups_fit,
    is_computer,
    laptop_word,
    maker_spans,
    name_in,
    unknown_gpu_spans,
    unknown_names,
)
from assistant.parse.numbers import clean_text, normalize_numbers
from assistant.parse.options import hardware_options
from assistant.records import Ask, Language, Query, Scenario, SiteProfile
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

__all__ = [
    "MAX_QUESTION_CHARS",
    "detect_language",
    "mentioned_gpus",
    "merge_followup",
    "parse",
]

#: Longer pastes are cut (and the answer says so): slot patterns are linear but the answer is not
#: helped by 100 KB of text.
MAX_QUESTION_CHARS = 4000


#: English words no Chinese question uses: without any, Latin words are names and units
#: ("Ascend 910 32GB训练7B" is Chinese: "Ascend" and "GB" are not English prose).
_ENGLISH_PROSE = re.compile(
    r"\b(?:the|a|an|can|could|how|what|which|is|are|do|does|on|with|for|to|of|in|and|or|"
    r"we|i|my|our|it|be|need|want|run|serve|train|fine-tune|much|many|long)\b",
    re.IGNORECASE,
)


def detect_language(text: str) -> Language:
    """ "zh" when the question is mainly Chinese, else "en".

    >>> detect_language("Ascend 910 32GB训练7B"), detect_language("What is 显存?")
    ('zh', 'en')
    >>> detect_language("QPS 5 呢"), detect_language("H100 PCIe 80GB 吗")
    ('zh', 'zh')
    """
    han = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin_words = len(re.findall(r"[A-Za-z]{2,}", text))
    if han and not _ENGLISH_PROSE.search(text):
        return "zh"  # "QPS 5 呢": names and units around a Chinese word
    return "zh" if han and han >= 1.5 * latin_words else "en"


def says_no_language(text: str) -> bool:
    """True for a question with no Chinese and no English prose ("4-bit?", "H100?", "32k"):
    a follow-up like that keeps the conversation's language.

    >>> [says_no_language(q) for q in ("4-bit?", "what about 4-bit?", "那4bit呢")]
    [True, False, False]
    """
    return not re.search(r"[\u4e00-\u9fff]", text) and not _ENGLISH_PROSE.search(text)


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
class _Mentions:
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


def _find_mentions(cleaned: str, sites: Iterable[SiteProfile]) -> _Mentions:
    text = cleaned.lower()
    site_matches = hw.find_aliases(text, _site_index(sites))
    text = hw.mask(text, site_matches, " ⟨site⟩ ")
    gpu_index, model_index = _catalog_indexes()
    spellings = _model_spellings()
    model_matches = [
        m
        for m in hw.find_aliases(text, model_index)
        if digit_groups_fit(text[m.start : m.end], spellings.get(m.name, (m.name,)))
        and not MODEL_VARIANT_AFTER.match(text, m.end)
    ]
    text = hw.mask(text, model_matches, hw.MODEL_MARK)
    gpu_matches, variants = _gpu_matches(text, gpu_index)
    variant_names = [as_typed(text[v.start : v.end].strip(), cleaned) for v in variants]
    text = hw.mask(text, [*gpu_matches, *variants], hw.GPU_MARK)
    # a coined name ("Zephyr-Omega") is the model asked about only when no catalog model is named
    coined = () if model_matches else coined_model_names(cleaned, text)
    unknown = tuple(
        dict.fromkeys(
            [*variant_names, *(as_typed(n, cleaned) for n in unknown_names(text)), *coined]
        )
    )
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
    return _Mentions(
        site=site_matches[0].name if site_matches else None,
        gpus=tuple(dict.fromkeys(m.name for m in gpu_matches)),
        models=tuple(dict.fromkeys(m.name for m in model_matches)),
        text=normalize_numbers(text),
        gpu_sequence=tuple(m.name for m in in_order),
        unknown=unknown,
        plain=cleaned.lower(),
    )


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


def mentioned_gpus(question: str) -> tuple[str, ...]:
    """Every catalog GPU the question names, in order ("H100 和 A100 有什么区别")."""
    return _find_mentions(clean_text(question)[:MAX_QUESTION_CHARS], ()).gpus


def _say(message: Msg, language: Language) -> str:
    """A parse note in the question's language (Query.warnings are text for now)."""
    from assistant.i18n import text

    return text(message, language)


def _counts_slots(
    counts: hw.Counts, language: Language, *, comparing: bool = False
) -> tuple[dict[str, object], list[str]]:
    out: dict[str, object] = {}
    warnings: list[str] = []
    if counts.nodes is not None:
        out["nodes"] = counts.nodes
    if counts.gpus_per_node is not None:
        out["gpus_per_node"] = counts.gpus_per_node
    if counts.gpu_counts:
        out["gpu_count"] = counts.gpu_counts[0]
        if len(counts.gpu_counts) > 1 and not comparing:  # options carry their own counts
            chosen, others = counts.gpu_counts[0], counts.gpu_counts[1:]
            message = Msg("parse.counts_differ", chosen=chosen, others=others)
            warnings.append(_say(message, language))
    elif counts.nodes is not None and counts.gpus_per_node is not None:
        out["gpu_count"] = counts.nodes * counts.gpus_per_node
    return out, warnings


def _workload_slots(text: str) -> dict[str, object]:
    out: dict[str, object] = {}
    prompt, output, text = read_lengths(text)  # "2k-token prompts" is no context of 2048
    if prompt is not None:
        out["prompt_tokens"] = prompt
    if output is not None:
        out["output_tokens"] = output
    kv, text = read_kv_format(text)  # "bf16 with an fp8 KV cache": bf16 weights
    if kv is not None:
        out["kv_dtype"] = kv
    for mention in slots.read_sizes(text):
        out.setdefault(mention.kind, mention.value)
    readers = {
        "task": slots.read_task,
        "method": slots.read_method,
        "precision": slots.read_precision,
        "deadline_seconds": slots.read_deadline,
        "context_length": slots.read_context_length,
        "batch_size": slots.read_batch_size,
        "zero_stage": slots.read_zero_stage,
        "gpu_memory_bytes": hw.read_memory,
    }
    for name, reader in readers.items():
        value = reader(text)
        if value is not None:
            out[name] = value
    tp, pp = slots.read_parallelism(text)
    if tp is not None:
        out["tensor_parallel"] = tp
    if pp is not None:
        out["pipeline_parallel"] = pp
    price, currency = slots.read_price(text)
    if price is not None:
        out["price_per_gpu_hour"], out["currency"] = price, currency
    if out.get("method") is not None:
        out["task"] = "finetune"
    period = slots.read_period(text)
    if period and "deadline_seconds" not in out and out.get("task") in (None, "inference"):
        out["deadline_seconds"] = period  # "monthly cost of serving it": how long it serves
    if out.get("task") == "finetune" and out.get("precision") == "int4" and "method" not in out:
        out["method"] = "qlora"
    return out


def _link_slots(text: str, plain: str) -> dict[str, object]:
    """Links from the masked text; "PCIe-only" / "no NVLink" also from the unmasked one."""
    _, inter = hw.read_links(text)
    intra, _ = hw.read_links(plain)
    out: dict[str, object] = {}
    if intra:
        out["intra_link"] = _resolve_link(intra)
    if inter:
        out["inter_link"] = _resolve_link(inter)
    return out


def _resolve_link(candidates: tuple[str, ...]) -> str:
    try:
        from calculators.catalog.hardware import link_alias_index
    except ImportError:
        return candidates[0]
    from calculators.catalog.names import normalize_name

    index = link_alias_index()
    for candidate in candidates:
        key = normalize_name(candidate)
        if key in index:
            return index[key]
    return candidates[0]


def parse(
    question: str,
    *,
    sites: Iterable[SiteProfile] = (),
    previous: Scenario | Query | None = None,
    language: Language | None = None,
) -> Query:
    """Read the typed scenario out of a question (Chinese or English).

    Args:
        question: The user's text, as typed.
        sites: Site profiles whose aliases ("吉林", "Jilin") resolve to a profile id.
        previous: The previous turn's query or scenario; a follow-up ("那用H100呢?") changes only
            the slots it names.
        language: Force the language; None detects it from the text.

    Returns:
        The parsed :class:`Query`; `in_domain` is False when the text is not about GPUs and models.
    """
    warnings: list[str] = []
    sites = tuple(sites)  # read twice: aliases, and the node count "再加一台" adds to
    cleaned = clean_text(question)
    lang: Language = language or detect_language(cleaned)
    if len(cleaned) > MAX_QUESTION_CHARS:
        cleaned = cleaned[:MAX_QUESTION_CHARS]
        warnings.append(_say(Msg("parse.question_cut", limit=MAX_QUESTION_CHARS), lang))
    mentions = _find_mentions(cleaned, sites)
    refuse_nonsense(cleaned.lower(), mentions.text, {})
    comparing = "compare" in read_asks(mentions.text)
    found, slot_warnings = _slots(mentions, lang, comparing=comparing)
    refuse_nonsense("", "", found)
    text = mentions.text
    has_job = bool({"model", "params"} & found.keys())
    evidence = classify(
        text,
        named_job=bool(mentions.site or has_job),
        named_hardware=mentions.names_hardware,
    )
    asks = _refine_asks(read_asks(text, has_job=has_job), found, text)
    options = hardware_options(text, mentions.gpu_sequence) if "compare" in asks else ()
    slot_warnings = _compared_counts(options, slot_warnings, text, lang)
    base = Query(
        question=cleaned,
        language=lang,
        scenario=Scenario(**found),  # type: ignore[arg-type]
        in_domain=evidence.in_domain,
        topics=slots.read_topics(text),
        warnings=tuple(warnings + slot_warnings),
        asks=asks,
        options=tuple(Scenario(**o) for o in options),  # type: ignore[arg-type]
        unknown_names=mentions.unknown,
    )
    offtopic = bool(evidence.elsewhere)
    return _with_previous(base, found, previous, text=text, offtopic=offtopic, sites=sites)


def _with_previous(
    base: Query,
    found: Mapping[str, object],
    previous: Scenario | Query | None,
    *,
    text: str,
    offtopic: bool,
    sites: tuple[SiteProfile, ...],
) -> Query:
    """`base`, or `base` as a follow-up of `previous` (assistant.parse.followup decides);
    `text` is the masked, normalised question the counts are read from."""
    added = added_counts(text, previous, {s.id: s.nodes for s in sites})
    followup = as_followup(
        base, found, previous, offtopic=offtopic, bare=bare_count(text), added=added
    )
    if followup and isinstance(previous, Query) and says_no_language(base.question):
        return replace(followup, language=previous.language)  # "4-bit?" after a Chinese turn
    return followup or base


def _compared_counts(
    options: Iterable[Mapping[str, object]], warnings: list[str], text: str, lang: Language
) -> list[str]:
    """A comparison of different counts ("128 A100 … or 64 H100") is no contradiction: the
    counts-differ note is dropped."""
    if len({o.get("gpu_count") for o in options}) < 2:
        return warnings
    stale = _counts_slots(hw.read_counts(text), lang)[1]
    return [w for w in warnings if w not in stale]


def _slots(
    mentions: _Mentions, lang: Language, *, comparing: bool = False
) -> tuple[dict[str, object], list[str]]:
    """Every slot the question states, and the notes on how they were read."""
    text = mentions.text
    found: dict[str, object] = {}
    if mentions.site:
        found["site_profile"] = mentions.site
    if mentions.gpus:
        found["gpu"] = mentions.gpus[0]
    if mentions.models:
        found["model"] = mentions.models[0]
    count_slots, warnings = _counts_slots(hw.read_counts(text), lang, comparing=comparing)
    found.update(count_slots)
    found.update(_workload_slots(text))
    found.update(_link_slots(text, mentions.plain))
    if "gpu" in found and hw.names_bare_nvlink(mentions.plain):
        warnings += _family_nvlink(found, lang)
    for name, value in read_load_slots(text).items():
        if name != "currency" or "currency" not in found:
            found[name] = value
    warnings += _node_price(text, found, lang) + _epochs_and_mfu(text, found, lang)
    if "model" in found:
        found.pop("params", None)
    if "gpu" in found and str(found.get("intra_link", "")).lower().startswith("pcie"):
        found["gpu"], link = hw.pcie_variant(str(found["gpu"]))
        found["intra_link"] = link or found["intra_link"]
    warnings += [_say(m, lang) for m in _name_notes(mentions, found, lang)]
    return found, warnings


_MFU = re.compile(r"\bmfu\b\D{0,12}?(\d+(?:\.\d+)?)\s*%|(\d+(?:\.\d+)?)\s*%\s*(?:的\s*)?mfu")


def _epochs_and_mfu(text: str, found: dict[str, object], lang: Language) -> list[str]:
    """Epochs multiply the token budget ("3 epochs of 200M tokens"); a stated MFU has no slot,
    so the answer says it is not used rather than drop it silently."""
    notes = []
    mfu = _MFU.search(text)
    if mfu:
        stated = float(mfu.group(1) or mfu.group(2)) / 100
        notes.append(_say(Msg("parse.mfu_not_used", mfu=stated), lang))
    epochs, tokens = slots.read_epochs(text), found.get("tokens")
    if epochs and epochs != 1 and isinstance(tokens, float):
        found["tokens"] = epochs * tokens
        notes.append(_say(Msg("parse.epochs", epochs=epochs, tokens=epochs * tokens), lang))
    return notes


def _node_price(text: str, found: dict[str, object], lang: Language) -> list[str]:
    """A price per node-hour becomes a price per GPU-hour over the GPUs of one node (the node's
    stated count, a one-node total, else 8 as in DGX/HGX servers), and the answer says so."""
    price, currency = slots.read_node_price(text)
    if price is None:
        return []
    count = found.get("gpu_count") if found.get("nodes") in (None, 1) else None
    per_node = found.get("gpus_per_node") or count or DEFAULT_GPUS_PER_NODE
    assert isinstance(per_node, (int, float))
    found["price_per_gpu_hour"], found["currency"] = price / per_node, currency
    message = Msg(
        "parse.node_price",
        price=price,
        per_gpu=price / per_node,
        currency=Msg(f"summary.currency.{currency}"),
        gpus=per_node,
    )
    return [_say(message, lang)]


def _family_nvlink(found: dict[str, object], lang: Language) -> list[str]:
    """A bare "NVLink" is the card's own (or its bridge's); a card with none ("2 4090 with
    NVLink") is evaluated over its own link, and the answer says why."""
    from calculators.catalog.hardware import GPUS

    gpu = str(found["gpu"])
    link = hw.nvlink_of(gpu)
    card = GPUS.get(gpu)
    if link is None and card is not None:
        link = card.intra_link
        found["intra_link"] = link
        return [_say(Msg("parse.no_nvlink", gpu=gpu, link=link), lang)]
    found["intra_link"] = link or found["intra_link"]
    return []


def _name_notes(mentions: _Mentions, found: Mapping[str, object], lang: Language) -> list[Msg]:
    """ "<name> is not in the catalog (closest: …)" per unknown name, with the entries the
    answer's lead offers (:func:`closest_entries`)."""
    notes = [
        Msg(
            "parse.unknown_name",
            name=name_in(name, lang),
            closest=closest_entries(name)[1] or ("—",),
        )
        for name in mentions.unknown
        if not is_computer(name)  # no card is close to a CPU or a Mac: the lead says so
    ]
    # a card known only by its memory is noted where it is evaluated (calculate.stand_in)
    link_note = hw.nvlink_note(mentions.plain, found)
    return [*notes, link_note] if link_note else notes


#: "钱够吗", "can we afford it": whether the money covers the run.
_MONEY_ENOUGH = re.compile(
    r"钱(?:够|不够)|(?:money|budget|funds?) (?:be |is )?enough|enough (?:money|budget|funds?)|"
    r"\bafford"
)


def _refine_asks(asks: tuple[Ask, ...], found: Mapping[str, object], text: str) -> tuple[Ask, ...]:
    """ "$0.12 per kWh, what does it cost?" asks for the energy cost, not the GPU-hour cost.
    "8张H100训练7B，钱够吗" with no budget asks for what the run costs (no money was given to
    judge); with a budget it stays a yes/no whose headline is the budget sentence."""
    if "cost" in asks and "price_per_kwh" in found and "price_per_gpu_hour" not in found:
        asks = tuple("energy_cost" if a == "cost" else a for a in asks if a != "energy_cost")
    if found.get("budget") is None and "cost" not in asks and _MONEY_ENOUGH.search(text):
        asks = ("cost", *asks)
    return asks
