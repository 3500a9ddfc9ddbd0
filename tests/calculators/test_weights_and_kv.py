"""Weights and KV cache quantized together: the same-card fix when 4-bit weights alone miss.

Qwen2.5-32B at 8k on a 24 GB card: int4 weights (19.2 GB, embeddings kept 16-bit) beside a
16-bit KV cache (2 x 64 x 8 x 128 x 2 B x 8,192 = 2.15 GB) and the runtime overhead need
21.8 GB of 21.6 GB usable; the same cache in 8 bits (1.07 GB) fits.
"""

from __future__ import annotations

import pytest

from assistant.calculate.verdict import keeps_stated
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner import evaluate, run_checks
from calculators.planner.plan import Plan, PlanChange


def _serve(gpu: str, *, context: int = 8192, kv: str | None = None) -> Plan:
    return Plan(
        task="inference",
        model=lookup_model("Qwen2.5-32B"),
        gpu=lookup_gpu(gpu),
        sequence_length=context,
        kv_dtype=kv,
    )


def _both(plan: Plan) -> PlanChange:
    return next(
        s
        for s in evaluate(plan).suggestions
        if s.new_plan.weight_dtype == "int4" and s.new_plan.kv_dtype is not None
    )


def _need(plan: Plan) -> float:
    value = run_checks(plan, with_min_gpus=False)[0].figures["required_bytes_per_gpu"]
    assert isinstance(value, float)
    return value


@pytest.mark.parametrize(
    ("gpu", "kv8"),
    [
        ("RTX 4090", "fp8"),  # Ada: FP8, vLLM --kv-cache-dtype fp8
        ("A10", "int8"),  # Ampere, no FP8 in the catalog: an INT8 KV cache
    ],
)
def test_int4_alone_misses_and_int4_with_an_8bit_cache_fits(gpu: str, kv8: str) -> None:
    plan = _serve(gpu)
    assert run_checks(plan.replace(weight_dtype="int4"))[0].verdict == "fail"
    change = _both(plan)
    assert change.new_plan.kv_dtype == kv8
    assert change.evaluation_after.works
    assert not change.hardware
    assert (change.new_plan.gpu, change.new_plan.gpus) == (plan.gpu, plan.gpus)
    e = evaluate(plan)
    assert e.verdict == "conditional"
    assert e.suggestions[0] == change  # the simplest same-card change comes first


def test_the_8bit_cache_saves_exactly_half_the_kv_bytes() -> None:
    plan = _serve("RTX 4090").replace(weight_dtype="int4")
    saved = _need(plan) - _need(plan.replace(kv_dtype="fp8"))
    kv16 = 2 * 64 * 8 * 128 * 2 * 8192  # K and V x layers x KV heads x head dim x 2 B x tokens
    assert saved == pytest.approx(kv16 / 2, rel=1e-6)


def test_no_combination_when_4bit_weights_alone_fit() -> None:
    # at 2k the 16-bit cache is 0.54 GB: int4 weights alone fit, nothing more is proposed
    plan = _serve("RTX 4090", context=2048)
    kinds = [(s.new_plan.weight_dtype, s.new_plan.kv_dtype) for s in evaluate(plan).suggestions]
    assert ("int4", None) in kinds
    assert all(kv is None for _, kv in kinds)


def test_no_combination_when_even_an_8bit_cache_cannot_close_it() -> None:
    # at 32k the 8-bit cache alone is 4.3 GB beside 19.6 GB: nothing on one card works
    e = evaluate(_serve("RTX 4090", context=32768))
    assert all(s.hardware or not s.evaluation_after.works for s in e.suggestions)
    assert e.verdict == "infeasible"


@pytest.mark.parametrize(
    ("stated", "kept"),
    [
        (Scenario(), True),  # precision and KV format open
        (Scenario(precision="int4"), True),  # a weight format leaves the KV format open
        (Scenario(kv_dtype="bf16"), False),  # "keep the KV cache in bf16"
        (Scenario(precision="bf16"), False),  # "不量化" / "in bf16" fixes weights and cache
    ],
)
def test_the_combination_is_a_condition_only_when_both_formats_were_open(
    stated: Scenario, kept: bool
) -> None:
    plan = _serve("RTX 4090")
    if stated.precision == "int4":
        plan = plan.replace(weight_dtype="int4")
        change = next(s for s in evaluate(plan).suggestions if s.kind == "kv_quantization")
    else:
        change = _both(plan)
    assert keeps_stated(change, plan, stated) is kept


def test_a_tensor_parallel_split_with_int4_and_an_8bit_cache() -> None:
    # Qwen2.5-72B on 2 x RTX 4090 at 8k: int4 over TP=2 is ~20.6 GB of weights per card plus
    # 1.34 GB of 16-bit KV per card: just over 21.6 GB; the FP8 cache (0.67 GB) fits
    plan = Plan(
        task="inference",
        model=lookup_model("Qwen2.5-72B"),
        gpu=lookup_gpu("RTX 4090"),
        gpus=2,
        sequence_length=8192,
    )
    split = plan.replace(weight_dtype="int4", tensor_parallel=2)
    assert run_checks(split)[0].verdict == "fail"
    e = evaluate(plan)
    first = e.suggestions[0]
    assert (first.new_plan.weight_dtype, first.new_plan.kv_dtype) == ("int4", "fp8")
    assert first.new_plan.tensor_parallel == 2
    assert first.evaluation_after.works
    assert not first.hardware
    assert e.verdict == "conditional"
