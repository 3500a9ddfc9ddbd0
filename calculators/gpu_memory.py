"""GPU memory for training, fine-tuning and inference, per the MOST-LOADED GPU.

Training: weights + gradients + optimizer states (mixed-precision Adam = 2 + 2 + 12 = 16 bytes per
parameter, ZeRO paper arXiv:1910.02054 §3.1), sharded by tensor (t) and pipeline (p) parallelism
and by ZeRO stage over the data-parallel degree d; activations per Korthikanti et al. 2022
(arXiv:2205.05198) Table 2. Inference: weights at the chosen dtype + GQA-aware KV cache + a runtime
overhead fraction. All results are bytes (SI); GB = 1e9 bytes.

The record (`memory_breakdown`), the per-stage training parts (`stage_memory`) and serving
memory (`serving_memory`) have their own modules; the public names are re-exported here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from calculators import _memory_parts as parts
from calculators._memory_parts import lora_trainable_params
from calculators.catalog.models import ModelSpec
from calculators.memory_breakdown import (
    USABLE_FRACTION,
    MemoryBreakdown,
    input_pairs,
    make_breakdown,
)
from calculators.messages import Msg
from calculators.serving_memory import inference_memory
from calculators.stage_memory import adapter_stages, stage_memories
from calculators.validate import check_choice, check_count

__all__ = [
    "USABLE_FRACTION",
    "MemoryBreakdown",
    "finetune_memory",
    "inference_memory",
    "lora_trainable_params",
    "training_memory",
]
# FitPlan and min_gpus_to_fit live in calculators.layout_search; they are re-exported here
# (see __getattr__ at the end) because the search is the memory calculator's inverse.

_SOURCES_TRAIN, _SOURCES_LORA = parts.SOURCES_TRAIN, parts.SOURCES_LORA


def _check_shape(micro_batch_size: int, sequence_length: int) -> None:
    check_count("micro_batch_size", micro_batch_size, maximum=10**7)
    check_count("sequence_length", sequence_length, maximum=10**8)


def training_memory(
    *,
    model: ModelSpec,
    gpus: int,
    zero_stage: int | str = 0,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
    micro_batch_size: int = 1,
    sequence_length: int = 2048,
    precision: str = "bf16",
    optimizer: str = "adam",
    recompute: str = "selective",
    flash_attention: bool = True,
    offload_optimizer: bool = False,
    expert_parallel: int = 1,
) -> MemoryBreakdown:
    """Per-GPU memory for (pre-)training with data, tensor and pipeline parallelism and ZeRO.

    ``zero_stage`` is 0-3 or "fsdp" (= 3). ``recompute`` is "none", "selective" or "full".
    Tensor parallelism is assumed to come with sequence parallelism (activations / t).
    ``expert_parallel`` (MoE) splits the routed experts over e of the d data-parallel ranks
    (GShard, Lepikhin et al. 2020, arXiv:2006.16668 §2.2; DeepSpeed-MoE): each GPU keeps E/e
    experts, and ZeRO shards their states over the d/e ranks that hold the same experts.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> m = training_memory(model=lookup_model("Llama-2-7B"), gpus=8, zero_stage=3)
        >>> round(m.model_state_bytes / 1e9, 1)  # 16 bytes x 6.74e9 params / 8 GPUs
        13.5
    """
    d = parts.check_parallelism(model, gpus, tensor_parallel, pipeline_parallel)
    zero = parts.check_zero_stage(zero_stage)
    _check_shape(micro_batch_size, sequence_length)
    recompute = check_choice("recompute", recompute, parts.RECOMPUTE)
    parts.check_expert_parallel(model, expert_parallel, d)
    candidates = stage_memories(
        model=model,
        gpus=gpus,
        d=d,
        zero=zero,
        tensor_parallel=tensor_parallel,
        expert_parallel=expert_parallel,
        pipeline_parallel=pipeline_parallel,
        micro_batch_size=micro_batch_size,
        sequence_length=sequence_length,
        precision=precision,
        optimizer=optimizer,
        recompute=recompute,
        flash_attention=flash_attention,
        offload=offload_optimizer,
    )
    worst = max(candidates, key=lambda b: b.total_bytes)
    return dataclasses.replace(
        worst,
        formula=parts.training_formula(parts.state_bytes_per_param(precision, optimizer), zero),
        inputs=input_pairs(
            model=model.name,
            gpus=gpus,
            zero_stage=zero,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            micro_batch_size=micro_batch_size,
            sequence_length=sequence_length,
            precision=precision,
            optimizer=optimizer,
            recompute=recompute,
            flash_attention=flash_attention,
            offload_optimizer=offload_optimizer,
            expert_parallel=expert_parallel,
        ),
        assumptions=parts.training_assumptions(
            recompute, flash_attention, offload_optimizer, zero, precision
        ),
        sources=_SOURCES_TRAIN,
    )


def finetune_memory(
    *,
    model: ModelSpec,
    method: str = "lora",
    gpus: int = 1,
    lora_rank: int = 16,
    zero_stage: int | str = 0,
    micro_batch_size: int = 1,
    sequence_length: int = 2048,
    precision: str = "bf16",
    optimizer: str = "adam",
    recompute: str = "full",
    flash_attention: bool = True,
    offload_optimizer: bool = False,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
) -> MemoryBreakdown:
    """Per-GPU memory to fine-tune ``model``: "full", "lora" or "qlora" on ``gpus`` GPUs.

    The GPUs form ``tensor_parallel`` x ``pipeline_parallel`` x d groups: tensor parallelism
    splits the base, the adapters and the activations over t (with sequence parallelism),
    pipeline parallelism gives each stage its layers and 1F1B's in-flight activations, as in
    pre-training (`training_memory`; `adapter_memory` for LoRA), and ZeRO shards over d.
    LoRA freezes the 16-bit base and trains adapters on every linear layer with Adam (16 bytes
    per trainable parameter); QLoRA stores the base in NF4 (4.127 bits/param). Gradient
    checkpointing (recompute="full") is the default, as in the QLoRA recipe.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> m = finetune_memory(model=lookup_model("Llama-2-70B"), method="qlora")
        >>> round(m.weights_bytes / 1e9, 1)  # NF4 base + 16-bit embeddings + LoRA weights
        36.8
    """
    method = check_choice("method", method, ("full", "lora", "qlora"))
    shape: dict[str, Any] = {
        "micro_batch_size": micro_batch_size,
        "sequence_length": sequence_length,
        "precision": precision,
        "optimizer": optimizer,
        "recompute": recompute,
        "flash_attention": flash_attention,
        "tensor_parallel": tensor_parallel,
        "pipeline_parallel": pipeline_parallel,
    }
    if method == "full":
        full = training_memory(
            model=model,
            gpus=gpus,
            zero_stage=zero_stage,
            offload_optimizer=offload_optimizer,
            **shape,
        )
        return dataclasses.replace(full, kind="finetune", inputs=(("method", "full"), *full.inputs))
    # Validates the layout and the shape, as for training; its activations are the stages'.
    base = training_memory(model=model, gpus=gpus, **{**shape, "optimizer": "sgd"})
    zero = parts.check_zero_stage(zero_stage)
    stages = [
        make_breakdown(
            "finetune",
            gpus=gpus,
            data_parallel=base.data_parallel,
            zero_stage=zero,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            **dataclasses.asdict(stage),
        )
        for stage in adapter_stages(
            model=model,
            method=method,
            d=base.data_parallel,
            zero=zero,
            lora_rank=lora_rank,
            offload=offload_optimizer,
            **shape,
        )
    ]
    w, g, o = parts.state_bytes_per_param(precision, optimizer)
    frozen_linear = parts.WEIGHT_STORAGE_BYTES["nf4" if method == "qlora" else "bf16"]
    trainable = parts.lora_trainable_params(model, rank=lora_rank)
    pipeline_note = (Msg("assume.memory.pipeline_1f1b"),) if pipeline_parallel > 1 else ()
    return dataclasses.replace(
        max(stages, key=lambda b: b.total_bytes),
        formula=Msg(
            "formula.memory.lora", frozen=parts.frozen_base_text(frozen_linear), w=w, g=g, o=o
        ),
        inputs=input_pairs(
            model=model.name,
            method=method,
            gpus=gpus,
            lora_rank=lora_rank,
            zero_stage=zero,
            micro_batch_size=micro_batch_size,
            sequence_length=sequence_length,
            precision=precision,
            optimizer=optimizer,
            recompute=recompute,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            trainable_params=trainable,
        ),
        assumptions=(
            Msg("assume.memory.lora_adapters", rank=lora_rank, trainable=trainable),
            *base.assumptions[:2],
            *pipeline_note,
            parts.recompute_words(recompute),
            *parts.lora_notes(method, zero, offload_optimizer),
        ),
        sources=(*_SOURCES_LORA, _SOURCES_TRAIN[1]),
    )


def __getattr__(name: str) -> Any:
    """`FitPlan` and `min_gpus_to_fit` from calculators.layout_search (imported on first use:
    that module builds on this one)."""
    if name in ("FitPlan", "min_gpus_to_fit"):
        from calculators import layout_search

        return getattr(layout_search, name)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)
