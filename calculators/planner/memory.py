"""The memory check of a plan: the most-loaded GPU against its usable memory."""

from __future__ import annotations

import dataclasses
import functools

from calculators.catalog.hardware import DTYPE_BYTES, GPU
from calculators.catalog.models import ModelSpec, kv_cache_bytes_per_token, kv_cache_split
from calculators.gpu_memory import (
    USABLE_FRACTION,
    MemoryBreakdown,
    finetune_memory,
    inference_memory,
    lora_trainable_params,
    training_memory,
)
from calculators.layout_search import FitPlan, min_gpus_to_fit
from calculators.messages import Msg
from calculators.planner.checks import limit_verdict
from calculators.planner.host import HostRam, host_ram
from calculators.planner.plan import TIGHT_MARGIN, CheckResult, Figure, Plan
from calculators.planner.schedule import uses_dualpipe

__all__ = [
    "LORA_RANK",
    "memory_breakdown",
    "memory_check",
    "min_fit",
    "min_fit_with",
    "min_gpus",
    "offload_host_ram",
    "recompute_options",
    "trainable_params",
]

#: GPUs per server when a one-card serving plan scales out (an 8-GPU HGX or 4U chassis).
SERVING_SCALE_OUT_NODE_GPUS = 8
#: LoRA rank when none is given (the QLoRA paper's Guanaco runs used r = 64; 16 is the common
#: default of PEFT recipes). Adapters add well under 1% of the base either way.
LORA_RANK = 16


def memory_breakdown(plan: Plan) -> MemoryBreakdown:
    """Per-GPU memory of the plan as given (its own ZeRO stage, TP, PP and recompute)."""
    if plan.task == "inference":
        return inference_memory(
            model=plan.model,
            weight_dtype=plan.weight_dtype or plan.precision,
            kv_dtype=plan.cache_dtype,
            batch_size=plan.batch_per_replica,
            context_length=plan.sequence_length,
            tensor_parallel=plan.tensor_parallel,
            pipeline_parallel=plan.pipeline_parallel,
        )
    if plan.task == "finetune" and plan.effective_method != "full":
        return finetune_memory(
            model=plan.model,
            method=plan.effective_method,
            gpus=plan.gpus,
            lora_rank=LORA_RANK,
            zero_stage=plan.zero_stage,
            micro_batch_size=plan.micro_batch_size,
            sequence_length=plan.sequence_length,
            precision=plan.precision,
            optimizer=plan.optimizer,
            recompute=plan.recompute or "full",
            offload_optimizer=plan.offload,
            tensor_parallel=plan.tensor_parallel,
            pipeline_parallel=plan.pipeline_parallel,
        )
    default_recompute = "full" if plan.task == "finetune" else "selective"
    return _dualpipe_copies(
        plan,
        training_memory(
            model=plan.model,
            gpus=plan.gpus,
            zero_stage=plan.zero_stage,
            tensor_parallel=plan.tensor_parallel,
            pipeline_parallel=plan.pipeline_parallel,
            micro_batch_size=plan.micro_batch_size,
            sequence_length=plan.sequence_length,
            precision=plan.precision,
            optimizer=plan.optimizer,
            recompute=plan.recompute or default_recompute,
            offload_optimizer=plan.offload,
            expert_parallel=plan.expert_parallel_degree,  # pretraining and full fine-tuning
        ),
    )


#: DualPipe's extra parameter copy (DeepSeek-V3, arXiv:2412.19437 §3.2.1, Table 2).
_DUALPIPE_NOTE = Msg("assume.memory.dualpipe_copies")


def _dualpipe_copies(plan: Plan, b: MemoryBreakdown) -> MemoryBreakdown:
    """Under DualPipe each GPU holds two copies of its stage's parameters (Table 2:
    parameter 2x, one per pipeline direction): the 16-bit weights and their gradients are
    counted twice; the optimizer states stay sharded once."""
    if not uses_dualpipe(plan):
        return b
    return dataclasses.replace(
        b,
        weights_bytes=2 * b.weights_bytes,
        gradients_bytes=2 * b.gradients_bytes,
        total_bytes=b.total_bytes + b.weights_bytes + b.gradients_bytes,
        assumptions=(*b.assumptions, _DUALPIPE_NOTE),
    )


def trainable_params(plan: Plan) -> float | None:
    """LoRA/QLoRA adapter parameters, None for full training."""
    if plan.task == "finetune" and plan.effective_method != "full":
        return float(lora_trainable_params(plan.model, rank=LORA_RANK))
    return None


def min_gpus(plan: Plan) -> int | None:
    """Fewest GPUs of the plan's type whose most-loaded GPU fits (any TP/PP/ZeRO layout)."""
    fit = min_fit(plan)
    return fit.gpus if fit is not None else None


