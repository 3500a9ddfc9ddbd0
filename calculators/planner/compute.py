"""The compute check of a plan: training time against the deadline, or serving speed. The
training compute it judges (`ComputeFacts`, MFU, bubble, network share) is worked out in
`compute_facts`, whose names this module re-exports for its callers."""

from __future__ import annotations

from calculators._memory_parts import recompute_words
from calculators.compute_time import (
    default_mfu_basis,
    gpus_for_deadline,
)
from calculators.defaults import DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS
from calculators.messages import Msg
from calculators.planner.checks import limit_verdict
from calculators.planner.compute_facts import (
    ComputeFacts,
    compute_facts,
    recompute_kind,
    tp_excess_seconds,
)
from calculators.planner.plan import TIGHT_MARGIN, CheckResult, Figure, Plan
from calculators.planner.schedule import (
    MIN_MICROBATCHES_PER_STAGE,
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
        Msg("assume.compute.recompute_flops", recompute=recompute_words(recompute_kind(plan))),
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


#: A stated context this many times the default prompt or longer gets the first token of a
#: prompt that fills it too: "32k context" with a 1,024-token prompt's 0.2 s alone hides the
#: seconds a full-length prompt takes (prefill grows with the prompt, attention with its square).
_LONG_CONTEXT_PROMPTS = 4


def _full_context_first_token(plan: Plan) -> dict[str, Figure]:
    """The time to first token of a prompt filling the context (less the reply), beside the
    evaluated prompt's, when the context is `_LONG_CONTEXT_PROMPTS` times that prompt or more
    (the memory is sized for full sequences; so is this first token); {} otherwise."""
    from calculators.planner.serving import plan_serving_speed

    output = plan.output_tokens or DEFAULT_OUTPUT_TOKENS
    prompt = plan.sequence_length - output
    if prompt < _LONG_CONTEXT_PROMPTS * (plan.prompt_tokens or DEFAULT_PROMPT_TOKENS):
        return {}
    full = plan_serving_speed(plan.replace(prompt_tokens=prompt))
    return {"full_prompt_tokens": prompt, "full_first_token_seconds": full.first_token_seconds}


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
        **_full_context_first_token(plan),
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
