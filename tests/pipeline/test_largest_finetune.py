"""The largest model a set of GPUs can fine-tune: bound by memory, not by a Chinchilla token count.

Hand bounds: the usable memory of all GPUs over the model-state bytes per parameter (full = 16,
LoRA = 2, QLoRA = 0.5) is an upper bound; activations, 16-bit embeddings and quantization scales
make the real answer a little smaller.
"""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.records import Query, Scenario


def _largest(gpu: str, count: int, method: str, lang: str = "en") -> tuple[float, Query]:
    query = Query(
        question="largest model to fine-tune",
        language=lang,  # type: ignore[arg-type]
        scenario=Scenario(gpu=gpu, gpu_count=count, task="finetune", method=method),  # type: ignore[arg-type]
        asks=("max_model",),
    )
    outcome = calculate(query)
    assert outcome.verdict == "feasible"
    memory = next(c for c in outcome.checks if c.kind == "memory").figures
    assert memory["required_bytes_per_gpu"] <= memory["available_bytes_per_gpu"]  # type: ignore[operator]
    size = re.search(r"(\d+(?:\.\d)?)B", outcome.lead) if lang == "en" else None
    return (float(size.group(1)) * 1e9 if size else 0.0), query


@pytest.mark.parametrize(
    ("gpu", "count", "method", "low", "high"),
    [
        # 2 x 21.6 GB usable / 0.5 B = 86B at most; Answer.AI's FSDP+QLoRA fits 70B on 2 x 24 GB
        ("RTX 3090 24GB", 2, "qlora", 50e9, 86.4e9),
        # 8 x 72 GB / 2 B = 288B at most
        ("A100 SXM 80GB", 8, "lora", 200e9, 288e9),
        # 8 x 72 GB / 16 B = 36B at most (ZeRO-3 over the node)
        ("H100 SXM 80GB", 8, "full", 25e9, 36e9),
    ],
)
def test_the_largest_fine_tunable_model_is_memory_bound(
    gpu: str, count: int, method: str, low: float, high: float
) -> None:
    size, _ = _largest(gpu, count, method)
    assert low <= size <= high


def test_a_lighter_method_fits_a_larger_model() -> None:
    sizes = [_largest("A100 SXM 80GB", 4, m)[0] for m in ("full", "lora", "qlora")]
    assert sizes[0] < sizes[1] < sizes[2]


def test_the_chinese_answer_names_the_method_and_no_token_budget() -> None:
    query = Query(
        question="两张3090用QLoRA最大能微调多大的模型",
        language="zh",
        scenario=Scenario(gpu="RTX 3090 24GB", gpu_count=2, task="finetune", method="qlora"),
        asks=("max_model",),
    )
    lead = calculate(query).lead
    assert "QLoRA" in lead
    assert "最大能微调" in lead
    assert re.search(r"按 Chinchilla 最优 [\d.]", lead) is None  # no pre-training token count


def test_with_no_method_stated_the_lighter_methods_are_named_too() -> None:
    # one A100 80GB: full ~72/16 = 4.5B at most; LoRA ~72/2 = 36B; QLoRA ~72/0.5 = 144B
    query = Query(
        question="What is the largest model I can fine-tune on one A100 80GB?",
        language="en",
        scenario=Scenario(gpu="A100 SXM 80GB", gpu_count=1, task="finetune"),
        asks=("max_model",),
    )
    lead = calculate(query).lead
    sizes = [float(x) for x in re.findall(r"about (\d+(?:\.\d+)?)B", lead)]
    assert len(sizes) == 3
    full, lora, qlora = sizes
    assert 3.5 <= full <= 4.5
    assert 25 <= lora <= 36
    assert 80 <= qlora <= 144
