"""Training compute and time, MFU defaults, and inference speed (prefill and decode).

Training FLOPs follow Kaplan et al. 2020 / Narayanan et al. 2021: C = 6·N·D (forward 2ND,
backward 4ND), 8·N·D with full activation recomputation (one more forward). N is the number of
ACTIVE parameters (MoE: the experts a token uses); memory uses the total. Time = C / (n · peak ·
MFU), with MFU as defined by PaLM (Chowdhery et al. 2022, arXiv:2204.02311, Appendix B).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from calculators import _memory_parts as parts
from calculators.catalog.hardware import DTYPE_BYTES, GPU
from calculators.catalog.models import MAX_PARAMS, ModelSpec, kv_cache_bytes_per_token
from calculators.defaults import (
    CHINCHILLA_TOKENS_PER_PARAM,
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
)
from calculators.errors import CalculatorInputError
from calculators.messages import Msg
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
    "model_and_hardware_flops",
    "pipeline_bubble_fraction",
    "training_flops",
    "training_time",
]

#: Hoffmann et al. 2022, Chinchilla (arXiv:2203.15556) §3 / Table 3: about 20 tokens per parameter.
#: Share of peak memory bandwidth a decode step reaches (planning assumption, not a measurement).
DECODE_BANDWIDTH_EFFICIENCY = 0.8
_MAX_TOKENS = 1e16
_MAX_FLOPS = 1e32
_PAPER_6ND = (
    "Kaplan et al. 2020, Scaling Laws (arXiv:2001.08361) §2.1: C ≈ 6ND; Narayanan et "
    "al. 2021 (arXiv:2104.04473) §5.1 eq. (3)-(4): 8ND with full recomputation"
)


@dataclass(frozen=True)
class MfuDefault:
    """A default model-FLOPs utilization with the published runs it is taken from."""

    value: float
    basis: Msg
    """What the figure is taken from, e.g. "A100-class GPUs with NVLink"."""
    sources: tuple[str, ...]
    reference_intra_link: str | None = None
    """The intra-node link of the runs the figure is measured on (they ran tensor parallel over
    it, so the MFU already pays its TP collectives); None for planning assumptions that are no
    measurement (PCIe, consumer, NPU classes)."""


_AMPERE = MfuDefault(
    0.40,
    Msg("assume.compute.mfu_basis.ampere"),
    (
        "Narayanan et al. 2021 (arXiv:2104.04473) Table 1: GPT-3 175B at 140 TFLOP/s per A100 "
        "(45% of 312), 1T at 163 TFLOP/s (52%)",
        "Zhang et al. 2022, OPT (arXiv:2205.01068) §2.5: 147 TFLOP/s per A100 80GB (47%)",
        "Touvron et al. 2023, Llama 2 (arXiv:2307.09288) Table 2: "
        "GPU-hours imply 38-43% for 7B-70B",
        "Korthikanti et al. 2022 (arXiv:2205.05198): 530B at 54.2% MFU on 2,240 A100",
        "0.40 is a planning default below the best tuned runs",
    ),
    "NVLink 3",  # DGX A100 / Selene: 8 x A100 SXM on NVLink 3 (Narayanan et al. 2021 §5)
)
MFU_TABLE: Mapping[str, MfuDefault] = MappingProxyType(
    {
        "ampere": _AMPERE,
        "hopper": MfuDefault(
            0.38,
            Msg("assume.compute.mfu_basis.hopper"),
            (
                "Llama Team 2024, Llama 3 (arXiv:2407.21783) Table 4: "
                "38-43% BF16 MFU on 8K-16K H100",
            ),
            "NVLink 4",  # Llama 3 §3.3.1: H100 SXM, 8 per server on NVLink 4 (900 GB/s)
        ),
        "blackwell": MfuDefault(
            0.38,
            Msg("assume.compute.mfu_basis.blackwell"),
            ("Assumed equal to Hopper (Llama 3, arXiv:2407.21783 Table 4); low confidence",),
            "NVLink 5",  # the Hopper MFU, assumed at Blackwell's own NVLink 5
        ),
        "volta": MfuDefault(
            0.30,
            Msg("assume.compute.mfu_basis.volta"),
            (
                "Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053) §5.1: "
                "39 TFLOP/s on one V100, 30% of peak; 15.1 PFLOP/s on 512 V100 (76% scaling)",
            ),
            "NVLink 2",  # Megatron-LM §5: DGX-2H servers, 16 x V100 SXM3 on NVLink 2
        ),
        "cdna3": MfuDefault(
            0.30,
            Msg("assume.compute.mfu_basis.cdna3"),
            (
                "Planning assumption: published MI300X training throughput trails H100 "
                "despite a higher peak; low confidence",
            ),
        ),
        "davinci": MfuDefault(
            0.30,
            Msg("assume.compute.mfu_basis.davinci"),
            ("Planning assumption for Ascend 910/910B clusters; low confidence",),
        ),
        "pcie": MfuDefault(
            0.30,
            Msg("assume.compute.mfu_basis.pcie"),
            (
                "Planning assumption: tensor and data parallel traffic over PCIe lowers "
                "utilization relative to NVLink systems",
            ),
        ),
        "consumer": MfuDefault(
            0.25,
            Msg("assume.compute.mfu_basis.consumer"),
            ("Planning assumption: consumer cards over PCIe without NVLink or P2P",),
        ),
    }
)


#: End-to-end speed-up of FP8 over BF16 training assumed for planning: FP8 doubles the GEMM
#: peak, but attention, norms, communication and the FP8 scaling work do not speed up.
FP8_SPEEDUP_OVER_BF16 = 1.3
_FP8_SOURCES = (
    "DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) Table 1 and §3.3: FP8 mixed-precision "
    "pre-training, 14.8T tokens in 2.664M H800 GPU-hours; with 37.6B active parameters and "
    "attention that is ~4.1e24 FLOPs, ~424 TFLOP/s per GPU = ~21% of the dense FP8 peak "
    "(~43% of BF16): an MoE run with cross-node expert parallelism",
    "PyTorch/torchao + torchtitan (2025): MXFP8 training of Llama 4 Scout on GB200, +30% "
    "throughput over BF16 with equivalent convergence",
    "NVIDIA Transformer Engine documentation: FP8 (E4M3 forward / E5M2 backward) GEMMs on "
    "Hopper, Ada and Blackwell; parameters kept in higher precision",
)


def default_mfu_basis(gpu: GPU, precision: str = "bf16") -> MfuDefault:
    """The MFU default for ``gpu`` with its basis and sources (see MFU_TABLE).

    ``precision="fp8"`` (training on a chip with FP8) states the MFU against the dense FP8
    peak: the class's BF16 MFU x FP8_SPEEDUP_OVER_BF16 x BF16 peak / FP8 peak (Hopper:
    0.38 x 1.3 / 2 = 24.7%), i.e. FP8 runs 1.3x faster than the BF16 default, not 2x.
    """
    if gpu.gpu_class == "consumer":
        basis = MFU_TABLE["consumer"]
    elif gpu.intra_link.startswith("PCIe"):
        basis = MFU_TABLE["pcie"]
    else:
        basis = MFU_TABLE.get(gpu.architecture, MFU_TABLE["pcie"])
    if str(precision).lower() != "fp8" or not gpu.supports("fp8"):
        return basis
    ratio = gpu.dense_flops_per_s(gpu.default_training_precision()) / gpu.dense_flops_per_s("fp8")
    value = min(1.0, basis.value * FP8_SPEEDUP_OVER_BF16 * ratio)
    return MfuDefault(
        round(value, 4),
        Msg(
            "assume.compute.mfu_basis.fp8",
            basis=basis.basis,
            bf16_mfu=basis.value,
            speedup=FP8_SPEEDUP_OVER_BF16,
            ratio=ratio,
            mfu=value,
        ),
        (*basis.sources, *_FP8_SOURCES),
        basis.reference_intra_link,
    )


def default_mfu(gpu: GPU, precision: str = "bf16") -> float:
    """Default model-FLOPs utilization for training on ``gpu`` (from published runs).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> default_mfu(lookup_gpu("A100")), default_mfu(lookup_gpu("4090"))
        (0.4, 0.25)
        >>> default_mfu(lookup_gpu("H100"), "fp8")  # against the 1,979 TFLOP/s FP8 peak
        0.247
    """
    return default_mfu_basis(gpu, precision).value


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


@dataclass(frozen=True)
class InferenceSpeed:
    """Prefill (compute-bound) and decode (memory-bandwidth-bound) speed of one batch.

    Attributes:
        prefill_seconds: time to process the prompts of the whole batch (time to first token).
        decode_seconds_per_token: one decode step, i.e. the latency between tokens.
        decode_tokens_per_s: tokens per second over the whole batch.
        decode_bound: "memory" or "compute", whichever limits a decode step.
    """

    prefill_seconds: float
    prefill_tokens_per_s: float
    decode_seconds_per_token: float
    decode_tokens_per_s: float
    decode_bound: str
    bytes_per_decode_step: float
    flops_per_decode_step: float
    compute_precision: str
    gpus: int
    formula: Msg
    assumptions: tuple[Msg, ...]
    sources: tuple[str, ...]


def _weights_read_per_step(model: ModelSpec, weight_dtype: str, batch_size: int) -> float:
    """Bytes of weights one decode step reads; MoE reads only the experts some token uses."""
    stage = parts.stage_layout(model, 1)[0]
    linear_bytes = parts.WEIGHT_STORAGE_BYTES[weight_dtype]
    total = stage.linear_params * linear_bytes + (stage.params - stage.linear_params) * max(
        linear_bytes, 2.0
    )
    if not model.is_moe:
        return total
    routed = (
        (model.layers - model.dense_layers)
        * model.experts
        * model.ffn_matrices
        * model.hidden
        * model.moe_ffn_hidden
    )
    # Expected share of experts hit by batch_size tokens choosing active_experts each.
    touched = 1.0 - (1.0 - model.active_experts / model.experts) ** batch_size
    return total - routed * linear_bytes * (1.0 - touched)


def inference_speed(
    *,
    model: ModelSpec,
    gpu: GPU,
    gpus: int = 1,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    batch_size: int = 1,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    prompt_tokens: int = DEFAULT_PROMPT_TOKENS,
    prefill_mfu: float | None = None,
    bandwidth_efficiency: float = DECODE_BANDWIDTH_EFFICIENCY,
) -> InferenceSpeed:
    """Roofline estimate of serving speed on ``gpus`` GPUs (tensor parallel, no network cost).

    Prefill: 2·N_active FLOPs per prompt token (+ causal attention) at ``prefill_mfu`` of the
    peak (default: the training MFU default). Decode step: reads the weights once plus every
    sequence's KV cache at ``context_length`` tokens, at ``bandwidth_efficiency`` of the HBM
    bandwidth, unless the 2·N_active·batch FLOPs take longer. FP8 weights use the FP8 peak;
    int8/int4 weights are dequantized and multiplied in 16-bit.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> s = inference_speed(model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("A100 80GB"),
        ...                     batch_size=1, context_length=1024, prompt_tokens=512)
        >>> round(s.decode_seconds_per_token * 1000, 1), s.decode_bound  # ms per token
        (8.6, 'memory')
    """
    weight_dtype = check_choice("weight_dtype", weight_dtype, parts.WEIGHT_STORAGE_BYTES)
    kv_dtype = check_choice("kv_dtype", kv_dtype, DTYPE_BYTES)
    check_count("gpus", gpus, maximum=model.heads)
    check_count("batch_size", batch_size, maximum=10**7)
    check_count("context_length", context_length, maximum=10**8)
    check_count("prompt_tokens", prompt_tokens, maximum=10**8)
    check_fraction("bandwidth_efficiency", bandwidth_efficiency)
    mfu = (
        check_fraction("prefill_mfu", prefill_mfu)
        if prefill_mfu is not None
        else (default_mfu(gpu))
    )
    precision = (
        "fp8"
        if weight_dtype == "fp8" and gpu.supports("fp8")
        else (gpu.default_training_precision())
    )
    peak = gpus * gpu.dense_flops_per_s(precision)
    attention_width = model.heads * model.head_dim
    n_active = float(model.active_params)
    prefill_flops = batch_size * (
        2.0 * n_active * prompt_tokens + 2.0 * model.layers * prompt_tokens**2 * attention_width
    )
    prefill_seconds = prefill_flops / (peak * mfu)
    kv_bytes = (
        batch_size
        * context_length
        * kv_cache_bytes_per_token(model, dtype_bytes=DTYPE_BYTES[kv_dtype])
    )
    step_bytes = _weights_read_per_step(model, weight_dtype, batch_size) + kv_bytes
    step_flops = batch_size * (
        2.0 * n_active + 4.0 * model.layers * context_length * attention_width
    )
    memory_time = step_bytes / (gpus * gpu.memory_bandwidth_bytes_per_s * bandwidth_efficiency)
    compute_time = step_flops / (peak * mfu)
    step = max(memory_time, compute_time)
    return InferenceSpeed(
        prefill_seconds=prefill_seconds,
        prefill_tokens_per_s=batch_size * prompt_tokens / prefill_seconds,
        decode_seconds_per_token=step,
        decode_tokens_per_s=batch_size / step,
        decode_bound="memory" if memory_time >= compute_time else "compute",
        bytes_per_decode_step=step_bytes,
        flops_per_decode_step=step_flops,
        compute_precision=precision,
        gpus=gpus,
        formula=Msg("formula.serving.roofline"),
        assumptions=(
            Msg(
                "assume.serving.prefill_decode_efficiency",
                mfu=mfu,
                precision=precision,
                bandwidth=bandwidth_efficiency,
            ),
            Msg("assume.serving.tp_free"),
            Msg("assume.serving.moe_routing"),
            Msg("assume.serving.roofline"),
        ),
        sources=(
            "Pope et al. 2022, Efficiently Scaling Transformer Inference (arXiv:2211.05102) §2: "
            "decode is memory-bandwidth-bound at small batch, 2N FLOPs per token",
            "Kaplan et al. 2020 (arXiv:2001.08361) §2.1: forward pass ≈ 2N FLOPs per token",
        ),
    )
