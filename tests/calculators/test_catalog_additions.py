"""The GPUs and models added for issue 14, each figure checked against the source it cites."""

from __future__ import annotations

import dataclasses

import pytest

from calculators import UnknownNameError
from calculators.catalog.hardware import GPUS, LINKS, lookup_gpu
from calculators.catalog.models import MODELS, kv_cache_bytes_per_token, lookup_model

# name, memory GB, bandwidth TB/s, dense FP16 TFLOPS, dense FP8 TFLOPS (None: no FP8), TDP W
GPU_DATASHEETS = [
    # NVIDIA Tesla P100 datasheet (2016): NVLink version 16 GB HBM2, 732 GB/s, FP16 21.2, 300 W.
    ("P100 SXM2 16GB", 16, 0.732, 21.2, None, 300),
    # Same datasheet, PCIe version: FP16 18.7 TFLOPS, 250 W.
    ("P100 PCIe 16GB", 16, 0.732, 18.7, None, 250),
    # NVIDIA Tesla P40 datasheet: 24 GB GDDR5, 346 GB/s, 250 W; FP16 = 12 TFLOPS FP32 / 64
    # (CUDA C++ Programming Guide throughput table, compute capability 6.1).
    ("P40 24GB", 24, 0.346, 12 / 64, None, 250),
    # NVIDIA GA102 whitepaper appendix, RTX A6000: 48 GB, 768 GB/s, FP16 (FP32 acc.) 154.8 dense.
    ("RTX A6000 48GB", 48, 0.768, 154.8, None, 300),
    # NVIDIA RTX Blackwell whitepaper appendix, RTX 5090: 32 GB, 1,792 GB/s, 209.5 / 419 dense.
    ("RTX 5090 32GB", 32, 1.792, 209.5, 419, 575),
    # NVIDIA RTX 4090 D specifications: 1,177 AI TOPS = FP8 sparse -> 294.3 dense (FP32 acc.).
    ("RTX 4090D 24GB", 24, 1.008, 147.1, 294.3, 425),
    # AMD Instinct MI250X datasheet: 128 GB HBM2e, 3.2768 TB/s, FP16 383 (no sparsity), 560 W.
    ("MI250X 128GB", 128, 3.2768, 383, None, 560),
    # NVIDIA Blackwell datasheet, HGX B100: 28 PFLOPS FP16 sparse / 8 GPUs / 2 = 1,750 dense.
    ("B100 192GB", 192, 8.0, 1750, 3500, 700),
    # H20 141 GB (reported): H200 memory (141 GB, 4.8 TB/s) with the H20's 148 TFLOPS.
    ("H20 141GB", 141, 4.8, 148, 296, 400),
]


@pytest.mark.parametrize(("name", "gb", "tbps", "fp16", "fp8", "watts"), GPU_DATASHEETS)
def test_new_gpu_figures_match_their_datasheets(
    name: str, gb: float, tbps: float, fp16: float, fp8: float | None, watts: float
) -> None:
    gpu = GPUS[name]
    assert gpu.memory_bytes == pytest.approx(gb * 1e9)
    assert gpu.memory_bandwidth_bytes_per_s == pytest.approx(tbps * 1e12)
    assert gpu.dense_flops_per_s("fp16") == pytest.approx(fp16 * 1e12, rel=1e-3)
    assert gpu.supports("fp8") == (fp8 is not None)
    if fp8 is not None:
        assert gpu.dense_flops_per_s("fp8") == pytest.approx(fp8 * 1e12, rel=1e-3)
    assert gpu.tdp_watts == watts
    assert {s.split(":")[0] for s in gpu.sources} == {"memory", "compute", "link", "power"}


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("P100", "P100 PCIe 16GB"),  # documented: the PCIe card is the common one
        ("Tesla P100 SXM2", "P100 SXM2 16GB"),
        ("P40", "P40 24GB"),
        ("A6000", "RTX A6000 48GB"),
        ("RTX 5090", "RTX 5090 32GB"),
        ("4090D", "RTX 4090D 24GB"),
        ("RTX 4090 D", "RTX 4090D 24GB"),
        ("4090", "RTX 4090 24GB"),  # the D suffix is not dropped the other way
        ("MI250X", "MI250X 128GB"),
        ("B100", "B100 192GB"),
        ("H20 141G", "H20 141GB"),
        ("H20", "H20 96GB"),  # a bare H20 stays the 96 GB card
    ],
)
def test_new_gpu_aliases(typed: str, canonical: str) -> None:
    assert lookup_gpu(typed).name == canonical


