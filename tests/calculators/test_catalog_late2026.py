"""The GPUs and models added for the late-2026 questions, each figure checked against its source."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import GPUS, lookup_gpu, nvlink_bridge

# name, memory GB, bandwidth TB/s, dense FP16 TFLOPS, dense FP8 TFLOPS (None: no FP8), TDP W
GPU_DATASHEETS = [
    # NVIDIA RTX 6000 Ada datasheet: 48 GB, 960 GB/s, FP8 1,457 sparse -> 728.5; 300 W.
    ("RTX 6000 Ada 48GB", 48, 0.96, 364.2, 728.5, 300),
    # NVIDIA H100 datasheet, NVL column: 94 GB, 3.9 TB/s, BF16 1,671 sparse, FP8 3,341 sparse.
    ("H100 NVL 94GB", 94, 3.9, 835.5, 1670.5, 400),
    # NVIDIA H200 datasheet, NVL column: 141 GB, 4.8 TB/s, the H100 NVL's rates, up to 600 W.
    ("H200 NVL 141GB", 141, 4.8, 835.5, 1670.5, 600),
    # NVIDIA GH200 datasheet: 96 GB HBM3 at 4 TB/s or 144 GB HBM3e at 4.9 TB/s, H100 SXM rates,
    # module power up to 1,000 W (CPU + GPU + memory).
    ("GH200 96GB", 96, 4.0, 989.4, 1978.9, 1000),
    ("GH200 144GB", 144, 4.9, 989.4, 1978.9, 1000),
    # NVIDIA A40 datasheet: 48 GB, 696 GB/s, 149.7 | 299.4* TFLOPS, 300 W; Ampere: no FP8.
    ("A40 48GB", 48, 0.696, 149.7, None, 300),
    # NVIDIA A30 datasheet: 24 GB HBM2, 933 GB/s, 165 | 330*, 165 W.
    ("A30 24GB", 24, 0.933, 165, None, 165),
    # NVIDIA L40 datasheet: 48 GB, 864 GB/s, 181.05 | 362.1*, FP8 362 | 724*, 300 W.
    ("L40 48GB", 48, 0.864, 181.05, 362, 300),
    # NVIDIA RTX A5000 datasheet: 24 GB, 768 GB/s, tensor 222.2 sparse -> 111.1, 230 W.
    ("RTX A5000 24GB", 24, 0.768, 111.1, None, 230),
    # GeForce: FP32-accumulate rates. RTX 3060: 28 SMs x 512 FLOP/clk x 1.777 GHz.
    ("RTX 3060 12GB", 12, 0.36, 28 * 512 * 1.777e9 / 1e12, None, 170),
    # NVIDIA GA102 whitepaper, RTX 3080: 10 GB, 760 GB/s, 59.5 TFLOPS, 320 W.
    ("RTX 3080 10GB", 10, 0.76, 59.5, None, 320),
    # RTX 4060 Ti 16GB: 353 AI TOPS = FP8 sparse with FP16 accumulate -> 353 / 4 dense.
    ("RTX 4060 Ti 16GB", 16, 0.288, 44.1, 353 / 4, 165),
    # NVIDIA Ada whitepaper appendix, RTX 4080: 716.8 GB/s, 97.5 / 194.9 dense, 320 W.
    ("RTX 4080 16GB", 16, 0.7168, 97.5, 194.9, 320),
    # RTX 4080 SUPER: 836 AI TOPS / 4 = 209 FP8 dense; 80 SMs x 512 x 2.55 GHz = 104.4.
    ("RTX 4080 SUPER 16GB", 16, 0.736, 104.4, 836 / 4, 320),
]


@pytest.mark.parametrize(("name", "gb", "tbps", "fp16", "fp8", "watts"), GPU_DATASHEETS)
def test_late2026_gpu_figures_match_their_sources(
    name: str, gb: float, tbps: float, fp16: float, fp8: float | None, watts: float
) -> None:
    gpu = GPUS[name]
    assert gpu.memory_bytes == pytest.approx(gb * 1e9)
    assert gpu.memory_bandwidth_bytes_per_s == pytest.approx(tbps * 1e12)
    assert gpu.dense_flops_per_s("fp16") == pytest.approx(fp16 * 1e12, rel=2e-3)
    assert gpu.supports("fp8") == (fp8 is not None)
    if fp8 is not None:
        assert gpu.dense_flops_per_s("fp8") == pytest.approx(fp8 * 1e12, rel=2e-3)
    assert gpu.tdp_watts == watts
    assert {s.split(":")[0] for s in gpu.sources} == {"memory", "compute", "link", "power"}


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("RTX 6000 Ada", "RTX 6000 Ada 48GB"),
        ("A6000", "RTX A6000 48GB"),  # the Ampere card keeps its name
        ("H100 NVL", "H100 NVL 94GB"),
        ("H100", "H100 SXM 80GB"),  # a bare H100 stays the SXM card
        ("H200 NVL", "H200 NVL 141GB"),
        ("H200", "H200 SXM 141GB"),
        ("GH200", "GH200 96GB"),  # documented: the first (HBM3) superchip
        ("GH200 144G", "GH200 144GB"),
        ("A40", "A40 48GB"),
        ("A30", "A30 24GB"),
        ("L40", "L40 48GB"),
        ("L40S", "L40S 48GB"),  # the S is not dropped
        ("A5000", "RTX A5000 24GB"),
        ("3060", "RTX 3060 12GB"),
        ("4060 Ti", "RTX 4060 Ti 16GB"),
        ("4060ti 16g", "RTX 4060 Ti 16GB"),
        ("4080", "RTX 4080 16GB"),
        ("4080 Super", "RTX 4080 SUPER 16GB"),
        ("3080", "RTX 3080 10GB"),
    ],
)
def test_late2026_gpu_aliases(typed: str, canonical: str) -> None:
    assert lookup_gpu(typed).name == canonical


def test_geforce_and_workstation_ada_rates_differ() -> None:
    # Ada whitepaper: the RTX 6000 Ada keeps the full FP32-accumulate tensor rate (142 SMs),
    # GeForce halves it: per SM per clock the workstation card does twice the RTX 4090's work.
    ada, rtx4090 = lookup_gpu("RTX 6000 Ada"), lookup_gpu("4090")
    per_sm_ada = ada.dense_flops_per_s("bf16") / (142 * 2.505e9)
    per_sm_4090 = rtx4090.dense_flops_per_s("bf16") / (128 * 2.52e9)
    assert per_sm_ada == pytest.approx(2 * per_sm_4090, rel=0.01)


def test_pcie_cards_get_their_bridges() -> None:
    # H100 NVL: 600 GB/s bridge (as the H100 PCIe); H200 NVL: 900 GB/s (NVLink 4);
    # A40 / RTX A5000: the GA102 bridge (112.5 GB/s); A30: 200 GB/s; 4060 Ti: PCIe x8 only.
    assert nvlink_bridge("H100 NVL 94GB") == "NVLink bridge (H100 PCIe)"
    assert nvlink_bridge("H200 NVL 141GB") == "NVLink 4"
    assert nvlink_bridge("A40 48GB") == nvlink_bridge("RTX A5000 24GB") == "NVLink bridge (GA102)"
    assert nvlink_bridge("A30 24GB") == "NVLink bridge (A30)"
    assert lookup_gpu("4060 Ti").intra_link_bytes_per_s == pytest.approx(15.754e9)
    assert nvlink_bridge("RTX 4080 16GB") is None
