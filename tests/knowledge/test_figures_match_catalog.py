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

from calculators.hardware import DTYPE_BYTES, lookup_gpu, lookup_link
from calculators.models import ModelSpec, kv_cache_bytes_per_token, lookup_model
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
    return lambda: (2 * lookup_gpu(gpu).intra_link_bytes_per_s / 1e9,
                    lookup_gpu(gpu).intra_link_bytes_per_s / 1e9)


def _ib(name: str) -> Callable[[], Sequence[float]]:
    """(Gb/s, bytes/s in units of 1e9) per direction."""
    return lambda: (lookup_link(name).bytes_per_s * 8 / 1e9, lookup_link(name).bytes_per_s / 1e9)


def _site(field: str) -> str:
    return str(by_id()["regional-single-node"]["en"].meta["site"][field])


def _site_gpu_datasheet() -> Sequence[float]:
    fields = (("memory_bytes", GiB), ("memory_bandwidth_bytes_per_s", 1e9),
              ("bf16_flops_per_s", 1e12), ("tdp_watts", 1.0))
    return _gpu(_site("gpu"), *fields)()


def _site_capacity() -> Sequence[float]:
    gpu, count = lookup_gpu(_site("gpu")), 8
    return (count * gpu.memory_bytes / 1e9, count * gpu.bf16_flops_per_s / 1e15,
            gpu.memory_bandwidth_bytes_per_s / 1e12)


A100 = "A100 SXM 80GB"
H100 = "H100 SXM 80GB"
L70, L7, GPT3 = "Llama-2-70B", "Llama-2-7B", "GPT-3 175B"
NUM = r"([\d][\d,]*(?:\.\d+)?)"
MEM, MP, ZERO, PAR, ACT, NET, SITE = (
    "guides/gpu-memory", "guides/mixed-precision-optimizer", "guides/zero-fsdp",
    "guides/parallelism-3d", "guides/activation-recompute", "guides/networking",
    "sites/regional-single-node",
)
KV70 = _shape(L70, "layers", "kv_heads", "head_dim")
DTYPES_EN = ("fp32", "bf16", "fp8", "int4")
NVLINK_ROWS = (("V100 SXM2", "V100 SXM2 32GB"), ("A100 SXM4", A100), ("A800 SXM4", "A800 SXM 80GB"),
               ("H100 / H200 SXM", H100), ("H800 SXM5", "H800 SXM 80GB"), ("B200", "B200 180GB"))
H100_PEAKS = (("bf16_flops_per_s", 1e12), ("fp8_flops_per_s", 1e12))

