"""The compute check of a plan: training time against the deadline, or serving speed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from calculators._memory_parts import recompute_words
from calculators.compute_time import (
    default_mfu_basis,
    default_pretrain_tokens,
    gpus_for_deadline,
    model_and_hardware_flops,
    pipeline_bubble_fraction,
    training_time,
)
from calculators.defaults import DEFAULT_PROMPT_TOKENS
from calculators.messages import Msg
from calculators.planner.checks import limit_verdict, step_estimate
from calculators.planner.memory import trainable_params
from calculators.planner.plan import FINETUNE_TOKENS, TIGHT_MARGIN, CheckResult, Figure, Plan
from calculators.planner.schedule import (
    MIN_MICROBATCHES_PER_STAGE,
    dualpipe_bubble_fraction,
    pipeline_microbatches,
    uses_dualpipe,
)

__all__ = [
    "MIN_MICROBATCHES_PER_STAGE",
    "ComputeFacts",
    "compute_check",
    "compute_facts",
    "gpus_needed_for_deadline",
    "pipeline_microbatches",
    "tp_excess_seconds",
]

#: LoRA/QLoRA: no weight gradients for the frozen base, so 2·N·D of the 6·N·D are skipped
#: (Hu et al. 2021, arXiv:2106.09685).
_LORA_NOTE = Msg("assume.compute.lora_flops")


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


#: The time formula and the duration sentence by the factors that apply to the run:
#: (a pipeline bubble is charged, some communication is exposed). A stated MFU is end to end
#: (`compute_facts`), so it is charged neither; a single stage has no bubble.
_TIME_FORMULAS = {
    (False, False): "formula.compute.time_plain",
    (True, False): "formula.compute.time_bubble",
    (False, True): "formula.compute.time_network",
    (True, True): "formula.compute.time_both",
}
_DURATIONS = {
    (False, False): "training.duration_compute",
    (True, False): "training.duration_bubble",
    (False, True): "training.duration_network",
    (True, True): "training.duration_factors",
}

#: The pipeline sentence by (micro-batches stated, DualPipe schedule).
_BUBBLE_NOTES = {
    (True, False): "training.pipeline_bubble",
    (False, False): "training.pipeline_bubble_assumed",
    (True, True): "training.pipeline_bubble_dualpipe",
    (False, True): "training.pipeline_bubble_assumed_dualpipe",
}


def _factors(plan: Plan, facts: ComputeFacts) -> tuple[bool, bool]:
    """(bubble charged, network charged): a pipeline under an MFU that is not stated, and a
    network efficiency below 1."""
    return plan.pipeline_parallel > 1 and not plan.mfu, facts.network_efficiency < 1.0


def _training_formula(plan: Plan, facts: ComputeFacts) -> Msg:
    """C: LoRA/QLoRA runs 4·N per token (no weight gradients), full training 6·N. T: only the
    factors that apply (`_factors`), the bubble of the schedule the plan runs."""
    adapters = plan.task == "finetune" and plan.effective_method != "full"
    key = "formula.compute.training_adapters" if adapters else "formula.compute.training"
    terms = _factors(plan, facts)
    if not terms[0]:
        return Msg(key, time=Msg(_TIME_FORMULAS[terms]))
    dualpipe = uses_dualpipe(plan)
    bubble = Msg("formula.compute.bubble_dualpipe" if dualpipe else "formula.compute.bubble_1f1b")
    return Msg(key, time=Msg(_TIME_FORMULAS[terms], bubble=bubble))


def step_flops_per_token(facts: ComputeFacts) -> float | None:
    """Model FLOPs per token of the run (6·N_active + attention; 4·N_active + attention for
    LoRA/QLoRA): what the network check prices a step at, so its compute per step times the
    steps is the compute check's time. None without tokens (inference)."""
    if facts.total_flops is None or not facts.tokens:
        return None
    return facts.total_flops / facts.tokens


