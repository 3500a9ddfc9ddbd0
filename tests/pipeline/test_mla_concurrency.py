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
