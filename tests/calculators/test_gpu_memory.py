"""Memory calculator: published figures, sharding rules, fine-tuning, inference, fitting."""

from __future__ import annotations

import math
from typing import Any

import pytest

from calculators import CalculatorInputError, UnknownNameError
from calculators.catalog.hardware import GPUS, lookup_gpu
from calculators.catalog.models import MODELS, generic_model, lookup_model
from calculators.gpu_memory import (
    USABLE_FRACTION,
    finetune_memory,
    inference_memory,
    lora_trainable_params,
    training_memory,
)
from calculators.layout_search import min_gpus_to_fit

LLAMA2_70B = MODELS["Llama-2-70B"]
LLAMA2_7B = MODELS["Llama-2-7B"]
GPT3 = MODELS["GPT-3 175B"]


@pytest.mark.parametrize(
    ("zero_stage", "published_gb"),
    [
        # Rajbhandari et al. 2020, ZeRO (arXiv:1910.02054) Fig. 1: Ψ = 7.5B, N_d = 64, K = 12.
        (0, 120.0),  # baseline (2 + 2 + 12) Ψ
        (1, 31.4),  # P_os: 2Ψ + 2Ψ + 12Ψ/N_d
        (2, 16.6),  # P_os+g: 2Ψ + 14Ψ/N_d
        (3, 1.9),  # P_os+g+p: 16Ψ/N_d
    ],
)
def test_zero_paper_figure_1(zero_stage: int, published_gb: float) -> None:
    model = generic_model(params=7.5e9)
    result = training_memory(model=model, gpus=64, zero_stage=zero_stage)
    # The figure rounds to 0.1 GB; the generic 7.5B shape is within 0.3% of 7.5e9.
    assert result.model_state_bytes / 1e9 == pytest.approx(published_gb, abs=0.1)


def test_fsdp_is_zero_stage_3() -> None:
    fsdp = training_memory(model=LLAMA2_7B, gpus=8, zero_stage="fsdp")
    zero3 = training_memory(model=LLAMA2_7B, gpus=8, zero_stage=3)
    assert fsdp == zero3


def test_mixed_precision_adam_is_16_bytes_per_param() -> None:
    result = training_memory(model=LLAMA2_7B, gpus=1)
    assert result.weights_bytes == 2 * LLAMA2_7B.params
    assert result.gradients_bytes == 2 * LLAMA2_7B.params
    assert result.optimizer_bytes == 12 * LLAMA2_7B.params
    assert result.model_state_bytes == 16 * LLAMA2_7B.params


@pytest.mark.parametrize(
    ("optimizer", "precision", "state_bytes"),
    [
        ("adam", "bf16", 16),  # ZeRO §3.1: 2 + 2 + 12
        ("adam8bit", "bf16", 10),  # Dettmers et al. 2022: 1-byte m and v, fp32 master kept
        ("sgd", "bf16", 8),  # 2 + 2 + fp32 master 4
        ("sgd_momentum", "bf16", 12),
        ("adam", "fp32", 16),  # 4 + 4 + 8 (no master copy needed)
        ("sgd", "fp32", 8),
    ],
)
def test_optimizer_bytes_per_param(optimizer: str, precision: str, state_bytes: float) -> None:
    result = training_memory(model=LLAMA2_7B, gpus=1, optimizer=optimizer, precision=precision)
    assert result.model_state_bytes == pytest.approx(state_bytes * LLAMA2_7B.params)


