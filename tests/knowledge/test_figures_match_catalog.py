"""Numbers quoted in the knowledge documents agree with the calculators' catalogs.

Each row names a document, a regular expression whose groups capture the quoted figures, and a
catalog lookup that produces the same figures. Change a number in a document (or in the catalog)
and its row turns red; rewrite the sentence so the pattern no longer matches and the row turns
red too, so the table must be kept in step with the text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

from calculators.catalog.hardware import DTYPE_BYTES, lookup_gpu, lookup_link
from calculators.catalog.models import ModelSpec, kv_cache_bytes_per_token, lookup_model
from calculators.compute_time import chinchilla_tokens, training_flops, training_time
from tests.knowledge._docs import by_id, read

GiB = 2**30


@dataclass(frozen=True)
class Row:
    """One quoted figure (or group of figures) and where the catalog keeps it."""

    doc: str
    """Path under knowledge/."""
    pattern: str
    expected: Callable[[], Sequence[float]]
    rel: float | None = None
    """None: the quoted figure must be the catalog value rounded to the digits the text shows
    ("68.98" for 68.9766, "327,680" exactly). A number: a relative tolerance, for figures the
    text calls approximate ("about 32 GB/s")."""


def _m(name: str) -> ModelSpec:
    return lookup_model(name)


def _kv(name: str) -> float:
    return kv_cache_bytes_per_token(_m(name), dtype_bytes=DTYPE_BYTES["fp16"])


def _shape(name: str, *fields: str) -> Callable[[], Sequence[float]]:
    return lambda: tuple(float(getattr(_m(name), f)) for f in fields)


def _billions(name: str, *factors: float) -> Callable[[], Sequence[float]]:
    """Parameter count in units of 1e9, once per factor (1 = the count, 2 = fp16 bytes, ...)."""
    return lambda: tuple(_m(name).params * f / 1e9 for f in factors)


def _gpu(name: str, *fields: tuple[str, float]) -> Callable[[], Sequence[float]]:
    return lambda: tuple(getattr(lookup_gpu(name), f) / scale for f, scale in fields)


def _links(*names: str) -> Callable[[], Sequence[float]]:
    """Per-direction bandwidth in GB/s (1e9 bytes/s) of each link."""
    return lambda: tuple(lookup_link(n).bytes_per_s / 1e9 for n in names)


def _nvlink(gpu: str) -> Callable[[], Sequence[float]]:
    """(both directions, one direction) in GB/s, as the networking table prints them."""
    return lambda: (
        2 * lookup_gpu(gpu).intra_link_bytes_per_s / 1e9,
        lookup_gpu(gpu).intra_link_bytes_per_s / 1e9,
    )


def _ib(name: str) -> Callable[[], Sequence[float]]:
    """(Gb/s, bytes/s in units of 1e9) per direction."""
    return lambda: (lookup_link(name).bytes_per_s * 8 / 1e9, lookup_link(name).bytes_per_s / 1e9)


def _site(field: str) -> str:
    return str(by_id()["regional-single-node"]["en"].meta["site"][field])


def _site_gpu_datasheet() -> Sequence[float]:
    fields = (
        ("memory_bytes", GiB),
        ("memory_bandwidth_bytes_per_s", 1e9),
        ("bf16_flops_per_s", 1e12),
        ("tdp_watts", 1.0),
    )
    return _gpu(_site("gpu"), *fields)()


def _site_capacity() -> Sequence[float]:
    gpu, count = lookup_gpu(_site("gpu")), 8
    return (
        count * gpu.memory_bytes / 1e9,
        count * gpu.bf16_flops_per_s / 1e15,
        gpu.memory_bandwidth_bytes_per_s / 1e12,
    )


def _spec(name: str, peak: str, fp8: bool, link: bool) -> Callable[[], Sequence[float]]:
    """(GB, TB/s, dense TFLOPS at `peak`[, FP8 TFLOPS][, link GB/s both directions], W)."""

    def expected() -> Sequence[float]:
        gpu = lookup_gpu(name)
        values = [
            gpu.memory_bytes / 1e9,
            gpu.memory_bandwidth_bytes_per_s / 1e12,
            gpu.dense_flops_per_s(peak) / 1e12,
        ]
        if fp8:
            values.append(gpu.dense_flops_per_s("fp8") / 1e12)
        else:
            assert not gpu.supports("fp8"), f"{name}: the table prints no FP8 rate, catalog has one"
        if link:
            values.append(2 * gpu.intra_link_bytes_per_s / 1e9)
        return (*values, gpu.tdp_watts)

    return expected


def _spec_row(lang: str, label: str, name: str, peak: str, fp8: bool, link: bool) -> Row:
    """One spec-table row; ≈ marks estimates, "—" an FP8 rate the chip does not have."""
    sep, fp16 = (",", r" \(FP16\)") if lang == "en" else ("，", "（FP16）")
    comma = ", " if lang == "en" else sep
    cells = (
        rf"{APPROX}{NUM}",
        rf"{APPROX}{NUM}" + (fp16 if peak == "fp16" else ""),
        rf"{APPROX}{NUM}" if fp8 else "—",
        rf"[^|{sep}]+{comma}{APPROX}{NUM}" if link else r"[^|]+",
        rf"{APPROX}{NUM}",
    )
    pattern = rf"\| {re.escape(label)} \| {NUM} \| [^|]+ \| " + r" \| ".join(cells) + r" \|"
    return Row(f"{GEN}.{lang}.md", pattern, _spec(name, peak, fp8, link))


def _tdp(*names: str) -> Callable[[], Sequence[float]]:
    """One TDP shared by every GPU a table row names."""

    def expected() -> Sequence[float]:
        watts = {lookup_gpu(n).tdp_watts for n in names}
        assert len(watts) == 1, f"{names}: one row, several catalog TDPs {watts}"
        return (watts.pop(),)

    return expected


def _days(flops: float, gpus: int, gpu: str, unit: float = 86400.0) -> float:
    """Wall-clock time at the guides' planning MFU of 40 %, in `unit` seconds."""
    peak = lookup_gpu(gpu).dense_flops_per_s(lookup_gpu(gpu).default_training_precision())
    time = training_time(total_flops=flops, gpus=gpus, peak_flops_per_s=peak, mfu=0.4)
    return time.seconds / unit