def min_fit(plan: Plan) -> FitPlan | None:
    """The smallest layout that fits (searched by layout_search.min_gpus_to_fit; cached).

    Training and fine-tuning also try full activation recomputation (gradient checkpointing)
    when the plan does not use it: it changes speed (~33% more compute), not the model, like
    a ZeRO stage; the FitPlan says which recompute it needs. CPU offload counts only when the
    plan asks for it.
    """
    best: FitPlan | None = None
    for recompute in recompute_options(plan):
        fit = min_fit_with(plan, recompute)
        if fit is not None and (best is None or fit.gpus < best.gpus):
            best = fit
    return best


def recompute_options(plan: Plan) -> tuple[str | None, ...]:
    """The plan's own recompute setting, then full recomputation if it is not already."""
    if plan.task == "inference" or plan.recompute == "full":
        return (plan.recompute,)
    return (plan.recompute, "full")


def min_fit_with(plan: Plan, recompute: str | None) -> FitPlan | None:
    """The smallest fitting layout of the plan with the given recompute (None: its default)."""
    weight = plan.weight_dtype or plan.precision
    # Serving more GPUs than a single card means standard 8-GPU servers with TP inside each
    # (as suggest_scale.SCALE_OUT_NODE_GPUS), not a 16-stage pipeline of single cards.
    per_node = plan.gpus_per_node
    if plan.task == "inference" and per_node == 1:
        per_node = SERVING_SCALE_OUT_NODE_GPUS
    return _min_fit(
        plan.task,
        plan.effective_method,
        plan.model,
        plan.gpu,
        per_node,
        plan.sequence_length,
        plan.micro_batch_size,
        plan.precision,
        plan.optimizer,
        recompute,
        weight,
        plan.cache_dtype,
        plan.batch_size,
        plan.offload,
        plan.expert_parallel if plan.task != "inference" else 1,
    )


@functools.lru_cache(maxsize=256)
def _min_fit(
    task: str,
    method: str,
    model: ModelSpec,
    gpu: GPU,
    per_node: int,
    seq: int,
    micro: int,
    precision: str,
    optimizer: str,
    recompute: str | None,
    weight: str,
    kv: str,
    batch: int,
    offload: bool,
    ep: int = 1,
) -> FitPlan | None:
    if task == "inference":
        return min_gpus_to_fit(
            gpu=gpu,
            model=model,
            kind="inference",
            gpus_per_node=per_node,
            weight_dtype=weight,
            kv_dtype=kv,
            batch_size=batch,
            context_length=seq,
        )
    default = "full" if task == "finetune" else "selective"
    chosen = recompute or default
    if task == "finetune" and method != "full":
        fit = min_gpus_to_fit(
            gpu=gpu,
            model=model,
            kind="finetune",
            gpus_per_node=per_node,
            method=method,
            sequence_length=seq,
            micro_batch_size=micro,
            precision=precision,
            lora_rank=LORA_RANK,
            recompute=chosen,
            offload_optimizer=offload,
        )
    else:
        fit = min_gpus_to_fit(
            gpu=gpu,
            model=model,
            kind="training",
            gpus_per_node=per_node,
            sequence_length=seq,
            micro_batch_size=micro,
            precision=precision,
            optimizer=optimizer,
            recompute=chosen,
            offload_optimizer=offload,
            **({"expert_parallel": ep} if ep > 1 else {}),
        )
    if fit is None or task == "inference":
        return fit
    return dataclasses.replace(fit, recompute=chosen)


def _largest_part(b: MemoryBreakdown) -> str:
    parts = {
        "weights_bytes": b.weights_bytes,
        "gradients_bytes": b.gradients_bytes,
        "optimizer_bytes": b.optimizer_bytes,
        "activations_bytes": b.activations_bytes,
        "kv_cache_bytes": b.kv_cache_bytes,
        "overhead_bytes": b.overhead_bytes,
    }
    return max(parts, key=lambda k: parts[k])


def _serving_note(plan: Plan) -> tuple[Msg, ...]:
    if plan.task != "inference":
        return ()
    return (
        Msg(
            "assume.memory.kv_per_replica",
            batch=plan.batch_size,
            replicas=plan.replicas,
            per_replica=plan.batch_per_replica,
        ),
    )


def offload_host_ram(plan: Plan, b: MemoryBreakdown | None = None) -> HostRam | None:
    """Host RAM per node the plan's CPU offload needs (None when nothing is offloaded)."""
    b = b or memory_breakdown(plan)
    if not plan.offload or plan.task == "inference" or not b.offloaded_bytes:
        return None
    adapters = trainable_params(plan)
    stepped = None
    if adapters is not None and plan.zero_stage == 3:  # the frozen base: read, never stepped
        stepped = adapters / (plan.tensor_parallel * plan.pipeline_parallel) / b.data_parallel
    return host_ram(
        gpu=plan.gpu,
        offloaded_bytes_per_gpu=b.offloaded_bytes,
        gpus_on_node=min(plan.gpus, plan.gpus_per_node),
        host_ram_bytes=plan.host_ram_bytes,
        optimizer_params_per_gpu=stepped,
    )


