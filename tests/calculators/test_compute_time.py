"""Compute and time: published training budgets, MFU defaults, inference roofline."""

from __future__ import annotations

import math

import pytest

from calculators import CalculatorInputError
from calculators.catalog.hardware import GPUS, lookup_gpu
from calculators.catalog.models import MODELS, lookup_model
from calculators.compute_time import (
    MFU_TABLE,
    chinchilla_tokens,
    default_mfu,
    default_mfu_basis,
    gpus_for_deadline,
    inference_speed,
    training_flops,
    training_time,
)

A100_PEAK = GPUS["A100 SXM 80GB"].dense_flops_per_s("bf16")


def test_gpt3_training_compute() -> None:
    # Brown et al. 2020 (arXiv:2005.14165) Table D.1: GPT-3 175B used 3.14e23 FLOPs (300B tokens).
    flops = training_flops(active_params=MODELS["GPT-3 175B"].params, tokens=300e9)
    assert flops == pytest.approx(3.14e23, rel=0.005)


def test_megatron_2021_equation_4_gpt3_34_days() -> None:
    # Narayanan et al. 2021 (arXiv:2104.04473) §5.1 eq. (4): T = 8TP/(nX); GPT-3 175B on 300B
    # tokens, 1024 A100 at X = 140 TFLOP/s achieved -> about 34 days.
    flops = training_flops(active_params=175e9, tokens=300e9, recompute="full")
    result = training_time(
        total_flops=flops, gpus=1024, peak_flops_per_s=A100_PEAK, mfu=140e12 / A100_PEAK
    )
    assert result.days == pytest.approx(34, abs=0.5)
    assert result.gpu_hours == pytest.approx(1024 * result.seconds / 3600)


@pytest.mark.parametrize(
    ("name", "published_gpu_hours"),
    [
        # Touvron et al. 2023, Llama 2 (arXiv:2307.09288) Table 2: A100-80GB GPU-hours for the
        # 2T-token pre-training of each size.
        ("Llama-2-7B", 184_320),
        ("Llama-2-13B", 368_640),
        ("Llama-2-70B", 1_720_320),
    ],
)
def test_llama2_gpu_hours(name: str, published_gpu_hours: float) -> None:
    model, gpu = MODELS[name], lookup_gpu("A100 80GB")
    flops = training_flops(active_params=model.params, tokens=2e12)
    implied_mfu = flops / (published_gpu_hours * 3600 * gpu.dense_flops_per_s("bf16"))
    assert 0.35 < implied_mfu < 0.45  # 6ND accounting: 39%, 38%, 43%
    estimate = training_time(
        total_flops=flops,
        gpus=2048,
        peak_flops_per_s=gpu.dense_flops_per_s("bf16"),
        mfu=default_mfu(gpu),
    )
    assert estimate.gpu_hours == pytest.approx(published_gpu_hours, rel=0.10)


def test_full_recompute_is_8nd_and_selective_adds_attention() -> None:
    n, d = 7e9, 1e12
    assert training_flops(active_params=n, tokens=d, recompute="none") == 6 * n * d
    assert training_flops(active_params=n, tokens=d, recompute="full") == 8 * n * d
    model = MODELS["GPT-3 175B"]
    plain = training_flops(
        active_params=model.params, tokens=d, recompute="none", model=model, sequence_length=2048
    )
    selective = training_flops(
        active_params=model.params, tokens=d, model=model, sequence_length=2048
    )
    # Narayanan et al. 2021 eq. (3): the attention term is s/(6h) of the dense term per pass.
    assert plain / (6 * model.params * d) == pytest.approx(1 + 2048 / (6 * 12288), rel=0.01)
    # Selective recompute re-runs attention in the backward pass, but model FLOPs (PaLM App. B)
    # do not count recomputation: the MFU defaults already absorb it.
    assert selective == plain
    full = training_flops(
        active_params=model.params, tokens=d, recompute="full", model=model, sequence_length=2048
    )
    assert full > 8 * model.params * d


def test_moe_uses_active_params_for_flops() -> None:
    mixtral = MODELS["Mixtral-8x7B"]
    active = training_flops(active_params=mixtral.active_params, tokens=1e12)
    assert active == pytest.approx(6 * 12.9e9 * 1e12, rel=0.005)


def test_chinchilla_tokens() -> None:
    # Hoffmann et al. 2022 (arXiv:2203.15556) Table 3: 70B parameters, 1.4T tokens.
    assert chinchilla_tokens(params=70e9) == pytest.approx(1.4e12)


@pytest.mark.parametrize(
    ("gpu", "expected"),
    [
        ("A100 80GB", 0.40),  # Megatron 2021 / OPT / Llama 2: 38-52% on A100 -> 0.40 default
        ("A800", 0.40),
        ("H100", 0.38),  # Llama 3 Table 4: 38-43% on H100
        ("H800", 0.38),
        ("V100", 0.30),  # Megatron-LM 2019: 30% of peak on V100
        ("4090", 0.25),  # consumer, PCIe only
        ("L40S", 0.30),  # data-centre PCIe card
        ("H100 PCIe", 0.30),
        ("MI300X", 0.30),
        ("910B", 0.30),
    ],
)
def test_default_mfu_table(gpu: str, expected: float) -> None:
    found = lookup_gpu(gpu)
    assert default_mfu(found) == expected
    assert default_mfu_basis(found).sources


def test_every_gpu_has_an_mfu_below_published_best() -> None:
    for gpu in GPUS.values():
        assert 0.2 <= default_mfu(gpu) <= 0.542  # Korthikanti et al. 2022: 54.2% best
    assert all(entry.sources for entry in MFU_TABLE.values())