def _gpu_hours(flops: float, gpu: str) -> float:
    return training_time(
        total_flops=flops,
        gpus=1,
        peak_flops_per_s=lookup_gpu(gpu).dense_flops_per_s("bf16"),
        mfu=0.4,
    ).gpu_hours


def _chinchilla(budget: float) -> Sequence[float]:
    """Compute-optimal (N in 1e9, D in 1e12) for C = 6·N·D with D = 20·N."""
    params = math.sqrt(budget / (6 * chinchilla_tokens(params=1)))
    return params / 1e9, chinchilla_tokens(params=params) / 1e12


def _kv70_and_llama3_70b() -> Sequence[float]:
    """The text gives one KV figure for Llama 2 70B and Llama 3 70B: the catalog must agree."""
    assert _kv("Llama-3.1-70B") == _kv(L70), "Llama 3 70B and Llama 2 70B KV bytes differ"
    return (*KV70(), _kv(L70))


def _decode_bound(name: str, weights: float, gpus: int = 1) -> Callable[[], Sequence[float]]:
    """(aggregate TB/s, weight bytes / aggregate bandwidth in ms)."""

    def expected() -> Sequence[float]:
        bandwidth = gpus * lookup_gpu(name).memory_bandwidth_bytes_per_s
        return bandwidth / 1e12, weights / bandwidth * 1e3

    return expected


def _ridges() -> Sequence[float]:
    """Where decode stops being memory-bound: dense BF16 FLOP/s per byte/s, with the inputs the
    text shows for H100 SXM and H20 (TFLOPS, TB/s)."""

    def ridge(name: str) -> float:
        return lookup_gpu(name).bf16_flops_per_s / lookup_gpu(name).memory_bandwidth_bytes_per_s

    peaks = (("bf16_flops_per_s", 1e12), ("memory_bandwidth_bytes_per_s", 1e12))
    return (
        ridge(H100),
        *_gpu(H100, *peaks)(),
        ridge(A100),
        ridge("RTX 4090 24GB"),
        ridge("H20 96GB"),
        *_gpu("H20 96GB", *peaks)(),
    )


def _pair(
    area: str, en: str, zh: str, expected: Callable[[], Sequence[float]], rel: float | None = None
) -> tuple[Row, Row]:
    """The same figure in both language versions of one document."""
    return Row(f"{area}.en.md", en, expected, rel), Row(f"{area}.zh.md", zh, expected, rel)