def test_korthikanti_table2_coefficients_gpt3() -> None:
    # Korthikanti et al. 2022 (arXiv:2205.05198) Table 2 and Table 3 (175B: h 12288, a 96,
    # s 2048, t 8): per-layer bytes sbh(34/t + 5as/(ht)) with sequence parallelism, sbh·34/t with
    # selective recompute, 2sbh/t with full recompute (layer inputs only).
    s, b, h, a, t = 2048, 1, 12288, 96, 8
    kwargs: dict[str, Any] = {"model": GPT3, "gpus": 8, "tensor_parallel": 8, "sequence_length": s}
    logits = 4 * s * b * GPT3.vocab / t
    none = training_memory(recompute="none", flash_attention=False, **kwargs)
    selective = training_memory(recompute="selective", **kwargs)
    expected_none = 96 * s * b * h * (34 + 5 * a * s / h) / t
    assert none.activations_bytes - logits == pytest.approx(expected_none)
    assert selective.activations_bytes - logits == pytest.approx(96 * s * b * h * 34 / t)
    # The paper's headline: about 5x less than tensor parallelism alone, sbh(10 + 24/t + 5as/ht).
    baseline = 96 * s * b * h * (10 + 24 / t + 5 * a * s / (h * t))
    assert baseline / (selective.activations_bytes - logits) == pytest.approx(5.4, abs=0.1)


def test_full_recompute_keeps_layer_inputs_plus_one_layer() -> None:
    s, h = 4096, LLAMA2_7B.hidden
    full = training_memory(model=LLAMA2_7B, gpus=1, sequence_length=s, recompute="full")
    logits = 4 * s * LLAMA2_7B.vocab
    expected = LLAMA2_7B.layers * 2 * s * h + s * h * 34  # flash attention: no a·s²
    assert full.activations_bytes - logits == pytest.approx(expected)


def test_flash_attention_removes_the_quadratic_term() -> None:
    slow = training_memory(model=LLAMA2_7B, gpus=1, recompute="none", flash_attention=False)
    fast = training_memory(model=LLAMA2_7B, gpus=1, recompute="none", flash_attention=True)
    assert slow.activations_bytes > fast.activations_bytes


def test_pipeline_first_stage_holds_p_micro_batches() -> None:
    # Korthikanti §4.2.3: with 1F1B the first stage stores p micro-batches, so its activation
    # memory is that of the whole model's L layers for one micro-batch, whatever p is.
    one = training_memory(model=GPT3, gpus=8, tensor_parallel=8, recompute="selective")
    piped = training_memory(model=GPT3, gpus=64, tensor_parallel=8, pipeline_parallel=8)
    logits = 4 * 2048 * GPT3.vocab / 8
    assert piped.activations_bytes == pytest.approx(one.activations_bytes - logits)
    assert piped.weights_bytes < one.weights_bytes / 7


def test_offload_moves_gradients_and_optimizer_to_host() -> None:
    # ZeRO-Offload (Ren et al. 2021, arXiv:2101.06840 §4): fp16 gradients and the optimizer
    # states live on the host; the GPU keeps the fp16 weights (13B fits a 32 GB V100).
    kept = training_memory(model=LLAMA2_7B, gpus=1)
    moved = training_memory(model=LLAMA2_7B, gpus=1, offload_optimizer=True)
    assert moved.optimizer_bytes == moved.gradients_bytes == 0
    assert moved.offloaded_bytes == kept.optimizer_bytes + kept.gradients_bytes
    assert moved.total_bytes == pytest.approx(
        kept.total_bytes - kept.optimizer_bytes - kept.gradients_bytes
    )
    assert moved.weights_bytes == kept.weights_bytes


def test_llama2_70b_fp16_does_not_fit_one_80gb_gpu() -> None:
    # 68.98e9 params x 2 bytes = 138 GB of weights alone (issue acceptance criterion).
    result = inference_memory(model=LLAMA2_70B, weight_dtype="fp16", batch_size=1, context_length=1)
    assert result.weights_bytes == pytest.approx(137.95e9, rel=1e-3)
    assert not result.fits(memory_bytes=lookup_gpu("A100 80GB").memory_bytes)
    assert not result.fits(memory_bytes=lookup_gpu("H100").memory_bytes, usable_fraction=1.0)


def test_llama2_70b_kv_cache_per_token() -> None:
    one = inference_memory(model=LLAMA2_70B, kv_dtype="fp16", batch_size=1, context_length=1)
    assert one.kv_cache_bytes == 327_680  # 2 x 80 x 8 x 128 x 2
    big = inference_memory(model=LLAMA2_70B, kv_dtype="fp16", batch_size=8, context_length=4096)
    assert big.kv_cache_bytes == 327_680 * 8 * 4096


