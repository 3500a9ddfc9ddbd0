"""GPU memory for training, fine-tuning and inference, per the MOST-LOADED GPU.

Training: weights + gradients + optimizer states (mixed-precision Adam = 2 + 2 + 12 = 16 bytes per
parameter, ZeRO paper arXiv:1910.02054 §3.1), sharded by tensor (t) and pipeline (p) parallelism
and by ZeRO stage over the data-parallel degree d; activations per Korthikanti et al. 2022
(arXiv:2205.05198) Table 2. Inference: weights at the chosen dtype + GQA-aware KV cache + a runtime
overhead fraction. All results are bytes (SI); GB = 1e9 bytes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from calculators import _memory_parts as parts
from calculators._memory_parts import lora_trainable_params
from calculators.catalog.hardware import DTYPE_BYTES
from calculators.catalog.models import ModelSpec, kv_cache_bytes_per_token
from calculators.defaults import DEFAULT_CONTEXT_TOKENS
from calculators.errors import CalculatorInputError
from calculators.messages import Msg
from calculators.stage_memory import adapter_stages
from calculators.stage_memory import stage_parts as _stage_parts
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

#: Share of a GPU's datasheet memory a job may plan to use: the rest goes to the CUDA context,
#: allocator fragmentation and library workspaces (vLLM's default gpu_memory_utilization is 0.9).
USABLE_FRACTION = 0.9

_SOURCES_TRAIN, _SOURCES_INFER, _SOURCES_LORA = (
    parts.SOURCES_TRAIN,
    parts.SOURCES_INFER,
    parts.SOURCES_LORA,
)


@dataclass(frozen=True)
class MemoryBreakdown:
    """Bytes needed on the most-loaded GPU, by component.

    Attributes:
        kind: "training", "finetune" or "inference".
        gpus: total GPUs of the layout (t x p x d).
        offloaded_bytes: gradients and optimizer states moved to host memory by ZeRO-Offload
            (not counted in total_bytes).
        inputs: (name, value) pairs of the inputs, for display.
    """

    kind: str
    gpus: int
    weights_bytes: float
    gradients_bytes: float
    optimizer_bytes: float
    activations_bytes: float
    kv_cache_bytes: float
    overhead_bytes: float
    total_bytes: float
    offloaded_bytes: float = 0.0
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    data_parallel: int = 1
    zero_stage: int = 0
    formula: Msg | None = None
    inputs: tuple[tuple[str, str], ...] = ()
    assumptions: tuple[Msg, ...] = ()
    sources: tuple[str, ...] = ()

    @property
    def model_state_bytes(self) -> float:
        """Weights + gradients + optimizer states (what ZeRO partitions)."""
        return self.weights_bytes + self.gradients_bytes + self.optimizer_bytes

    def fits(self, *, memory_bytes: float, usable_fraction: float = USABLE_FRACTION) -> bool:
        """True when total_bytes <= usable_fraction x memory_bytes."""
        return self.total_bytes <= usable_fraction * memory_bytes


def _make(
    kind: str,
    *,
    gpus: int,
    weights_bytes: float = 0.0,
    gradients_bytes: float = 0.0,
    optimizer_bytes: float = 0.0,
    activations_bytes: float = 0.0,
    kv_cache_bytes: float = 0.0,
    overhead_bytes: float = 0.0,
    **layout: Any,
) -> MemoryBreakdown:
    total = (
        weights_bytes
        + gradients_bytes
        + optimizer_bytes
        + activations_bytes
        + kv_cache_bytes
        + overhead_bytes
    )
    return MemoryBreakdown(
        kind=kind,
        gpus=gpus,
        weights_bytes=weights_bytes,
        gradients_bytes=gradients_bytes,
        optimizer_bytes=optimizer_bytes,
        activations_bytes=activations_bytes,
        kv_cache_bytes=kv_cache_bytes,
        overhead_bytes=overhead_bytes,
        total_bytes=total,
        **layout,
    )


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
    candidates = _stage_memories(
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
        inputs=_inputs(
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


def _stage_memories(
    *,
    model: ModelSpec,
    gpus: int,
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
) -> list[MemoryBreakdown]:
    """Per-GPU memory of each distinct pipeline stage (first stage first)."""
    return [
        _make(
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
        for weights, grads, opt, acts in _stage_parts(
            model=model,
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
            offload=offload,
        )
    ]


def _stage_totals(offload: bool, **options: Any) -> list[float]:
    """``total_bytes`` of each of :func:`_stage_memories`, summed in the same order, without
    building the records (the layout search asks for thousands per question)."""
    if offload:
        return [w + 0.0 + 0.0 + a for w, _, _, a in _stage_parts(offload=True, **options)]
    return [w + g + o + a for w, g, o, a in _stage_parts(offload=False, **options)]


def _inputs(**values: object) -> tuple[tuple[str, str], ...]:
    return tuple((key, str(value)) for key, value in values.items())


def inference_memory(
    *,
    model: ModelSpec,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    batch_size: int = 1,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
    runtime_overhead_fraction: float = 0.0,
) -> MemoryBreakdown:
    """Per-GPU memory to serve ``model``: weights + KV cache + activation workspace.

    The KV cache holds ``batch_size`` sequences of ``context_length`` tokens, uses the KV heads
    (GQA) and is split over min(t, kv_heads) GPUs. MoE models keep ALL experts resident. Below
    16 bits, only the linear layers are quantized (embeddings and output layer stay 16-bit).

    Runtime overhead is counted once: the activation workspace of a 2,048-token prefill chunk
    is added here, and the CUDA context, CUDA graphs, NCCL buffers and allocator slack come out
    of the 10% reserve of USABLE_FRACTION (as vLLM's gpu_memory_utilization=0.9 budgets them).
    An earlier 5% of (weights + KV) on top of that reserve counted them twice and said
    Llama-2-70B BF16 needs 4 x A100 80GB, where practitioners serve it on 2.
    ``runtime_overhead_fraction`` (default 0) adds a further share of weights + KV if wanted.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> m = inference_memory(model=lookup_model("Llama-2-70B"), batch_size=1,
        ...                      context_length=4096)
        >>> round(m.weights_bytes / 1e9, 1), round(m.kv_cache_bytes / 1e9, 2)
        (138.0, 1.34)
    """
    weight_dtype = check_choice("weight_dtype", weight_dtype, parts.WEIGHT_STORAGE_BYTES)
    kv_dtype = check_choice("kv_dtype", kv_dtype, DTYPE_BYTES)
    check_count("batch_size", batch_size, maximum=10**7)
    check_count("context_length", context_length, maximum=10**8)
    check_count("tensor_parallel", tensor_parallel, maximum=model.heads)
    check_count("pipeline_parallel", pipeline_parallel, maximum=model.layers)
    gpus = tensor_parallel * pipeline_parallel
    if not 0 <= runtime_overhead_fraction <= 1:
        field, reason = "runtime_overhead_fraction", Msg("invalid.between_0_1")
        raise CalculatorInputError(field, runtime_overhead_fraction, reason)
    linear_bytes = parts.WEIGHT_STORAGE_BYTES[weight_dtype]
    other_bytes = max(linear_bytes, 2.0)
    kv_split = 1 if model.attention == "mla" else min(tensor_parallel, model.kv_heads)
    per_token = kv_cache_bytes_per_token(model, dtype_bytes=DTYPE_BYTES[kv_dtype])
    workspace = parts.inference_workspace_bytes(
        model, batch_size=batch_size, tensor_parallel=tensor_parallel
    )
    candidates = []
    for stage in dict.fromkeys(parts.stage_layout(model, pipeline_parallel)):
        weights = (
            stage.linear_params * linear_bytes + (stage.params - stage.linear_params) * other_bytes
        ) / tensor_parallel
        kv = batch_size * context_length * per_token * stage.layers / model.layers / kv_split
        candidates.append(
            _make(
                "inference",
                gpus=gpus,
                weights_bytes=weights,
                kv_cache_bytes=kv,
                overhead_bytes=runtime_overhead_fraction * (weights + kv) + workspace,
                tensor_parallel=tensor_parallel,
                pipeline_parallel=pipeline_parallel,
            )
        )
    return dataclasses.replace(
        max(candidates, key=lambda b: b.total_bytes),
        formula=Msg("formula.memory.inference", chunk=parts.PREFILL_CHUNK_TOKENS),
        inputs=_inputs(
            model=model.name,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch_size=batch_size,
            context_length=context_length,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            runtime_overhead_fraction=runtime_overhead_fraction,
        ),
        assumptions=(
            _runtime_overhead_note(runtime_overhead_fraction),
            Msg("assume.memory.full_context"),
            Msg("assume.memory.moe_resident"),
        ),
        sources=_SOURCES_INFER,
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
        _make(
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
        inputs=_inputs(
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


def _runtime_overhead_note(fraction: float) -> Msg:
    base = Msg(
        "assume.memory.runtime_overhead",
        chunk=parts.PREFILL_CHUNK_TOKENS,
        reserve=1.0 - USABLE_FRACTION,
    )
    if not fraction:
        return base
    return Msg("assume.memory.runtime_overhead_extra", base=base, fraction=fraction)


def __getattr__(name: str) -> Any:
    """`FitPlan` and `min_gpus_to_fit` from calculators.layout_search (imported on first use:
    that module builds on this one)."""
    if name in ("FitPlan", "min_gpus_to_fit"):
        from calculators import layout_search

        return getattr(layout_search, name)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)