A100 = "A100 SXM 80GB"
H100 = "H100 SXM 80GB"
L70, L7, GPT3 = "Llama-2-70B", "Llama-2-7B", "GPT-3 175B"
NUM = r"([\d][\d,]*(?:\.\d+)?)"
MEM, MP, ZERO, PAR, ACT, NET, SITE = (
    "guides/gpu-memory",
    "guides/mixed-precision-optimizer",
    "guides/zero-fsdp",
    "guides/parallelism-3d",
    "guides/activation-recompute",
    "guides/networking",
    "sites/regional-single-node",
)
KV_DIMS = ("layers", "kv_heads", "head_dim")
KV70 = _shape(L70, *KV_DIMS)
DTYPES_EN = ("fp32", "bf16", "fp8", "int4")
NVLINK_ROWS = (
    ("V100 SXM2", "V100 SXM2 32GB"),
    ("A100 SXM4", A100),
    ("A800 SXM4", "A800 SXM 80GB"),
    ("H100 / H200 SXM", H100),
    ("H800 SXM5", "H800 SXM 80GB"),
    ("B200", "B200 180GB"),
)
H100_PEAKS = (("bf16_flops_per_s", 1e12), ("fp8_flops_per_s", 1e12))
APPROX = "(?:≈ )?"
GEN, INF, SCALE, COST, POWER = (
    "guides/gpu-generations",
    "guides/inference-serving",
    "guides/scaling-laws-compute",
    "guides/cost-sourcing",
    "guides/power-cooling-reliability",
)
YEAR = 365.25 * 86400
BF16_7B, INT4_70B = 7e9 * DTYPE_BYTES["bf16"], 70e9 * DTYPE_BYTES["int4"]
C100B, C7B = (
    training_flops(active_params=100e9, tokens=2e12),
    training_flops(active_params=7e9, tokens=1e12),
)
C100B_GPT3 = training_flops(active_params=100e9, tokens=300e9)  # the same model on 300B tokens
C70B = training_flops(active_params=70e9, tokens=2e12)
# gpu-generations spec table: English label, Chinese label, catalog name, precision of the
# "BF16 dense" column, whether the FP8 column and the link column print a figure
SPEC_TABLE = (
    ("V100 SXM2 16GB", "V100 SXM2 16GB", "V100 SXM2 16GB", "fp16", False, True),
    ("V100 SXM2 32GB", "V100 SXM2 32GB", "V100 SXM2 32GB", "fp16", False, True),
    ("V100 PCIe 32GB", "V100 PCIe 32GB", "V100 PCIe 32GB", "fp16", False, False),
    ("T4", "T4", "T4", "fp16", False, False),
    ("A10", "A10", "A10", "bf16", False, False),
    ("A100 SXM4 40GB", "A100 SXM4 40GB", "A100 SXM 40GB", "bf16", False, True),
    ("A100 SXM4 80GB", "A100 SXM4 80GB", A100, "bf16", False, True),
    ("A100 PCIe 80GB", "A100 PCIe 80GB", "A100 PCIe 80GB", "bf16", False, False),
    ("A800 SXM4 80GB", "A800 SXM4 80GB", "A800 SXM 80GB", "bf16", False, True),
    ("H100 SXM5", "H100 SXM5", H100, "bf16", True, True),
    ("H100 PCIe", "H100 PCIe", "H100 PCIe 80GB", "bf16", True, False),
    ("H800 SXM5", "H800 SXM5", "H800 SXM 80GB", "bf16", True, True),
    ("H20", "H20", "H20 96GB", "bf16", True, True),
    ("H200 SXM", "H200 SXM", "H200 SXM 141GB", "bf16", True, True),
    ("B200 (HGX)", "B200（HGX）", "B200 180GB", "bf16", True, True),
    ("L40S", "L40S", "L40S 48GB", "bf16", True, False),
    ("L20", "L20", "L20 48GB", "bf16", True, False),
    ("L4", "L4", "L4 24GB", "bf16", True, False),
    ("RTX 3090", "RTX 3090", "RTX 3090 24GB", "bf16", False, False),  # its bridge: not in catalog
    ("RTX 4090", "RTX 4090", "RTX 4090 24GB", "bf16", True, False),
    ("AMD MI300X", "AMD MI300X", "MI300X 192GB", "bf16", True, True),
    ("Ascend 910", "昇腾 910", "Ascend 910 32GB", "fp16", False, False),
    ("Ascend 910B (typical)", "昇腾 910B（典型）", "Ascend 910B 64GB", "fp16", False, True),
)
# power-cooling-reliability TDP table: English label, Chinese label, catalog names in the row
TDP_TABLE = (
    ("T4", "T4", ("T4",)),
    ("L4", "L4", ("L4 24GB",)),
    ("A10", "A10", ("A10",)),
    ("L20", "L20", ("L20 48GB",)),
    ("V100 SXM2", "V100 SXM2", ("V100 SXM2 16GB", "V100 SXM2 32GB")),
    ("A100 PCIe 80GB", "A100 PCIe 80GB", ("A100 PCIe 80GB",)),
    ("H100 PCIe", "H100 PCIe", ("H100 PCIe 80GB",)),
    ("L40S", "L40S", ("L40S 48GB",)),
    ("A100 SXM4 / A800 SXM4", "A100 SXM4 / A800 SXM4", (A100, "A100 SXM 40GB", "A800 SXM 80GB")),
    ("H20", "H20", ("H20 96GB",)),
    ("RTX 4090", "RTX 4090", ("RTX 4090 24GB",)),
    (
        "H100 SXM5 / H800 / H200 SXM",
        "H100 SXM5 / H800 / H200 SXM",
        (H100, "H800 SXM 80GB", "H200 SXM 141GB"),
    ),
    ("AMD MI300X", "AMD MI300X", ("MI300X 192GB",)),
    ("B200 (HGX)", "B200（HGX）", ("B200 180GB",)),
)
L8 = "Llama-3.1-8B"
# inference-serving latency table: model cell, hardware cell, GPU, weight bytes, GPU count
DECODE_ROWS = (
    ("7B BF16", "L4", "L4 24GB", BF16_7B, 1),
    ("7B BF16", "A10", "A10", BF16_7B, 1),
    ("7B BF16", "RTX 4090", "RTX 4090 24GB", BF16_7B, 1),
    ("7B BF16", "A100 80GB SXM", A100, BF16_7B, 1),
    ("7B BF16", "H100 SXM", H100, BF16_7B, 1),
    ("70B BF16", "2 × H100 SXM", H100, 70e9 * DTYPE_BYTES["bf16"], 2),
    ("70B 4-bit", "1 × L40S", "L40S 48GB", INT4_70B, 1),
    ("70B 4-bit", "1 × A100 80GB", A100, INT4_70B, 1),
    ("70B 4-bit", "1 × H20", "H20 96GB", INT4_70B, 1),
)
# scaling-laws-compute worked table (100B on 2T tokens at 40 % MFU): cell, GPU, count, unit
WORKED_ROWS = (
    ("8 × V100", "V100 SXM2 32GB", 8, YEAR),
    ("8 × A100", A100, 8, YEAR),
    ("8 × H100 SXM", H100, 8, YEAR),
    ("512 × A100", A100, 512, 86400),
    ("1,024 × H100 SXM", H100, 1024, 86400),
    ("2,048 × H100 SXM", H100, 2048, 86400),
)

