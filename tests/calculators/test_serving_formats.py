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


def test_kv_format_beside_4bit_weights_is_16bit() -> None:
    h100 = lookup_gpu("H100")
    assert [kv_format(w, h100) for w in ("bf16", "fp8", "int8", "int4")] == [
        "bf16",
        "fp8",
        "int8",
        "bf16",
    ]
    # so 4-bit weights hold no more sequences than their freed memory allows: a 16-bit cache
    four = max_concurrency(
        model=lookup_model("Llama-3.1-8B"), gpu=h100, gpus=1, weight_dtype="int4"
    )
    assert round(four.kv_bytes_per_sequence_per_gpu / 1e9, 2) == 0.54  # 131,072 B x 4096


def test_users_streaming_together_each_need_a_slot() -> None:
    from calculators.serving_solvers import gpus_for_target

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
