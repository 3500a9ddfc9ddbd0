"""Training memory of each distinct pipeline stage on its most-loaded GPU: weights, gradients,
optimizer states (sharded by tensor parallelism, expert parallelism and the ZeRO stage over the
data-parallel degree) and activations (Korthikanti et al. 2022, arXiv:2205.05198 Table 2).

`gpu_memory.training_memory` takes the worst stage; the layout search (`layout_search`) asks
for the totals alone, thousands of times per question.
"""

from __future__ import annotations

from typing import Any

from calculators import _memory_parts as parts
from calculators.catalog.models import ModelSpec
from calculators.memory_breakdown import MemoryBreakdown, make_breakdown

__all__ = ["stage_memories", "stage_parts", "stage_totals"]


def stage_memories(
    *,
    gpus: int,
    d: int,
    zero: int,
    tensor_parallel: int,
    pipeline_parallel: int,
    offload: bool,
    **options: Any,
) -> list[MemoryBreakdown]:
    """Per-GPU memory of each distinct pipeline stage (first stage first); ``options`` are the
    rest of :func:`stage_parts`'s inputs (model, shape, precision, optimizer, recompute)."""
    return [
        make_breakdown(
            "training",
            gpus=gpus,
            weights_bytes=weights,
            gradients_bytes=0.0 if offload else grads,
            optimizer_bytes=0.0 if offload else opt,
            offloaded_bytes=grads + opt if offload else 0.0,
            activations_bytes=acts,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            data_parallel=d,
            zero_stage=zero,
        )
        for weights, grads, opt, acts in stage_parts(
            d=d,
            zero=zero,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            offload=offload,
            **options,
        )
    ]


def stage_totals(offload: bool, **options: Any) -> list[float]:
    """``total_bytes`` of each of :func:`stage_memories`, summed in the same order, without
    building the records (the layout search asks for thousands per question)."""
    if offload:
        return [w + 0.0 + 0.0 + a for w, _, _, a in stage_parts(offload=True, **options)]
    return [w + g + o + a for w, g, o, a in stage_parts(offload=False, **options)]


def stage_parts(
    *,
    model: ModelSpec,
    d: int,
    zero: int,
    tensor_parallel: int,
    expert_parallel: int = 1,
    pipeline_parallel: int,
    micro_batch_size: int,
    sequence_length: int,
    precision: str,
    optimizer: str,
    recompute: str,
    flash_attention: bool,
    offload: bool,
) -> list[tuple[float, float, float, float]]:
    """(weights, gradients, optimizer states, activations) bytes per GPU of each distinct
    pipeline stage, first stage first; gradients and optimizer states before any offload."""
    per_param = parts.state_bytes_per_param(precision, optimizer)
    act_scale = 2.0 if str(precision).lower() == "fp32" else 1.0
    options = {
        "micro_batch_size": micro_batch_size,
        "sequence_length": sequence_length,
        "tensor_parallel": tensor_parallel,
    }
    layer = parts.activation_bytes_per_layer(
        model, recompute=recompute, flash_attention=flash_attention, **options
    )
    # the one layer being recomputed holds its full activations
    recomputed = (
        parts.activation_bytes_per_layer(
            model, recompute="none", flash_attention=flash_attention, **options
        )
        if recompute == "full"
        else 0.0
    )
    out = []
    for stage in dict.fromkeys(parts.stage_layout(model, pipeline_parallel)):
        # Dense part over t, sharded over d; routed experts over t·e, sharded over d/e:
        # once sharded both are /(t·d), unsharded the experts stay /(t·e).
        dense = (stage.params - stage.expert_params) / tensor_parallel
        experts = stage.expert_params / tensor_parallel
        kept = dense + experts / expert_parallel
        weights, grads, opt = (
            per_param[0] * (dense + experts) / d if zero >= 3 else per_param[0] * kept,
            per_param[1] * (dense + experts) / d if zero >= 2 or offload else per_param[1] * kept,
            per_param[2] * (dense + experts) / d if zero >= 1 or offload else per_param[2] * kept,
        )
        acts = stage.layers * stage.in_flight_micro_batches * layer
        if recompute == "full":
            acts += recomputed
        if stage.holds_output_layer:
            acts += parts.logits_bytes(model, **options) / act_scale
        out.append((weights, grads, opt, acts * act_scale))
    return out
