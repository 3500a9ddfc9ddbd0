"""Model catalog: parameter counts against published figures, KV cache, generic shapes."""

from __future__ import annotations

import math

import pytest

from calculators import CalculatorInputError, UnknownNameError
from calculators.catalog.models import (
    MODELS,
    generic_model,
    kv_cache_bytes_per_token,
    lookup_model,
    model_alias_index,
)


@pytest.mark.parametrize(
    ("name", "published", "tolerance"),
    [
        # GPT-3 paper (arXiv:2005.14165) Table 2.1 states "175B"; the shape gives 174.6e9.
        ("GPT-3 175B", 175e9, 0.005),
        # OPT paper (arXiv:2205.01068) Table 1: 175B.
        ("OPT-175B", 175e9, 0.005),
        # bigscience/bloom model card: 176,247,271,424 parameters exactly.
        ("BLOOM-176B", 176_247_271_424, 1e-9),
        # Released Llama 2 checkpoints (meta-llama/Llama-2-*-hf): exact counts.
        ("Llama-2-7B", 6_738_415_616, 1e-9),
        ("Llama-2-13B", 13_015_864_320, 1e-9),
        ("Llama-2-70B", 68.98e9, 0.001),  # the acceptance figure, within 0.1%
        # meta-llama/Meta-Llama-3-8B / -70B model cards: 8.03B / 70.6B.
        ("Llama-3.1-8B", 8.03e9, 0.001),
        ("Llama-3.1-70B", 70.6e9, 0.001),
        # Llama 3 paper (arXiv:2407.21783) Table 3: 405B.
        ("Llama-3.1-405B", 405e9, 0.005),
        # Qwen2.5 model cards (Qwen/Qwen2.5-*): 7.61B / 14.7B / 32.5B / 72.7B. The 32B card's
        # figure is 0.8% under the count from its own config.json (32.76e9).
        ("Qwen2.5-7B", 7.61e9, 0.001),
        ("Qwen2.5-14B", 14.7e9, 0.005),
        ("Qwen2.5-32B", 32.5e9, 0.01),
        ("Qwen2.5-72B", 72.7e9, 0.001),
        # Mixtral paper (arXiv:2401.04088) §2.1 / Mistral release: 46.7B total.
        ("Mixtral-8x7B", 46.7e9, 0.001),
        # DeepSeek-V3 report (arXiv:2412.19437) §4.2: 671B total (without the MTP module).
        ("DeepSeek-V3", 671e9, 0.001),
    ],
)
def test_total_params_match_published(name: str, published: float, tolerance: float) -> None:
    assert MODELS[name].params == pytest.approx(published, rel=tolerance)


@pytest.mark.parametrize(
    ("name", "published", "tolerance"),
    [
        ("Mixtral-8x7B", 12.9e9, 0.005),  # Mistral AI release note: 12.9B active
        ("DeepSeek-V3", 37e9, 0.02),  # DeepSeek-V3 report §4.2: 37B activated (rounded)
        ("Llama-2-70B", 68.98e9, 0.001),  # dense: active == total
    ],
)
def test_active_params_match_published(name: str, published: float, tolerance: float) -> None:
    assert MODELS[name].active_params == pytest.approx(published, rel=tolerance)


def test_llama2_70b_needs_untied_output_and_three_mlp_matrices() -> None:
    import dataclasses

    model = MODELS["Llama-2-70B"]
    tied = dataclasses.replace(model, tied_embeddings=True)
    two_matrices = dataclasses.replace(model, ffn_matrices=2)
    assert model.params - tied.params == model.vocab * model.hidden
    assert model.params - two_matrices.params == model.layers * model.hidden * model.ffn_hidden


def test_dense_models_have_active_equal_total() -> None:
    for model in MODELS.values():
        if not model.is_moe:
            assert model.active_params == model.params
        else:
            assert model.active_params < model.params


