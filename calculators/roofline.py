"""Inference speed of one batch by roofline: prefill is compute-bound, decode is bound by
memory bandwidth (the weights and every sequence's KV cache read once per step) unless its
FLOPs take longer (Pope et al. 2022, arXiv:2211.05102 §2).
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators import _memory_parts as parts
from calculators.catalog.hardware import DTYPE_BYTES, GPU
from calculators.catalog.models import ModelSpec, kv_cache_bytes_per_token
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_PROMPT_TOKENS
from calculators.messages import Msg
from calculators.mfu import default_mfu
from calculators.validate import check_choice, check_count, check_fraction

__all__ = ["DECODE_BANDWIDTH_EFFICIENCY", "InferenceSpeed", "inference_speed"]

#: Share of peak memory bandwidth a decode step reaches (planning assumption, not a measurement).
DECODE_BANDWIDTH_EFFICIENCY = 0.8


@dataclass(frozen=True)
class InferenceSpeed:
    """Prefill (compute-bound) and decode (memory-bandwidth-bound) speed of one batch.

    Attributes:
        prefill_seconds: time to process the prompts of the whole batch (time to first token).
        decode_seconds_per_token: one decode step, i.e. the latency between tokens.
        decode_tokens_per_s: tokens per second over the whole batch.
        decode_bound: "memory" or "compute", whichever limits a decode step.
    """

    prefill_seconds: float
    prefill_tokens_per_s: float
    decode_seconds_per_token: float
    decode_tokens_per_s: float
    decode_bound: str
    bytes_per_decode_step: float
    flops_per_decode_step: float
    compute_precision: str
    gpus: int
    formula: Msg
    assumptions: tuple[Msg, ...]
    sources: tuple[str, ...]


def _weights_read_per_step(model: ModelSpec, weight_dtype: str, batch_size: int) -> float:
    """Bytes of weights one decode step reads; MoE reads only the experts some token uses."""
    stage = parts.stage_layout(model, 1)[0]
    linear_bytes = parts.WEIGHT_STORAGE_BYTES[weight_dtype]
    total = stage.linear_params * linear_bytes + (stage.params - stage.linear_params) * max(
        linear_bytes, 2.0
    )
    if not model.is_moe:
        return total
    routed = (
        (model.layers - model.dense_layers)
        * model.experts
        * model.ffn_matrices
        * model.hidden
        * model.moe_ffn_hidden
    )
    # Expected share of experts hit by batch_size tokens choosing active_experts each.
    touched = 1.0 - (1.0 - model.active_experts / model.experts) ** batch_size
    return total - routed * linear_bytes * (1.0 - touched)


def inference_speed(
    *,
    model: ModelSpec,
    gpu: GPU,
    gpus: int = 1,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    batch_size: int = 1,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    prompt_tokens: int = DEFAULT_PROMPT_TOKENS,
    prefill_mfu: float | None = None,
    bandwidth_efficiency: float = DECODE_BANDWIDTH_EFFICIENCY,
) -> InferenceSpeed:
    """Roofline estimate of serving speed on ``gpus`` GPUs (tensor parallel, no network cost).

    Prefill: 2·N_active FLOPs per prompt token (+ causal attention) at ``prefill_mfu`` of the
    peak (default: the training MFU default). Decode step: reads the weights once plus every
    sequence's KV cache at ``context_length`` tokens, at ``bandwidth_efficiency`` of the HBM
    bandwidth, unless the 2·N_active·batch FLOPs take longer. FP8 weights use the FP8 peak;
    int8/int4 weights are dequantized and multiplied in 16-bit.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> s = inference_speed(model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("A100 80GB"),
        ...                     batch_size=1, context_length=1024, prompt_tokens=512)
        >>> round(s.decode_seconds_per_token * 1000, 1), s.decode_bound  # ms per token
        (8.6, 'memory')
    """
    weight_dtype = check_choice("weight_dtype", weight_dtype, parts.WEIGHT_STORAGE_BYTES)
    kv_dtype = check_choice("kv_dtype", kv_dtype, DTYPE_BYTES)
    check_count("gpus", gpus, maximum=model.heads)
    check_count("batch_size", batch_size, maximum=10**7)
    check_count("context_length", context_length, maximum=10**8)
    check_count("prompt_tokens", prompt_tokens, maximum=10**8)
    check_fraction("bandwidth_efficiency", bandwidth_efficiency)
    mfu = (
        check_fraction("prefill_mfu", prefill_mfu)
        if prefill_mfu is not None
        else (default_mfu(gpu))
    )
    precision = (
        "fp8"
        if weight_dtype == "fp8" and gpu.supports("fp8")
        else (gpu.default_training_precision())
    )
    peak = gpus * gpu.dense_flops_per_s(precision)
    attention_width = model.heads * model.head_dim
    n_active = float(model.active_params)
    prefill_flops = batch_size * (
        2.0 * n_active * prompt_tokens + 2.0 * model.layers * prompt_tokens**2 * attention_width
    )
    prefill_seconds = prefill_flops / (peak * mfu)
    kv_bytes = (
        batch_size
        * context_length
        * kv_cache_bytes_per_token(model, dtype_bytes=DTYPE_BYTES[kv_dtype])
    )
    step_bytes = _weights_read_per_step(model, weight_dtype, batch_size) + kv_bytes
    step_flops = batch_size * (
        2.0 * n_active + 4.0 * model.layers * context_length * attention_width
    )
    memory_time = step_bytes / (gpus * gpu.memory_bandwidth_bytes_per_s * bandwidth_efficiency)
    compute_time = step_flops / (peak * mfu)
    step = max(memory_time, compute_time)
    return InferenceSpeed(
        prefill_seconds=prefill_seconds,
        prefill_tokens_per_s=batch_size * prompt_tokens / prefill_seconds,
        decode_seconds_per_token=step,
        decode_tokens_per_s=batch_size / step,
        decode_bound="memory" if memory_time >= compute_time else "compute",
        bytes_per_decode_step=step_bytes,
        flops_per_decode_step=step_flops,
        compute_precision=precision,
        gpus=gpus,
        formula=Msg("formula.serving.roofline"),
        assumptions=(
            Msg(
                "assume.serving.prefill_decode_efficiency",
                mfu=mfu,
                precision=precision,
                bandwidth=bandwidth_efficiency,
            ),
            Msg("assume.serving.tp_free"),
            Msg("assume.serving.moe_routing"),
            Msg("assume.serving.roofline"),
        ),
        sources=(
            "Pope et al. 2022, Efficiently Scaling Transformer Inference (arXiv:2211.05102) §2: "
            "decode is memory-bandwidth-bound at small batch, 2N FLOPs per token",
            "Kaplan et al. 2020 (arXiv:2001.08361) §2.1: forward pass ≈ 2N FLOPs per token",
        ),
    )
