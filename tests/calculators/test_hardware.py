"""GPU and interconnect catalogs: figures against their datasheets, lookups, errors."""

from __future__ import annotations

import math

import pytest

from calculators import CalculatorInputError, UnknownNameError
from calculators.catalog.hardware import (
    DTYPE_BYTES,
    GPUS,
    LINKS,
    gpu_alias_index,
    link_alias_index,
    lookup_gpu,
    lookup_link,
)
from calculators.catalog.names import normalize_name

REQUIRED_GPUS = [
    "V100 SXM2 16GB",
    "V100 SXM2 32GB",
    "T4",
    "A10",
    "A100 SXM 40GB",
    "A100 SXM 80GB",
    "A100 PCIe 40GB",
    "A100 PCIe 80GB",
    "A800 SXM 80GB",
    "H100 SXM 80GB",
    "H100 PCIe 80GB",
    "H800 SXM 80GB",
    "H20 96GB",
    "H200 SXM 141GB",
    "B200 180GB",
    "L40S 48GB",
    "L20 48GB",
    "L4 24GB",
    "RTX 3090 24GB",
    "RTX 4090 24GB",
    "MI300X 192GB",
    "Ascend 910B 64GB",
    "Ascend 910 32GB",
]


@pytest.mark.parametrize("name", REQUIRED_GPUS)
def test_required_gpu_rows_are_complete(name: str) -> None:
    gpu = GPUS[name]
    assert gpu.memory_bytes > 1e9
    assert gpu.memory_bandwidth_bytes_per_s > 1e11
    assert gpu.fp16_flops_per_s is not None
    assert gpu.tdp_watts > 0
    groups = {source.split(":")[0] for source in gpu.sources}
    assert groups == {"memory", "compute", "link", "power"}
    assert gpu.intra_link in LINKS
    assert gpu.intra_link_bytes_per_s == LINKS[gpu.intra_link].bytes_per_s


@pytest.mark.parametrize(
    ("name", "memory_gb", "bandwidth_tbps", "bf16_tflops"),
    [
        # NVIDIA A100 datasheet: 80 GB, 2,039 GB/s, BF16 312 dense (624 is the sparse figure).
        ("A100 SXM 80GB", 80, 2.039, 312),
        # NVIDIA H100 datasheet: 1,979 BF16 "with sparsity" -> 989.4 dense; 3.35 TB/s.
        ("H100 SXM 80GB", 80, 3.35, 989.4),
        # NVIDIA H100 PCIe product brief: 2.0 TB/s; 1,513 sparse -> 756 dense.
        ("H100 PCIe 80GB", 80, 2.0, 756),
        # NVIDIA H200 datasheet: 141 GB, 4.8 TB/s, same Hopper compute.
        ("H200 SXM 141GB", 141, 4.8, 989.4),
        # NVIDIA GA102 whitepaper: RTX 3090 FP16 tensor with FP32 accumulate 71 dense.
        ("RTX 3090 24GB", 24, 0.936, 71),
        # NVIDIA Ada whitepaper: RTX 4090 FP32-accumulate 165.2 dense.
        ("RTX 4090 24GB", 24, 1.008, 165.2),
        # AMD MI300X datasheet: 192 GB, 5.3 TB/s, 1,307.4 dense BF16.
        ("MI300X 192GB", 192, 5.3, 1307.4),
        # NVIDIA L40S datasheet: 362.05 dense BF16 (733 sparse).
        ("L40S 48GB", 48, 0.864, 362.05),
    ],
)
def test_datasheet_figures_are_dense_and_decimal(
    name: str, memory_gb: float, bandwidth_tbps: float, bf16_tflops: float
) -> None:
    gpu = GPUS[name]
    assert gpu.memory_bytes == pytest.approx(memory_gb * 1e9)
    assert gpu.memory_bandwidth_bytes_per_s == pytest.approx(bandwidth_tbps * 1e12)
    assert gpu.dense_flops_per_s("bf16") == pytest.approx(bf16_tflops * 1e12)


@pytest.mark.parametrize(
    ("name", "precision"),
    [
        ("V100 SXM2 32GB", "bf16"),  # Volta: no BF16 (V100 datasheet)
        ("T4", "bf16"),  # Turing: no BF16 (T4 datasheet)
        ("V100 SXM2 16GB", "fp8"),
        ("T4", "fp8"),
        ("A100 SXM 80GB", "fp8"),  # Ampere: no FP8 (A100 datasheet)
        ("A800 SXM 80GB", "fp8"),
        ("Ascend 910 32GB", "bf16"),
    ],
)
def test_missing_precisions_raise_with_a_hint(name: str, precision: str) -> None:
    gpu = GPUS[name]
    assert not gpu.supports(precision)
    with pytest.raises(CalculatorInputError) as info:
        gpu.dense_flops_per_s(precision)
    assert info.value.field == "precision"
    hint = gpu.default_training_precision()
    assert f"precision={hint!r}" in str(info.value)
    assert gpu.supports(hint)


def test_v100_bf16_hint_is_fp16() -> None:
    with pytest.raises(CalculatorInputError, match="fp16"):
        lookup_gpu("V100").dense_flops_per_s("bf16")


def test_unknown_precision_names_the_field() -> None:
    with pytest.raises(CalculatorInputError) as info:
        lookup_gpu("H100").dense_flops_per_s("fp6")
    assert info.value.field == "precision"


