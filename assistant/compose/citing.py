"""Which knowledge-base sections support which kind of claim, and how well a passage fits.

Used by :mod:`assistant.compose` to pick the passage cited beside each check's sentence: the
section that backs that kind of claim (the KV-cache section for an inference memory figure,
the Ethernet section for a 25GbE network figure), and within it the passage that names the
scenario's GPU or model. A passage that only introduces a table never supports anything.
"""

from __future__ import annotations

import functools
import re

from assistant.records import Passage, Scenario
from assistant.render import fmt_count

__all__ = ["SECTIONS", "Terms", "claim_kind", "lead_in", "mention_terms", "passage_score"]

#: Sections that support each kind of claim, best first: (document id, anchor). A passage of
#: these sections is preferred over a merely similar one; within a section, the passage that
#: names the scenario's GPU or model wins (the TDP row of *this* GPU, not the table's intro).
SECTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "memory-train": (
        ("gpu-memory", "training-states"),
        ("zero-fsdp", "stages"),
        ("feasibility-checklist", "step-sharding"),
        ("mixed-precision-optimizer", "adam-bytes"),
    ),
    "memory-lora": (("gpu-memory", "finetuning"),),
    "memory-inference": (
        ("gpu-memory", "inference-weights"),
        ("inference-serving", "kv-cache"),
        ("gpu-memory", "kv-cache"),
    ),
    "memory-kv": (
        ("inference-serving", "kv-cache"),
        ("inference-serving", "kv-cache-quantization"),
        ("gpu-memory", "kv-cache"),
    ),
    "memory-weights-kv": (
        ("inference-serving", "kv-cache-quantization"),
        ("inference-serving", "quantization"),
        ("gpu-memory", "inference-weights"),
    ),
    "memory-quantized": (
        ("inference-serving", "quantization"),
        ("gpu-memory", "inference-weights"),
    ),
    "compute-train": (
        ("scaling-laws-compute", "six-nd"),
        ("scaling-laws-compute", "published-mfu"),
        ("scaling-laws-compute", "worked-examples"),
    ),
    # the pipeline bubble asked with no job (calculate.bubble): the schedule, not 6ND
    "compute-bubble": (
        ("parallelism-3d", "pipeline-parallel"),
        ("parallelism-3d", "gradient-accumulation"),
    ),
    "compute-inference": (
        ("inference-serving", "latency-per-token"),
        ("inference-serving", "prefill-decode"),
    ),
    "network-ethernet": (("networking", "ethernet-roce"), ("networking", "all-reduce")),
    "network-infiniband": (("networking", "infiniband"), ("networking", "all-reduce")),
    "network-nvlink": (("networking", "nvlink"), ("networking", "all-reduce")),
    "network-pcie": (("networking", "pcie"), ("networking", "all-reduce")),
    "power": (
        ("power-cooling-reliability", "gpu-tdp"),
        ("power-cooling-reliability", "pue-energy"),
    ),
    "cost": (("cost-sourcing", "gpu-hours"), ("cost-sourcing", "cost-formula")),
}


def claim_kind(
    kind: str, scenario: Scenario, *, kv_bound: bool = False, kv_fix: bool = False
) -> str:
    """Which section list fits a check's claim, given what was evaluated. `kv_bound`: serving
    memory that the KV cache, not the weights, overflows (its 8-bit format is the remedy);
    `kv_fix`: serving memory whose simplest same-card fix quantizes weights and KV together.

    Examples:
        >>> claim_kind("memory", Scenario(task="finetune", method="qlora"))
        'memory-lora'
        >>> claim_kind("network", Scenario(nodes=4, inter_link="25GbE"))
        'network-ethernet'
        >>> claim_kind("memory", Scenario(task="inference"), kv_bound=True)
        'memory-kv'
        >>> claim_kind("memory", Scenario(task="inference"), kv_fix=True)
        'memory-weights-kv'
    """
    inference = scenario.task == "inference"
    if kind == "memory":
        if inference and kv_bound:
            return "memory-kv"
        if inference and kv_fix:
            return "memory-weights-kv"
        if inference:
            quantized = scenario.precision in ("int4", "int8")
            return "memory-quantized" if quantized else "memory-inference"
        return "memory-lora" if scenario.method in ("lora", "qlora") else "memory-train"
    if kind == "compute":
        return "compute-inference" if inference else "compute-train"
    if kind == "network":
        if (scenario.nodes or 1) > 1:
            link = (scenario.inter_link or "").lower()
            infiniband = "infiniband" in link or link.startswith(("ib", "ndr", "hdr", "xdr"))
            return "network-infiniband" if infiniband else "network-ethernet"
        intra = (scenario.intra_link or _gpu_link(scenario.gpu)).lower()
        return "network-nvlink" if "nvlink" in intra else "network-pcie"
    return kind


