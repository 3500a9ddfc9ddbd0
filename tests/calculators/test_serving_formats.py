"""Smaller serving formats the planner offers (issue 10): FP8 weights where the GPU has FP8,
int8 where it has not, then 4-bit; an 8-bit KV cache when the KV cache is what overflows."""

from __future__ import annotations

import pytest

from assistant.calculate.verdict import keeps_stated
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner import evaluate
from calculators.planner.plan import Plan
from calculators.serving_solvers import kv_format, max_concurrency


def _serve(model: str, gpu: str, *, batch: int = 1, context: int = 4096) -> Plan:
    return Plan(
        task="inference",
        model=lookup_model(model),
        gpu=lookup_gpu(gpu),
        gpus=1,
        batch_size=batch,
        sequence_length=context,
    )


def _formats(plan: Plan) -> list[tuple[str, str | None, str | None]]:
    return [
        (s.kind, s.new_plan.weight_dtype, s.new_plan.kv_dtype)
        for s in evaluate(plan).suggestions
        if s.kind in ("quantization", "kv_quantization", "combined")
    ]


def test_fp8_weights_first_on_a_gpu_with_fp8() -> None:
    # Llama-3.1-70B bf16 = 141 GB > 126.9 GB usable on one H200; FP8 = 70.6 GB fits
    found = _formats(_serve("Llama-3.1-70B", "H200"))
    assert found[0] == ("quantization", "fp8", None)
    assert all(weight != "int8" for _, weight, _ in found)  # the same byte as FP8: not twice


def test_int8_not_fp8_on_a100() -> None:
    # Qwen2.5-32B bf16 = 65.5 GB > 36 GB usable on one A100 40GB; int8 32.8 GB + 1.1 GB KV fits
    found = _formats(_serve("Qwen2.5-32B", "A100 40GB"))
    assert found[0] == ("quantization", "int8", None)
    assert all(weight != "fp8" for _, weight, _ in found)


def test_an_8bit_kv_cache_when_the_kv_cache_overflows() -> None:
    # Qwen2.5-14B, 24 x 16k: 77.3 GB of KV + 29.5 GB of weights on one H100; the KV cache in
    # FP8 (38.7 GB) fits, 8-bit weights alone (14.8 + 77.3 GB) do not
    plan = _serve("Qwen2.5-14B", "H100", batch=24, context=16384)
    e = evaluate(plan)
    first = e.suggestions[0]
    assert (first.kind, first.new_plan.kv_dtype) == ("kv_quantization", "fp8")
    assert first.evaluation_after.works
    # 8-bit weights alone fix nothing here, so no weight-only change is listed
    assert not any(s.kind == "quantization" for s in e.suggestions)


def test_int8_kv_cache_where_there_is_no_fp8() -> None:
    plan = _serve("Llama-3.1-8B", "A100 80GB", batch=20, context=32768)
    kinds = {s.kind: s.new_plan.kv_dtype for s in evaluate(plan).suggestions}
    assert kinds.get("kv_quantization") == "int8"


def test_no_kv_suggestion_when_the_weights_overflow() -> None:
    # one short sequence: the KV cache is ~1% of the need, its format cannot be the fix
    assert all(
        kind != "kv_quantization" for kind, _, _ in _formats(_serve("Llama-3.1-70B", "H200"))
    )


def test_no_kv_suggestion_once_it_is_8bit() -> None:
    plan = _serve("Qwen2.5-14B", "H100", batch=24, context=16384).replace(kv_dtype="fp8")
    assert all(s.kind != "kv_quantization" for s in evaluate(plan).suggestions)


@pytest.mark.parametrize(
    ("precision", "kept"),
    [
        (None, True),  # nothing stated: the KV format is open
        ("int4", True),  # weight-only 4-bit: the KV cache's format is still open
        ("bf16", False),  # "serve it in BF16": the KV cache too
        ("fp16", False),
    ],
)
def test_a_kv_format_change_keeps_what_was_stated(precision: str | None, kept: bool) -> None:
    plan = _serve("Qwen2.5-14B", "H100", batch=24, context=16384)
    change = next(s for s in evaluate(plan).suggestions if s.kind == "kv_quantization")
    assert keeps_stated(change, plan, Scenario(precision=precision)) is kept


def test_weight_formats_under_a_stated_precision_are_not_conditions() -> None:
    plan = _serve("Llama-3.1-70B", "H200")
    change = evaluate(plan).suggestions[0]
    assert change.kind == "quantization"
    assert keeps_stated(change, plan, Scenario()) is True
    assert keeps_stated(change, plan, Scenario(precision="bf16")) is False


def test_kv_format_is_16bit_beside_any_weight_format() -> None:
    # Issue 10: this pinned the old rule (8-bit weights -> the same 8-bit KV cache). vLLM's
    # `--quantization fp8` / W8A8 / GPTQ / AWQ quantize the weights and keep
    # kv_cache_dtype="auto" (the model's 16-bit dtype) unless --kv-cache-dtype fp8 is given
    # (vLLM docs, "Quantized KV Cache"), so every weight format keeps a 16-bit cache.
    h100, v100 = lookup_gpu("H100"), lookup_gpu("V100")
    assert [kv_format(w, h100) for w in ("bf16", "fp8", "int8", "int4")] == ["bf16"] * 4
    assert kv_format("fp16", h100) == "fp16"  # a stated 16-bit format is kept
    assert kv_format("int8", v100) == "fp16"  # no bf16 on Volta: its 16-bit default
    # so 4-bit weights hold no more sequences than their freed memory allows: a 16-bit cache
    four = max_concurrency(
        model=lookup_model("Llama-3.1-8B"), gpu=h100, gpus=1, weight_dtype="int4"
    )
    assert round(four.kv_bytes_per_sequence_per_gpu / 1e9, 2) == 0.54  # 131,072 B x 4096