ROWS: list[Row] = [
    # gpu-memory: KV cache, parameter counts, GB vs GiB, bytes per element
    Row(f"{MEM}.en.md", r"2 × (\d+) × (\d+) × (\d+) × 2 = ([\d,]+) bytes per token \(320",
        lambda: (*KV70(), _kv(L70))),
    Row(f"{MEM}.zh.md", r"2 × (\d+) × (\d+) × (\d+) × 2 = ([\d,]+) 字节/token（320",
        lambda: (*KV70(), _kv(L70))),
    Row(f"{MEM}.en.md", r"64 heads instead gives ([\d,]+) bytes",
        lambda: (_kv(L70) * _m(L70).heads / _m(L70).kv_heads,)),
    Row(f"{MEM}.en.md", r"2 × 32 × 32 × 128 × 2 = ([\d,]+) bytes", lambda: (_kv(L7),)),
    Row(f"{MEM}.zh.md", r"2 × 32 × 32 × 128 × 2 = ([\d,]+) 字节", lambda: (_kv(L7),)),
    Row(f"{MEM}.en.md", r"Llama-2-70B \(" + NUM + r"e9 parameters", _billions(L70, 1)),
    Row(f"{MEM}.zh.md", r"Llama-2-70B（按其配置计出 " + NUM + r"e9", _billions(L70, 1)),
    Row(f"{MEM}.en.md", r"Llama-2-7B \(" + NUM + r"e9 parameters", _billions(L7, 1)),
    Row(f"{MEM}.zh.md", r"Llama-2-7B（" + NUM + r"e9 个参数", _billions(L7, 1)),
    Row(f"{MEM}.en.md", r"in fp16 is ([\d,]+) × 2 = " + NUM + r"e9 bytes",
        lambda: (_m(L70).params, _m(L70).params * 2 / 1e9)),
    Row(f"{MEM}.zh.md", r"fp16 权重为 ([\d,]+) × 2 = " + NUM + r"e9 字节",
        lambda: (_m(L70).params, _m(L70).params * 2 / 1e9)),
    Row(f"{MEM}.en.md", r"base still takes " + NUM + r"e9 bytes \(2 bytes", _billions(L70, 2)),
    Row(f"{MEM}.en.md", r"68\.98e9 × 16 = " + NUM + r"e12", lambda: (_m(L70).params * 16 / 1e12,)),
    Row(f"{MEM}.en.md", r"Llama-2-70B's base is about " + NUM + "e9", lambda: (
        _m(L70).params * (4 + 0.127) / 8 / 1e9,)),
    Row(f"{SITE}.en.md", r"The frozen bf16 base is " + NUM + r"e9 bytes", _billions(L70, 2)),
    Row(f"{SITE}.zh.md", r"冻结的 bf16 基座为 " + NUM + r"e9 字节", _billions(L70, 2)),
    Row(f"{MEM}.en.md", r"80e9 / 2\^30 = " + NUM + " GiB", _gpu(A100, ("memory_bytes", GiB))),
    Row(f"{MEM}.zh.md", r"80e9 / 2\^30 = " + NUM + " GiB", _gpu(A100, ("memory_bytes", GiB))),
    Row(f"{MEM}.en.md", r"fp32 (\d), bf16/fp16 (\d), fp8/int8 (\d), int4 ([\d.]+)",
        lambda: tuple(DTYPE_BYTES[d] for d in DTYPES_EN)),
    Row(f"{MEM}.zh.md", r"fp32 为 (\d)，bf16/fp16 为 (\d)，fp8/int8 为 (\d)，int4 为 ([\d.]+)",
        lambda: tuple(DTYPE_BYTES[d] for d in DTYPES_EN)),
    # mixed precision: dense tensor peaks
    Row(f"{MP}.en.md", r"A100 (\d+) TFLOPS in bf16; H100 SXM " + NUM + r" TFLOPS in bf16 and "
        + NUM + " TFLOPS in fp8",
        lambda: (*_gpu(A100, H100_PEAKS[0])(), *_gpu(H100, *H100_PEAKS)())),
    Row(f"{MP}.zh.md", r"A100 的 bf16 为 (\d+) TFLOPS；H100 SXM 的 bf16 为 " + NUM
        + r" TFLOPS、fp8 为 " + NUM + " TFLOPS",
        lambda: (*_gpu(A100, H100_PEAKS[0])(), *_gpu(H100, *H100_PEAKS)())),
    Row(f"{MP}.en.md", r"dense fp8 peak \(" + NUM + r" TFLOPS\) is twice the bf16 peak \(" + NUM,
        _gpu(H100, *reversed(H100_PEAKS))),
    Row(f"{MP}.en.md", r"For Llama-2-70B \(" + NUM + r"e9 parameters\)", _billions(L70, 1)),
    # ZeRO / FSDP worked examples use the catalog's parameter counts
    Row(f"{ZERO}.en.md", r"Llama-2-7B, full fine-tuning, ZeRO-3 over 8 GPUs\*\*: " + NUM
        + r"e9 × 16 / 8 = " + NUM + "e9", _billions(L7, 1, 2)),
    Row(f"{ZERO}.en.md", r"Llama-2-70B, full training, ZeRO-3 over 8 GPUs\*\*: " + NUM
        + r"e9 × 16 / 8 = " + NUM + "e9", _billions(L70, 1, 2)),
    # parallelism and recomputation: model shapes, link speeds, MoE sizes
    Row(f"{PAR}.en.md", r"GPT-3 175B \(h = (\d+), (\d+) layers\)",
        _shape(GPT3, "hidden", "layers")),
    Row(f"{PAR}.zh.md", r"GPT-3 175B（h = (\d+)，(\d+) 层）", _shape(GPT3, "hidden", "layers")),
    Row(f"{PAR}.en.md", r"A100 NVLink's (\d+) GB/s per direction", _links("NVLink 3")),
    Row(f"{PAR}.zh.md", r"A100 NVLink 每方向 (\d+) GB/s", _links("NVLink 3")),
    Row(f"{PAR}.en.md", r"PCIe Gen4 \(about (\d+) GB/s per direction\)", _links("PCIe Gen4"),
        rel=0.05),
    Row(f"{PAR}.en.md", r"DeepSeek-V3 has (\d+)B parameters in total and (\d+)B active",
        lambda: (_m("DeepSeek-V3").params_published / 1e9,
                 _m("DeepSeek-V3").active_params_published / 1e9)),
    Row(f"{ACT}.en.md", r"GPT-3 175B has h = (\d+), a = (\d+) and (\d+) layers",
        _shape(GPT3, "hidden", "heads", "layers")),
    Row(f"{ACT}.zh.md", r"GPT-3 175B 的 h = (\d+)、a = (\d+)、(\d+) 层",
        _shape(GPT3, "hidden", "heads", "layers")),
    # networking: NVLink table (both directions, one direction), InfiniBand, Ethernet, PCIe
    *(Row(f"{NET}.{lang}.md", rf"\| {label} \| [^|\n]+\| {NUM} GB/s \| {NUM} GB/s \|", _nvlink(gpu))
      for lang in ("en", "zh") for label, gpu in NVLINK_ROWS),
    *(Row(f"{NET}.{lang}.md", rf"\| {gen} \| (\d+) \| ([\d.]+)e9 \|", _ib(f"InfiniBand {gen}"))
      for lang in ("en", "zh") for gen in ("EDR", "HDR", "NDR", "XDR")),
    Row(f"{NET}.en.md", r"25GbE is ([\d.]+)e9 bytes/s, 100GbE ([\d.]+)e9, 400GbE (\d+)e9",
        _links("25GbE", "100GbE", "400GbE")),
    Row(f"{NET}.zh.md", r"25GbE 为 ([\d.]+)e9 字节/秒，100GbE 为 ([\d.]+)e9，400GbE 为 (\d+)e9",
        _links("25GbE", "100GbE", "400GbE")),
    Row(f"{NET}.en.md", r"about ([\d.]+), ([\d.]+) and ([\d.]+) GB/s per direction",
        _links("PCIe Gen3", "PCIe Gen4", "PCIe Gen5")),
    Row(f"{NET}.zh.md", r"单方向约为 ([\d.]+)、([\d.]+) 和 ([\d.]+) GB/s",
        _links("PCIe Gen3", "PCIe Gen4", "PCIe Gen5")),
    # the regional site profile: its GPU and links, looked up by the names in its [site] table
    Row(f"{SITE}.en.md", r"\(80e9 bytes = ([\d.]+) GiB\), " + NUM + r" GB/s memory bandwidth, "
        r"(\d+) TFLOPS dense BF16 tensor throughput and (\d+) W", _site_gpu_datasheet),
    Row(f"{SITE}.zh.md", r"（80e9 字节 = ([\d.]+) GiB）、显存带宽 " + NUM + r" GB/s、"
        r"稠密 BF16 张量算力 (\d+) TFLOPS、功耗 (\d+) W", _site_gpu_datasheet),
    Row(f"{SITE}.en.md", r"8 × 80e9 = (\d+)e9 bytes[^\n]*\n- Dense BF16 peak: 8 × 312e12 = "
        r"([\d.]+)e15[^\n]*\n- Memory bandwidth: ([\d.]+)e12", _site_capacity),
    Row(f"{SITE}.zh.md", r"8 × 80e9 = (\d+)e9 字节[^\n]*\n- 稠密 BF16 峰值：8 × 312e12 = "
        r"([\d.]+)e15[^\n]*\n- 显存带宽：每卡 ([\d.]+)e12", _site_capacity),
    Row(f"{SITE}.en.md", r"about ([\d.]+)e9 bytes/s per direction per GPU over PCIe Gen4; "
        r"([\d.]+)e9 bytes/s per direction between machines over 25GbE",
        lambda: _links(_site("intra_link"), _site("inter_link"))()),
    Row(f"{SITE}.en.md", r"KV cache costs ([\d,]+) bytes per token", lambda: (_kv(L70),)),
    Row(f"{SITE}.zh.md", r"KV 缓存每 token ([\d,]+) 字节", lambda: (_kv(L70),)),
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
