"""MLA's latent KV cache under tensor parallelism is held whole on every GPU: the answer says
one sequence's latent once, with its copies, and the data-parallel-attention count."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from calculators.catalog.models import kv_cache_bytes_per_token, lookup_model


def test_deepseek_latent_per_sequence_is_said_once_with_its_copies() -> None:
    lead = calculate(parse("8x H200 serving DeepSeek-V3, 128k context: max concurrency?")).lead
    per_token = kv_cache_bytes_per_token(lookup_model("DeepSeek-V3"), dtype_bytes=2)
    assert per_token == pytest.approx(70_272)
    latent = per_token * 131_072  # 9.2 GB per sequence (bf16 latent)
    said = re.search(r"([\d.]+) GB \([\d.]+ GiB\) of MLA latent", lead)
    assert said is not None
    assert float(said.group(1)) == pytest.approx(latent / 1e9, rel=0.01)
    count = int(re.search(r"About (\d+) concurrent", lead).group(1))  # type: ignore[union-attr]
    assert f"about {count * 8}" in lead  # data-parallel attention: each GPU its own sequences
    assert "each of the 8 tensor-parallel GPUs" in lead


def test_gqa_models_keep_the_plain_sentence() -> None:
    lead = calculate(parse("8卡H100跑Llama-3-70B，32k上下文最多支持多少并发")).lead
    assert "MLA" not in lead
    assert "数据并行注意力" not in lead


def test_an_mla_count_is_evaluated_on_a_split_that_fits_it() -> None:
    # DeepSeek-R1 in bf16 (910B has no FP8) for 500 users: 1.34 TB of weights and 144 GB of
    # latent (500 x 4,096 x 70,272 B), whole on every TP rank. On 32 cards TP8 x PP4 holds
    # 42 GB of weights + 36 GB of latent per GPU > 57.6 GB; TP2 x PP16, 42 + 9 GB, fits. The
    # count said first (32, from the memory search) must be evaluated on a split that fits.
    outcome = calculate(parse("DeepSeek-R1 给500人同时用，需要几张910B"))
    memory = next(c for c in outcome.checks if c.kind == "memory")
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == memory.figures["min_gpus"] == 32
    assert memory.verdict != "fail"
    # said first: the count that holds the users (with their speed, under the bar: homeB)
    assert outcome.lead.startswith("32 张 Ascend 910B 64GB 放得下这一负载")
