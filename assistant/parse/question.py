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
from assistant.parse.domain import classify
from assistant.parse.numbers import clean_text, normalize_numbers
from assistant.records import Language, Query, Scenario, SiteProfile

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

_FOLLOWUP = re.compile(
    r"^(?:那|那么|如果|要是|假如|换成|改成|改用|换用|用|若)|呢[?？]?$|呢\s*$|"
    r"^(?:what about|how about|and if|what if|and with|instead|then|with|using|and)\b|\binstead\b",
    re.ASCII,
)


def detect_language(text: str) -> Language:
    """ "zh" when the question is mainly Chinese, else "en"."""
    han = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin_words = len(re.findall(r"[A-Za-z]{2,}", text))
    return "zh" if han and han >= 1.5 * latin_words else "en"


@functools.lru_cache(maxsize=1)
def _catalog_indexes() -> tuple[Mapping[str, str], Mapping[str, str]]:
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


@dataclass(frozen=True)
class _Mentions:
    site: str | None
    gpus: tuple[str, ...]
    models: tuple[str, ...]
    text: str
    """Cleaned, lower-cased, catalog names masked, numbers normalised."""


def _find_mentions(cleaned: str, sites: Iterable[SiteProfile]) -> _Mentions:
    text = cleaned.lower()
    site_matches = hw.find_aliases(text, _site_index(sites))
    text = hw.mask(text, site_matches, " ⟨site⟩ ")
    gpu_index, model_index = _catalog_indexes()
    model_matches = hw.find_aliases(text, model_index)
    text = hw.mask(text, model_matches, hw.MODEL_MARK)
    gpu_matches = hw.find_aliases(text, gpu_index)
    text = hw.mask(text, gpu_matches, hw.GPU_MARK)
    return _Mentions(
        site=site_matches[0].name if site_matches else None,
        gpus=tuple(dict.fromkeys(m.name for m in gpu_matches)),
        models=tuple(dict.fromkeys(m.name for m in model_matches)),
        text=normalize_numbers(text),
    )


def mentioned_gpus(question: str) -> tuple[str, ...]:
    """Every catalog GPU the question names, in order ("H100 和 A100 有什么区别")."""
    return _find_mentions(clean_text(question)[:MAX_QUESTION_CHARS], ()).gpus


def _counts_slots(counts: hw.Counts, language: Language) -> tuple[dict[str, object], list[str]]:
    out: dict[str, object] = {}
    warnings: list[str] = []
    if counts.nodes is not None:
        out["nodes"] = counts.nodes
    if counts.gpus_per_node is not None:
        out["gpus_per_node"] = counts.gpus_per_node
    if counts.gpu_counts:
        out["gpu_count"] = counts.gpu_counts[0]
        if len(counts.gpu_counts) > 1:
            chosen, others = counts.gpu_counts[0], counts.gpu_counts[1:]
            listed = ", ".join(str(c) for c in others)
            warnings.append(
                f"问题中给出了不同的 GPU 数量（{chosen} 与 {listed}），按 {chosen} 张计算。"
                if language == "zh"
                else f"The question gives different GPU counts ({chosen} and {listed}); "
                f"using {chosen}."
            )
    elif counts.nodes is not None and counts.gpus_per_node is not None:
        out["gpu_count"] = counts.nodes * counts.gpus_per_node
    return out, warnings


def _workload_slots(text: str) -> dict[str, object]:
    out: dict[str, object] = {}
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
    if out.get("task") == "finetune" and out.get("precision") == "int4" and "method" not in out:
        out["method"] = "qlora"
    return out