@pytest.mark.parametrize(
    ("flops", "days", "expected"),
    [
        (8 * 175e9 * 300e9, 34, 1022),  # Megatron eq. (4) inverted
        (1e18, 1, 1),  # tiny job: never zero GPUs
    ],
)
def test_gpus_for_deadline(flops: float, days: float, expected: int) -> None:
    found = gpus_for_deadline(
        total_flops=flops,
        deadline_seconds=days * 86400,
        peak_flops_per_s=A100_PEAK,
        mfu=140e12 / A100_PEAK,
    )
    assert found == expected
    enough = training_time(
        total_flops=flops, gpus=found, peak_flops_per_s=A100_PEAK, mfu=140e12 / A100_PEAK
    )
    assert enough.seconds <= days * 86400 * (1 + 1e-9)


def test_inference_decode_is_bandwidth_bound_at_batch_one() -> None:
    model, gpu = lookup_model("Llama-2-70B"), lookup_gpu("A100 80GB")
    speed = inference_speed(model=model, gpu=gpu, gpus=4, batch_size=1, context_length=4096)
    assert speed.decode_bound == "memory"
    expected = (2 * model.params + 4096 * 327_680) / (4 * gpu.memory_bandwidth_bytes_per_s * 0.8)
    assert speed.decode_seconds_per_token == pytest.approx(expected)
    assert speed.decode_tokens_per_s == pytest.approx(1 / expected)


def test_inference_large_batch_raises_throughput() -> None:
    model, gpu = lookup_model("Llama-3.1-8B"), lookup_gpu("H100")
    one = inference_speed(model=model, gpu=gpu, batch_size=1, context_length=1024)
    many = inference_speed(model=model, gpu=gpu, batch_size=64, context_length=1024)
    assert many.decode_tokens_per_s > 10 * one.decode_tokens_per_s
    assert many.decode_seconds_per_token >= one.decode_seconds_per_token


def test_inference_fp8_uses_fp8_peak_and_moe_reads_fewer_experts() -> None:
    h100 = lookup_gpu("H100")
    fp8 = inference_speed(model=lookup_model("Llama-3.1-8B"), gpu=h100, weight_dtype="fp8")
    assert fp8.compute_precision == "fp8"
    a100 = inference_speed(
        model=lookup_model("Llama-3.1-8B"), gpu=lookup_gpu("A100"), weight_dtype="fp8"
    )
    assert a100.compute_precision == "bf16"  # no FP8 on Ampere
    mixtral = lookup_model("Mixtral-8x7B")
    one = inference_speed(model=mixtral, gpu=h100, gpus=2, batch_size=1, context_length=1)
    assert one.bytes_per_decode_step < 0.5 * 2 * mixtral.params


def test_prefill_is_compute_bound() -> None:
    model, gpu = lookup_model("Llama-2-7B"), lookup_gpu("A100")
    speed = inference_speed(model=model, gpu=gpu, prompt_tokens=1000, batch_size=1, prefill_mfu=0.5)
    minimum = 2 * model.params * 1000 / (gpu.dense_flops_per_s("bf16") * 0.5)
    assert speed.prefill_seconds >= minimum
    assert speed.prefill_seconds == pytest.approx(minimum, rel=0.05)


def test_v100_inference_falls_back_to_fp16() -> None:
    speed = inference_speed(model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("V100"))
    assert speed.compute_precision == "fp16"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: training_flops(active_params=0, tokens=1e9), "active_params"),
        (lambda: training_flops(active_params=1e30, tokens=1e9), "active_params"),
        (lambda: training_flops(active_params=math.nan, tokens=1e9), "active_params"),
        (lambda: training_flops(active_params=1e9, tokens=-5), "tokens"),
        (lambda: training_flops(active_params=1e9, tokens=1e9, recompute="x"), "recompute"),
        (lambda: chinchilla_tokens(params=-1), "params"),
        (lambda: training_time(total_flops=1e20, gpus=0, peak_flops_per_s=1e14, mfu=0.4), "gpus"),
        (lambda: training_time(total_flops=1e20, gpus=8, peak_flops_per_s=1e14, mfu=1.5), "mfu"),
        (
            lambda: training_time(total_flops=1e20, gpus=8, peak_flops_per_s=-1, mfu=0.4),
            "peak_flops_per_s",
        ),
        (
            lambda: gpus_for_deadline(
                total_flops=1e20, deadline_seconds=0, peak_flops_per_s=1e14, mfu=0.4
            ),
            "deadline_seconds",
        ),
        (
            lambda: inference_speed(
                model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("A100"), batch_size=0
            ),
            "batch_size",
        ),
        (
            lambda: inference_speed(
                model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("A100"), gpus=-2
            ),
            "gpus",
        ),
    ],
)
def test_bad_inputs_name_the_field(call: object, field: str) -> None:
    with pytest.raises(CalculatorInputError) as info:
        call()  # type: ignore[operator]
    assert info.value.field == field


def test_llama1_65b_21_days() -> None:
    # Touvron et al. 2023, LLaMA (arXiv:2302.13971) §2.4: 65.2B model, ~380 tokens/s/GPU on
    # 2048 A100-80GB, so 1.4T tokens take about 21 days.
    params, tokens = 65.2e9, 1.4e12
    mfu = 6 * params * 380 / A100_PEAK  # 47.6%: above the 0.40 planning default
    assert mfu > default_mfu(lookup_gpu("A100 80GB"))
    result = training_time(
        total_flops=training_flops(active_params=params, tokens=tokens),
        gpus=2048,
        peak_flops_per_s=A100_PEAK,
        mfu=mfu,
    )
    assert result.days == pytest.approx(21, abs=0.5)