ROWS: list[Row] = [
    # gpu-memory: KV cache, parameter counts, GB vs GiB, bytes per element
    Row(
        f"{MEM}.en.md",
        r"2 × (\d+) × (\d+) × (\d+) × 2 = ([\d,]+) bytes per token \(320",
        lambda: (*KV70(), _kv(L70)),
    ),
    Row(
        f"{MEM}.zh.md",
        r"2 × (\d+) × (\d+) × (\d+) × 2 = ([\d,]+) 字节/token（320",
        lambda: (*KV70(), _kv(L70)),
    ),
    Row(
        f"{MEM}.en.md",
        r"64 heads instead gives ([\d,]+) bytes",
        lambda: (_kv(L70) * _m(L70).heads / _m(L70).kv_heads,),
    ),
    Row(f"{MEM}.en.md", r"2 × 32 × 32 × 128 × 2 = ([\d,]+) bytes", lambda: (_kv(L7),)),
    Row(f"{MEM}.zh.md", r"2 × 32 × 32 × 128 × 2 = ([\d,]+) 字节", lambda: (_kv(L7),)),
    Row(f"{MEM}.en.md", r"Llama-2-70B \(" + NUM + r"e9 parameters", _billions(L70, 1)),
    Row(f"{MEM}.zh.md", r"Llama-2-70B（按其配置计出 " + NUM + r"e9", _billions(L70, 1)),
    Row(f"{MEM}.en.md", r"Llama-2-7B \(" + NUM + r"e9 parameters", _billions(L7, 1)),
    Row(f"{MEM}.zh.md", r"Llama-2-7B（" + NUM + r"e9 个参数", _billions(L7, 1)),
    Row(
        f"{MEM}.en.md",
        r"in fp16 is ([\d,]+) × 2 = " + NUM + r"e9 bytes",
        lambda: (_m(L70).params, _m(L70).params * 2 / 1e9),
    ),
    Row(
        f"{MEM}.zh.md",
        r"fp16 权重为 ([\d,]+) × 2 = " + NUM + r"e9 字节",
        lambda: (_m(L70).params, _m(L70).params * 2 / 1e9),
    ),
    Row(f"{MEM}.en.md", r"base still takes " + NUM + r"e9 bytes \(2 bytes", _billions(L70, 2)),
    Row(f"{MEM}.en.md", r"68\.98e9 × 16 = " + NUM + r"e12", lambda: (_m(L70).params * 16 / 1e12,)),
    Row(
        f"{MEM}.en.md",
        r"Llama-2-70B's base is about " + NUM + "e9",
        lambda: (_m(L70).params * (4 + 0.127) / 8 / 1e9,),
    ),
    Row(f"{SITE}.en.md", r"The frozen bf16 base is " + NUM + r"e9 bytes", _billions(L70, 2)),
    Row(f"{SITE}.zh.md", r"冻结的 bf16 基座为 " + NUM + r"e9 字节", _billions(L70, 2)),
    Row(f"{MEM}.en.md", r"80e9 / 2\^30 = " + NUM + " GiB", _gpu(A100, ("memory_bytes", GiB))),
    Row(f"{MEM}.zh.md", r"80e9 / 2\^30 = " + NUM + " GiB", _gpu(A100, ("memory_bytes", GiB))),
    Row(
        f"{MEM}.en.md",
        r"fp32 (\d), bf16/fp16 (\d), fp8/int8 (\d), int4 ([\d.]+)",
        lambda: tuple(DTYPE_BYTES[d] for d in DTYPES_EN),
    ),
    Row(
        f"{MEM}.zh.md",
        r"fp32 为 (\d)，bf16/fp16 为 (\d)，fp8/int8 为 (\d)，int4 为 ([\d.]+)",
        lambda: tuple(DTYPE_BYTES[d] for d in DTYPES_EN),
    ),
    # mixed precision: dense tensor peaks
    Row(
        f"{MP}.en.md",
        r"A100 (\d+) TFLOPS in bf16; H100 SXM "
        + NUM
        + r" TFLOPS in bf16 and "
        + NUM
        + " TFLOPS in fp8",
        lambda: (*_gpu(A100, H100_PEAKS[0])(), *_gpu(H100, *H100_PEAKS)()),
    ),
    Row(
        f"{MP}.zh.md",
        r"A100 的 bf16 为 (\d+) TFLOPS；H100 SXM 的 bf16 为 "
        + NUM
        + r" TFLOPS、fp8 为 "
        + NUM
        + " TFLOPS",
        lambda: (*_gpu(A100, H100_PEAKS[0])(), *_gpu(H100, *H100_PEAKS)()),
    ),
    Row(
        f"{MP}.en.md",
        r"dense fp8 peak \(" + NUM + r" TFLOPS\) is twice the bf16 peak \(" + NUM,
        _gpu(H100, *reversed(H100_PEAKS)),
    ),
    Row(f"{MP}.en.md", r"For Llama-2-70B \(" + NUM + r"e9 parameters\)", _billions(L70, 1)),
    # ZeRO / FSDP worked examples use the catalog's parameter counts
    Row(
        f"{ZERO}.en.md",
        r"Llama-2-7B, full fine-tuning, ZeRO-3 over 8 GPUs\*\*: "
        + NUM
        + r"e9 × 16 / 8 = "
        + NUM
        + "e9",
        _billions(L7, 1, 2),
    ),
    Row(
        f"{ZERO}.en.md",
        r"Llama-2-70B, full training, ZeRO-3 over 8 GPUs\*\*: "
        + NUM
        + r"e9 × 16 / 8 = "
        + NUM
        + "e9",
        _billions(L70, 1, 2),
    ),
    # parallelism and recomputation: model shapes, link speeds, MoE sizes
    Row(
        f"{PAR}.en.md", r"GPT-3 175B \(h = (\d+), (\d+) layers\)", _shape(GPT3, "hidden", "layers")
    ),
    Row(f"{PAR}.zh.md", r"GPT-3 175B（h = (\d+)，(\d+) 层）", _shape(GPT3, "hidden", "layers")),
    Row(f"{PAR}.en.md", r"A100 NVLink's (\d+) GB/s per direction", _links("NVLink 3")),
    Row(f"{PAR}.zh.md", r"A100 NVLink 每方向 (\d+) GB/s", _links("NVLink 3")),
    Row(
        f"{PAR}.en.md",
        r"PCIe Gen4 \(about (\d+) GB/s per direction\)",
        _links("PCIe Gen4"),
        rel=0.05,
    ),
    Row(
        f"{PAR}.en.md",
        r"DeepSeek-V3 has (\d+)B parameters in total and (\d+)B active",
        lambda: (
            _m("DeepSeek-V3").params_published / 1e9,
            _m("DeepSeek-V3").active_params_published / 1e9,
        ),
    ),
    Row(
        f"{ACT}.en.md",
        r"GPT-3 175B has h = (\d+), a = (\d+) and (\d+) layers",
        _shape(GPT3, "hidden", "heads", "layers"),
    ),
    Row(
        f"{ACT}.zh.md",
        r"GPT-3 175B 的 h = (\d+)、a = (\d+)、(\d+) 层",
        _shape(GPT3, "hidden", "heads", "layers"),
    ),
    # networking: NVLink table (both directions, one direction), InfiniBand, Ethernet, PCIe
    *(
        Row(
            f"{NET}.{lang}.md",
            rf"\| {label} \| [^|\n]+\| {NUM} GB/s \| {NUM} GB/s \|",
            _nvlink(gpu),
        )
        for lang in ("en", "zh")
        for label, gpu in NVLINK_ROWS
    ),
    *(
        Row(f"{NET}.{lang}.md", rf"\| {gen} \| (\d+) \| ([\d.]+)e9 \|", _ib(f"InfiniBand {gen}"))
        for lang in ("en", "zh")
        for gen in ("EDR", "HDR", "NDR", "XDR")
    ),
    Row(
        f"{NET}.en.md",
        r"25GbE is ([\d.]+)e9 bytes/s, 100GbE ([\d.]+)e9, 400GbE (\d+)e9",
        _links("25GbE", "100GbE", "400GbE"),
    ),
    Row(
        f"{NET}.zh.md",
        r"25GbE 为 ([\d.]+)e9 字节/秒，100GbE 为 ([\d.]+)e9，400GbE 为 (\d+)e9",
        _links("25GbE", "100GbE", "400GbE"),
    ),
    Row(
        f"{NET}.en.md",
        r"about ([\d.]+), ([\d.]+) and ([\d.]+) GB/s per direction",
        _links("PCIe Gen3", "PCIe Gen4", "PCIe Gen5"),
    ),
    Row(
        f"{NET}.zh.md",
        r"单方向约为 ([\d.]+)、([\d.]+) 和 ([\d.]+) GB/s",
        _links("PCIe Gen3", "PCIe Gen4", "PCIe Gen5"),
    ),
    # the regional site profile: its GPU and links, looked up by the names in its [site] table
    Row(
        f"{SITE}.en.md",
        r"\(80e9 bytes = ([\d.]+) GiB\), " + NUM + r" GB/s memory bandwidth, "
        r"(\d+) TFLOPS dense BF16 tensor throughput and (\d+) W",
        _site_gpu_datasheet,
    ),
    Row(
        f"{SITE}.zh.md",
        r"（80e9 字节 = ([\d.]+) GiB）、显存带宽 " + NUM + r" GB/s、"
        r"稠密 BF16 张量算力 (\d+) TFLOPS、功耗 (\d+) W",
        _site_gpu_datasheet,
    ),
    Row(
        f"{SITE}.en.md",
        r"8 × 80e9 = (\d+)e9 bytes[^\n]*\n- Dense BF16 peak: 8 × 312e12 = "
        r"([\d.]+)e15[^\n]*\n- Memory bandwidth: ([\d.]+)e12",
        _site_capacity,
    ),
    Row(
        f"{SITE}.zh.md",
        r"8 × 80e9 = (\d+)e9 字节[^\n]*\n- 稠密 BF16 峰值：8 × 312e12 = "
        r"([\d.]+)e15[^\n]*\n- 显存带宽：每卡 ([\d.]+)e12",
        _site_capacity,
    ),
    Row(
        f"{SITE}.en.md",
        r"about ([\d.]+)e9 bytes/s per direction per GPU over PCIe Gen4; "
        r"([\d.]+)e9 bytes/s per direction between machines over 25GbE",
        lambda: _links(_site("intra_link"), _site("inter_link"))(),
    ),
    Row(f"{SITE}.en.md", r"KV cache costs ([\d,]+) bytes per token", lambda: (_kv(L70),)),
    Row(f"{SITE}.zh.md", r"KV 缓存每 token ([\d,]+) 字节", lambda: (_kv(L70),)),
    # gpu-generations spec table and the power guide's TDP table, row by row
    *(
        _spec_row(lang, label, name, peak, fp8, link)
        for label_en, label_zh, name, peak, fp8, link in SPEC_TABLE
        for lang, label in (("en", label_en), ("zh", label_zh))
    ),
    *(
        Row(f"{POWER}.{lang}.md", rf"\| {re.escape(label)} \| (\d+) W \|", _tdp(*names))
        for label_en, label_zh, names in TDP_TABLE
        for lang, label in (("en", label_en), ("zh", label_zh))
    ),
    # inference-serving: KV bytes per token, decode bounds, where decode turns compute-bound
    *_pair(
        INF,
        r"2 × (\d+) × (\d+) × (\d+) × 2 bytes = ([\d,]+) bytes \(0\.5 MiB\) per token; "
        r"a 4,096-token sequence needs (\d+) GiB",
        r"2 × (\d+) × (\d+) × (\d+) × 2 字节 = ([\d,]+) 字节（0\.5 MiB）/token；"
        r"4,096 token 的序列需要 (\d+) GiB",
        lambda: (*_shape(L7, *KV_DIMS)(), _kv(L7), 4096 * _kv(L7) / GiB),
    ),
    *_pair(
        INF,
        r"\(80 layers\): 2 × (\d+) × (\d+) × (\d+) × 2 = ([\d,]+) bytes per token",
        r"（80 层）：2 × (\d+) × (\d+) × (\d+) × 2 = ([\d,]+) 字节/token",
        _kv70_and_llama3_70b,
    ),
    *_pair(
        INF,
        r"32 sequences of 4,096 tokens need about (\d+) GB; at 8,192 tokens, "
        r"about (\d+) GB",
        r"32 条 4,096 token 的序列约需 (\d+) GB；8,192 token 时约 (\d+) GB",
        lambda: (32 * 4096 * _kv(L70) / 1e9, 32 * 8192 * _kv(L70) / 1e9),
    ),
    *_pair(
        INF,
        r"Llama 3 8B \((\d+) layers, (\d+) KV heads\): ([\d,]+) bytes per token, "
        r"about ([\d.]+) GB per 8,192-token",
        r"Llama 3 8B（(\d+) 层，(\d+) 个 KV 头）：([\d,]+) 字节/token，"
        r"每条 8,192 token 序列约 ([\d.]+) GB",
        lambda: (*_shape(L8, "layers", "kv_heads")(), _kv(L8), 8192 * _kv(L8) / 1e9),
    ),
    *(
        Row(
            f"{INF}.{lang}.md",
            rf"\| {model}[^|]* \| {re.escape(hw)}(?:[,，][^|]*)? \| "
            r"([\d.]+) TB/s \| ≈ ([\d.]+) ms \|",
            _decode_bound(gpu, weights, gpus),
        )
        for model, hw, gpu, weights, gpus in DECODE_ROWS
        for lang in ("en", "zh")
    ),
    *_pair(
        INF,
        r"about (\d+) for H100 SXM \(([\d.]+) / ([\d.]+)\), (\d+) for A100 80GB, "
        r"(\d+) for RTX 4090, but only (\d+) for H20 \((\d+) / ([\d.]+)\)",
        r"H100 SXM 约 (\d+)（([\d.]+) / ([\d.]+)），A100 80GB 约 (\d+)，"
        r"RTX 4090 约 (\d+)，而 H20 只有 (\d+)（(\d+) / ([\d.]+)）",
        _ridges,
    ),
    # scaling-laws-compute: 6ND examples and training times through calculators.compute_time
    *_pair(
        SCALE,
        r"GPT-3 \(175B, 300B tokens\) ≈ ([\d.]+)e23 FLOPs; Chinchilla \(70B, 1\.4T\) "
        r"≈ ([\d.]+)e23; Llama 3 405B \(15\.6T tokens\) ≈ ([\d.]+)e25",
        r"GPT-3（175B，300B tokens）≈ ([\d.]+)e23 FLOPs；Chinchilla（70B，1\.4T）"
        r"≈ ([\d.]+)e23；Llama 3 405B（15\.6T tokens）≈ ([\d.]+)e25",
        lambda: (
            training_flops(active_params=175e9, tokens=300e9) / 1e23,
            training_flops(active_params=70e9, tokens=1.4e12) / 1e23,
            training_flops(active_params=405e9, tokens=15.6e12) / 1e25,
        ),
    ),
    *(
        Row(
            f"{SCALE}.{lang}.md",
            rf"\| 1e{exp}(?: FLOPs)? \| (\d+)B \| ([\d.]+)T \|",
            lambda exp=exp: _chinchilla(10.0**exp),
            rel=0.02,
        )  # the table rounds N to 2 digits
        for exp in (22, 23, 24, 25)
        for lang in ("en", "zh")
    ),
    *_pair(
        SCALE,
        r"C = 6 × 1e11 × 2e12 = ([\d.]+)e24",
        r"C = 6 × 1e11 × 2e12 = ([\d.]+)e24",
        lambda: (C100B / 1e24,),
    ),
    *(
        Row(
            f"{SCALE}.{lang}.md",
            rf"\| {cell}[^|]* \| ≈ (\d+) (?:years|年|days|天) \|",
            lambda gpu=gpu, n=n, unit=unit: (_days(C100B, n, gpu, unit),),
        )
        for lang in ("en", "zh")
        for cell, gpu, n, unit in WORKED_ROWS
    ),
    *_pair(
        SCALE,
        r"takes about (\d+) days on 1,024 A100 and still about ([\d.]+) years on one "
        r"8 × A100",
        r"1,024 张 A100 约 (\d+) 天，单台 8 × A100 服务器仍需约 ([\d.]+) 年",
        lambda: (_days(C100B_GPT3, 1024, A100), _days(C100B_GPT3, 8, A100, YEAR)),
    ),
    *_pair(
        SCALE,
        r"7B on 1T tokens is ([\d.]+)e22 FLOPs, about (\d+) days on 8 × A100 at 40 % "
        r"but about (\d+) days on 64 × H100",
        r"7B 训练 1T tokens 为 ([\d.]+)e22 FLOPs，8 × A100、MFU 40% 约 (\d+) 天，"
        r"64 × H100 约 (\d+) 天",
        lambda: (C7B / 1e22, _days(C7B, 8, A100), _days(C7B, 64, H100)),
        rel=0.02,
    ),  # "about"
    *_pair(
        SCALE,
        r"8 × H20 takes about (\d+) years",
        r"8 × H20 上约需 (\d+) 年",
        lambda: (_days(C100B, 8, "H20 96GB", YEAR),),
    ),
    # cost-sourcing: GPU-hours at 40 % MFU (the Chinese text counts in units of 10^4, 万)
    *_pair(
        COST,
        r"≈ ([\d,]+) A100-hours\.",
        r"≈ ([\d,]+) A100 卡时。",
        lambda: (_gpu_hours(C7B, A100),),
        rel=0.01,
    ),
    Row(
        f"{COST}.en.md",
        r"\(8\.4e23\): ≈ ([\d.]+) million A100-hours",
        lambda: (_gpu_hours(C70B, A100) / 1e6,),
    ),
    Row(
        f"{COST}.zh.md",
        r"（8\.4e23）：≈ (\d+) 万 A100 卡时",
        lambda: (_gpu_hours(C70B, A100) / 1e4,),
    ),
    Row(
        f"{COST}.en.md",
        r"\(1\.2e24\): ≈ ([\d.]+) million A100-hours or ≈ ([\d,]+) H100 SXM-hours",
        lambda: (_gpu_hours(C100B, A100) / 1e6, _gpu_hours(C100B, H100)),
        rel=0.005,
    ),
    Row(
        f"{COST}.zh.md",
        r"（1\.2e24）：≈ (\d+) 万 A100 卡时，或 ≈ ([\d.]+) 万 H100 SXM 卡时",
        lambda: (_gpu_hours(C100B, A100) / 1e4, _gpu_hours(C100B, H100) / 1e4),
        rel=0.005,
    ),
]


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _agrees(quoted: str, want: float, rel: float | None) -> bool:
    """True when `quoted` is `want` rounded to the decimals it shows (or within `rel`)."""
    got = _number(quoted)
    if rel is not None:
        return math.isclose(got, want, rel_tol=rel)
    decimals = len(quoted.split(".")[1]) if "." in quoted else 0
    return abs(got - want) <= 0.5 * 10**-decimals * (1 + 1e-9)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.doc}:{r.pattern[:40]}" for r in ROWS])