def _link_slots(text: str) -> dict[str, object]:
    intra, inter = hw.read_links(text)
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
    cleaned = clean_text(question)
    lang: Language = language or detect_language(cleaned)
    if len(cleaned) > MAX_QUESTION_CHARS:
        cleaned = cleaned[:MAX_QUESTION_CHARS]
        warnings.append(
            f"问题过长，只读取了前 {MAX_QUESTION_CHARS} 个字符。"
            if lang == "zh"
            else f"The question is very long; only its first {MAX_QUESTION_CHARS} characters "
            "were read."
        )
    mentions = _find_mentions(cleaned, sites)
    text = mentions.text
    found: dict[str, object] = {}
    if mentions.site:
        found["site_profile"] = mentions.site
    if mentions.gpus:
        found["gpu"] = mentions.gpus[0]
    if mentions.models:
        found["model"] = mentions.models[0]
    count_slots, count_warnings = _counts_slots(hw.read_counts(text), lang)
    warnings += count_warnings
    found.update(count_slots)
    found.update(_workload_slots(text))
    found.update(_link_slots(text))
    if "model" in found:
        found.pop("params", None)
    evidence = classify(
        text,
        named_job=bool(mentions.site or mentions.models or "params" in found),
        named_hardware=bool(mentions.gpus),
    )
    base = Query(
        question=cleaned,
        language=lang,
        scenario=Scenario(**found),  # type: ignore[arg-type]
        in_domain=evidence.in_domain,
        topics=slots.read_topics(text),
        warnings=tuple(warnings),
    )
    return _as_followup(base, found, previous, offtopic=bool(evidence.elsewhere)) or base


def _as_followup(
    base: Query,
    found: Mapping[str, object],
    previous: Scenario | Query | None,
    *,
    offtopic: bool,
) -> Query | None:
    """`base` as a follow-up of `previous`, or None when it is a question of its own.

    A follow-up names a slot to change ("那用H100呢?") or, in a follow-up form ("那网络呢?",
    "and what about the network?"), a topic to look at next. On a question with nothing to
    compute the new topic is searched in the context of the question it follows; on a scenario
    the question it follows keeps its intent ("需要几张" then "那用H100呢?" sizes the H100s).
    """
    if previous is None or not (found or base.topics) or (offtopic and not base.in_domain):
        return None
    prev_query = previous if isinstance(previous, Query) else None
    if prev_query is not None and not prev_query.in_domain:
        return None
    prev_scenario: Scenario = prev_query.scenario if prev_query is not None else previous  # type: ignore[assignment]
    explicit = bool(_FOLLOWUP.search(base.question.lower().strip()))
    if not (explicit or (found and _is_followup(base.question.lower(), found))):
        return None
    if not explicit and not _has_job(prev_scenario) and not _has_job(base.scenario):
        return None  # two conceptual questions in a row: nothing to carry over
    scenario, changed = merge_followup(prev_scenario, found)
    context = (prev_query.context or prev_query.question) if prev_query is not None else ""
    return replace(
        base,
        scenario=scenario,
        in_domain=True,
        followup=True,
        changed_slots=changed,
        context=context,
    )


def _has_job(scenario: Scenario) -> bool:
    return scenario.model is not None or scenario.params is not None


def _is_followup(text: str, found: Mapping[str, object]) -> bool:
    has_workload = bool({"model", "params"} & found.keys())
    has_hardware = bool({"gpu", "gpu_count", "site_profile", "nodes"} & found.keys())
    return bool(_FOLLOWUP.search(text.strip())) or not (has_workload and has_hardware)


def merge_followup(
    previous: Scenario, found: Mapping[str, object]
) -> tuple[Scenario, tuple[str, ...]]:
    """Apply the slots a follow-up names to the previous scenario; returns (scenario, changed)."""
    changes: dict[str, object] = dict(found)
    if "gpu" in changes and "gpu_memory_bytes" not in changes:
        changes["gpu_memory_bytes"] = None
    if "model" in changes:
        changes.setdefault("params", None)
        changes.setdefault("active_params", None)
    if "params" in changes and "model" not in changes:
        changes["model"] = None
        changes.setdefault("active_params", None)
    if "nodes" in changes and "gpu_count" not in changes:
        per_node = previous.gpus_per_node
        if per_node is None and previous.gpu_count and previous.nodes:
            per_node = previous.gpu_count // previous.nodes
        if per_node is None and previous.gpu_count and not previous.site_profile:
            per_node = previous.gpu_count
        changes.setdefault("gpus_per_node", per_node)
        changes["gpu_count"] = None
    if "gpu_count" in changes and "nodes" not in changes:
        changes["nodes"] = None
    task = changes.get("task", previous.task)
    if changes.get("precision") == "int4" and task == "finetune" and "method" not in changes:
        changes["method"] = "qlora"
    scenario = replace(previous, **changes)  # type: ignore[arg-type]
    changed = tuple(k for k in found if getattr(previous, k, None) != found[k])
    return scenario, changed
