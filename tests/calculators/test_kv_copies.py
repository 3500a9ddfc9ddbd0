"""KV heads replicated when tensor parallelism exceeds them: the JSON says logical and stored."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner import run_checks
from calculators.planner.plan import Plan


def _memory(model: str, tp: int) -> dict[str, object]:
    plan = Plan(
        task="inference",
        model=lookup_model(model),
        gpu=lookup_gpu("H100"),
        gpus=tp,
        tensor_parallel=tp,
        batch_size=8,
        sequence_length=32768,
    )
    return next(c.figures for c in run_checks(plan) if c.kind == "memory")


@pytest.mark.parametrize(
    ("model", "tp", "copies"),
    [
        ("Qwen3-235B-A22B", 8, 2),  # 4 KV heads at TP 8: each head on 2 GPUs
        ("Qwen3-235B-A22B", 4, 1),  # boundary: TP = KV heads, no copy
        ("Llama-3.1-70B", 8, 1),  # 8 KV heads at TP 8
    ],
)
def test_replicated_kv_is_the_logical_total_times_the_copies(
    model: str, tp: int, copies: int
) -> None:
    memory = _memory(model, tp)
    assert memory["kv_cache_copies"] == copies
    logical = memory["kv_cache_bytes"]
    assert isinstance(logical, float)
    assert memory["kv_cache_bytes_replicated"] == pytest.approx(logical * copies)
    # the per-GPU share is the stored footprint spread over the TP GPUs
    assert memory["kv_cache_bytes_per_gpu"] == pytest.approx(logical * copies / tp, rel=1e-6)


def test_qwen3_235b_at_tp8_stores_12_6_gb_per_sequence() -> None:
    # 2 x 94 layers x 4 KV heads x 128 x 2 B = 192,512 B/token x 32,768 = 6.31 GB logical
    memory = _memory("Qwen3-235B-A22B", 8)
    assert memory["kv_cache_bytes_per_sequence"] == pytest.approx(192_512 * 32_768)
    assert memory["kv_cache_bytes_replicated"] == pytest.approx(8 * 2 * 192_512 * 32_768)


def test_the_json_contract_lists_the_kv_figures() -> None:
    from tests.json_contract import SERVING_KV_FIGURES

    assert SERVING_KV_FIGURES <= set(_memory("Qwen3-235B-A22B", 8))
