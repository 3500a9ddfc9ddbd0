"""How a serving answer states a KV cache that tensor parallelism does not simply divide.

GQA/MHA KV is split by KV heads over min(t, kv_heads) GPUs; past that each head is held on
t / kv_heads of them (vLLM and Megatron-LM replicate the heads). An MLA latent (DeepSeek-V2,
arXiv:2405.04434 §2.1; V3, arXiv:2412.19437 §2.1.1) is one vector per token shared by all heads,
so each of the t GPUs of a tensor-parallel group holds every sequence's whole latent (vLLM's
and SGLang's TP attention). `serving_memory` counts both; these sentences say so, next to the
one-sequence and per-GPU figures (`kv_cache_bytes_per_sequence`, `kv_cache_bytes_per_gpu`);
the split itself is `calculators.catalog.models.kv_cache_split`.
"""

from __future__ import annotations

from collections.abc import Mapping

from assistant.records import Check, Figure, Scenario
from calculators.catalog.models import ModelSpec, kv_cache_split
from calculators.messages import Msg

__all__ = ["kv_cache_sentence", "kv_held", "kv_held_for"]


def kv_held(model: ModelSpec, tensor_parallel: int, pipeline_parallel: int = 1) -> Msg | str:
    """The clause after a KV figure when t GPUs hold more than its logical size: the MLA
    latent whole on each (a stage's layers of it, with pipeline stages), or each KV head on
    t / kv_heads GPUs; "" when t divides it.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> kv_held(lookup_model("Llama-3-70B"), 16).params["copies"]
        2
        >>> kv_held(lookup_model("Llama-3-70B"), 8)
        ''
    """
    copies = tensor_parallel // kv_cache_split(model, tensor_parallel=tensor_parallel)
    if copies <= 1:
        return ""
    if model.attention == "mla" and pipeline_parallel > 1:
        return Msg("answer.kv_held.latent_stages", copies=copies, stages=pipeline_parallel)
    if model.attention == "mla":
        return Msg("answer.kv_held.latent", copies=copies)
    said = {"copies": copies, "tp": tensor_parallel, "kv_heads": model.kv_heads}
    return Msg("answer.kv_held.heads", **said)


def kv_held_for(scenario: Scenario) -> Msg | str:
    """`kv_held` for the resolved scenario's model at its tensor-parallel degree."""
    from assistant.calculate.solvers import model_and_gpu  # solvers imports this module

    found = model_and_gpu(scenario)
    if found is None or scenario.task != "inference":
        return ""
    return kv_held(found[0], scenario.tensor_parallel or 1, scenario.pipeline_parallel or 1)


def _memory(checks: tuple[Check, ...]) -> Mapping[str, Figure]:
    return next((c.figures for c in checks if c.kind == "memory"), {})


def _number(figures: Mapping[str, Figure], key: str) -> float | None:
    value = figures.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def kv_cache_sentence(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """ "KV cache占多少显存": the deployment's total (one copy of each sequence's cache), each
    sequence's, and, on several GPUs, the most-loaded GPU's share with what it holds twice."""
    figures = _memory(checks)
    total = _number(figures, "kv_cache_bytes")
    per_gpu = _number(figures, "kv_cache_bytes_per_gpu")
    if not total:  # a training run holds no KV cache: "takes 0 B" answers nothing
        return None
    sequences = scenario.batch_size or 1
    context = scenario.context_length or 0
    each = Msg("answer.kv_each", per_seq=total / sequences) if sequences > 1 else ""
    said = {"total": total, "sequences": sequences, "context": context, "each": each}
    if per_gpu is not None and (scenario.gpu_count or 1) > 1:
        held = kv_held_for(scenario)
        footprint = _number(figures, "kv_cache_bytes_replicated")
        if held and footprint:  # "in total" would be one copy of several
            return Msg(
                "answer.kv_cache_copies", per_gpu=per_gpu, held=held, footprint=footprint, **said
            )
        return Msg("answer.kv_cache_split", per_gpu=per_gpu, **said)
    return Msg("answer.kv_cache", **said)
