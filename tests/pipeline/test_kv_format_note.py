"""A stated 8-bit weight format keeps a 16-bit KV cache in the checks (issue 10: vLLM's
`--quantization fp8` / W8A8 keep kv_cache_dtype="auto", the model dtype); the assumptions say
so, and a KV format the question states is read as its own slot and kept."""

from __future__ import annotations

import pytest

from assistant.calculate.defaults import resolve
from assistant.calculate.layouts import to_plan
from assistant.parse import parse
from assistant.records import Scenario


def _notes(precision: str | None, task: str = "inference", kv: str | None = None) -> str:
    s = Scenario(
        task=task, model="Qwen2.5-72B", gpu="L20", gpu_count=2, precision=precision, kv_dtype=kv
    )
    return "\n".join(resolve(s, None, "zh").assumptions)


@pytest.mark.parametrize("precision", ["int8", "fp8"])
def test_an_8bit_weight_format_says_the_kv_cache_stays_16bit(precision: str) -> None:
    # this pinned the old rule ("KV cache 也按 INT8（8 位）计"); the cache is now 16-bit
    notes = _notes(precision)
    assert f"权重按 {precision.upper()}；KV cache 仍按 BF16（16 位）计" in notes
    assert "KV cache 也按" not in notes


@pytest.mark.parametrize(
    ("precision", "task", "kv"),
    [("bf16", "inference", None), ("int4", "inference", None), ("int8", "finetune", None)]
    + [("int8", "inference", "fp8")],  # a stated KV format needs no default note
)
def test_no_kv_note_for_other_formats_or_training(
    precision: str, task: str, kv: str | None
) -> None:
    assert "KV cache 仍按" not in _notes(precision, task, kv)


@pytest.mark.parametrize(
    ("question", "precision", "kv"),
    [
        ("Serve Llama-3.1-70B in int8 on 2 H100", "int8", None),
        ("Serve Llama-3.1-70B in bf16 on 2 H100 with an FP8 KV cache", "bf16", "fp8"),
        ("Llama-3.1-8B on one H100, kv_cache_dtype=fp8", None, "fp8"),
        ("Llama-3.1-8B on one L4 with KV 8bit", None, "fp8"),
        ("两张H100跑Llama-3.1-70B，KV缓存用INT8", None, "int8"),
        ("用 FP8 权重和 KV cache 部署 Llama-3.1-70B", "fp8", "fp8"),
        ("Serve Llama-3.1-70B with the KV cache in fp16 on 2 H100", None, "fp16"),
    ],
)
def test_a_stated_kv_format_is_its_own_slot(
    question: str, precision: str | None, kv: str | None
) -> None:
    s = parse(question).scenario
    assert (s.precision, s.kv_dtype) == (precision, kv)


@pytest.mark.parametrize(
    ("precision", "kv", "want"),
    [("int8", None, "bf16"), ("fp8", None, "bf16"), ("int4", None, "bf16")]
    + [("fp16", None, "fp16"), ("fp8", "fp8", "fp8"), ("bf16", "int8", "int8")],
)
def test_the_plan_keeps_a_16bit_cache_unless_one_is_stated(
    precision: str, kv: str | None, want: str
) -> None:
    s = Scenario(
        task="inference",
        model="Llama-3.1-70B",
        gpu="H100",
        gpu_count=2,
        precision=precision,
        kv_dtype=kv,
    )
    plan = to_plan(resolve(s, None, "en").scenario)
    assert plan.cache_dtype == want


def test_the_format_note_names_a_stated_kv_cache() -> None:
    # no precision stated: the released bf16 weights, and the FP8 cache the question gives
    s = Scenario(task="inference", model="Llama-3.1-8B", gpu="L4", gpu_count=1, kv_dtype="fp8")
    assert "Weights in bf16, KV cache in fp8." in "\n".join(resolve(s, None, "en").assumptions)
