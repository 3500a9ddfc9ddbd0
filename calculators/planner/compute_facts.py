"""The training compute of a plan (`ComputeFacts`): tokens, model and hardware FLOPs, the MFU
it runs at, the pipeline bubble and the network's share of a step. `compute` judges these
against the deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from calculators.compute_time import (
    default_mfu_basis,
    default_pretrain_tokens,
    model_and_hardware_flops,
    pipeline_bubble_fraction,
    training_time,
)
from calculators.messages import Msg
from calculators.planner.checks import step_estimate
from calculators.planner.memory import trainable_params
from calculators.planner.plan import FINETUNE_TOKENS, Plan
from calculators.planner.schedule import (
    dualpipe_bubble_fraction,
    pipeline_microbatches,
    uses_dualpipe,
)

__all__ = [
    "ComputeFacts",
    "compute_facts",
    "recompute_kind",
    "step_flops_per_token",
    "tp_excess_seconds",
]


@dataclass(frozen=True)
class ComputeFacts:
    """Training compute of a plan (inference plans carry only the rate)."""

    peak_flops_per_s: float
    mfu: float
    """Model FLOPs utilisation: applied to model_flops (PaLM's definition)."""
    mfu_basis: Msg
    mfu_sources: tuple[str, ...]
    tokens: float | None = None
    tokens_source: Msg | None = None
    total_flops: float | None = None
    """Model FLOPs (6·N·D + attention), what MFU divides."""
    seconds: float | None = None
    """Wall clock: compute_seconds / ((1 − pipeline_bubble) × network_efficiency)."""
    gpu_hours: float | None = None
    hardware_flops: float | None = None
    """FLOPs the GPUs execute (8·N·D + attention with full recompute)."""
    compute_seconds: float | None = None
    pipeline_microbatches: int = 1
    pipeline_bubble: float = 0.0
    """The bubble charged to the time: the schedule's, or 0 for a stated (end-to-end) MFU."""
    network_efficiency: float = 1.0
    schedule_bubble: float = 0.0
    """The schedule's idle share (`_bubble`), charged or not: a stated MFU has it inside."""
    network_efficiency_no_overlap: float = 1.0
    """`network_efficiency` if the sync and pipeline sends did not overlap with compute:
    compute / (compute + data-parallel + pipeline + MoE traffic + TP excess); never above it."""


def step_flops_per_token(facts: ComputeFacts) -> float | None:
    """Model FLOPs per token of the run (6·N_active + attention; 4·N_active + attention for
    LoRA/QLoRA): what the network check prices a step at, so its compute per step times the
    steps is the compute check's time. None without tokens (inference)."""
    if facts.total_flops is None or not facts.tokens:
        return None
    return facts.total_flops / facts.tokens


def recompute_kind(plan: Plan) -> str:
    return plan.recompute or ("full" if plan.task == "finetune" else "selective")


def _tokens(plan: Plan) -> tuple[float, Msg]:
    if plan.tokens is not None:
        return plan.tokens, Msg("assume.compute.tokens_given")
    if plan.task == "finetune":
        return FINETUNE_TOKENS, Msg("assume.compute.tokens_finetune", tokens=FINETUNE_TOKENS)
    return default_pretrain_tokens(plan.model)


def _mfu(plan: Plan, model_flops: float, hardware_flops: float) -> tuple[float, Msg]:
    """The MFU applied to model FLOPs. The class defaults are hardware utilisations of runs
    that execute what they count: with full recompute the GPU also runs the extra forward at
    that rate, so its MFU is the default x model / hardware FLOPs (Narayanan et al. 2021
    Table 1: 140 TFLOP/s counted with recompute = 45% of 312, i.e. 34% MFU)."""
    basis = default_mfu_basis(plan.gpu, plan.precision)  # fp8: MFU against the FP8 peak
    if plan.mfu:  # stated: it replaces the default (and is said to be the user's)
        return plan.mfu, Msg("assume.compute.mfu_basis.stated", precision=plan.precision.upper())
    return basis.value * model_flops / hardware_flops, basis.basis


@lru_cache(maxsize=4096)  # the suggestion search asks again for the same plans
def compute_facts(plan: Plan) -> ComputeFacts:
    """Peak, MFU, tokens, model and hardware FLOPs and the wall-clock time of the plan."""
    peak = plan.gpu.dense_flops_per_s(plan.precision)
    if plan.task == "inference":
        basis = default_mfu_basis(plan.gpu)
        return ComputeFacts(peak, plan.mfu or basis.value, basis.basis, basis.sources)
    sources = default_mfu_basis(plan.gpu, plan.precision).sources
    tokens, source = _tokens(plan)
    active = float(plan.model.active_params)
    flops = model_and_hardware_flops(
        active_params=active,
        tokens=tokens,
        recompute=recompute_kind(plan),
        model=plan.model,
        sequence_length=plan.sequence_length,
    )
    model_flops, hardware = flops.model_flops, flops.hardware_flops
    if plan.task == "finetune" and plan.effective_method != "full":
        model_flops -= 2.0 * active * tokens
        hardware -= 2.0 * active * tokens
    mfu, mfu_basis = _mfu(plan, model_flops, hardware)
    micro = pipeline_microbatches(plan)
    schedule = _bubble(plan, micro)
    bubble, network, plain = 0.0, 1.0, 1.0
    if not plan.mfu:  # a stated MFU is end to end: the bubble and traffic are in it
        bubble = schedule
        network, plain = _network_efficiencies(
            plan, peak=peak, mfu=mfu, tokens=tokens, flops_per_token=model_flops / tokens
        )
    run = training_time(
        total_flops=model_flops,
        gpus=plan.gpus,
        peak_flops_per_s=peak,
        mfu=mfu,
        pipeline_bubble=bubble,
        network_efficiency=network,
    )
    return ComputeFacts(
        peak,
        mfu,
        mfu_basis,
        sources,
        tokens,
        source,
        model_flops,
        run.seconds,
        run.gpu_hours,
        hardware,
        run.compute_seconds,
        micro,
        bubble,
        network,
        schedule,
        network_efficiency_no_overlap=plain,
    )


def _bubble(plan: Plan, micro: int) -> float:
    """The pipeline's idle share: DualPipe's where the plan runs it, else 1F1B's."""
    if uses_dualpipe(plan):
        return dualpipe_bubble_fraction(
            pipeline_parallel=plan.pipeline_parallel,
            micro_batches=micro,
            full_recompute=recompute_kind(plan) == "full",
        )
    return pipeline_bubble_fraction(pipeline_parallel=plan.pipeline_parallel, micro_batches=micro)


def _network_efficiencies(
    plan: Plan, *, peak: float, mfu: float, tokens: float, flops_per_token: float
) -> tuple[float, float]:
    """Share of a step left after the communication that compute does not hide:
    compute / (max(compute, data-parallel + pipeline traffic) + MoE all-to-all + TP excess),
    and the same share if none of the traffic overlapped (compute / (compute + all of it)),
    the one figure every answer says for "no overlap".

    Gradient sync and pipeline sends overlap with compute (bucketed all-reduce); the MoE
    all-to-all sits on the critical path. Tensor-parallel collectives are mostly not in the
    time: the MFU defaults are measured on tensor-parallel runs (Megatron-LM on A100 NVLink 3,
    Llama 3 on H100 NVLink 4), so they already pay TP at that link's speed (the PCIe and
    consumer defaults are lower for that reason). What a slower intra-node link adds on top
    (H800 and A800: NVLink cut to 400 GB/s) is the "TP excess": the plan's TP seconds minus
    the same collectives on the default's reference link (`tp_excess_seconds`), on the
    critical path like Megatron's TP all-reduces. Under DualPipe (`schedule.uses_dualpipe`)
    the all-to-all overlaps with compute too, so it joins the hidden traffic. 1 (both) for a layout
    that is not whole yet (a re-laid-out plan before its GPU count is rounded) or has no
    inter-node link yet: those are estimates only, and `validate_plan` refuses them as plans.
    """
    model_parallel = plan.tensor_parallel * plan.pipeline_parallel
    data_parallel = plan.gpus // model_parallel
    if (
        plan.gpus % model_parallel
        or data_parallel % plan.expert_parallel_degree
        or (plan.nodes > 1 and plan.inter_link is None)
    ):
        return 1.0, 1.0
    step = step_estimate(
        plan,
        peak_flops_per_s=peak,
        mfu=mfu,
        total_tokens=tokens,
        trainable_params=trainable_params(plan),
        flops_per_token=flops_per_token,
    )
    if step is None:
        return 1.0, 1.0
    compute = step.compute_seconds_per_step
    hidden = step.allreduce_seconds_per_step + step.pp_seconds_per_step
    exposed = step.moe_seconds_per_step
    if uses_dualpipe(plan):
        hidden, exposed = hidden + exposed, 0.0
    excess = tp_excess_seconds(plan, step.tp_seconds_per_step, peak=peak, mfu=mfu)
    overlapped = compute / (max(compute, hidden) + exposed + excess)
    return overlapped, compute / (compute + hidden + exposed + excess)


def tp_excess_seconds(plan: Plan, tp_seconds: float, *, peak: float, mfu: float) -> float:
    """Tensor-parallel seconds per step beyond what the MFU default's reference runs paid:
    the plan's TP collectives minus the same ones over the reference intra-node link (see
    `MfuDefault.reference_intra_link`). 0 without TP, for a user-given MFU (measured on the
    user's own links), for classes without a measured reference, and for a link at least as
    fast as the reference (H100, H200, H20: NVLink 4).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> p = Plan(task="pretrain", model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("H100"),
        ...          gpus=8, tensor_parallel=8)
        >>> tp_excess_seconds(p, 1.0, peak=989e12, mfu=0.38)
        0.0
        >>> h800 = p.replace(gpu=lookup_gpu("H800"))  # its TP on 200 GB/s, NVLink 4's on 450
        >>> paid = 1e4 - tp_excess_seconds(h800, 1e4, peak=989e12, mfu=0.38)
        >>> round(paid / 1e4, 4) < 1
        True
    """
    from calculators.catalog.hardware import LINKS
    from calculators.planner.checks import intra_link

    reference = default_mfu_basis(plan.gpu, plan.precision).reference_intra_link
    if plan.tensor_parallel == 1 or plan.mfu or reference is None or tp_seconds <= 0:
        return 0.0
    link = LINKS[reference]
    if intra_link(plan).bytes_per_s >= link.bytes_per_s:
        return 0.0
    at_reference = step_estimate(
        plan.replace(intra_link=link),
        peak_flops_per_s=peak,
        mfu=mfu,
        total_tokens=None,
        trainable_params=trainable_params(plan),
    )
    paid = at_reference.tp_seconds_per_step if at_reference is not None else 0.0
    return max(0.0, tp_seconds - paid)
