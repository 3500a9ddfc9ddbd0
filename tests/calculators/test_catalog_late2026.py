"""The GPUs and models added for the late-2026 questions, each figure checked against its source."""

from __future__ import annotations

import pytest

from calculators import UnknownNameError
from calculators.catalog.hardware import GPUS, lookup_gpu, nvlink_bridge
from calculators.catalog.models import MODELS, kv_cache_bytes_per_token, lookup_model

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


# name, published total, tolerance: half a unit of the last published digit unless noted
MODEL_TOTALS = [
    # DeepSeek-R1 README: 671B total (the V3 architecture, MTP module not counted).
    ("DeepSeek-R1", 671e9, 0.001),
    # Hugging Face model pages of the distills (safetensors): 7.62B, 14.8B, 32.8B, 8.03B, 70.6B.
    ("DeepSeek-R1-Distill-Qwen-7B", 7.62e9, 0.001),
    ("DeepSeek-R1-Distill-Qwen-14B", 14.8e9, 0.004),
    ("DeepSeek-R1-Distill-Qwen-32B", 32.8e9, 0.002),
    ("DeepSeek-R1-Distill-Llama-8B", 8.03e9, 0.001),
    ("DeepSeek-R1-Distill-Llama-70B", 70.6e9, 0.001),
    ("Llama-3.3-70B", 70.6e9, 0.001),
    # Qwen3 model cards: 0.6B, 1.7B, 4.0B, 8.2B, 14.8B, 32.8B, 30.5B, 235B.
    ("Qwen3-0.6B", 0.6e9, 0.083),
    ("Qwen3-1.7B", 1.7e9, 0.03),
    ("Qwen3-4B", 4.0e9, 0.013),
    ("Qwen3-8B", 8.2e9, 0.006),
    ("Qwen3-14B", 14.8e9, 0.004),
    ("Qwen3-32B", 32.8e9, 0.002),
    ("Qwen3-30B-A3B", 30.5e9, 0.002),
    ("Qwen3-235B-A22B", 235e9, 0.003),
    # QwQ-32B and Qwen2.5-Coder-32B cards say 32.5B, 0.8% under their own config.json's count
    # (32.76e9), as the Qwen2.5-32B card does; Qwen2.5-Coder-7B: 7.61B.
    ("QwQ-32B", 32.5e9, 0.01),
    ("Qwen2.5-Coder-32B", 32.5e9, 0.01),
    ("Qwen2.5-Coder-7B", 7.61e9, 0.001),
    # Gemma 2 (arXiv:2408.00118) / Hugging Face: 9.24B and 27.2B.
    ("Gemma-2-9B", 9.24e9, 0.001),
    ("Gemma-2-27B", 27.2e9, 0.002),
    # Gemma 3 report (arXiv:2503.19786) Table 1, text model: embedding + non-embedding.
    ("Gemma-3-4B", (675 + 3209) * 1e6, 0.002),
    ("Gemma-3-12B", (1012 + 10759) * 1e6, 0.001),
    ("Gemma-3-27B", (1416 + 25600) * 1e6, 0.001),
    # Hugging Face: 7.25B, 12.2B; Mistral Large 2 release note: 123B.
    ("Mistral-7B-v0.3", 7.25e9, 0.001),
    ("Mistral-Nemo-12B", 12.2e9, 0.0041),
    ("Mistral-Large-2", 123e9, 0.0041),
    # Phi-3 report (arXiv:2404.14219): 3.8B and 14B; phi-4 on Hugging Face: 14.7B.
    ("Phi-3-mini", 3.8e9, 0.013),
    ("Phi-3-medium", 14e9, 0.036),
    ("Phi-4", 14.7e9, 0.0035),
    # Llama 4 model cards: 109B and 400B include the vision encoder the shape leaves out
    # (Scout's text model counts 107.8B: 1.1% under).
    ("Llama-4-Scout", 109e9, 0.015),
    ("Llama-4-Maverick", 400e9, 0.002),
    # gpt-oss model card (arXiv:2508.10925) Table 1: 20.91B and 116.83B.
    ("gpt-oss-20b", 20.91e9, 0.001),
    ("gpt-oss-120b", 116.83e9, 0.001),
    # Kimi K2 report (arXiv:2507.20534) Table 2: 1.04T; its config.json counts 1.026T (1.3%
    # under the report's figure; the count that memory estimates use).
    ("Kimi-K2", 1.04e12, 0.015),
]


@pytest.mark.parametrize(("name", "published", "tolerance"), MODEL_TOTALS)
def test_late2026_model_totals_match_published(
    name: str, published: float, tolerance: float
) -> None:
    model = MODELS[name]
    assert model.params == pytest.approx(published, rel=tolerance, abs=0)
    assert model.params_published == published


@pytest.mark.parametrize(
    ("name", "published", "tolerance", "input_embedding_counted"),
    [
        ("DeepSeek-R1", 37e9, 0.02, True),  # as DeepSeek-V3
        ("Qwen3-30B-A3B", 3.3e9, 0.02, True),  # model card: 3.3B activated
        ("Qwen3-235B-A22B", 22e9, 0.023, True),  # model card: 22B activated
        ("Llama-4-Scout", 17e9, 0.029, True),  # 17B active (1 routed + 1 shared expert)
        ("Llama-4-Maverick", 17e9, 0.029, True),
        # gpt-oss Table 1 counts the unembedding, not the input-embedding lookup: 3.61B, 5.13B.
        ("gpt-oss-20b", 3.61e9, 0.002, False),
        ("gpt-oss-120b", 5.13e9, 0.002, False),
        ("Kimi-K2", 32.6e9, 0.01, True),  # Kimi K2 report: 32.6B activated
    ],
)
def test_late2026_moe_active_params(
    name: str, published: float, tolerance: float, input_embedding_counted: bool
) -> None:
    model = MODELS[name]
    active = model.active_params - (0 if input_embedding_counted else model.vocab * model.hidden)
    assert active == pytest.approx(published, rel=tolerance)


