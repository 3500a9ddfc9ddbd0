"""The count and length solvers try an 8-bit KV cache beside smaller weights when both are open.

Qwen2.5-32B on one 24 GB card at 8k: no sequence beside bf16 weights (65.5 GB), none beside
int4 weights with a 16-bit cache (2.0 GB left, 2.15 GB a sequence), one with an 8-bit cache
(1.07 GB a sequence). A stated KV format or 16-bit precision is never swapped for another.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.calculate.solvers import concurrency, solved
from assistant.config import Settings
from assistant.pipeline import answer
from assistant.records import Scenario
from calculators.messages import Msg
from tests.conftest import open_test_retriever


def _scenario(**more: object) -> Scenario:
    fields: dict[str, object] = {
        "model": "Qwen2.5-32B",
        "gpu": "RTX 4090",
        "gpu_count": 1,
        "task": "inference",
        "context_length": 8192,
        "precision": "bf16",  # resolved: the released format when none was stated
    }
    fields.update(more)
    return Scenario(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("gpu", "kv8"), [("RTX 4090", "FP8"), ("A10", "INT8")])
def test_open_formats_find_int4_weights_with_an_8bit_cache(gpu: str, kv8: str) -> None:
    none, found = concurrency(_scenario(gpu=gpu), open_format=True)
    assert none.key == "answer.max_concurrency_none"
    assert found.key == "answer.max_concurrency_in_format"
    assert found["count"] == 1
    label = found["dtype"]
    assert isinstance(label, Msg)
    assert (label["dtype"], label["kv"]) == ("INT4", kv8)
    # K and V x layers x KV heads x head dim x 1 B x tokens (plus a sliver of activations)
    assert found["per_sequence"] == pytest.approx(2 * 64 * 8 * 128 * 1 * 8192, rel=1e-3)


def test_stated_int4_tries_only_the_kv_cache() -> None:
    said = concurrency(_scenario(precision="int4"), open_format=False)
    assert [m.key for m in said] == ["answer.max_concurrency_none", "answer.max_concurrency_kv8"]
    assert said[1]["dtype"] == "FP8"


@pytest.mark.parametrize(
    "stated",
    [
        {"kv_dtype": "bf16"},  # "keep the KV cache in bf16"
        {"precision": "bf16"},  # "不量化" / "in bf16": weights and cache stay 16-bit
    ],
)
def test_a_stated_format_is_never_swapped(stated: dict[str, object]) -> None:
    said = concurrency(_scenario(**stated), open_format=False)
    assert [m.key for m in said] == ["answer.max_concurrency_none"]


def test_longest_context_doubles_with_an_8bit_cache() -> None:
    scenario = _scenario(precision="int4", context_length=None)
    answer = solved("max_context", scenario, "en")
    first, second = (int(n.replace(",", "")) for n in _tokens(answer))
    assert second == pytest.approx(2 * first, rel=0.03)  # half the bytes per token
    assert "FP8" in answer


def test_longest_context_keeps_a_stated_kv_cache() -> None:
    answer = solved("max_context", _scenario(precision="int4", kv_dtype="bf16"), "en")
    assert "FP8" not in answer


def _tokens(answer: str) -> list[str]:
    return re.findall(r"[Aa]bout ([\d,]+) tokens", answer)


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("Can I serve Qwen2.5-32B on a single 4090 with vLLM at 8k context?", "conditional"),
        ("一张4090用vLLM部署Qwen2.5-32B，8k上下文，能跑吗？", "conditional"),
    ],
)
def test_the_weights_and_kv_fix_cites_the_kv_quantization_passage(
    kb_home: Path, question: str, verdict: str
) -> None:
    result = answer(question, settings=Settings(), retriever=open_test_retriever())
    assert result.verdict == verdict
    anchors = {(c.passage.doc_id, c.passage.anchor) for c in result.citations}
    assert ("inference-serving", "kv-cache-quantization") in anchors