def test_pascal_precisions() -> None:
    # P100 datasheet: FP16 at twice FP32, no BF16; P40 (GP102): FP16 at 1/64 of FP32, so
    # the training default is FP32 (CUDA C++ Programming Guide, compute capability 6.1).
    assert lookup_gpu("P100").default_training_precision() == "fp16"
    assert lookup_gpu("P40").default_training_precision() == "fp32"
    assert not lookup_gpu("P40").supports("bf16")
    assert lookup_gpu("P40").dense_flops_per_s("int8") == 47e12


def test_nvlink_1_is_half_of_160_gb_per_s() -> None:
    # P100 datasheet: 4 NVLink links, 160 GB/s both directions -> 80 GB/s per direction.
    assert LINKS["NVLink 1"].bytes_per_s == 80e9
    assert lookup_gpu("P100 SXM2").intra_link_bytes_per_s == 80e9


def test_workstation_and_geforce_rates_differ() -> None:
    # GA102 whitepaper: the RTX A6000 keeps the full FP32-accumulate tensor rate, the RTX 3090
    # (same chip family) halves it: 154.8 vs 71 TFLOPS dense.
    a6000, rtx3090 = lookup_gpu("A6000"), lookup_gpu("3090")
    assert a6000.gpu_class == "workstation"
    assert a6000.dense_flops_per_s("bf16") > 2 * rtx3090.dense_flops_per_s("bf16")


# name, published total, tolerance (half a unit of the last published digit, or exact)
MODEL_TOTALS = [
    # Qwen2 report (arXiv:2407.10671) Table 1 / model cards: 0.49B, 1.54B, 7.62B, 72.7B, 57.4B.
    ("Qwen2-0.5B", 0.49e9, 0.011),
    ("Qwen2-1.5B", 1.54e9, 0.004),
    ("Qwen2-7B", 7.62e9, 0.001),
    ("Qwen2-72B", 72.7e9, 0.001),
    ("Qwen2-57B-A14B", 57.4e9, 0.001),
    # Qwen2.5 model cards (Qwen/Qwen2.5-0.5B, -1.5B, -3B): 0.49B, 1.54B, 3.09B.
    ("Qwen2.5-0.5B", 0.49e9, 0.011),
    ("Qwen2.5-1.5B", 1.54e9, 0.004),
    ("Qwen2.5-3B", 3.09e9, 0.002),
    # Qwen1.5-MoE release blog: 14.3B total.
    ("Qwen1.5-MoE-A2.7B", 14.3e9, 0.004),
    # THUDM/chatglm3-6b safetensors index: exactly 6,243,584,000 parameters.
    ("ChatGLM3-6B", 6_243_584_000, 0),
    # THUDM/glm-4-9b model card: 9.4B.
    ("GLM-4-9B", 9.4e9, 0.005),
    # Baichuan 2 report (arXiv:2309.10305) / model cards: 7.5B and 13.9B.
    ("Baichuan2-7B", 7.5e9, 0.007),
    ("Baichuan2-13B", 13.9e9, 0.004),
    # Yi report (arXiv:2403.04652) / model cards: 6.06B and 34.4B.
    ("Yi-6B", 6.06e9, 0.001),
    ("Yi-34B", 34.4e9, 0.002),
    # InternLM2 model cards: 7.74B and 19.86B.
    ("InternLM2-7B", 7.74e9, 0.001),
    ("InternLM2-20B", 19.86e9, 0.001),
    # DeepSeek-V2 report (arXiv:2405.04434) §3.1.2 and Appendix B: 236B and 15.7B total.
    ("DeepSeek-V2", 236e9, 0.003),
    ("DeepSeek-V2-Lite", 15.7e9, 0.004),
    # Mistral AI release note for Mixtral 8x22B: 141B total.
    ("Mixtral-8x22B", 141e9, 0.004),
    # meta-llama/Llama-3.2-1B and -3B model cards: 1.23B and 3.21B.
    ("Llama-3.2-1B", 1.23e9, 0.005),
    ("Llama-3.2-3B", 3.21e9, 0.002),
]


