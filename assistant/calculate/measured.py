"""A training run's own rate and parts: the MFU a measured rate ("3000 tokens/s/GPU") means,
tokens/s per GPU, and the activations per GPU.

The rate sets the MFU: MFU = rate per GPU × FLOPs per token / dense peak per GPU (the FLOPs per
token and the peak are the compute check's own: 6 × N + attention, the GPU's datasheet rate;
Narayanan et al. 2021, §5.1; Chowdhery et al. 2022, PaLM, Appendix B). The question is then
evaluated at that MFU, so its run time, GPU-hours and cost follow from the stated rate. GPU-hours
a run took ("2.788M H800 GPU-hours") set it the same way: MFU = FLOPs / (GPU-hours × 3600 ×
peak), scaled once more by the hours the first evaluation gives (its network wait included), so
the answer's GPU-hours are the stated ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from assistant.calculate.focus import figure
from assistant.calculate.nouns import gpu_noun
from assistant.records import Check, Query, Scenario
from calculators.messages import Msg

__all__ = [
    "activations_answer",
    "measured_mfu",
    "mfu_answer",
    "training_rate",
    "with_measured_mfu",
    "with_run_time",
]


def measured_mfu(rate_per_gpu: float, flops_per_token: float, peak_flops_per_s: float) -> float:
    """The MFU a measured rate means.

    >>> round(measured_mfu(3000, 5.46e10, 989.4e12), 3)
    0.166
    """
    return rate_per_gpu * flops_per_token / peak_flops_per_s


def with_measured_mfu(query: Query, run: Callable[[Query], object]) -> Query:
    """`query` with the MFU its stated training rate or GPU-hours imply (unchanged when
    neither is stated, an MFU is, or the job is inference). `run` evaluates a query; its
    compute check gives the FLOPs per token and the peak."""
    s = query.scenario
    if s.mfu is not None or s.task == "inference":
        return query
    if s.tokens_per_second_per_gpu is None:
        return _with_spent_mfu(query, run)
    outcome = run(query)
    checks = getattr(outcome, "checks", ())
    flops, tokens = figure(checks, "compute", "total_flops"), figure(checks, "compute", "tokens")
    peak = figure(checks, "compute", "peak_flops_per_s")
    if not (flops and tokens and peak):
        return query
    mfu = measured_mfu(s.tokens_per_second_per_gpu, flops / tokens, peak)
    return replace(query, scenario=replace(s, mfu=mfu))


#: Words of a run that happened ("we pretrained", "it took", "花了20天", "训练了"): its time is
#: what it took, not a deadline.
_RAN = re.compile(
    r"\b(?:pre-?trained|trained|fine-?tuned|took|did (?:we|it|they) (?:get|achieve|reach|hit)|"
    r"achieved|we got|finished|completed|ran)\b|花了|用了|训练了|训完了|跑了|耗时|历时",
    re.IGNORECASE,
)


def with_run_time(query: Query) -> tuple[Query, str | None]:
    """An MFU asked of a run that happened, with its GPUs and its time ("We pretrained a 7B model
    on 1T tokens using 256 A100 in 14 days. What MFU did we achieve?", "训练了20天，MFU是多少"):
    the time is the run's, not a deadline to judge, so it becomes the GPU-hours it took (256 ×
    14 days = 86,016), which set the MFU as stated GPU-hours do; and the note that says so.

    Examples:
        >>> from assistant.parse import parse
        >>> question = "We trained a 7B on 1T tokens on 256 A100 in 14 days. What MFU was that?"
        >>> q, _ = with_run_time(parse(question))
        >>> q.scenario.gpu_hours, q.scenario.deadline_seconds
        (86016.0, None)
    """
    from assistant.calculate.focus import main_ask
    from assistant.i18n import text

    s = query.scenario
    count = s.gpu_count or ((s.nodes or 0) * (s.gpus_per_node or 0))
    if (
        main_ask(query) != "mfu"
        or not _RAN.search(query.question)  # "MFU needed to finish in 14 days": a deadline
        or s.task == "inference"
        or s.gpu_hours is not None
        or s.tokens_per_second_per_gpu is not None
        or not (s.deadline_seconds and count)
    ):
        return query, None
    hours = count * s.deadline_seconds / 3600.0
    note = Msg("assume.compute.run_time", gpus=count, seconds=s.deadline_seconds, hours=hours)
    scenario = replace(s, gpu_hours=hours, deadline_seconds=None)
    return replace(query, scenario=scenario), text(note, query.language)


def _with_spent_mfu(query: Query, run: Callable[[Query], object]) -> Query:
    """`query` at the MFU whose run takes the stated GPU-hours (see the module docstring)."""
    s = query.scenario
    if not s.gpu_hours:
        return query
    checks = getattr(run(query), "checks", ())
    flops, peak = (
        figure(checks, "compute", "total_flops"),
        figure(checks, "compute", "peak_flops_per_s"),
    )
    if not (flops and peak):
        return query
    mfu = flops / (s.gpu_hours * 3600 * peak)
    if mfu > 1:  # "70B on 1.4T tokens with 64 H100 in 30 days": faster than the cards' peak
        from calculators.errors import CalculatorInputError

        reason, field = Msg("invalid.gpu_hours_past_peak", mfu=mfu), "gpu_hours"
        raise CalculatorInputError(field, s.gpu_hours, reason)
    hours = figure(getattr(run(_at(query, mfu)), "checks", ()), "compute", "gpu_hours")
    if hours:
        mfu *= hours / s.gpu_hours  # the network wait the first evaluation added
    return _at(query, mfu)


def _at(query: Query, mfu: float) -> Query:
    return replace(query, scenario=replace(query.scenario, mfu=mfu))


def training_rate(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """Training's rate: tokens/s per GPU and in all, from the run's time (bubble and network
    wait included), and the FLOPs per token and MFU that set it."""
    tokens = figure(checks, "compute", "tokens")
    seconds = figure(checks, "compute", "seconds")
    flops = figure(checks, "compute", "total_flops")
    mfu = figure(checks, "compute", "mfu")
    peak = figure(checks, "compute", "peak_flops_per_s")
    if not (tokens and seconds and flops and mfu and peak):
        return None
    gpus = scenario.gpu_count or 1
    total = tokens / seconds
    return Msg(
        "answer.throughput_training",
        per_gpu=total / gpus,
        total=total,
        gpus=gpus,
        noun=gpu_noun(gpus),
        per_token=flops / tokens,
        mfu=mfu,
        peak=peak,
    )


def mfu_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The MFU of a training run: from the user's measured rate or GPU-hours when stated
    (`measured`), else the planning default, with the rate per GPU it means."""
    mfu = figure(checks, "compute", "mfu")
    rate = training_rate(checks, scenario)
    if scenario.task == "inference" or mfu is None or rate is None:
        return None
    if scenario.tokens_per_second_per_gpu is not None:
        return Msg("answer.mfu_measured", mfu=mfu, rate=rate)
    key = "answer.mfu_spent" if scenario.gpu_hours else "answer.mfu_default"
    return Msg(key, mfu=mfu, rate=rate)


