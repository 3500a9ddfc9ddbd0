"""A card known only by its memory ("a 24GB card", "32GB的MI50", "燧原S60 48GB"): a generic card.

The question fixed the memory, so the answer is judged on that memory, never on a larger
typical card, and never refused for a limit of some catalog card that happens to have the
same memory (a V100 has no BF16; a "32GB card" may well have it). The generic card
(`calculators.catalog.generic`) borrows bandwidth, FLOP/s and power from the catalog card with
that memory (the most common one first), and the answer says which, once: an unknown card name
with its memory ("8张燧原S60（每张48GB）") is "not in the catalog; evaluated as a generic card".

Examples:
    >>> stand_in_gpu(24e9), stand_in_gpu(32e9), stand_in_gpu(20e9)
    ('RTX 4090 24GB', 'V100 SXM2 32GB', 'P100 SXM2 16GB')
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome
    from calculators.catalog.hardware import GPU

__all__ = [
    "generic_card_lead",
    "stand_in_gpu",
    "stated_gpu",
    "with_fp8_weight_only",
    "with_stand_in",
]


def lookup_memory(name: str) -> float:
    """The catalog memory of the GPU `name`, in bytes."""
    from calculators.catalog.hardware import lookup_gpu

    return lookup_gpu(name).memory_bytes


def stand_in_gpu(memory_bytes: float) -> str:
    """The catalog card whose bandwidth and FLOP/s a generic card of `memory_bytes` borrows."""
    from calculators.catalog.generic import stand_in_name

    return stand_in_name(memory_bytes)


def stated_gpu(scenario: Scenario) -> GPU:
    """The scenario's catalog GPU with the memory the question stated for it, when that differs
    from the entry ("A800 40G", "魔改48G的4090"): bandwidth and FLOP/s stay the entry's."""
    from calculators.catalog.hardware import lookup_gpu

    gpu = lookup_gpu(scenario.gpu or "")
    memory = scenario.gpu_memory_bytes
    if memory is None or abs(memory - gpu.memory_bytes) <= 0.02 * gpu.memory_bytes:
        return gpu
    return replace(gpu, memory_bytes=memory)


def with_stand_in(query: Query) -> tuple[Query, str | None]:
    """The query on a generic card when only the memory was stated, and the note saying so
    (or the note that a named card is evaluated with the memory stated for it); `(query, None)`
    when the memory stated is the card's own or none is stated."""
    from calculators.catalog.generic import generic_name

    s = query.scenario
    if s.gpu_memory_bytes is None:
        return query, None
    if s.gpu is not None:
        if stated_gpu(s).memory_bytes == lookup_memory(s.gpu):
            return query, None
        msg = Msg("answer.memory_as_stated", memory=s.gpu_memory_bytes, gpu=s.gpu)
        return query, text(msg, query.language)
    gpu = stand_in_gpu(s.gpu_memory_bytes)
    note = text(Msg("answer.stand_in", memory=s.gpu_memory_bytes, gpu=gpu), query.language)
    return replace(query, scenario=replace(s, gpu=generic_name(s.gpu_memory_bytes))), note


def generic_card_lead(query: Query) -> tuple[tuple[str, ...], str]:
    """The unknown names that are cards evaluated as the generic card of the stated memory
    ("燧原S60" in "8张燧原S60（每张48GB显存）"), and the sentence saying so: "<name> is not in
    the catalog: evaluated as a generic card with <memory>". `((), "")` for none."""
    from assistant.parse.names import closest_entries, name_in

    s, lang = query.scenario, query.language
    if s.gpu is not None or s.gpu_memory_bytes is None:
        return (), ""
    names = tuple(n for n in query.unknown_names if closest_entries(n)[0] == "gpu")
    if not names:
        return (), ""
    shown = tuple(name_in(n, lang) for n in names)
    gpu = stand_in_gpu(s.gpu_memory_bytes)
    msg = Msg("answer.unknown_card_generic", name=shown, memory=s.gpu_memory_bytes, gpu=gpu)
    return names, text(msg, lang)


def with_fp8_weight_only(query: Query, outcome: Outcome) -> Outcome:
    """`outcome` with what FP8 on the named card means: weight-only serving (`_fp8_weights`),
    or FP8 training the card cannot run, infeasible as asked (`fp8_training`)."""
    from assistant.calculate.fp8_training import with_no_fp8_training

    return with_no_fp8_training(query, _fp8_weights(query, outcome))


def _fp8_weights(query: Query, outcome: Outcome) -> Outcome:
    """`outcome` with the sentence that FP8 weights run weight-only (W8A16) on the named card
    when it has no FP8 tensor cores but serves FP8 weights that way ("A100能跑FP8推理吗"): the
    question is answered, not refused, and the answer says at what memory and speed. On a card
    that cannot serve FP8 weights at all (a V100: compute capability 7.0) the refusal becomes
    an "infeasible" answer saying why and which formats run there instead."""
    from assistant.i18n import join_sentences
    from calculators.catalog.generic import is_generic

    s = query.scenario
    if s.precision != "fp8" or s.task != "inference" or not s.gpu or is_generic(s.gpu):
        return outcome  # a generic card's note says it
    gpu = stated_gpu(s)
    if outcome.mode == "verdict" and gpu.fp8_weight_only():
        note = text(Msg("answer.fp8_weight_only", gpu=gpu.name), query.language)
        return replace(outcome, lead=join_sentences((outcome.lead, note), query.language))
    refused = outcome.refusal
    if refused is None or refused.field != "precision" or gpu.supports("fp8"):
        return outcome
    # "V100 fp8 inference": a fair question with a plain answer: not on this card
    hint = gpu.default_training_precision()
    msg = Msg("answer.fp8_not_on_card", gpu=gpu.name, arch=gpu.architecture.title(), hint=hint)
    return replace(outcome, verdict="infeasible", lead=text(msg, query.language), refusal=None)