@pytest.mark.parametrize("weight", ["fp8", "int8"])
def test_8bit_weights_keep_a_2_byte_kv_cache(weight: str) -> None:
    # Llama-3.1-70B at 32k: 2 x 80 layers x 8 kv heads x 128 x 2 B = 327,680 B/token
    # x 32,768 = 10.74 GB per sequence, spread over the TP degree (plus a sequence's small
    # activation working set, well under 1%)
    c = max_concurrency(
        model=lookup_model("Llama-3.1-70B"),
        gpu=lookup_gpu("H100"),
        gpus=2,
        context_length=32768,
        weight_dtype=weight,
    )
    split = c.tensor_parallel * c.pipeline_parallel
    assert c.kv_bytes_per_sequence_per_gpu * split == pytest.approx(327_680 * 32_768, rel=0.01)


def test_an_8bit_kv_cache_only_when_asked() -> None:
    # the same deployment with --kv-cache-dtype fp8: half the bytes, about twice the sequences
    args = {
        "model": lookup_model("Llama-3.1-70B"),
        "gpu": lookup_gpu("H100"),
        "gpus": 2,
        "context_length": 32768,
        "weight_dtype": "fp8",
    }
    sixteen, eight = max_concurrency(**args), max_concurrency(**args, kv_dtype="fp8")
    assert eight.kv_bytes_per_sequence_per_gpu == pytest.approx(
        sixteen.kv_bytes_per_sequence_per_gpu / 2, rel=0.01
    )
    assert eight.sequences > sixteen.sequences


def test_fp8_serving_plan_keeps_a_16bit_cache_and_offers_fp8_kv_and_the_combination() -> None:
    # Plan.cache_dtype: an FP8 plan (compute precision fp8, no kv_dtype) reads bf16 for the
    # KV cache; the planner then offers the 8-bit cache as its own change
    plan = _serve("Qwen2.5-14B", "H100", batch=24, context=16384).replace(precision="fp8")
    assert plan.cache_dtype == "bf16"
    kinds = {(s.kind, s.new_plan.kv_dtype) for s in evaluate(plan).suggestions}
    assert ("kv_quantization", "fp8") in kinds


def test_bf16_plan_offers_8bit_weights_and_8bit_kv_together() -> None:
    # Qwen2.5-32B, 8 x 16k on one H100: 65.5 GB bf16 weights + 34.4 GB KV; FP8 weights alone
    # (32.8 + 34.4 = 67.2 GB) or the KV cache alone in FP8 (65.5 + 17.2) - the combination
    # (32.8 + 17.2 = 50 GB) is listed as its own change
    plan = _serve("Qwen2.5-32B", "H100", batch=8, context=16384)
    found = _formats(plan)
    assert ("combined", "fp8", "fp8") in found
    assert ("quantization", "fp8", None) in found or ("quantization", "fp8", "bf16") in found


def test_users_streaming_together_each_need_a_slot() -> None:
    from calculators.serving_target import gpus_for_target

    # 100 users at 20 tok/s each is 2,000 tok/s, but also 100 sequences in flight at once:
    # replicas x sequences per replica must hold all of them, not only the token rate
    model, gpu = lookup_model("Qwen2.5-72B"), lookup_gpu("H20")
    free = gpus_for_target(
        model=model, gpu=gpu, target_tokens_per_second=2000, target_seconds_per_token=0.05
    )
    held = gpus_for_target(
        model=model,
        gpu=gpu,
        target_tokens_per_second=2000,
        target_seconds_per_token=0.05,
        target_concurrency=100,
    )
    assert held.replicas * held.sequences_per_replica >= 100
    assert (held.gpus or 0) >= (free.gpus or 0)


def test_an_8bit_kv_cache_when_its_half_closes_a_small_shortfall() -> None:
    # Qwen2.5-72B int8 on 2 L20 (TP=2) at 32k: ~37.6 GB of weights + 5.4 GB of 16-bit KV per
    # GPU misses 43.2 GB usable by ~1%; the KV cache is only ~12% of the need (under
    # KV_BOUND_SHARE) but an FP8 cache (2.7 GB) closes the gap, so it is offered
    plan = Plan(
        task="inference",
        model=lookup_model("Qwen2.5-72B"),
        gpu=lookup_gpu("L20"),
        gpus=2,
        tensor_parallel=2,
        sequence_length=32768,
        weight_dtype="int8",
    )
    e = evaluate(plan)
    assert e.check("memory").verdict == "fail"
    kv8 = next(s for s in e.suggestions if s.kind == "kv_quantization")
    assert kv8.new_plan.kv_dtype == "fp8"
    assert kv8.evaluation_after.works
