"""A stated 8-bit serving format also quantizes the KV cache in the checks; the assumptions say
so (vLLM's default keeps a 16-bit cache), so a tight fit is not an unstated default."""

from __future__ import annotations

import pytest

from assistant.calculate.defaults import resolve
from assistant.records import Scenario


def _notes(precision: str | None, task: str = "inference") -> str:
    s = Scenario(task=task, model="Qwen2.5-72B", gpu="L20", gpu_count=2, precision=precision)
    return "\n".join(resolve(s, None, "zh").assumptions)


@pytest.mark.parametrize("precision", ["int8", "fp8"])
def test_an_8bit_serving_format_says_the_kv_cache_is_8bit(precision: str) -> None:
    assert f"KV cache 也按 {precision.upper()}（8 位）计" in _notes(precision)


@pytest.mark.parametrize(
    ("precision", "task"), [("bf16", "inference"), ("int4", "inference"), ("int8", "finetune")]
)
def test_no_kv_note_for_other_formats_or_training(precision: str, task: str) -> None:
    assert "KV cache 也按" not in _notes(precision, task)