@pytest.mark.parametrize(
    ("name", "dtype_bytes", "expected"),
    [
        # 2 x 80 layers x 8 KV heads x 128 x 2 bytes (GQA; 64 query heads would give 8x more).
        ("Llama-2-70B", 2, 327_680),
        # 2 x 32 x 32 x 128 x 2 = 524,288 (full multi-head attention).
        ("Llama-2-7B", 2, 524_288),
        ("Llama-3.1-8B", 1, 65_536),  # FP8 cache: 2 x 32 x 8 x 128 x 1
        # DeepSeek-V3 MLA caches the 512 + 64 latent per layer: 61 x 576 x 2.
        ("DeepSeek-V3", 2, 70_272),
    ],
)
def test_kv_cache_bytes_per_token(name: str, dtype_bytes: float, expected: float) -> None:
    assert kv_cache_bytes_per_token(MODELS[name], dtype_bytes=dtype_bytes) == expected


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("llama2-70b", "Llama-2-70B"),
        ("Llama 2 70B", "Llama-2-70B"),
        ("GPT-3", "GPT-3 175B"),
        ("gpt3", "GPT-3 175B"),
        ("千问2.5-72B", "Qwen2.5-72B"),  # "千问72B" names no version: not an entry
        ("Llama 3 8B", "Llama-3-8B"),
        ("Llama 3.1 8B", "Llama-3.1-8B"),
        ("llama3.1-405b", "Llama-3.1-405B"),
        ("mixtral 8x7b", "Mixtral-8x7B"),
        ("DeepSeek-R1", "DeepSeek-R1"),  # its own entry (the V3 architecture), not an alias
        ("bloom", "BLOOM-176B"),
        # Hugging Face checkpoint ids: organisation prefix and variant suffixes are dropped.
        ("meta-llama/Llama-2-70b-chat-hf", "Llama-2-70B"),
        ("Qwen/Qwen2.5-72B-Instruct", "Qwen2.5-72B"),
        ("mistralai/Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x7B"),
    ],
)
def test_model_lookup_by_alias(typed: str, canonical: str) -> None:
    assert lookup_model(typed).name == canonical


def test_unknown_model_suggests_closest() -> None:
    with pytest.raises(UnknownNameError) as info:
        lookup_model("llama-2-71b")
    assert info.value.field == "model"
    assert "Llama-2-70B" in info.value.suggestions


def test_model_alias_index_points_to_catalog() -> None:
    assert set(model_alias_index().values()) == set(MODELS)


@pytest.mark.parametrize("size", [1e8, 1e9, 7e9, 13e9, 70e9, 100e9, 175e9, 1e12, 1e13])
def test_generic_model_matches_requested_size(size: float) -> None:
    model = generic_model(params=size)
    assert model.params == pytest.approx(size, rel=0.02)
    assert model.hidden % 128 == 0
    assert model.heads * model.head_dim == model.hidden
    assert model.kv_heads == (8 if size > 30e9 else model.heads)


def test_generic_model_depth_follows_known_models() -> None:
    # Llama-2-70B has 80 layers and GPT-3 96 (Touvron et al. 2023 Table 1; Brown et al. 2020).
    assert generic_model(params=70e9).layers == 80
    assert generic_model(params=175e9).layers == 96
    sizes = [1e9, 1e10, 1e11, 1e12]
    depths = [generic_model(params=s).layers for s in sizes]
    assert depths == sorted(depths)


@pytest.mark.parametrize("bad", [0, -7e9, 1e30, math.nan, math.inf])
def test_generic_model_rejects_bad_sizes(bad: float) -> None:
    with pytest.raises(CalculatorInputError) as info:
        generic_model(params=bad)
    assert info.value.field == "params"


def test_kv_cache_rejects_bad_dtype_bytes() -> None:
    with pytest.raises(CalculatorInputError) as info:
        kv_cache_bytes_per_token(MODELS["Llama-2-7B"], dtype_bytes=0)
    assert info.value.field == "dtype_bytes"


def test_every_model_cites_a_source() -> None:
    for model in MODELS.values():
        assert model.sources
        assert model.params_published > 0
