"""A KV cache that tensor parallelism does not divide is said as held: an MLA latent whole on
every tensor-parallel GPU, a KV head on t / kv_heads GPUs past the KV heads; one sequence's KV
cache is its KV cache alone (not the logits workspace it also adds), and the default request
fits in a short stated context."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.kv_cache_said import kv_held
from assistant.parse import parse
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import kv_cache_split, lookup_model
from calculators.serving_solvers import replica_batch_limit


def _lead(question: str) -> str:
    return calculate(parse(question)).lead


@pytest.mark.parametrize(
    ("model", "tp", "split"),
    [
        ("Llama-3-70B", 4, 4),  # 8 KV heads: TP 4 splits them 2 per GPU
        ("Llama-3-70B", 8, 8),  # boundary: TP = KV heads
        ("Llama-3-70B", 16, 8),  # past the KV heads: each head on 2 GPUs, not split further
        ("DeepSeek-V3", 8, 1),  # MLA: the latent has no heads to split
    ],
)
def test_the_kv_split_stops_at_the_kv_heads_and_never_splits_a_latent(
    model: str, tp: int, split: int
) -> None:
    assert kv_cache_split(lookup_model(model), tensor_parallel=tp) == split


def test_no_clause_when_tensor_parallelism_divides_the_cache() -> None:
    assert kv_held(lookup_model("Llama-3-70B"), 8) == ""
    assert kv_held(lookup_model("DeepSeek-V3"), 1) == ""


def test_one_sequence_is_its_kv_cache_without_the_logits_it_adds() -> None:
    # Llama-3-8B: 2 x 32 layers x 8 KV heads x 128 x 2 B = 131,072 B/token x 1,024 = 134.2 MB,
    # 1/8 per GPU at TP 8; its fp32 last-token logits (4 B x 128,256) are workspace, not KV.
    _, per_gpu = replica_batch_limit(
        model=lookup_model("Llama-3-8B"),
        gpu=lookup_gpu("H100"),
        tensor_parallel=8,
        pipeline_parallel=1,
        weight_dtype="bf16",
        kv_dtype="bf16",
        context_length=1024,
    )
    assert per_gpu * 8 == pytest.approx(131_072 * 1024, rel=1e-9)


def test_max_concurrency_past_the_kv_heads_says_one_sequence_once() -> None:
    # TP 16 over 8 KV heads: 10.74 GB per 32k sequence, 1.34 GB on each GPU (each head on 2
    # GPUs); 1.34 x 16 = 21.5 GB would count each sequence twice.
    lead = _lead("16张H100跑Llama-3-70B，TP=16，32k上下文最多支持多少并发")
    assert "每路 KV cache 10.7 GB" in lead
    assert "TP=16 多于 8 个 KV 头，每个 KV 头存 2 份" in lead
    assert "21.5 GB" not in lead


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "How much memory does the KV cache take for DeepSeek-V3 on 8x H200 with 8 "
            "concurrent 32k-token sequences?",
            # (512 + 64) x 61 layers x 2 B = 70,272 B/token x 32,768 x 8 = 18.4 GB, on each GPU
            (
                "is 18.4 GB (17.2 GiB), 2.3 GB (2.1 GiB) per sequence, the MLA latent",
                "held whole on each of the 8 tensor-parallel GPUs: 18.4 GB (17.2 GiB) per GPU, "
                "147.4 GB on all GPUs together.",
            ),
        ),
        (
            "8张H200部署DeepSeek-V3，8路并发、32k上下文，KV cache占多少显存",
            ("KV cache 为 18.4 GB", "8 张卡上各存一份完整的：每卡 18.4 GB", "所有卡合计 147.4 GB"),
        ),
        (
            "Llama-3-70B on 16x H100 with TP=16, 32 concurrent 32k-token sequences: how much "
            "memory does the KV cache take?",
            # 327,680 B x 32,768 x 32 = 343.6 GB; 1/8 per GPU = 42.9 GB; two copies = 687.2 GB
            (
                "is 343.6 GB (320.0 GiB)",
                "each KV head held on 2 GPUs since TP=16 exceeds the 8 KV heads: 42.9 GB",
                "687.2 GB on all GPUs together",
            ),
        ),
    ],
)
def test_a_kv_cache_held_more_than_once_says_its_copies(
    question: str, said: tuple[str, ...]
) -> None:
    lead = _lead(question)
    for part in said:
        assert part in lead
    assert "in total (" not in lead  # one copy of several is not the total
    assert "共占" not in lead


def test_a_split_kv_cache_keeps_its_total() -> None:
    # Qwen2.5-72B at TP 4: 327,680 B x 32,768 x 8 = 85.9 GB in total, 21.5 GB per GPU, no copy.
    lead = _lead("4张H100跑Qwen2.5-72B，8路并发、32k上下文，KV cache占多少显存")
    assert "KV cache 共占 85.9 GB" in lead
    assert "每卡 21.5 GB" in lead
    assert "存 2 份" not in lead
    assert "各存一份" not in lead


def test_the_count_says_the_latent_is_held_on_every_tensor_parallel_gpu() -> None:
    # 70,272 B x 8,192 = 575.7 MB per sequence, whole on each of the 8 GPUs of TP 8.
    lead = _lead("How many H200 do I need to serve DeepSeek-V3 to 32 concurrent users at 8k?")
    assert "(575.7 MB each, the MLA latent, which is not split by heads, held whole" in lead


def test_the_default_request_fits_a_short_stated_context() -> None:
    # A 1,024-token context: 768 prompt + 256 output tokens, not 1,024 + 256 = 1,280.
    answer = calculate(parse("8卡H100跑Llama-3-8B，1k上下文最多支持多少并发"))
    assert answer.scenario.prompt_tokens == 768
    assert answer.scenario.output_tokens == 256
