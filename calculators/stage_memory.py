"""Training memory of each distinct pipeline stage on its most-loaded GPU: weights, gradients,
optimizer states (sharded by tensor parallelism, expert parallelism and the ZeRO stage over the
data-parallel degree) and activations (Korthikanti et al. 2022, arXiv:2205.05198 Table 2).

`gpu_memory.training_memory` takes the worst stage; the layout search (`layout_search`) asks
for the totals alone, thousands of times per question.

LoRA/QLoRA (`adapter_stages`): the same stages hold their layers of the frozen base and of the
adapters, and the activations are those of `stage_parts` itself, so a LoRA stage and a
pre-training stage of the same layers hold the same activations. ZeRO shards the adapters'
states (stage 1: optimizer, 2: + gradients) and at stage 3 the frozen base over d
(Rajbhandari et al. 2020, arXiv:1910.02054 §5); stage i of p holds p - i micro-batches under
1F1B (Narayanan et al. 2021, arXiv:2104.04473 §2.2).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from calculators import _memory_parts as parts
from calculators.catalog.models import ModelSpec
from calculators.memory_breakdown import MemoryBreakdown, make_breakdown

__all__ = ["AdapterStage", "adapter_stages", "stage_memories", "stage_parts", "stage_totals"]


@dataclass(frozen=True)
class AdapterStage:
    """Bytes on one GPU of a LoRA/QLoRA pipeline stage (the MemoryBreakdown fields)."""

    weights_bytes: float
    gradients_bytes: float
    optimizer_bytes: float
    offloaded_bytes: float
    activations_bytes: float
    overhead_bytes: float

    @property
    def total_bytes(self) -> float:
        """What stays on the GPU (the offloaded bytes are in host memory)."""
        return (
            self.weights_bytes
            + self.gradients_bytes
            + self.optimizer_bytes
            + self.activations_bytes
            + self.overhead_bytes
        )


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


def stage_parts(**options: Any) -> list[tuple[float, float, float, float]]:
    """(weights, gradients, optimizer states, activations) bytes per GPU of each distinct
    pipeline stage, first stage first; gradients and optimizer states before any offload
    (keyword arguments of :func:`_stage_parts`). Pure, so memoised: the layout search and the
    checks after it ask for the same stages many times per question."""
    return list(_stage_parts(**options))


@functools.lru_cache(maxsize=4096)
def _stage_parts(
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
) -> tuple[tuple[float, float, float, float], ...]:
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
    return tuple(out)


def adapter_stages(
    *,
    model: ModelSpec,
    method: str,
    d: int,
    zero: int,
    lora_rank: int,
    tensor_parallel: int,
    pipeline_parallel: int,
    micro_batch_size: int,
    sequence_length: int,
    precision: str,
    optimizer: str,
    recompute: str,
    flash_attention: bool,
    offload: bool,
) -> list[AdapterStage]:
    """Per-GPU memory of each distinct pipeline stage of a LoRA/QLoRA run, first stage first.

    A stage's adapters are the model's in proportion to its linear parameters: exact for
    models whose layers are alike (adapters are r x (d_in + d_out) per matrix of each layer),
    a close share for MoE models with dense first layers. With one stage this is the whole
    model, as before pipeline stages were counted.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> options = dict(model=lookup_model("Llama-2-70B"), method="lora", d=1, zero=0,
        ...     lora_rank=16, tensor_parallel=8, micro_batch_size=1, sequence_length=4096,
        ...     precision="bf16", optimizer="adam", recompute="full", flash_attention=True,
        ...     offload=False)
        >>> one = adapter_stages(pipeline_parallel=1, **options)
        >>> two = adapter_stages(pipeline_parallel=2, **options)
        >>> # 138 GB of BF16 base / TP 8; two stages hold half of it each (plus an embedding)
        >>> round(one[0].weights_bytes / 1e9, 1), round(max(s.weights_bytes for s in two) / 1e9, 1)
        (17.3, 8.6)
    """
    t, p = tensor_parallel, pipeline_parallel
    w, g, o = parts.state_bytes_per_param(precision, optimizer)
    adapters = parts.lora_trainable_params(model, rank=lora_rank)
    all_linear = parts.stage_layout(model, 1)[0].linear_params
    # QLoRA dequantizes one weight matrix at a time to bf16 for its matmul (bitsandbytes
    # Linear4bit: dequantize, multiply, free); the largest matrix bounds that buffer.
    dequant = 2.0 * parts.largest_matrix_params(model) / t if method == "qlora" else 0.0
    activations = stage_parts(  # (weights, grads, optimizer, activations) of each stage
        model=model,
        d=d,
        zero=0,
        tensor_parallel=t,
        pipeline_parallel=p,
        micro_batch_size=micro_batch_size,
        sequence_length=sequence_length,
        precision=precision,
        optimizer="sgd",
        recompute=recompute,
        flash_attention=flash_attention,
        offload=False,
    )
    out = []
    for stage, (_, _, _, acts) in zip(parts.stage_layout(model, p), activations, strict=True):
        trainable = adapters * stage.linear_params / all_linear / t
        frozen = parts.frozen_base_bytes(
            params=stage.params, linear_params=stage.linear_params, method=method
        )
        on_gpu, host = parts.frozen_base_on_gpu(
            # a stage of a split that does not divide the layers may be left empty
            frozen,
            layers=max(stage.layers, 1),
            t=t,
            d=d,
            zero=zero,
            offload=offload,
        )
        opt = o * trainable / (d if zero >= 1 else 1)
        out.append(
            AdapterStage(
                weights_bytes=on_gpu + w * trainable,
                gradients_bytes=g * trainable / (d if zero >= 2 else 1),
                optimizer_bytes=0.0 if offload else opt,
                offloaded_bytes=(opt if offload else 0.0) + host,
                activations_bytes=acts,
                overhead_bytes=dequant,
            )
        )
    return out