def test_quoted_figures_match_the_catalog(row: Row) -> None:
    matches = re.findall(row.pattern, read(row.doc))
    assert matches, f"{row.doc}: the figure /{row.pattern}/ is no longer in the text"
    expected = tuple(row.expected())
    for match in matches:
        found = (match,) if isinstance(match, str) else match
        assert len(found) == len(expected), f"{row.doc}: pattern groups vs catalog values"
        for got, want in zip(found, expected):
            assert _agrees(got, want, row.rel), (
                f"{row.doc}: quotes {got}, catalog says {want:g} (/{row.pattern}/)"
            )


@pytest.mark.parametrize("doc_id", ["regional-single-node", "site-template"])
def test_site_profiles_name_catalog_hardware(doc_id: str) -> None:
    for version in by_id()[doc_id].values():
        site = version.meta["site"]
        lookup_gpu(site["gpu"])
        for key in ("intra_link", "inter_link"):
            if site.get(key):
                lookup_link(site[key])


def test_regional_profile_is_the_catalog_a100_pcie_on_pcie_and_25gbe_tcp() -> None:
    site = by_id()["regional-single-node"]["en"].meta["site"]
    gpu = lookup_gpu(site["gpu"])
    assert (gpu.name, gpu.memory_bytes) == ("A100 PCIe 80GB", 80e9)
    assert lookup_link(site["intra_link"]).kind == "pcie"
    inter = lookup_link(site["inter_link"])
    assert (inter.kind, inter.rdma) == ("ethernet", False)


def _table_labels(doc: str, anchor: str) -> list[str]:
    """First cell of every body row of the first table under `{#anchor}`."""
    section = read(doc).split(f"{{#{anchor}}}", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [row.split("|")[1].strip() for row in rows[1:]]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("doc", "anchor", "table"), [(GEN, "spec-table", SPEC_TABLE), (POWER, "gpu-tdp", TDP_TABLE)]
)
def test_every_gpu_table_row_is_checked(lang: str, doc: str, anchor: str, table: tuple) -> None:
    labels = [row[0] if lang == "en" else row[1] for row in table]
    assert _table_labels(f"{doc}.{lang}.md", anchor) == labels, (
        f"{doc}.{lang}.md: add the new table row to the catalog checks above"
    )