def activations_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """Training activations per GPU at the plan's recompute and micro-batch (Korthikanti et
    al. 2022 Table 2): "how much memory for activations", "激活值占多少显存"."""
    act = figure(checks, "memory", "activations_bytes")
    recompute = next((c.figures.get("recompute") for c in checks if c.kind == "memory"), None)
    if scenario.task == "inference" or act is None or not isinstance(recompute, str):
        return None
    return Msg(
        "answer.activations",
        act=act,
        recompute=Msg(f"assume.recompute.{recompute}"),
        micro=figure(checks, "memory", "micro_batch_size") or 1,
        seq=figure(checks, "memory", "sequence_length") or 0,
        per_gpu=figure(checks, "memory", "required_bytes_per_gpu") or 0.0,
    )


def activations_how(checks: tuple[Check, ...]) -> Msg | str:
    """How the activations were counted ("selective activation recompute, micro-batch 1 of
    4,096-token sequences"): they depend on both, so a memory estimate says so; "" unknown."""
    recompute = next((c.figures.get("recompute") for c in checks if c.kind == "memory"), None)
    if not isinstance(recompute, str):
        return ""
    return Msg(
        "answer.activations_how",
        recompute=Msg(f"assume.recompute.{recompute}"),
        micro=figure(checks, "memory", "micro_batch_size") or 1,
        seq=figure(checks, "memory", "sequence_length") or 0,
    )