def test_kv_cache_splits_over_tensor_parallel_up_to_kv_heads() -> None:
    base = inference_memory(model=LLAMA2_70B, context_length=4096, batch_size=4)
    tp8 = inference_memory(model=LLAMA2_70B, context_length=4096, batch_size=4, tensor_parallel=8)
    tp16 = inference_memory(model=LLAMA2_70B, context_length=4096, batch_size=4, tensor_parallel=16)
    assert tp8.kv_cache_bytes == pytest.approx(base.kv_cache_bytes / 8)
    assert tp16.kv_cache_bytes == tp8.kv_cache_bytes  # only 8 KV heads to split


@pytest.mark.parametrize(
    ("dtype", "bytes_per_linear_param"),
    [("fp32", 4.0), ("bf16", 2.0), ("fp8", 1.0), ("int8", 1.0), ("int4", 0.515625)],
)
def test_weight_dtypes(dtype: str, bytes_per_linear_param: float) -> None:
    result = inference_memory(model=LLAMA2_7B, weight_dtype=dtype)
    other = LLAMA2_7B.embedding_params + (2 * LLAMA2_7B.layers + 1) * LLAMA2_7B.hidden
    linear = LLAMA2_7B.params - other
    other_bytes = max(bytes_per_linear_param, 2.0)
    assert result.weights_bytes == pytest.approx(
        linear * bytes_per_linear_param + other * other_bytes
    )


def test_moe_inference_keeps_all_experts() -> None:
    mixtral = MODELS["Mixtral-8x7B"]
    result = inference_memory(model=mixtral, context_length=1)
    assert result.weights_bytes == pytest.approx(2 * mixtral.params)
    assert result.weights_bytes > 3 * 2 * mixtral.active_params


def test_lora_trainable_params_llama2_7b() -> None:
    # PEFT on all linear layers of Llama-2-7B at r = 16 reports 39,976,960 trainable parameters:
    # 16 x 32 layers x [(4096+4096) x 4 attention + (4096+11008) x 3 MLP].
    assert lora_trainable_params(LLAMA2_7B, rank=16) == 39_976_960


def test_qlora_65b_fits_one_48gb_gpu() -> None:
    # QLoRA (arXiv:2305.14314) abstract: fine-tunes a 65B model on a single 48 GB GPU.
    llama65 = generic_model(params=65.2e9)
    result = finetune_memory(model=llama65, method="qlora", sequence_length=512)
    assert result.fits(memory_bytes=48e9)
    lora = finetune_memory(model=llama65, method="lora", sequence_length=512)
    assert not lora.fits(memory_bytes=48e9)


def test_finetune_methods_order() -> None:
    sizes = [
        finetune_memory(model=LLAMA2_7B, method=m).total_bytes for m in ("full", "lora", "qlora")
    ]
    assert sizes == sorted(sizes, reverse=True)
    assert finetune_memory(model=LLAMA2_7B, method="full").kind == "finetune"


