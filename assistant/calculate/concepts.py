"""In-domain questions with nothing to compute ("ZeRO-3 是什么?", "What is the KV cache?").

The answer cannot be a verdict, but it should not be empty either: composition cites the best
passages for the question itself, and this module adds the catalog facts of any GPU the question
names and says what to add for a computed verdict.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.i18n import t, text
from assistant.parse.thread import quoted_context
from assistant.records import Language, Query
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome_record import Outcome

__all__ = ["card_ratio", "concept_lead", "concept_outcome", "gpu_facts", "what_to_ask"]


def gpu_facts(names: Sequence[str], language: Language) -> tuple[str, ...]:
    """One line of datasheet figures per named GPU (from the calculators' catalog)."""
    from calculators.catalog.hardware import lookup_gpu
    from calculators.gpu_memory import USABLE_FRACTION

    lines = []
    for name in dict.fromkeys(names):
        gpu = lookup_gpu(name)
        bf16 = gpu.dense_flops_per_s("bf16") if gpu.supports("bf16") else None
        peak = Msg("concept.bf16_peak", flops=bf16) if bf16 else Msg("concept.no_bf16")
        # weights only, in the usable 90% of the card (the memory calculator's fraction)
        fp16, int4 = (USABLE_FRACTION * gpu.memory_bytes / b for b in (2.0, 0.5))
        facts = Msg(
            "concept.gpu_facts",
            gpu=gpu.name,
            memory_gb=gpu.memory_bytes / 1e9,
            peak=peak,
            bandwidth=gpu.memory_bandwidth_bytes_per_s,
            tdp=gpu.tdp_watts,
            link=gpu.intra_link or "PCIe",
            fp16=fp16,
            int4=int4,
            usable=USABLE_FRACTION,
        )
        lines.append(text(facts, language))
    return tuple(lines)


#: A speed said of two cards ("为什么910B跑推理比H20慢", "why is the H20 slower"): compared.
_SPEED = re.compile(r"快|慢|速度|\bfast|\bslow|\bspeed|\bquick")


def _training_rate(name: str) -> tuple[float, float] | None:
    """One card's delivered training FLOP/s (16-bit dense peak x its default MFU) and the MFU."""
    from calculators.catalog.hardware import lookup_gpu
    from calculators.mfu import default_mfu

    gpu = lookup_gpu(name)
    precision = next((p for p in ("bf16", "fp16") if gpu.supports(p)), None)
    if precision is None:
        return None
    mfu = default_mfu(gpu, precision)
    return gpu.dense_flops_per_s(precision) * mfu, mfu


def card_ratio(query: Query) -> str:
    """Two cards compared for a task with no model named ("H800和A800训同一个模型速度差多少"):
    how many times faster one card is than the other, from the catalog. Training is compute
    bound (16-bit dense peak x default MFU; knowledge/guides/scaling-laws-compute), one
    stream's decode memory-bandwidth bound (knowledge/guides/inference-serving); the ratio
    holds for the same model on the same count of each. "" for anything else."""
    from assistant.parse import mentioned_gpus
    from calculators.catalog.hardware import lookup_gpu

    names = tuple(dict.fromkeys(mentioned_gpus(query.question)))
    task = query.scenario.task
    compared = "compare" in query.asks or bool(_SPEED.search(query.question.lower()))
    if len(names) != 2 or not compared or task is None:
        return ""
    if task == "inference":
        rates = [lookup_gpu(n).memory_bandwidth_bytes_per_s for n in names]
        key = "concept.card_ratio_decode"
    else:
        found = [_training_rate(n) for n in names]
        if None in found:
            return ""
        rates = [f[0] for f in found if f is not None]
        key = "concept.card_ratio_training"
    fast, slow = (0, 1) if rates[0] >= rates[1] else (1, 0)
    ratio = rates[fast] / rates[slow]
    winner, loser = lookup_gpu(names[fast]).name, lookup_gpu(names[slow]).name
    said = Msg(key, winner=winner, loser=loser, ratio=ratio, fast=rates[fast], slow=rates[slow])
    return text(said, query.language)


def concept_lead(query: Query) -> str:
    """The sentence after the verdict label for a question with no job to evaluate."""
    if query.followup and query.context:
        context = quoted_context(query)
        if not context:
            return t("concept.followup_lead_unquoted", query.language)
        return t("concept.followup_lead", query.language, context=context)
    return t("concept.lead", query.language)


def what_to_ask(query: Query) -> str:
    """What to add to the question to get a computed verdict, given what it already names."""
    s = query.scenario
    missing = [Msg("concept.missing.model")]
    if s.task is None:
        missing.append(Msg("concept.missing.task"))
    if s.gpu is None and s.site_profile is None:
        missing.append(Msg("concept.missing.hardware"))
    return t("concept.ask", query.language, missing=tuple(missing))


def concept_outcome(query: Query) -> Outcome:
    """In the domain but no model size: cite passages, show GPU facts, say what to add."""
    from assistant.calculate.cross_node import cross_node_tp
    from assistant.calculate.outcome_record import Outcome
    from assistant.parse import mentioned_gpus

    gpus = mentioned_gpus(query.question) or ((query.scenario.gpu,) if query.scenario.gpu else ())
    return Outcome(
        verdict="unknown",
        lead=concept_lead(query),
        mode="concept",
        focus=card_ratio(query) or cross_node_tp(query),  # a figure answers it first
        facts=gpu_facts(gpus, query.language),
        ask=what_to_ask(query),
    )
