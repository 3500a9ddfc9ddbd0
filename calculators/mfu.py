"""Default model-FLOPs utilization (MFU) per GPU class, each with the published runs it is
taken from, and the FP8 training default derived from it.

MFU is the share of the dense peak a training run turns into model FLOPs, as defined by PaLM
(Chowdhery et al. 2022, arXiv:2204.02311, Appendix B).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from calculators.catalog.hardware import GPU
from calculators.messages import Msg

__all__ = ["FP8_SPEEDUP_OVER_BF16", "MFU_TABLE", "MfuDefault", "default_mfu", "default_mfu_basis"]


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
