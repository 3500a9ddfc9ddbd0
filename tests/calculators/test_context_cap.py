"""A shorter context as the serving fix when the KV cache overflows (issue 10, answers_zh4):
the longest context that fits is one division, and it is a condition only when the user left
the context open."""

from __future__ import annotations

import pytest

from assistant.calculate.verdict import keeps_stated
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import kv_cache_bytes_per_token, lookup_model
from calculators.planner import evaluate
from calculators.planner.plan import Plan


def _serve(model: str, gpu: str, *, batch: int, context: int = 4096) -> Plan:
    return Plan(
        task="inference",
        model=lookup_model(model),
        gpu=lookup_gpu(gpu),
        gpus=1,
        batch_size=batch,
        sequence_length=context,
        precision="bf16",
    )


def _cap(plan: Plan) -> Plan | None:
    found = [s for s in evaluate(plan).suggestions if s.kind == "context"]
    return found[0].new_plan if found else None


def test_the_cap_is_the_memory_left_over_the_kv_per_token() -> None:
    # Qwen2.5-14B bf16 on one A800, 64 x 4k: 29.5 GB weights + 51.5 GB KV > 72 GB usable;
    # 196,608 B/token x 64 sequences: about 42 GB of room / 12.6 MB per context token = 3.3k
    plan = _serve("Qwen2.5-14B", "A800", batch=64)
    capped = _cap(plan)
    assert capped is not None
    assert capped.sequence_length == 3328  # a multiple of 256, below 3,348
    per_token = kv_cache_bytes_per_token(plan.model, dtype_bytes=2) * 64
    assert per_token * (capped.sequence_length + 256) > 42e9  # the next step would not fit
    assert evaluate(capped).verdict == "feasible"


@pytest.mark.parametrize(
    ("model", "gpu", "batch", "context"),
    [
        ("Qwen2.5-14B", "A800", 1, 4096),  # it fits: nothing to fix
        ("Llama-3.1-70B", "H200", 1, 4096),  # the weights overflow, not the KV cache
        ("Qwen2.5-14B", "A800", 512, 4096),  # a cap under one request (1,024 + 256) is no fix
    ],
)
def test_no_cap_when_it_cannot_be_the_fix(model: str, gpu: str, batch: int, context: int) -> None:
    assert _cap(_serve(model, gpu, batch=batch, context=context)) is None


@pytest.mark.parametrize(("context", "kept"), [(None, True), (4096, False)])
def test_the_cap_is_a_condition_only_for_an_open_context(context: int | None, kept: bool) -> None:
    plan = _serve("Qwen2.5-14B", "A800", batch=64)
    change = next(s for s in evaluate(plan).suggestions if s.kind == "context")
    stated = Scenario(precision="bf16", context_length=context, concurrency=64)
    assert keeps_stated(change, plan, stated) is kept