@pytest.mark.parametrize(("name", "published", "tolerance"), MODEL_TOTALS)
def test_new_model_totals_match_published(name: str, published: float, tolerance: float) -> None:
    assert MODELS[name].params == pytest.approx(published, rel=tolerance, abs=0)


@pytest.mark.parametrize(
    ("name", "published", "tolerance", "input_embedding_counted"),
    [
        # Qwen2 report Table 1 / model card: 14.2B activated (counts the embedding).
        ("Qwen2-57B-A14B", 14.2e9, 0.004, True),
        # Qwen1.5-MoE blog: 2.7B activated.
        ("Qwen1.5-MoE-A2.7B", 2.7e9, 0.02, True),
        # Mixtral 8x22B release note: 39B active.
        ("Mixtral-8x22B", 39e9, 0.013, True),
        # DeepSeek-V2 report: 21B and 2.4B activated. DeepSeek counts the compute a token
        # uses, which leaves out the input-embedding lookup (vocab x hidden).
        ("DeepSeek-V2", 21e9, 0.024, False),
        # V2-Lite counts 2.45B that way; the report prints 2.4B (truncated, not rounded).
        ("DeepSeek-V2-Lite", 2.4e9, 0.025, False),
    ],
)
def test_new_moe_active_params_match_published(
    name: str, published: float, tolerance: float, input_embedding_counted: bool
) -> None:
    model = MODELS[name]
    active = model.active_params - (0 if input_embedding_counted else model.vocab * model.hidden)
    assert active == pytest.approx(published, rel=tolerance)


def test_qwen2_7b_and_qwen25_7b_share_a_shape() -> None:
    # Qwen/Qwen2-7B and Qwen/Qwen2.5-7B config.json are identical in shape: same count.
    assert MODELS["Qwen2-7B"].params == MODELS["Qwen2.5-7B"].params == 7_615_616_512


def test_mla_without_query_compression() -> None:
    # DeepSeek-V2-Lite (arXiv:2405.04434 App. B, config q_lora_rank null): Q is one
    # hidden x heads x (128 + 64) matrix; with a rank-r compression it would be two smaller ones.
    lite = MODELS["DeepSeek-V2-Lite"]
    compressed = dataclasses.replace(lite, q_lora_rank=256)
    full_q = lite.hidden * lite.heads * (lite.head_dim + lite.qk_rope_head_dim)
    low_rank_q = 2048 * 256 + 256 + 256 * 16 * 192
    assert lite.params - compressed.params == lite.layers * (full_q - low_rank_q)
    # MLA caches the 512 + 64 latent per layer: 27 x 576 x 2 bytes.
    assert kv_cache_bytes_per_token(lite, dtype_bytes=2) == 27 * 576 * 2


def test_qwen_moe_shared_expert_gate_is_one_column_per_layer() -> None:
    # Qwen2-MoE (transformers Qwen2MoeSparseMoeBlock): shared_expert_gate is hidden -> 1.
    model = MODELS["Qwen2-57B-A14B"]
    ungated = dataclasses.replace(model, shared_expert_gate=False)
    assert model.params - ungated.params == model.layers * model.hidden


