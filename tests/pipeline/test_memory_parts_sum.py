"""A serving memory estimate names every part it sums: weights, KV cache and the activation
workspace add up to the total said first, and one GPU is not "split over 1 GPU"."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse

_BYTES = r"([\d,.]+) (GB|MB)"


def _gb(number: str, unit: str) -> float:
    return float(number.replace(",", "")) * (1.0 if unit == "GB" else 1e-3)


@pytest.mark.parametrize(
    "question",
    ["How much GPU memory does Llama-3.1-70B need for inference?", "Llama-3-8B 推理需要多少显存?"],
)
def test_the_parts_add_up_to_the_total(question: str) -> None:
    lead = calculate(parse(question)).lead
    found = [_gb(n, u) for n, u in re.findall(_BYTES, lead.split("。")[0].split(". (")[0])]
    total, weights, kv, workspace = found[0], found[1], found[2], found[3]
    assert weights + kv + workspace == pytest.approx(total, abs=0.15)


def test_one_gpu_is_not_a_split() -> None:
    lead = calculate(parse("Llama-3-8B 推理需要多少显存?")).lead
    assert "分到 1 张卡上" not in lead
    assert "都在 1 张卡上" in lead