def test_min_gpus_inference_llama2_70b() -> None:
    plan = min_gpus_to_fit(gpu=lookup_gpu("A100 80GB"), model=LLAMA2_70B, kind="inference")
    assert plan is not None
    assert plan.breakdown.total_bytes <= USABLE_FRACTION * 80e9
    # One fewer power-of-two tensor-parallel step must not fit.
    smaller = inference_memory(model=LLAMA2_70B, tensor_parallel=plan.tensor_parallel // 2)
    assert not smaller.fits(memory_bytes=80e9)


def test_min_gpus_one_gpu_when_it_fits() -> None:
    plan = min_gpus_to_fit(gpu=lookup_gpu("H100"), model=LLAMA2_7B, kind="inference")
    assert plan is not None
    assert plan.gpus == 1


def test_min_gpus_training_is_minimal() -> None:
    gpu = lookup_gpu("A100 80GB")
    plan = min_gpus_to_fit(gpu=gpu, model=LLAMA2_7B, kind="training", sequence_length=4096)
    assert plan is not None
    assert plan.breakdown.fits(memory_bytes=gpu.memory_bytes)
    for zero in range(4):
        fewer = (
            training_memory(
                model=LLAMA2_7B, gpus=plan.gpus - 1, zero_stage=zero, sequence_length=4096
            )
            if plan.gpus > 1
            else None
        )
        assert fewer is None or not fewer.fits(memory_bytes=gpu.memory_bytes)


def test_min_gpus_respects_fixed_layout_and_gives_up() -> None:
    gpu = lookup_gpu("4090")
    assert (
        min_gpus_to_fit(
            gpu=gpu,
            model=LLAMA2_70B,
            kind="training",
            zero_stage=0,
            tensor_parallel=1,
            pipeline_parallel=1,
        )
        is None
    )
    assert (
        min_gpus_to_fit(
            gpu=GPUS["T4"], model=generic_model(params=1e14), kind="training", max_gpus=1000
        )
        is None
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"gpus": 0}, "gpus"),
        ({"gpus": -8}, "gpus"),
        ({"gpus": 12, "tensor_parallel": 8}, "gpus"),  # not a multiple of t x p
        ({"gpus": 8, "zero_stage": 4}, "zero_stage"),
        ({"gpus": 8, "zero_stage": "zero9"}, "zero_stage"),
        ({"gpus": 8, "micro_batch_size": 0}, "micro_batch_size"),
        ({"gpus": 8, "sequence_length": -1}, "sequence_length"),
        ({"gpus": 8, "precision": "fp4"}, "precision"),
        ({"gpus": 8, "optimizer": "lion"}, "optimizer"),
        ({"gpus": 8, "recompute": "some"}, "recompute"),
        ({"gpus": 8, "tensor_parallel": 128}, "tensor_parallel"),  # more than 64 heads
        ({"gpus": 2.5}, "gpus"),
    ],
)
def test_training_bad_inputs_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(CalculatorInputError) as info:
        training_memory(model=LLAMA2_70B, **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field
    assert info.value.localized("zh")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"batch_size": 0}, "batch_size"),
        ({"context_length": 10**12}, "context_length"),
        ({"weight_dtype": "int3"}, "weight_dtype"),
        ({"kv_dtype": "int2"}, "kv_dtype"),
        ({"runtime_overhead_fraction": math.nan}, "runtime_overhead_fraction"),
        ({"tensor_parallel": 0}, "tensor_parallel"),
    ],
)
def test_inference_bad_inputs_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(CalculatorInputError) as info:
        inference_memory(model=LLAMA2_70B, **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


def test_finetune_and_fit_bad_inputs() -> None:
    with pytest.raises(CalculatorInputError, match="method"):
        finetune_memory(model=LLAMA2_7B, method="prefix")
    with pytest.raises(CalculatorInputError) as info:
        finetune_memory(model=LLAMA2_7B, lora_rank=0)
    assert info.value.field == "lora_rank"
    with pytest.raises(CalculatorInputError) as info:
        min_gpus_to_fit(gpu=lookup_gpu("H100"), model=LLAMA2_7B, gpus=4)
    assert info.value.field == "gpus"
    with pytest.raises(UnknownNameError):
        lookup_model("Llama-9-1T")


def test_breakdown_total_is_the_sum_and_carries_provenance() -> None:
    result = training_memory(model=LLAMA2_70B, gpus=64, zero_stage=1, tensor_parallel=8)
    parts = (
        result.weights_bytes
        + result.gradients_bytes
        + result.optimizer_bytes
        + result.activations_bytes
        + result.kv_cache_bytes
        + result.overhead_bytes
    )
    assert result.total_bytes == pytest.approx(parts)
    assert result.formula
    assert result.sources
    assert result.assumptions
    assert ("zero_stage", "1") in result.inputs
    assert result.data_parallel == 8
