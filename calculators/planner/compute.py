"""The compute check of a plan: training time against the deadline, or serving speed."""

from __future__ import annotations

from dataclasses import dataclass

from calculators.compute_time import (
    chinchilla_tokens,
    default_mfu_basis,
    gpus_for_deadline,
    training_flops,
    training_time,
)
from calculators.planner.checks import limit_verdict
from calculators.planner.plan import FINETUNE_TOKENS, CheckResult, Figure, Plan

__all__ = ["ComputeFacts", "compute_check", "compute_facts", "gpus_needed_for_deadline"]

_LORA_NOTE = ("LoRA/QLoRA: the frozen base gets no weight gradients, so 2·N·D of the 6·N·D "
              "backward-and-forward FLOPs are skipped (Hu et al. 2021, arXiv:2106.09685)")


@dataclass(frozen=True)
class ComputeFacts:
    """Training compute of a plan (inference plans carry only the rate)."""

    peak_flops_per_s: float
    mfu: float
    mfu_basis: str
    mfu_sources: tuple[str, ...]
    tokens: float | None = None
    tokens_source: str = ""
    total_flops: float | None = None
    seconds: float | None = None
    gpu_hours: float | None = None


def _recompute(plan: Plan) -> str:
    return plan.recompute or ("full" if plan.task == "finetune" else "selective")


def _tokens(plan: Plan) -> tuple[float, str]:
    if plan.tokens is not None:
        return plan.tokens, "given"
    if plan.task == "finetune":
        return FINETUNE_TOKENS, "fine-tuning default 1e8 tokens (about 50k examples x 2k tokens)"
    return chinchilla_tokens(params=float(plan.model.params)), (
        "Chinchilla: 20 tokens per parameter (Hoffmann et al. 2022)")


def compute_facts(plan: Plan) -> ComputeFacts:
    """Peak, MFU, tokens, FLOPs and wall-clock time of the plan (no verdict)."""
    peak = plan.gpu.dense_flops_per_s(plan.precision)
    if plan.task == "inference":
        basis = default_mfu_basis(plan.gpu)
        return ComputeFacts(peak, plan.mfu or basis.value, basis.basis, basis.sources)
    basis = default_mfu_basis(plan.gpu, plan.precision)  # fp8: MFU against the FP8 peak
    mfu = plan.mfu or basis.value
    tokens, source = _tokens(plan)
    active = float(plan.model.active_params)
    flops = training_flops(active_params=active, tokens=tokens, recompute=_recompute(plan),
                           model=plan.model, sequence_length=plan.sequence_length)
    if plan.task == "finetune" and plan.effective_method != "full":
        flops -= 2.0 * active * tokens
    run = training_time(total_flops=flops, gpus=plan.gpus, peak_flops_per_s=peak, mfu=mfu)
    return ComputeFacts(peak, mfu, basis.basis, basis.sources, tokens, source, flops,
                        run.seconds, run.gpu_hours)


def gpus_needed_for_deadline(plan: Plan) -> int | None:
    """Fewest GPUs of the plan's type that finish before the deadline (training only)."""
    facts = compute_facts(plan)
    if facts.total_flops is None:
        return None
    return gpus_for_deadline(total_flops=facts.total_flops, deadline_seconds=plan.deadline_seconds,
                             peak_flops_per_s=facts.peak_flops_per_s, mfu=facts.mfu)


def compute_check(plan: Plan, facts: ComputeFacts, *, memory_fits: bool) -> CheckResult:
    """Training: time to the token budget against the deadline. Inference: serving speed."""
    if plan.task == "inference":
        return _inference_check(plan, facts, memory_fits=memory_fits)
    assert facts.seconds is not None  # training facts always carry a time
    verdict = limit_verdict(facts.seconds, plan.deadline_seconds)
    figures = {
        "total_flops": facts.total_flops, "tokens": facts.tokens, "mfu": facts.mfu,
        "peak_flops_per_s": facts.peak_flops_per_s, "seconds": facts.seconds,
        "days": facts.seconds / 86_400, "gpu_hours": facts.gpu_hours,
        "gpus_for_deadline": gpus_needed_for_deadline(plan),
        "deadline_seconds": plan.deadline_seconds,
    }
    notes = [f"tokens: {facts.tokens_source}", f"MFU {facts.mfu:.0%}: {facts.mfu_basis}",
             f"recompute={_recompute(plan)}: 8·N·D with full recompute, else 6·N·D, plus "
             "attention-score FLOPs", "tight = within 10% of the deadline"]
    if plan.task == "finetune" and plan.effective_method != "full":
        notes.append(_LORA_NOTE)
    return CheckResult(
        kind="compute", verdict=verdict, figures=figures,
        formula="C = 6·N_active·D (8 with full recompute) + attention; T = C / (n × peak × MFU)",
        inputs={"gpus": plan.gpus, "gpu": plan.gpu.name, "precision": plan.precision,
                "active_params": plan.model.active_params, "tokens": facts.tokens,
                "mfu": facts.mfu, "deadline_seconds": plan.deadline_seconds},
        assumptions=tuple(notes),
        sources=("Kaplan et al. 2020 (arXiv:2001.08361) §2.1: C = 6ND",
                 "Narayanan et al. 2021 (arXiv:2104.04473) §5.1 eq. (3)-(4)",
                 "Chowdhery et al. 2022, PaLM (arXiv:2204.02311) Appendix B: MFU",
                 *facts.mfu_sources),
        limiting="deadline" if verdict != "ok" else None,
        shortfall=facts.seconds / plan.deadline_seconds if verdict == "fail" else None,
    )


def _inference_check(plan: Plan, facts: ComputeFacts, *, memory_fits: bool) -> CheckResult:
    from calculators.planner.serving import plan_serving_speed  # imports plan_checks

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
    }
    return CheckResult(
        kind="compute", verdict="ok" if memory_fits else "n/a", figures=figures,
        formula=(f"{speed.formula}; deployment decode = concurrent sequences / step time of a "
                 "replica holding ceil(sequences / replicas)"),
        inputs={"gpus_per_replica": plan.tensor_parallel * plan.pipeline_parallel,
                "batch_size": plan.batch_size, "batch_per_replica": per_replica,
                "replicas": plan.replicas, "context_length": plan.sequence_length},
        assumptions=(*speed.assumptions,
                     f"batch_size = {plan.batch_size:,} concurrent sequences across the whole "
                     f"deployment, split over {plan.replicas:,} replica(s): "
                     f"{per_replica:,} per replica",
                     "Speed is informative: no latency target is given; "
                     "n/a when the model does not fit in memory."),
        sources=speed.sources,
    )
