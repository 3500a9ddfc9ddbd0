"""Candidate changes for a failing plan (the planner verifies each before offering it).

Bounded search: at most a few dozen candidates, each one evaluation. Rank (lower first):
1 one configuration change, 2 several at once, 3 a longer deadline, 4 a faster inter-node
fabric, 5 more GPUs of the same type, 6 another catalog GPU. Within a rank, ``size`` orders
by how big the change is: a lossless layout change (ZeRO, tensor parallel) before one that
costs speed (recompute, offload) before one that changes the model (8-bit, LoRA, then 4-bit,
QLoRA); for more GPUs or a longer deadline, the factor of the change.

A longer deadline is only suggested up to MAX_DEADLINE_DAYS (two years): past that the run
is a research programme, not a schedule, and `deadline_remark` says so instead.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator

from calculators._memory_parts import (
    SEARCHED_TENSOR_PARALLEL,
    WEIGHT_STORAGE_BYTES,
    valid_tensor_parallel,
)
from calculators.catalog.hardware import DTYPE_BYTES
from calculators.defaults import DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS
from calculators.gpu_memory import USABLE_FRACTION
from calculators.messages import Msg
from calculators.planner.compute_facts import compute_facts
from calculators.planner.host import host_ram_condition
from calculators.planner.memory import memory_breakdown, memory_check, offload_host_ram
from calculators.planner.plan import DAY, CheckKind, CheckResult, Plan
from calculators.planner.suggest_scale import (
    fabric,
    fit_layout,
    layout_message,
    more_gpus,
    other_gpu,
)
from calculators.planner.suggest_types import Candidate

__all__ = [
    "KV_BOUND_SHARE",
    "MAX_DEADLINE_DAYS",
    "Candidate",
    "candidates",
    "deadline_remark",
]

#: Longest deadline the planner suggests (two years); beyond it the deadline route is impractical.
MAX_DEADLINE_DAYS = 730


def candidates(
    plan: Plan, failing: set[CheckKind], checks: tuple[CheckResult, ...]
) -> Iterator[Candidate]:
    """All candidate changes worth verifying, cheapest kinds first."""
    if "memory" in failing:
        yield from _memory_savers(plan)
        if plan.task == "inference" and _kv_bound(checks):
            yield from _kv_quantize(plan)
            yield from _shorter_context(plan, checks)
        elif plan.task == "inference":
            yield from _weights_and_kv(plan)
    if "compute" in failing and plan.task == "finetune" and plan.effective_method == "full":
        yield from _methods(plan)
    if "compute" in failing:
        yield from _deadline(plan)
    if "network" in failing:
        yield from fabric(plan, checks)
    yield from more_gpus(plan, failing)
    if "memory" in failing and plan.task == "finetune" and plan.effective_method == "full":
        yield from _methods_scaled(plan, failing)
    yield from other_gpu(plan, failing, checks)


#: The gpu_memory_utilization a serving fix may raise vLLM's 0.9 default to: 0.95 leaves 5% of
#: the card (2 GB of 40 GB, 4 GB of 80 GB) for the CUDA context (about 0.5-1 GB), NCCL buffers
#: and CUDA graphs; vLLM accepts any fraction up to 1 (engine arguments, gpu_memory_utilization).
#: This tool's bound, a setting only: a job that needs more needs more or other hardware.
RAISED_MEMORY_UTILIZATION = 0.95


def _raised_utilization(plan: Plan) -> Iterator[Candidate]:
    """A deployment a few percent over vLLM's default 0.9 of the card: the setting raised to
    `RAISED_MEMORY_UTILIZATION`, a change of configuration, not of the job or the hardware
    (verified like every candidate: it is offered only when the memory then fits)."""
    if plan.memory_utilization is not None:
        return
    left = (1.0 - RAISED_MEMORY_UTILIZATION) * plan.gpu.memory_bytes
    said = Msg("suggest.memory_utilization", fraction=RAISED_MEMORY_UTILIZATION, left=left)
    raised = plan.replace(memory_utilization=RAISED_MEMORY_UTILIZATION)
    yield Candidate("memory_utilization", said, raised, 1, size=0.1)


def _methods_scaled(plan: Plan, failing: set[CheckKind]) -> Iterator[Candidate]:
    """LoRA and QLoRA on as many of the same cards as each needs: a 72B model's full fine-tune
    needs 64 × RTX 4090 where QLoRA's 4-bit base fits on 2 (Dettmers et al. 2023), a fix that
    must not go unsaid because one card holds neither."""
    for method in ("lora", "qlora"):
        for found in more_gpus(plan.replace(method=method, recompute="full"), failing):
            if found.kind != "gpus":
                continue
            label = Msg(f"suggest.method.{method}")
            said = Msg("suggest.method.scaled", method=label, change=found.description)
            yield dataclasses.replace(found, kind=method, description=said)


def _memory_savers(plan: Plan) -> Iterator[Candidate]:
    if plan.task == "inference":
        yield from _raised_utilization(plan)
        yield from _quantize(plan)
        yield from _tensor_parallel(plan)
        yield from _quantized_splits(plan)
        return
    if plan.task == "finetune":
        yield from _methods(plan)
    for stage in range(plan.zero_stage + 1, 4):
        yield Candidate(
            "zero",
            Msg("suggest.zero", stage=stage),
            plan.replace(zero_stage=stage),
            1,
        )
    yield from _tensor_parallel(plan)
    if plan.recompute != "full":
        yield Candidate(
            "recompute",
            Msg("suggest.recompute"),
            plan.replace(recompute="full"),
            1,
            size=0.5,
        )
    if not plan.offload:
        # ZeRO-Offload is built on ZeRO-2 (Ren et al. 2021, §4): plain data parallelism
        # (ZeRO-0, "DDP") has no offload of its own, so offloading moves it to stage 2 at least
        offloaded = plan.replace(offload=True, zero_stage=max(plan.zero_stage, 2))
        yield Candidate(
            "offload",
            Msg(_offload_key(offloaded), host=_host_need(offloaded)),
            offloaded,
            1,
            size=0.5,
        )
    yield from _combined(plan)


def _quantized_splits(plan: Plan) -> Iterator[Candidate]:
    """Smaller weights with each tensor-parallel split inside the node (two changes)."""
    for split in _tensor_parallel(plan):
        for q in _quantize(plan):
            tp = split.plan.tensor_parallel
            said = Msg("suggest.and_tensor_parallel", first=q.description, tp=tp)
            new = split.plan.replace(weight_dtype=q.plan.weight_dtype)
            yield Candidate("combined", said, new, 2, 2, size=q.size)


def _offload_key(offloaded: Plan) -> str:
    """What the offload moves: under LoRA/QLoRA with ZeRO-3 the frozen base shards (FSDP
    CPUOffload, `_memory_parts.frozen_base_on_gpu`), else the gradients and optimizer states."""
    adapters = offloaded.task == "finetune" and offloaded.effective_method != "full"
    return "suggest.offload_base" if adapters and offloaded.zero_stage == 3 else "suggest.offload"


def _tensor_parallel(plan: Plan) -> Iterator[Candidate]:
    for tp in _tp_degrees(plan):
        if tp <= plan.tensor_parallel:
            continue
        yield Candidate(
            "tensor_parallel",
            Msg("suggest.tensor_parallel", tp=tp),
            plan.replace(tensor_parallel=tp),
            1,
        )


def _tp_degrees(plan: Plan) -> list[int]:
    """Tensor-parallel degrees worth suggesting: 1, 2, 4 or 8 (no odd TP; ZeRO-3/FSDP shards
    instead), inside one node, dividing the GPUs and the attention heads."""
    return [
        t
        for t in SEARCHED_TENSOR_PARALLEL
        if t <= min(plan.gpus, plan.gpus_per_node)
        and plan.gpus_per_node % t == 0
        and plan.gpus % (t * plan.pipeline_parallel) == 0
        and valid_tensor_parallel(plan.model, t)
    ]


def _combined(plan: Plan) -> Iterator[Candidate]:
    tp = max(_tp_degrees(plan), default=1)
    changed = plan.replace(
        zero_stage=3, tensor_parallel=max(tp, plan.tensor_parallel), recompute="full"
    )
    if changed.tensor_parallel > 1:
        yield Candidate(
            "combined",
            Msg("suggest.combined_tensor_parallel", tp=changed.tensor_parallel),
            changed,
            2,
            3,
        )
    offloaded = changed.replace(offload=True)
    yield Candidate(
        "combined",
        Msg("suggest.combined_offload", host=_host_need(offloaded)),
        offloaded,
        2,
        4,
    )
    if plan.zero_stage < 3 and changed.tensor_parallel > 1:
        # ZeRO-Offload is built on ZeRO-2 and combines with Megatron TP (Ren et al. 2021,
        # arXiv:2101.06840 §4 and §6.2.1): a plan that keeps its stated ZeRO stage
        kept = changed.replace(zero_stage=plan.zero_stage, offload=True)
        said = Msg(
            "suggest.combined_tp_offload",
            tp=kept.tensor_parallel,
            zero=plan.zero_stage,
            host=_host_need(kept),
        )
        yield Candidate("combined", said, kept, 2, 4)


def _host_need(plan: Plan) -> Msg | str:
    """ "; needs 980.0 GB of host RAM per node, has 1.0 TB" ("assumed 1 TiB" when the host RAM
    was not given: a default is a DIMM total; "needing ≥ 636 GB … not stated" past the standard
    configuration); "" when offloading needs no host RAM figure."""
    host = offload_host_ram(plan)
    if host is None:
        return ""
    need, has = host.needed_bytes_per_node, host.available_bytes_per_node
    if host.configured_bytes_per_node:  # past the standard configuration: a condition to check
        on_node = min(plan.gpus, plan.gpus_per_node)
        return host_ram_condition(plan.gpu, on_node, host.required_bytes_per_node)
    return Msg("suggest.host.has" if host.given else "suggest.host.assumed", need=need, has=has)


def _methods(plan: Plan) -> Iterator[Candidate]:
    """Full -> LoRA -> QLoRA, each as a small change (rank 1): alone, with gradient
    checkpointing (part of the QLoRA recipe, Dettmers et al. 2023 arXiv:2305.14314 §4, and
    the PEFT default) when the plan does not recompute yet, and with ZeRO-3/FSDP sharding of
    the frozen base (rank 2)."""
    order = ("lora", "qlora")
    start = 0 if plan.effective_method == "full" else order.index(plan.effective_method) + 1
    for method in order[start:]:
        label = Msg(f"suggest.method.{method}")
        size = 1.0 if method == "lora" else 2.0
        yield Candidate(
            method,
            Msg("suggest.method.alone", method=label),
            _adapters_whole(plan.replace(method=method)),
            1,
            size=size,
        )
        if plan.recompute != "full":
            yield Candidate(
                method,
                Msg("suggest.method.checkpointing", method=label),
                plan.replace(method=method, recompute="full"),
                1,
                2,
                size=size + 0.25,
            )
        yield Candidate(
            method,
            Msg("suggest.method.sharded", method=label),
            plan.replace(method=method, zero_stage=3, recompute="full"),
            2,
            3,
            size=size,
        )


def _adapters_whole(plan: Plan) -> Plan:
    """A LoRA/QLoRA plan from a full fine-tune's ZeRO-2/3: the frozen base held whole per
    tensor/pipeline group (ZeRO-1 for the adapters) when it fits so, as PEFT recipes run it;
    ZeRO-3 would gather the whole base over the data-parallel ranks twice a step for
    nothing. Kept at ZeRO-3 when the base needs the sharding (that is the "sharded" change)."""
    if plan.zero_stage < 2:
        return plan
    whole = plan.replace(zero_stage=1)
    fits = memory_breakdown(whole).total_bytes <= USABLE_FRACTION * plan.gpu.memory_bytes
    return whole if fits else plan


def _quantize(plan: Plan) -> Iterator[Candidate]:
    """Weights in fewer bits, in the order a serving engineer tries them: FP8 where the GPU
    has FP8 tensor cores (vLLM/TensorRT-LLM serve FP8 checkpoints there), else int8, then
    4-bit (AWQ/GPTQ). int8 is skipped where FP8 runs: the same byte per weight, so it fits
    and reads exactly what FP8 does."""
    current = plan.weight_dtype or plan.precision
    if WEIGHT_STORAGE_BYTES.get(current, 2.0) < 1.0:
        return  # already 4-bit
    fp8 = plan.gpu.supports("fp8")
    steps = (("fp8", 8, 0.9), ("int4", 4, 2.0)) if fp8 else (("int8", 8, 1.0), ("int4", 4, 2.0))
    for dtype, bits, size in steps:
        if WEIGHT_STORAGE_BYTES[dtype] >= WEIGHT_STORAGE_BYTES.get(current, 2.0):
            continue
        said = (
            Msg("suggest.quantize_fp8", gpu=plan.gpu.name)
            if dtype == "fp8"
            else Msg("suggest.quantize", dtype=dtype, bits=bits)
        )
        yield Candidate("quantization", said, plan.replace(weight_dtype=dtype), 1, size=size)


#: The KV cache is what does not fit when it is at least this share of the memory needed: a
#: long context or many sequences in flight, not the weights.
KV_BOUND_SHARE = 0.25


def _kv_bound(checks: tuple[CheckResult, ...]) -> bool:
    """True when the KV cache is what does not fit: at least `KV_BOUND_SHARE` of the need, or
    a shortfall its 8-bit half would close (a 16-bit cache beside 8-bit weights that misses by
    a few percent: halving the KV bytes is the change, vLLM docs "Quantized KV Cache")."""
    memory = next((c for c in checks if c.kind == "memory"), None)
    if memory is None:
        return False
    figures = memory.figures
    kv, need = figures.get("kv_cache_bytes"), figures.get("required_bytes_per_gpu")
    if not isinstance(kv, (int, float)) or not isinstance(need, (int, float)) or need <= 0:
        return False
    have, share = figures.get("available_bytes_per_gpu"), figures.get("kv_cache_bytes_per_gpu")
    short = need - have if isinstance(have, (int, float)) else math.inf
    per_gpu = share if isinstance(share, (int, float)) else kv  # the part of `need`
    return kv / need >= KV_BOUND_SHARE or 0 < short <= per_gpu / 2


def _weights_and_kv(plan: Plan) -> Iterator[Candidate]:
    """Smaller weights (alone, or with a tensor-parallel split) and an 8-bit KV cache
    together, for each weight change after which the KV cache is what does not fit
    (`_kv_bound` on the changed plan): Qwen2.5-32B in int4 beside a 16-bit 8k cache misses a
    24 GB card by a few percent, its 8-bit half fits (vLLM `--quantization awq
    --kv-cache-dtype fp8`; INT8 where the card has no FP8, see `_kv_quantize`)."""
    if DTYPE_BYTES[plan.cache_dtype] <= 1.0:
        return
    dtype = "fp8" if plan.gpu.supports("fp8") else "int8"
    for q in (*_quantize(plan), *_quantized_splits(plan)):
        if not _kv_bound((memory_check(q.plan, with_min_gpus=False),)):
            continue
        said = Msg("suggest.and_kv_quantize", first=q.description, dtype=dtype.upper())
        new = q.plan.replace(kv_dtype=dtype)
        yield Candidate("combined", said, new, 2, q.changes + 1, size=q.size)


def _kv_quantize(plan: Plan) -> Iterator[Candidate]:
    """An 8-bit KV cache, alone and with 8-bit weights: FP8 (E4M3) where the GPU has FP8, as
    vLLM's `kv_cache_dtype="fp8"` and TensorRT-LLM offer; INT8 (TensorRT-LLM) elsewhere. Both
    halve the KV bytes of a 16-bit cache (vLLM docs, "Quantized KV Cache")."""
    if DTYPE_BYTES[plan.cache_dtype] <= 1.0:
        return
    dtype = "fp8" if plan.gpu.supports("fp8") else "int8"
    # vLLM needs compute capability 7.0 or newer (its installation docs): not a Pascal card
    pascal = plan.gpu.architecture == "pascal"
    key = "suggest.kv_quantize_pascal" if pascal else "suggest.kv_quantize"
    said = Msg(key, dtype=dtype.upper())
    alone = plan.replace(kv_dtype=dtype)
    yield Candidate("kv_quantization", said, alone, 1, size=0.75)
    yield from _kv_quantize_laid_out(plan, said, alone)
    for q in _quantize(plan):
        both = Msg("suggest.and_kv_quantize", first=q.description, dtype=dtype.upper())
        yield Candidate(
            "combined", both, alone.replace(weight_dtype=q.plan.weight_dtype), 2, 2, size=q.size
        )


def _kv_quantize_laid_out(plan: Plan, said: Msg, alone: Plan) -> Iterator[Candidate]:
    """The 8-bit KV cache on another split of the same GPUs, when that split is what lets it
    fit: an MLA cache (DeepSeek-V3/R1) is one latent per token that tensor parallelism does
    not divide, so it shrinks per GPU only over pipeline stages (DeepSeek-R1 in FP8 on 8 x
    H200 with 32 sequences of 128k: 145 GB of BF16 KV per GPU at TP=4, PP=2; in FP8 at TP=1,
    PP=8 about 18 GB beside 84 GB of weights)."""
    fit = fit_layout(alone, {"memory"})
    if fit is None or fit[1] > plan.gpus or fit[0] == alone:
        return
    laid_out = fit[0]
    layout = layout_message(laid_out)
    both = Msg("suggest.and_layout", first=said, layout=layout, gpus=plan.gpus)
    yield Candidate("combined", both, laid_out, 2, 2, size=0.75)


#: Granularity of a suggested context: vLLM's KV blocks are 16 tokens; 256 keeps it readable.
_CONTEXT_STEP = 256


def _shorter_context(plan: Plan, checks: tuple[CheckResult, ...]) -> Iterator[Candidate]:
    """The longest context every in-flight sequence can have in the memory left after the
    weights: the KV cache grows linearly with it (2·layers·kv_heads·head_dim·bytes per token,
    vLLM docs, "PagedAttention"), so it is one division, not a search. Offered only when that
    still holds a whole request (prompt + output); a condition only when the user left the
    context open (the verdict rule keeps a stated one)."""
    memory = next((c for c in checks if c.kind == "memory"), None)
    if memory is None:
        return
    parts = [
        memory.figures.get(key)
        for key in ("required_bytes_per_gpu", "kv_cache_bytes_per_gpu", "available_bytes_per_gpu")
    ]
    if not all(isinstance(v, (int, float)) and v > 0 for v in parts):
        return
    need, kv, have = (float(v) for v in parts)  # type: ignore[arg-type]
    tokens = int(plan.sequence_length * (have - need + kv) / kv) // _CONTEXT_STEP * _CONTEXT_STEP
    request = (plan.prompt_tokens or DEFAULT_PROMPT_TOKENS) + DEFAULT_OUTPUT_TOKENS
    if tokens < request or tokens >= plan.sequence_length:
        return
    said = Msg("suggest.shorter_context", tokens=tokens, was=plan.sequence_length)
    yield Candidate("context", said, plan.replace(sequence_length=tokens), 1, size=0.8)


def _days_needed(plan: Plan) -> int | None:
    seconds = compute_facts(plan).seconds
    return None if seconds is None else math.ceil(seconds / DAY)


def _longer_deadline(plan: Plan, seconds: float) -> float:
    """The deadline to suggest for a run of `seconds`: whole days, or whole hours (minutes)
    when the stated deadline was under a day (an hour): "allow 9 h instead of 10 min", not
    "allow 1 days instead of 0.00694444"."""
    step = (
        DAY if plan.deadline_seconds >= DAY else 3600.0 if plan.deadline_seconds >= 3600 else 60.0
    )
    return math.ceil(seconds / step) * step


def _deadline(plan: Plan) -> Iterator[Candidate]:
    seconds = compute_facts(plan).seconds  # one evaluation: the days follow from it
    if seconds is None or math.ceil(seconds / DAY) > MAX_DEADLINE_DAYS:
        return
    longer = _longer_deadline(plan, seconds)
    yield Candidate(
        "deadline",
        Msg("suggest.deadline", seconds=longer, was=plan.deadline_seconds),
        plan.replace(deadline_seconds=longer),
        3,
        size=longer / plan.deadline_seconds,
    )


def deadline_remark(plan: Plan) -> Msg | None:
    """Why no longer deadline is suggested, when the run would need more than two years.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import generic_model
        >>> plan = Plan(task="pretrain", model=generic_model(params=100e9),
        ...             gpu=lookup_gpu("A100 80GB PCIe"), gpus=8)
        >>> round(deadline_remark(plan)["years"])
        54
    """
    days = _days_needed(plan)
    if days is None or days <= MAX_DEADLINE_DAYS:
        return None
    years = days / 365.25
    return Msg(
        "suggest.remark.deadline",
        years=years,
        days=days,
        seconds=days * 86400.0,  # shown as the answer shows every duration ("3.4 年")
        gpus=plan.gpus,
        gpu=plan.gpu.name,
        max_days=MAX_DEADLINE_DAYS,
    )
