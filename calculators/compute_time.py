"""Training compute and time: FLOPs, token budgets, pipeline bubble, wall-clock and GPU-hours.

Training FLOPs follow Kaplan et al. 2020 / Narayanan et al. 2021: C = 6·N·D (forward 2ND,
backward 4ND), 8·N·D with full activation recomputation (one more forward). N is the number of
ACTIVE parameters (MoE: the experts a token uses); memory uses the total. Time = C / (n · peak ·
MFU), with MFU as defined by PaLM (Chowdhery et al. 2022, arXiv:2204.02311, Appendix B).

MFU defaults live in `calculators.mfu` and inference speed in `calculators.roofline`; their
public names are re-exported here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calculators import _memory_parts as parts
from calculators.catalog.models import MAX_PARAMS, ModelSpec
from calculators.defaults import CHINCHILLA_TOKENS_PER_PARAM
from calculators.errors import CalculatorInputError
from calculators.messages import Msg
from calculators.mfu import (
    FP8_SPEEDUP_OVER_BF16,
    MFU_TABLE,
    MfuDefault,
    default_mfu,
    default_mfu_basis,
)
from calculators.roofline import DECODE_BANDWIDTH_EFFICIENCY, InferenceSpeed, inference_speed
from calculators.validate import check_choice, check_count, check_fraction, check_positive

__all__ = [
    "CHINCHILLA_TOKENS_PER_PARAM",
    "DECODE_BANDWIDTH_EFFICIENCY",
    "FP8_SPEEDUP_OVER_BF16",
    "MFU_TABLE",
    "InferenceSpeed",
    "MfuDefault",
    "TrainingFlops",
    "TrainingTime",
    "chinchilla_tokens",
    "default_mfu",
    "default_mfu_basis",
    "default_pretrain_tokens",
    "gpus_for_deadline",
    "inference_speed",
    "interleaved_bubble_fraction",
    "model_and_hardware_flops",
    "pipeline_bubble_fraction",
    "training_flops",
    "training_time",
]

# CHINCHILLA_TOKENS_PER_PARAM (from calculators.defaults): Hoffmann et al. 2022, Chinchilla
# (arXiv:2203.15556) §3 / Table 3: about 20 tokens per parameter.

_MAX_TOKENS = 1e16
_MAX_FLOPS = 1e32
_PAPER_6ND = (
    "Kaplan et al. 2020, Scaling Laws (arXiv:2001.08361) §2.1: C ≈ 6ND; Narayanan et "
    "al. 2021 (arXiv:2104.04473) §5.1 eq. (3)-(4): 8ND with full recomputation"
)


def training_flops(
    *,
    active_params: float,
    tokens: float,
    recompute: str = "selective",
    model: ModelSpec | None = None,
    sequence_length: int = 0,
) -> float:
    """Training FLOPs: 6·N·D, or 8·N·D with full recomputation.

    Attention-score FLOPs are not in 6ND. Given ``model`` and ``sequence_length`` they are
    added, 4·L·s·(heads·head_dim) per token per forward (Narayanan et al. 2021 eq. 3): three
    passes (forward + backward), as PaLM's model FLOPs count them (arXiv:2204.02311 App. B:
    6N + 12·L·H·Q·T). Selective recompute and flash attention re-run the attention core in the
    backward pass, but that is hardware work the MFU defaults already absorb (they are model-
    FLOPs utilisations); only "full" recompute switches to Megatron's hardware-FLOPs count,
    8·N·D plus a fourth attention pass (eq. 4), used with achieved-throughput MFUs.

    Examples:
        >>> f"{training_flops(active_params=174.6e9, tokens=300e9):.3g}"  # GPT-3
        '3.14e+23'
    """
    n = check_positive("active_params", active_params, maximum=MAX_PARAMS)
    d = check_positive("tokens", tokens, maximum=_MAX_TOKENS)
    recompute = check_choice("recompute", recompute, parts.RECOMPUTE)
    total = (8.0 if recompute == "full" else 6.0) * n * d
    if model is not None and sequence_length:
        check_count("sequence_length", sequence_length, maximum=10**8)
        attention = 4.0 * model.layers * sequence_length * model.heads * model.head_dim
        total += (4.0 if recompute == "full" else 3.0) * attention * d
    return total


def chinchilla_tokens(*, params: float) -> float:
    """Compute-optimal token budget: 20 tokens per parameter (Hoffmann et al. 2022).

    Examples:
        >>> chinchilla_tokens(params=70e9)  # Chinchilla itself: 70B params, 1.4T tokens
        1400000000000.0
    """
    return CHINCHILLA_TOKENS_PER_PARAM * check_positive("params", params, maximum=MAX_PARAMS)


#: Why MoE models get 20 tokens per ACTIVE parameter (one rule for `ask` and `calc`):
#: Chinchilla's 20/param splits C = 6·N·D (Hoffmann et al. 2022, arXiv:2203.15556 §3) with N
#: the parameters a token passes through (6·N_active for MoE); joint MoE scaling laws
#: (Ludziejewski et al. 2025, arXiv:2502.05172) put the optimum higher: a lower bound.
MOE_TOKENS_RULE = Msg("assume.compute.tokens_moe")


def default_pretrain_tokens(model: ModelSpec) -> tuple[float, Msg]:
    """Pre-training tokens when none are given, and why: the model's own published run
    (``training_tokens`` in the catalog), else Chinchilla's 20 per active parameter.

    Examples:
        >>> from calculators.catalog.models import generic_model, lookup_model
        >>> default_pretrain_tokens(lookup_model("GPT-3"))[0]  # Brown et al. 2020: 300B
        300000000000.0
        >>> round(default_pretrain_tokens(generic_model(params=70e9))[0] / 1e12, 2)  # 20 x 70B
        1.4
    """
    if model.training_tokens:
        return model.training_tokens, Msg(
            "assume.compute.tokens_published",
            model=model.name,
            source=model.training_tokens_source,
        )
    tokens = chinchilla_tokens(params=float(model.active_params))
    if model.is_moe:
        return tokens, MOE_TOKENS_RULE
    return tokens, Msg("assume.compute.tokens_chinchilla")


@dataclass(frozen=True)
class TrainingFlops:
    """Model FLOPs (what MFU is measured against) and hardware FLOPs (what the GPUs execute)."""

    model_flops: float
    """6·N·D + 3 attention passes (PaLM, arXiv:2204.02311 App. B): recomputation not counted."""
    hardware_flops: float
    """8·N·D + 4 attention passes with full recompute (Narayanan et al. 2021 eq. 4), else the
    model FLOPs."""


def model_and_hardware_flops(
    *,
    active_params: float,
    tokens: float,
    recompute: str = "selective",
    model: ModelSpec | None = None,
    sequence_length: int = 0,
) -> TrainingFlops:
    """Model and hardware FLOPs of a training run; they differ only with full recompute.

    Examples:
        >>> f = model_and_hardware_flops(active_params=174.6e9, tokens=300e9, recompute="full")
        >>> f"{f.model_flops:.3g}", f"{f.hardware_flops:.3g}"  # GPT-3: 6ND vs 8ND
        ('3.14e+23', '4.19e+23')
    """
    common = {
        "active_params": active_params,
        "tokens": tokens,
        "model": model,
        "sequence_length": sequence_length,
    }
    model_flops = training_flops(recompute="selective", **common)  # type: ignore[arg-type]
    hardware = training_flops(recompute=recompute, **common)  # type: ignore[arg-type]
    return TrainingFlops(model_flops=model_flops, hardware_flops=hardware)


def pipeline_bubble_fraction(*, pipeline_parallel: int, micro_batches: int) -> float:
    """Idle share of a 1F1B pipeline step: (p − 1) / (m + p − 1).

    Narayanan et al. 2021 (arXiv:2104.04473) §2.2.1: the bubble takes (p − 1) micro-batch
    slots of forward and backward out of (m + p − 1); 0 without pipeline parallelism.

    Examples:
        >>> pipeline_bubble_fraction(pipeline_parallel=16, micro_batches=192)  # GPT-3 §5.1
        0.07246376811594203
        >>> pipeline_bubble_fraction(pipeline_parallel=1, micro_batches=1)
        0.0
    """
    p = check_count("pipeline_parallel", pipeline_parallel, maximum=10**6)
    m = check_count("micro_batches", micro_batches, maximum=10**9)
    return (p - 1) / (m + p - 1)


def interleaved_bubble_fraction(
    *, pipeline_parallel: int, micro_batches: int, virtual_stages: int
) -> float:
    """Idle share of an interleaved 1F1B pipeline step: (p − 1) / (v·m + p − 1).

    Narayanan et al. 2021 (arXiv:2104.04473) §2.2.2: with v model chunks (virtual stages) per
    GPU each micro-batch slot is v times shorter, so the bubble time (p − 1)·(t_f + t_b)/v is
    (p − 1)/(v·m) of the ideal time m·(t_f + t_b), and (p − 1)/(v·m + p − 1) of the step.
    v = 1 is plain 1F1B (`pipeline_bubble_fraction`).

    Examples:
        >>> interleaved_bubble_fraction(pipeline_parallel=4, micro_batches=16, virtual_stages=2)
        0.08571428571428572
        >>> interleaved_bubble_fraction(pipeline_parallel=8, micro_batches=32, virtual_stages=1)
        0.1794871794871795
    """
    p = check_count("pipeline_parallel", pipeline_parallel, maximum=10**6)
    m = check_count("micro_batches", micro_batches, maximum=10**9)
    v = check_count("virtual_stages", virtual_stages, maximum=10**4)
    return (p - 1) / (v * m + p - 1)


@dataclass(frozen=True)
class TrainingTime:
    """Wall-clock time and GPU-hours of a training job at a given MFU."""

    total_flops: float
    seconds: float
    gpu_hours: float
    gpus: int
    peak_flops_per_s: float
    mfu: float
    formula: Msg
    assumptions: tuple[Msg, ...]
    sources: tuple[str, ...]
    compute_seconds: float = 0.0
    """C / (n · peak · MFU): the time with no pipeline bubble and no exposed communication."""
    pipeline_bubble: float = 0.0
    network_efficiency: float = 1.0

    @property
    def days(self) -> float:
        """Wall-clock days."""
        return self.seconds / 86400


def _check_rate(peak_flops_per_s: float, mfu: float) -> None:
    check_positive("peak_flops_per_s", peak_flops_per_s, maximum=1e18)
    check_fraction("mfu", mfu)


def training_time(
    *,
    total_flops: float,
    gpus: int,
    peak_flops_per_s: float,
    mfu: float,
    pipeline_bubble: float = 0.0,
    network_efficiency: float = 1.0,
) -> TrainingTime:
    """T = C / (n · peak · MFU) / ((1 − bubble) · η_network); GPU-hours = n · T / 3600.

    ``peak_flops_per_s`` is ONE GPU's dense peak at the training precision; ``mfu`` applies
    to the FLOPs given (model FLOPs for an MFU). ``pipeline_bubble`` is the idle share of a
    pipeline step (`pipeline_bubble_fraction`), ``network_efficiency`` the share of a step
    left after communication that does not overlap with compute.

    Examples:
        >>> t = training_time(total_flops=8 * 175e9 * 300e9, gpus=1024,
        ...                   peak_flops_per_s=312e12, mfu=140 / 312)
        >>> round(t.days, 1)  # Narayanan et al. 2021 eq. (4): about 34 days
        33.9
        >>> t = training_time(total_flops=6 * 175e9 * 300e9, gpus=1024, peak_flops_per_s=312e12,
        ...                   mfu=0.4, pipeline_bubble=0.5, network_efficiency=0.5)
        >>> round(t.days / (t.compute_seconds / 86400), 2)  # each factor divides the time
        4.0
    """
    check_positive("total_flops", total_flops, maximum=_MAX_FLOPS)
    check_count("gpus", gpus, maximum=10**12)
    _check_rate(peak_flops_per_s, mfu)
    if not 0.0 <= pipeline_bubble < 1.0:
        field = "pipeline_bubble"
        raise CalculatorInputError(field, pipeline_bubble, Msg("invalid.below_1"))
    check_fraction("network_efficiency", network_efficiency)
    compute = total_flops / (gpus * peak_flops_per_s * mfu)
    seconds = compute / ((1.0 - pipeline_bubble) * network_efficiency)
    notes = [Msg("assume.compute.mfu_whole_run", mfu=mfu)]
    if pipeline_bubble or network_efficiency < 1.0:
        notes.append(
            Msg(
                "assume.compute.bubble_exposed",
                bubble=pipeline_bubble,
                efficiency=network_efficiency,
            )
        )
    return TrainingTime(
        total_flops=total_flops,
        seconds=seconds,
        gpu_hours=gpus * seconds / 3600,
        gpus=gpus,
        peak_flops_per_s=peak_flops_per_s,
        mfu=mfu,
        formula=Msg("formula.compute.time"),
        assumptions=tuple(notes),
        sources=(
            _PAPER_6ND,
            "Chowdhery et al. 2022, PaLM (arXiv:2204.02311) Appendix B: MFU",
            "Narayanan et al. 2021 (arXiv:2104.04473) §2.2.1: 1F1B bubble (p-1)/(m+p-1)",
        ),
        compute_seconds=compute,
        pipeline_bubble=pipeline_bubble,
        network_efficiency=network_efficiency,
    )


def gpus_for_deadline(
    *, total_flops: float, deadline_seconds: float, peak_flops_per_s: float, mfu: float
) -> int:
    """Fewest GPUs finishing ``total_flops`` within ``deadline_seconds``: ceil(C / (T·peak·MFU)).

    Examples:
        >>> gpus_for_deadline(total_flops=8 * 175e9 * 300e9, deadline_seconds=34 * 86400,
        ...                   peak_flops_per_s=312e12, mfu=140 / 312)
        1022
    """
    check_positive("total_flops", total_flops, maximum=_MAX_FLOPS)
    check_positive("deadline_seconds", deadline_seconds, maximum=1e10)
    _check_rate(peak_flops_per_s, mfu)
    return max(1, math.ceil(total_flops / (deadline_seconds * peak_flops_per_s * mfu) - 1e-9))