@pytest.mark.parametrize(
    ("name", "kv_bytes_per_token"),
    [
        # GLM-4-9B: 2 KV groups (multi_query_group_num 2): 2 x 40 x 2 x 128 x 2 B.
        ("GLM-4-9B", 2 * 40 * 2 * 128 * 2),
        # Yi-34B: 8 KV heads: 2 x 60 x 8 x 128 x 2 B.
        ("Yi-34B", 2 * 60 * 8 * 128 * 2),
        # Baichuan2-13B is multi-head: 2 x 40 x 40 x 128 x 2 B.
        ("Baichuan2-13B", 2 * 40 * 40 * 128 * 2),
        # Llama-3.2-1B: head_dim 64: 2 x 16 x 8 x 64 x 2 B.
        ("Llama-3.2-1B", 2 * 16 * 8 * 64 * 2),
    ],
)
def test_new_model_kv_cache(name: str, kv_bytes_per_token: int) -> None:
    assert kv_cache_bytes_per_token(MODELS[name], dtype_bytes=2) == kv_bytes_per_token


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Qwen2-7B", "Qwen2-7B"),
        ("Qwen/Qwen2-57B-A14B-Instruct", "Qwen2-57B-A14B"),
        ("Qwen2.5-7B", "Qwen2.5-7B"),  # Qwen2 did not take Qwen2.5's names
        ("THUDM/chatglm3-6b", "ChatGLM3-6B"),
        ("glm-4-9b-chat", "GLM-4-9B"),
        ("百川2-13B", "Baichuan2-13B"),
        ("01-ai/Yi-34B-Chat", "Yi-34B"),
        ("internlm/internlm2-chat-7b", "InternLM2-7B"),
        ("deepseek-ai/DeepSeek-V2-Lite-Chat", "DeepSeek-V2-Lite"),
        ("DeepSeek-V2.5", "DeepSeek-V2"),
        ("mistralai/Mixtral-8x22B-Instruct-v0.1", "Mixtral-8x22B"),
        ("meta-llama/Llama-3.2-3B-Instruct", "Llama-3.2-3B"),
    ],
)
def test_new_model_aliases(typed: str, canonical: str) -> None:
    assert lookup_model(typed).name == canonical


def test_qwen2_57b_without_a14b_is_not_qwen25_7b() -> None:
    # "Qwen2-57B" normalizes to the key of "Qwen2.5-7B"; it is not an alias of either entry
    # (the parser refuses the look-alike by its digit groups).
    assert "Qwen2-57B" not in MODELS["Qwen2-57B-A14B"].aliases
    with pytest.raises(UnknownNameError):
        lookup_model("Qwen3-57B-A14B")


@pytest.mark.parametrize(
    ("name", "tokens"),
    [
        ("Qwen2-7B", 7e12),  # Qwen2 report §3.1: over 7T tokens
        ("Qwen2-0.5B", 12e12),  # Qwen2 report §3.1: 12T for the 0.5B model
        ("Baichuan2-7B", 2.6e12),  # Baichuan 2 report abstract
        ("Yi-34B", 3.1e12),  # Yi report abstract
        ("DeepSeek-V2", 8.1e12),  # DeepSeek-V2 report abstract
        ("DeepSeek-V2-Lite", 5.7e12),  # DeepSeek-V2 report Appendix B
        ("GLM-4-9B", 10e12),  # GLM-4 report (arXiv:2406.12793)
        ("Mixtral-8x22B", None),  # not published
    ],
)
def test_published_training_tokens(name: str, tokens: float | None) -> None:
    model = MODELS[name]
    assert model.training_tokens == tokens
    assert (model.training_tokens_source != "") == (tokens is not None)


def test_release_dtypes_follow_config_json() -> None:
    # THUDM/chatglm3-6b config.json: torch_dtype float16; the others here are bfloat16.
    assert MODELS["ChatGLM3-6B"].release_dtype == "fp16"
    for name in ("GLM-4-9B", "DeepSeek-V2", "Mixtral-8x22B", "Llama-3.2-1B", "Yi-6B"):
        assert MODELS[name].release_dtype == "bf16"