def _gpu_link(gpu: str | None) -> str:
    if not gpu:
        return ""
    from calculators.catalog.hardware import lookup_gpu

    return lookup_gpu(gpu).intra_link or ""


Terms = tuple[tuple[str, ...], tuple[str, ...]]


def mention_terms(scenario: Scenario) -> Terms:
    """(GPU terms, model terms) that show a passage is about this scenario.

    Examples:
        >>> mention_terms(Scenario(gpu="A100 PCIe 80GB", params=7e10))
        (('A100', 'PCIe'), ('70B',))
    """
    gpu_terms: tuple[str, ...] = ()
    if scenario.gpu:
        words = scenario.gpu.split()
        chip = next((w for w in words if any(ch.isdigit() for ch in w)), words[0])
        form = next((w for w in words if w.upper() in ("SXM", "PCIE", "SXM4", "SXM5")), None)
        gpu_terms = (chip, form) if form else (chip,)
    model_terms: list[str] = []
    if scenario.model:
        model_terms.append(scenario.model.split()[0])
    if scenario.params:
        model_terms.append(fmt_count(scenario.params, "en"))
    return gpu_terms, tuple(model_terms)


#: (passage text, term) pairs whose mention tests are kept: every answer scores the same few
#: sections of the knowledge base for the same GPU and model names, and each test scans a
#: whole passage. Keyed on passage texts (a bounded corpus) and names, never on questions.
MENTIONS_KEPT = 4096


@functools.lru_cache(maxsize=MENTIONS_KEPT)
def _mentions(text: str, term: str) -> bool:
    pattern = rf"(?<![A-Za-z0-9]){re.escape(term)}(?![0-9])"
    return re.search(pattern, text, re.IGNORECASE) is not None


@functools.lru_cache(maxsize=MENTIONS_KEPT)
def _gpu_mention(text: str, gpu_terms: tuple[str, ...]) -> tuple[float, float] | None:
    """The scores for naming the GPU, None when the text does not: its chip (and every other
    term, e.g. the form factor), then a table row that starts with it (added in this order)."""
    if not _mentions(text, gpu_terms[0]):
        return None
    named = 1.5 + 0.5 * all(t.lower() in text.lower() for t in gpu_terms[1:])
    row = rf"^\|[^|\n]*(?<![A-Za-z0-9]){re.escape(gpu_terms[0])}(?![0-9])"
    return named, 1.0 if re.search(row, text, re.MULTILINE) else 0.0  # its table row


def lead_in(passage: Passage) -> bool:
    """A passage that only introduces the table or list after it supports nothing by itself."""
    return passage.text.rstrip().endswith((":", "：")) and len(passage.text) < 400


def passage_score(
    passage: Passage, sections: tuple[tuple[str, str], ...], rank: int | None, terms: Terms
) -> float:
    """Section fit (first listed best), retrieval rank, naming the GPU (its row) or model."""
    gpu_terms, model_terms = terms
    key = (passage.doc_id, passage.anchor or "")
    score = 3.0 - 0.5 * sections.index(key) if key in sections else 0.0
    if rank is not None:
        score += 1.0 - rank / 12
    named = _gpu_mention(passage.text, gpu_terms) if gpu_terms else None
    if named is not None:
        score += named[0]
        score += named[1]
    if any(_mentions(passage.text, t) for t in model_terms):
        score += 0.5
    return score - (4.0 if lead_in(passage) else 0.0)