def _recompute(plan: Plan) -> str:
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
        recompute=_recompute(plan),
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
    bubble, network = 0.0, 1.0
    if not plan.mfu:  # a stated MFU is end to end: the bubble and traffic are in it
        bubble = schedule
        network = _network_efficiency(
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
    )


def _bubble(plan: Plan, micro: int) -> float:
    """The pipeline's idle share: DualPipe's where the plan runs it, else 1F1B's."""
    if uses_dualpipe(plan):
        return dualpipe_bubble_fraction(
            pipeline_parallel=plan.pipeline_parallel,
            micro_batches=micro,
            full_recompute=_recompute(plan) == "full",
        )
    return pipeline_bubble_fraction(pipeline_parallel=plan.pipeline_parallel, micro_batches=micro)


def _network_efficiency(
    plan: Plan, *, peak: float, mfu: float, tokens: float, flops_per_token: float
) -> float:
    """Share of a step left after the communication that compute does not hide:
    compute / (max(compute, data-parallel + pipeline traffic) + MoE all-to-all + TP excess).

    Gradient sync and pipeline sends overlap with compute (bucketed all-reduce); the MoE
    all-to-all sits on the critical path. Tensor-parallel collectives are mostly not in the
    time: the MFU defaults are measured on tensor-parallel runs (Megatron-LM on A100 NVLink 3,
    Llama 3 on H100 NVLink 4), so they already pay TP at that link's speed (the PCIe and
    consumer defaults are lower for that reason). What a slower intra-node link adds on top
    (H800 and A800: NVLink cut to 400 GB/s) is the "TP excess": the plan's TP seconds minus
    the same collectives on the default's reference link (`tp_excess_seconds`), on the
    critical path like Megatron's TP all-reduces. Under DualPipe (`schedule.uses_dualpipe`)
    the all-to-all overlaps with compute too, so it joins the hidden traffic. 1 for a layout
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
        return 1.0
    step = step_estimate(
        plan,
        peak_flops_per_s=peak,
        mfu=mfu,
        total_tokens=tokens,
        trainable_params=trainable_params(plan),
        flops_per_token=flops_per_token,
    )
    if step is None:
        return 1.0
    compute = step.compute_seconds_per_step
    hidden = step.allreduce_seconds_per_step + step.pp_seconds_per_step
    exposed = step.moe_seconds_per_step
    if uses_dualpipe(plan):
        hidden, exposed = hidden + exposed, 0.0
    excess = tp_excess_seconds(plan, step.tp_seconds_per_step, peak=peak, mfu=mfu)
    return compute / (max(compute, hidden) + exposed + excess)


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


def gpus_needed_for_deadline(plan: Plan) -> int | None:
    """Fewest GPUs of the plan's type that finish before the deadline (training only), at
    this plan's pipeline and network efficiency."""
    facts = compute_facts(plan)
    if facts.total_flops is None:
        return None
    rate = facts.mfu * (1.0 - facts.pipeline_bubble) * facts.network_efficiency
    return gpus_for_deadline(
        total_flops=facts.total_flops,
        deadline_seconds=plan.deadline_seconds,
        peak_flops_per_s=facts.peak_flops_per_s,
        mfu=rate,
    )