def test_deepseek_r1_is_the_v3_architecture_under_its_own_name() -> None:
    r1, v3 = MODELS["DeepSeek-R1"], MODELS["DeepSeek-V3"]
    assert r1.params == v3.params
    assert r1.active_params == v3.active_params
    assert kv_cache_bytes_per_token(r1, dtype_bytes=2) == 61 * (512 + 64) * 2  # MLA latent
    assert r1.release_dtype == v3.release_dtype == "fp8"


@pytest.mark.parametrize(
    ("distill", "base"),
    [
        ("DeepSeek-R1-Distill-Qwen-7B", "Qwen2.5-7B"),
        ("DeepSeek-R1-Distill-Qwen-14B", "Qwen2.5-14B"),
        ("DeepSeek-R1-Distill-Qwen-32B", "Qwen2.5-32B"),
        ("DeepSeek-R1-Distill-Llama-8B", "Llama-3.1-8B"),
        ("DeepSeek-R1-Distill-Llama-70B", "Llama-3.3-70B"),
    ],
)
def test_r1_distills_keep_their_base_shape(distill: str, base: str) -> None:
    # DeepSeek-R1 (arXiv:2501.12948) §2.4: the distills are fine-tuned bases, shapes unchanged.
    assert MODELS[distill].params == MODELS[base].params
    assert MODELS[distill].kv_heads == MODELS[base].kv_heads


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("DeepSeek R1", "DeepSeek-R1"),
        ("deepseek-r1", "DeepSeek-R1"),
        ("满血版R1", "DeepSeek-R1"),
        ("DeepSeek-R1 671B", "DeepSeek-R1"),
        ("DeepSeek-V3", "DeepSeek-V3"),
        ("R1-Distill-32B", "DeepSeek-R1-Distill-Qwen-32B"),
        ("deepseek-r1:32b", "DeepSeek-R1-Distill-Qwen-32B"),  # Ollama's tag for the distill
        ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "DeepSeek-R1-Distill-Llama-70B"),
        ("Llama 3.3 70B", "Llama-3.3-70B"),
        ("Llama 3.1 70B", "Llama-3.1-70B"),
        ("Qwen3-32B", "Qwen3-32B"),
        ("qwen3:8b", "Qwen3-8B"),
        ("千问3-14B", "Qwen3-14B"),
        ("Qwen3-30B-A3B", "Qwen3-30B-A3B"),
        ("Qwen/QwQ-32B", "QwQ-32B"),
        ("gemma-2-27b-it", "Gemma-2-27B"),
        ("Gemma 3 12B", "Gemma-3-12B"),
        ("Mistral 7B", "Mistral-7B-v0.3"),
        ("mistralai/Mistral-Nemo-Instruct-2407", "Mistral-Nemo-12B"),
        ("Mistral Large 2", "Mistral-Large-2"),
        ("microsoft/phi-4", "Phi-4"),
        ("Phi-3-mini-4k-instruct", "Phi-3-mini"),
        ("Llama 4 Scout", "Llama-4-Scout"),
        ("meta-llama/Llama-4-Maverick-17B-128E-Instruct", "Llama-4-Maverick"),
        ("openai/gpt-oss-120b", "gpt-oss-120b"),
        ("Kimi K2", "Kimi-K2"),
    ],
)
def test_late2026_model_aliases(typed: str, canonical: str) -> None:
    assert lookup_model(typed).name == canonical


@pytest.mark.parametrize("ambiguous", ["R1", "Qwen3", "Qwen 32B"])  # 1.5, 2.5 and 3 have a 32B
def test_a_bare_family_word_is_not_a_model(ambiguous: str) -> None:
    with pytest.raises(UnknownNameError):
        lookup_model(ambiguous)


def test_gpt_oss_is_served_in_its_released_4_bit_format() -> None:
    # gpt-oss model card (arXiv:2508.10925) Table 1: the 20b checkpoint is 12.8 GiB = 13.7 GB
    # (MXFP4 experts, BF16 attention and embeddings). Read as int4 with 16-bit embeddings the
    # weights come out within 10% under it, never at the 42 GB of a BF16 copy.
    from calculators.serving_layout import serving_dtype

    model = MODELS["gpt-oss-20b"]
    assert serving_dtype(model=model, gpu=lookup_gpu("4060 Ti")) == "int4"
    embeddings = 2 * model.vocab * model.hidden * 2
    int4 = (model.params - 2 * model.vocab * model.hidden) * (0.5 + 2 / 128) + embeddings
    assert 0.9 * 13.7e9 < int4 < 13.7e9


def test_every_late2026_approximation_is_written_down() -> None:
    # sliding-window / chunked attention counted as full, vision encoders left out, MXFP4
    for name in ("Gemma-2-9B", "Gemma-3-27B", "Llama-4-Scout", "gpt-oss-20b"):
        assert MODELS[name].notes


def test_approximations_are_said_in_both_languages() -> None:
    from assistant.i18n import text
    from calculators.serving_layout import approximation_messages

    said = approximation_messages(MODELS["Gemma-3-27B"])
    assert [m.key for m in said] == [
        "serving.approx.kv_full_attention",
        "serving.approx.vision_encoder_excluded",
    ]
    assert all("Gemma-3-27B" in text(m, lang) for m in said for lang in ("en", "zh"))
    # the models the catalog holds exactly say nothing of the kind
    assert approximation_messages(MODELS["Qwen3-8B"]) == ()
    assert approximation_messages(MODELS["DeepSeek-R1"]) == ()