def _fewest_gpus(plan: Plan, *, fits: bool) -> int | None:
    """min_gpus, or the plan's own GPUs when its layout fits on fewer than the search found
    (3 pipeline stages on 3 cards: the search tries powers of two): the fewest known to fit."""
    fewest = min_gpus(plan)
    if fits and (fewest is None or fewest > plan.gpus):
        return plan.gpus
    return fewest


def _serving_kv(plan: Plan, b: MemoryBreakdown) -> dict[str, float | int | None]:
    """kv_cache_bytes: every concurrent sequence of the deployment; kv_cache_bytes_per_gpu the
    per-GPU share (the part of required_bytes_per_gpu); kv_cache_bytes_per_sequence one
    sequence at the full context (the "10.7 GB of KV cache per sequence" an answer states).
    These are logical sizes; `kv_cache_copies` is how many GPUs hold each KV head (t / KV heads
    when TP exceeds them, vLLM and Megatron-LM replicate the heads; t for an MLA latent) and
    `kv_cache_bytes_replicated` the footprint on all GPUs, the logical total times the copies."""
    model, tp = plan.model, plan.tensor_parallel
    per_token = kv_cache_bytes_per_token(model, dtype_bytes=DTYPE_BYTES[plan.cache_dtype])
    per_sequence = plan.sequence_length * per_token
    split = kv_cache_split(model, tensor_parallel=tp)
    copies = max(1, tp // split)
    return {
        "concurrent_sequences": plan.batch_size,
        "batch_per_replica": plan.batch_per_replica,
        "kv_cache_bytes_per_gpu": b.kv_cache_bytes,
        "kv_cache_bytes": plan.batch_size * per_sequence,
        "kv_cache_bytes_per_sequence": per_sequence,
        "kv_cache_copies": copies,
        "kv_cache_bytes_replicated": plan.batch_size * per_sequence * copies,
    }


def memory_check(plan: Plan, *, with_min_gpus: bool = True) -> CheckResult:
    """Does the most-loaded GPU fit in its usable memory (90% of the datasheet capacity)?
    With CPU offload, do the offloaded states also fit the node's host RAM?"""
    b = memory_breakdown(plan)
    available = (plan.memory_utilization or USABLE_FRACTION) * plan.gpu.memory_bytes
    verdict = limit_verdict(b.total_bytes, available)
    host = offload_host_ram(plan, b)
    limiting = _largest_part(b) if verdict != "ok" else None
    shortfall = b.total_bytes / available if verdict == "fail" else None
    if host is not None and not host.fits:
        verdict, limiting = "fail", "host_ram"
        shortfall = max(shortfall or 0.0, host.needed_bytes_per_node / host.usable_bytes_per_node)
    figures: dict[str, Figure] = {
        "required_bytes_per_gpu": b.total_bytes,
        "available_bytes_per_gpu": available,
        "memory_bytes": plan.gpu.memory_bytes,
        "min_gpus": _fewest_gpus(plan, fits=verdict != "fail") if with_min_gpus else None,
        "gpus": plan.gpus,
        "gpus_per_node": plan.gpus_per_node,
        "weights_bytes": b.weights_bytes,
        "gradients_bytes": b.gradients_bytes,
        "optimizer_bytes": b.optimizer_bytes,
        "activations_bytes": b.activations_bytes,
        "kv_cache_bytes": b.kv_cache_bytes,
        "overhead_bytes": b.overhead_bytes,
        "offloaded_bytes": b.offloaded_bytes,
        "data_parallel": b.data_parallel,
    }
    if plan.task != "inference":
        figures["model_state_bytes_per_gpu"] = b.model_state_bytes
        figures["recompute"] = plan.recompute or (
            "full" if plan.task == "finetune" else "selective"
        )
        figures["micro_batch_size"] = plan.micro_batch_size
        figures["sequence_length"] = plan.sequence_length
        if plan.model.is_moe and plan.task == "pretrain":  # experts split over EP ranks
            figures["expert_parallel"] = plan.expert_parallel_degree
    else:
        figures.update(_serving_kv(plan, b))
    if host is not None:
        figures.update(
            host_ram_needed_bytes_per_node=host.needed_bytes_per_node,
            host_ram_bytes_per_node=host.available_bytes_per_node,
            cpu_optimizer_seconds_per_step=host.cpu_step_seconds,
        )
        if host.configured_bytes_per_node:  # past the standard configuration: a condition
            figures["host_ram_required_bytes_per_node"] = host.required_bytes_per_node
    inputs: dict[str, Figure] = dict(b.inputs)
    if plan.task == "inference":  # the breakdown is per replica; show what the user gave
        inputs.update(batch_size=plan.batch_size, batch_per_replica=plan.batch_per_replica)
    return CheckResult(
        kind="memory",
        verdict=verdict,
        figures=figures,
        formula=b.formula,
        inputs=inputs,
        assumptions=(
            *b.assumptions,
            *_serving_note(plan),
            Msg("assume.memory.usable_tight", fraction=USABLE_FRACTION, tight=TIGHT_MARGIN),
        ),
        sources=b.sources,
        limiting=limiting,
        shortfall=shortfall,
        messages=(host.message,) if host is not None else (),
    )