def compute_check(plan: Plan, facts: ComputeFacts, *, memory_fits: bool) -> CheckResult:
    """Training: time to the token budget against the deadline. Inference: serving speed."""
    if plan.task == "inference":
        return _inference_check(plan, facts, memory_fits=memory_fits)
    assert facts.seconds is not None  # training facts always carry a time
    verdict = limit_verdict(facts.seconds, plan.deadline_seconds)
    figures: dict[str, Figure] = {
        "total_flops": facts.total_flops,
        "model_flops": facts.total_flops,
        "hardware_flops": facts.hardware_flops,
        "tokens": facts.tokens,
        "mfu": facts.mfu,
        "mfu_stated": plan.mfu is not None,
        "hfu": _hfu(facts),
        "peak_flops_per_s": facts.peak_flops_per_s,
        "compute_seconds": facts.compute_seconds,
        "pipeline_microbatches": facts.pipeline_microbatches,
        "pipeline_bubble": facts.pipeline_bubble,
        # the schedule's idle share, charged or not (a stated MFU has it inside)
        "schedule_bubble": facts.schedule_bubble,
        "pipeline_schedule": "dualpipe" if uses_dualpipe(plan) else "1f1b",
        "network_efficiency": facts.network_efficiency,
        "seconds": facts.seconds,
        "days": facts.seconds / 86_400,
        "gpu_hours": facts.gpu_hours,
        "gpus_for_deadline": gpus_needed_for_deadline(plan),
        "gpus_per_node": plan.gpus_per_node,
        "deadline_seconds": plan.deadline_seconds,
    }
    notes = [
        *((facts.tokens_source,) if facts.tokens_source is not None else ()),
        Msg("assume.compute.mfu", mfu=facts.mfu, basis=facts.mfu_basis),
        Msg("assume.compute.recompute_flops", recompute=recompute_words(_recompute(plan))),
        Msg("assume.compute.tight_deadline", tight=TIGHT_MARGIN),
    ]
    if plan.task == "finetune" and plan.effective_method != "full":
        notes.append(_LORA_NOTE)
    notes.extend(_tp_excess_note(plan))
    if uses_dualpipe(plan):
        notes.append(Msg("assume.compute.dualpipe", model=plan.model.name))
    return CheckResult(
        kind="compute",
        verdict=verdict,
        figures=figures,
        formula=_training_formula(plan, facts),
        inputs={
            "gpus": plan.gpus,
            "gpu": plan.gpu.name,
            "precision": plan.precision,
            "active_params": plan.model.active_params,
            "tokens": facts.tokens,
            "mfu": facts.mfu,
            "pipeline_parallel": plan.pipeline_parallel,
            "pp_microbatches": facts.pipeline_microbatches,
            "deadline_seconds": plan.deadline_seconds,
        },
        assumptions=tuple(notes),
        sources=(
            "Kaplan et al. 2020 (arXiv:2001.08361) §2.1: C = 6ND",
            "Narayanan et al. 2021 (arXiv:2104.04473) §5.1 eq. (3)-(4); §2.2.1 1F1B bubble",
            "Chowdhery et al. 2022, PaLM (arXiv:2204.02311) Appendix B: MFU",
            *facts.mfu_sources,
        ),
        limiting="deadline" if verdict != "ok" else None,
        shortfall=facts.seconds / plan.deadline_seconds if verdict == "fail" else None,
        messages=_duration_messages(plan, facts),
    )


def _tp_excess_note(plan: Plan) -> tuple[Msg, ...]:
    """Says when the time charges tensor parallelism over a link slower than the MFU's."""
    from calculators.catalog.hardware import LINKS
    from calculators.planner.checks import intra_link

    reference = default_mfu_basis(plan.gpu, plan.precision).reference_intra_link
    if plan.tensor_parallel == 1 or plan.mfu or reference is None:
        return ()
    link = intra_link(plan)
    if link.bytes_per_s >= LINKS[reference].bytes_per_s:
        return ()
    return (Msg("assume.compute.tp_excess", link=link.name, reference=reference),)


def _hfu(facts: ComputeFacts) -> float | None:
    if facts.hardware_flops is None or not facts.total_flops:
        return None
    return facts.mfu * facts.hardware_flops / facts.total_flops


