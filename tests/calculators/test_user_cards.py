"""User GPU and model cards (calculators.catalog.extend, hf_config): checked rows, exact shapes
read from Hugging Face config.json files, and the catalogs they extend."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from calculators.catalog.extend import (
    add_gpu,
    add_model,
    catalog_generation,
    check_gpu_row,
    check_model_row,
    forget_user_cards,
)
from calculators.catalog.hardware import GPUS, lookup_gpu
from calculators.catalog.hf_config import model_row_from_hf_config
from calculators.catalog.models import MODELS, lookup_model
from calculators.errors import CalculatorInputError, UnknownNameError
from calculators.planner import Plan, evaluate

GPU_ROW: dict[str, Any] = {
    "name": "Lab X1 48GB",
    "aliases": ["Lab X1"],
    "memory_GB": 48,
    "memory_bandwidth_TBps": 0.96,
    "bf16_dense_TFLOPS": 180,
    "tdp_W": 300,
    "sources": {"memory": "Lab X1 datasheet"},
}

# config.json of each model as published on the Hugging Face Hub (the keys that set the shape);
# the catalog's exact counts come from the same files (calculators/catalog/data/models.json).
HF_CONFIGS: dict[str, dict[str, Any]] = {
    # meta-llama/Llama-2-7b-hf config.json
    "Llama-2-7B": {
        "model_type": "llama",
        "hidden_size": 4096,
        "intermediate_size": 11008,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 32,
        "vocab_size": 32000,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": False,
        "torch_dtype": "float16",
    },
    # mistralai/Mixtral-8x7B-v0.1 config.json: the expert size is intermediate_size
    "Mixtral-8x7B": {
        "model_type": "mixtral",
        "hidden_size": 4096,
        "intermediate_size": 14336,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "vocab_size": 32000,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
        "torch_dtype": "bfloat16",
    },
    # Qwen/Qwen2-7B config.json: QKV biases are implied by model_type qwen2
    "Qwen2-7B": {
        "model_type": "qwen2",
        "hidden_size": 3584,
        "intermediate_size": 18944,
        "num_hidden_layers": 28,
        "num_attention_heads": 28,
        "num_key_value_heads": 4,
        "vocab_size": 152064,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
    },
    # Qwen/Qwen1.5-MoE-A2.7B config.json: the shared expert is one 4 x 1408 wide FFN
    "Qwen1.5-MoE-A2.7B": {
        "model_type": "qwen2_moe",
        "hidden_size": 2048,
        "intermediate_size": 5632,
        "moe_intermediate_size": 1408,
        "shared_expert_intermediate_size": 5632,
        "num_experts": 60,
        "num_experts_per_tok": 4,
        "num_hidden_layers": 24,
        "num_attention_heads": 16,
        "num_key_value_heads": 16,
        "vocab_size": 151936,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
    },
    # deepseek-ai/DeepSeek-V3 config.json: MLA, 256 routed + 1 shared expert, FP8 weights
    "DeepSeek-V3": {
        "model_type": "deepseek_v3",
        "hidden_size": 7168,
        "intermediate_size": 18432,
        "moe_intermediate_size": 2048,
        "n_routed_experts": 256,
        "n_shared_experts": 1,
        "num_experts_per_tok": 8,
        "first_k_dense_replace": 3,
        "num_hidden_layers": 61,
        "num_attention_heads": 128,
        "num_key_value_heads": 128,
        "q_lora_rank": 1536,
        "kv_lora_rank": 512,
        "qk_rope_head_dim": 64,
        "qk_nope_head_dim": 128,
        "v_head_dim": 128,
        "vocab_size": 129280,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
        "quantization_config": {"quant_method": "fp8"},
    },
}


@pytest.fixture(autouse=True)
def _shipped_catalogs() -> Iterator[None]:
    """Each test starts and ends with the shipped catalogs only."""
    forget_user_cards()
    yield
    forget_user_cards()


@pytest.mark.parametrize("name", sorted(HF_CONFIGS))
def test_a_config_json_gives_the_exact_published_shape(name: str) -> None:
    shipped = lookup_model(name)
    row = check_model_row(model_row_from_hf_config(HF_CONFIGS[name], name=f"mine-{name}"))
    mine = add_model(row)
    assert (mine.params, mine.active_params) == (shipped.params, shipped.active_params)
    assert mine.kv_heads == shipped.kv_heads
    assert mine.release_dtype == shipped.release_dtype  # DeepSeek-V3: fp8


def test_a_gpu_card_is_found_by_name_and_alias_and_planned_on() -> None:
    before = catalog_generation()
    gpu = add_gpu(GPU_ROW)
    assert catalog_generation() != before  # the parser's alias indexes rebuild
    assert lookup_gpu("lab x1") is gpu
    assert gpu.memory_bytes == 48e9
    assert gpu.dense_flops_per_s("bf16") == 180e12
    assert gpu.intra_link == "PCIe Gen4 x16"  # the default link, by its catalog name
    plan = Plan(task="inference", model=lookup_model("Llama-2-7B"), gpu=gpu, gpus=1)
    assert evaluate(plan).verdict == "feasible"


def test_forgetting_the_cards_restores_the_shipped_catalogs() -> None:
    gpus, models = len(GPUS), len(MODELS)
    add_gpu(GPU_ROW)
    add_model(model_row_from_hf_config(HF_CONFIGS["Llama-2-7B"], name="Lab-7B"))
    assert (len(GPUS), len(MODELS)) == (gpus + 1, models + 1)
    forget_user_cards()
    assert (len(GPUS), len(MODELS)) == (gpus, models)
    with pytest.raises(UnknownNameError):
        lookup_gpu("Lab X1")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"clock_MHz": 2000}, "gpu.clock_MHz"),  # unknown field
        ({"memory_GB": -4}, "gpu.memory_GB"),  # negative
        ({"memory_GB": 0}, "gpu.memory_GB"),  # boundary: zero is not a size
        ({"memory_bandwidth_TBps": math.nan}, "gpu.memory_bandwidth_TBps"),
        ({"bf16_dense_TFLOPS": math.inf}, "gpu.bf16_dense_TFLOPS"),
        ({"tdp_W": "300 W"}, "gpu.tdp_W"),  # text where a number belongs
        ({"intra_link": "Warp drive"}, "gpu.intra_link"),  # unknown link name
        ({"name": "H100"}, "gpu.name"),  # a shipped name
        ({"aliases": ["4090"]}, "gpu.name"),  # a shipped alias
        ({"sources": {}}, "gpu.sources"),  # every figure cites its source
        ({"bf16_dense_TFLOPS": None}, "gpu.bf16_dense_TFLOPS"),  # no 16-bit peak at all
    ],
)
def test_a_bad_gpu_card_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    row = {k: v for k, v in {**GPU_ROW, **change}.items() if v is not None}
    with pytest.raises(CalculatorInputError) as caught:
        check_gpu_row(row)
    assert caught.value.field == field


def test_a_missing_required_field_is_refused() -> None:
    row = {k: v for k, v in GPU_ROW.items() if k != "memory_GB"}
    with pytest.raises(CalculatorInputError, match="required") as caught:
        check_gpu_row(row)
    assert caught.value.field == "gpu.memory_GB"


def _llama(**change: Any) -> dict[str, Any]:
    return {**model_row_from_hf_config(HF_CONFIGS["Llama-2-7B"], name="Lab-7B"), **change}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rope_theta": 1e4}, "model.rope_theta"),  # unknown field
        ({"layers": -32}, "model.layers"),
        ({"layers": 32.5}, "model.layers"),  # shapes are whole numbers
        ({"kv_heads": 5}, "model.kv_heads"),  # does not divide 32 heads
        ({"experts": 8, "active_experts": 9, "moe_ffn_hidden": 11008}, "model.active_experts"),
        ({"experts": 8}, "model.moe_ffn_hidden"),  # an MoE needs its expert shape
        # Llama-2-7B is 6.74B: a card saying 13B has the wrong shape (or the wrong size)
        ({"params_published": 13e9}, "model.params_published"),
        ({"name": "llama2-7b"}, "model.name"),  # a shipped alias
        ({"training_tokens": -1}, "model.training_tokens"),
    ],
)
def test_a_bad_model_card_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(CalculatorInputError) as caught:
        check_model_row(_llama(**change))
    assert caught.value.field == field


def test_a_json_that_is_not_a_transformers_config_is_refused() -> None:
    with pytest.raises(CalculatorInputError, match="hidden_size"):
        model_row_from_hf_config({"name": "package.json"}, name="x")