def test_fp8_present_on_hopper_and_ada() -> None:
    for name in ("H100 SXM 80GB", "H800 SXM 80GB", "H20 96GB", "L40S 48GB", "RTX 4090 24GB"):
        gpu = GPUS[name]
        # Datasheets round (L40S prints 362.05 and 733), hence 2%.
        doubled = 2 * gpu.dense_flops_per_s("bf16")
        assert gpu.dense_flops_per_s("fp8") == pytest.approx(doubled, rel=0.02)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("A100 80G", "A100 SXM 80GB"),
        ("a100-80gb", "A100 SXM 80GB"),
        ("A100", "A100 SXM 80GB"),  # documented default variant
        ("A100 40GB", "A100 SXM 40GB"),
        ("A100 80GB PCIe", "A100 PCIe 80GB"),
        ("4090", "RTX 4090 24GB"),
        ("RTX4090", "RTX 4090 24GB"),
        ("GeForce RTX 3090", "RTX 3090 24GB"),
        ("3090", "RTX 3090 24GB"),
        ("昇腾910B", "Ascend 910B 64GB"),
        ("910B", "Ascend 910B 64GB"),
        ("华为昇腾 910B", "Ascend 910B 64GB"),
        ("H800", "H800 SXM 80GB"),
        ("英伟达H100", "H100 SXM 80GB"),
        ("NVIDIA H100 80GB SXM", "H100 SXM 80GB"),
        ("h100 pcie", "H100 PCIe 80GB"),
        ("H20", "H20 96GB"),
        ("L20", "L20 48GB"),
        ("V100", "V100 SXM2 32GB"),
        ("Ｈ２００", "H200 SXM 141GB"),  # full-width characters
        ("mi300x", "MI300X 192GB"),
    ],
)
def test_gpu_lookup_by_alias(typed: str, canonical: str) -> None:
    assert lookup_gpu(typed).name == canonical


@pytest.mark.parametrize("text", ["4090", "3090", "A100", "H100", "H20", "L20", "910B", "A800"])
def test_alias_index_has_spellings_used_in_chinese_text(text: str) -> None:
    index = gpu_alias_index()
    assert normalize_name(text) in index
    assert index[normalize_name(text)] in GPUS


def test_unknown_gpu_suggests_closest() -> None:
    with pytest.raises(UnknownNameError) as info:
        lookup_gpu("A1000")
    assert info.value.field == "gpu"
    assert "A100 SXM 80GB" in info.value.suggestions
    assert "closest" in str(info.value)


def test_unknown_gpu_without_close_match_still_raises() -> None:
    with pytest.raises(UnknownNameError):
        lookup_gpu("zzzz")


@pytest.mark.parametrize(
    ("typed", "canonical", "gbps_per_direction", "rdma"),
    [
        # NVLink datasheet figures are both directions summed; the catalog halves them.
        ("NVLink 3", "NVLink 3", 300, True),  # A100: 600 GB/s total
        ("NVLink 4", "NVLink 4", 450, True),  # H100: 900 GB/s total
        ("NVLink 5", "NVLink 5", 900, True),  # B200: 1.8 TB/s total
        ("A800 NVLink", "A800 NVLink", 200, True),  # A800: 400 GB/s total
        ("H800 NVLink", "H800 NVLink", 200, True),  # H800: 400 GB/s total
        ("PCIe 4.0 x16", "PCIe Gen4 x16", 31.508, False),  # 16 GT/s x 16 lanes, 128b/130b
        ("PCIe Gen5", "PCIe Gen5 x16", 63.015, False),
        ("25G以太网", "25GbE TCP", 3.125, False),
        ("万兆", "10GbE TCP", 1.25, False),
        ("RoCE", "100GbE RoCE", 12.5, True),
        ("400G IB", "InfiniBand NDR", 50, True),  # NDR 400 Gb/s per direction
        ("IB", "InfiniBand HDR", 25, True),  # documented default
        ("XDR", "InfiniBand XDR", 100, True),
        ("HCCS", "HCCS", 196, True),
        ("xGMI", "Infinity Fabric", 448, True),
        ("400Gbps InfiniBand", "InfiniBand NDR", 50, True),  # bit-rate spellings
        ("100Gb/s RoCE", "100GbE RoCE", 12.5, True),
        ("25Gbps以太网", "25GbE TCP", 3.125, False),
    ],
)
def test_link_lookup_and_bandwidth(
    typed: str, canonical: str, gbps_per_direction: float, rdma: bool
) -> None:
    link = lookup_link(typed)
    assert link.name == canonical
    assert link.bytes_per_s == pytest.approx(gbps_per_direction * 1e9)
    assert link.rdma is rdma
    assert link.sources


def test_every_ethernet_speed_has_tcp_and_roce() -> None:
    for speed in ("10", "25", "100", "200", "400"):
        tcp, roce = LINKS[f"{speed}GbE TCP"], LINKS[f"{speed}GbE RoCE"]
        assert tcp.bytes_per_s == roce.bytes_per_s == pytest.approx(float(speed) * 1e9 / 8)
        assert not tcp.rdma
        assert roce.rdma
        assert roce.latency_s < tcp.latency_s


def test_link_alias_index_and_unknown_link() -> None:
    assert link_alias_index()[normalize_name("400G IB")] == "InfiniBand NDR"
    with pytest.raises(UnknownNameError) as info:
        lookup_link("NVLink 9")
    assert info.value.field == "link"


@pytest.mark.parametrize(
    ("dtype", "size"),
    [
        ("fp32", 4),
        ("tf32", 4),
        ("bf16", 2),
        ("fp16", 2),
        ("fp8", 1),
        ("int8", 1),
        ("int4", 0.5),
        ("nf4", 0.5),
    ],
)
def test_dtype_bytes(dtype: str, size: float) -> None:
    assert DTYPE_BYTES[dtype] == size


def test_catalog_figures_are_finite() -> None:
    for gpu in GPUS.values():
        for value in (gpu.memory_bytes, gpu.memory_bandwidth_bytes_per_s, gpu.tdp_watts):
            assert math.isfinite(value)
            assert value > 0