def _duration_messages(plan: Plan, facts: ComputeFacts) -> tuple[Msg, ...]:
    """Each factor of the duration, as facts for the answer's language."""
    assert facts.compute_seconds is not None
    assert facts.seconds is not None
    charged = _factors(plan, facts)
    factors: dict[str, float] = {"compute_seconds": facts.compute_seconds, "seconds": facts.seconds}
    if charged[0]:
        factors["bubble"] = facts.pipeline_bubble
    if charged[1]:
        factors["network_efficiency"] = facts.network_efficiency
    out = [Msg(_DURATIONS[charged], **factors)]
    bubble = facts.schedule_bubble
    if plan.mfu and plan.pipeline_parallel > 1:  # MFU = tokens/s x FLOPs/token / peak (PaLM)
        out.append(Msg("training.mfu_end_to_end", mfu=plan.mfu, bubble=bubble))
    elif plan.mfu:  # no pipeline: no bubble to say is inside it
        out.append(Msg("training.mfu_end_to_end_no_pipeline", mfu=plan.mfu))
    if plan.pipeline_parallel > 1:
        key = _BUBBLE_NOTES[bool(plan.pp_microbatches), uses_dualpipe(plan)]
        out.append(
            Msg(
                key,
                stages=plan.pipeline_parallel,
                micro_batches=facts.pipeline_microbatches,
                bubble=bubble,
            )
        )
    if facts.hardware_flops and facts.total_flops and facts.hardware_flops > facts.total_flops:
        out.append(
            Msg(
                "training.flops_split",
                model_flops=facts.total_flops,
                hardware_flops=facts.hardware_flops,
                mfu=facts.mfu,
                hfu=_hfu(facts),
            )
        )
    return tuple(out)


def _inference_check(plan: Plan, facts: ComputeFacts, *, memory_fits: bool) -> CheckResult:
    from calculators.planner.serving import loaded_figures, plan_serving_speed

    per_replica = plan.batch_per_replica
    speed = plan_serving_speed(plan)
    # batch_size counts the sequences of the whole deployment: each decode step of a replica
    # emits one token per sequence it holds, so the deployment emits batch_size tokens per step
    # time (the step time of the fullest replica). Replicas left without a sequence are idle.
    busy = -(-plan.batch_size // per_replica)
    figures: dict[str, Figure] = {
        "prefill_tokens_per_s": speed.prefill_tokens_per_s,
        "decode_tokens_per_s": speed.decode_tokens_per_s,
        "seconds_per_token": speed.decode_seconds_per_token,
        "prefill_seconds": speed.prefill_seconds,
        "first_token_seconds": speed.first_token_seconds,
        "prompt_tokens": min(plan.prompt_tokens or DEFAULT_PROMPT_TOKENS, plan.sequence_length),
        "roofline_seconds_per_token": speed.roofline_seconds_per_token,
        "hbm_seconds_per_token": speed.hbm_seconds,
        "allreduce_seconds_per_token": speed.allreduce_seconds,
        "overhead_seconds_per_token": speed.overhead_seconds,
        "decode_bound": speed.decode_bound,
        "replicas": plan.replicas,
        "concurrent_sequences": plan.batch_size,
        "batch_per_replica": per_replica,
        "busy_replicas": busy,
        "decode_tokens_per_s_all_replicas": plan.batch_size / speed.decode_seconds_per_token,
        "peak_flops_per_s": facts.peak_flops_per_s,
        **loaded_figures(plan, speed),  # at the request rate, when one is stated
    }
    return CheckResult(
        kind="compute",
        verdict="ok" if memory_fits else "n/a",
        figures=figures,
        formula=Msg("formula.serving.deployment", speed=speed.formula),
        inputs={
            "gpus_per_replica": plan.tensor_parallel * plan.pipeline_parallel,
            "batch_size": plan.batch_size,
            "batch_per_replica": per_replica,
            "replicas": plan.replicas,
            "context_length": plan.sequence_length,
        },
        assumptions=(
            *speed.assumptions,
            Msg(
                "assume.serving.batch_split",
                batch=plan.batch_size,
                replicas=plan.replicas,
                per_replica=per_replica,
            ),
            Msg("assume.serving.speed_informative"),
        ),
        sources=speed.sources,
    )
