"""A serving memory sentence under pipeline stages says the memory check's own parts: the
workspace is one prefill chunk on each GPU, not the heaviest stage times the GPUs less the
weights (43.2 GB of "workspace" for DeepSeek-V3 on 8 × 910B, where the check holds 86 MB)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.parse import parse

_BYTES = r"([\d,.]+) (TB|GB|MB)"
_SCALE = {"TB": 1e12, "GB": 1e9, "MB": 1e6}


def _numbers(sentence: str) -> list[float]:
    # the decimal figure of each "1.3 TB (1.2 TiB)" pair (the TiB one is not matched), in order
    return [float(n.replace(",", "")) * _SCALE[u] for n, u in re.findall(_BYTES, sentence)]


@pytest.mark.parametrize(
    "question",
    [
        "8张910B部署DeepSeek-V3需要多少显存",  # PP=2: the dense first layers make stages uneven
        "How much memory to serve DeepSeek-V3 on 8 910B?",
        "16张H100部署DeepSeek-V3需要多少显存",
        "How much memory does Llama-3.1-405B need to serve on 16 A100 80GB?",
        "32张H100部署DeepSeek-V3，64个并发，需要多少显存",  # two replicas of TP=8 x PP=2
    ],
)
def test_the_parts_are_the_memory_checks_own(question: str) -> None:
    outcome = calculate(parse(question))
    s = outcome.scenario
    assert s is not None
    assert (s.pipeline_parallel or 1) > 1  # the case under test: pipeline stages
    split = (s.tensor_parallel or 1) * (s.pipeline_parallel or 1)
    workspace = figure(outcome.checks, "memory", "overhead_bytes")
    per_gpu = figure(outcome.checks, "memory", "required_bytes_per_gpu")
    assert isinstance(workspace, float)
    assert isinstance(per_gpu, float)
    sentence = re.split(r"。|\. (?=[A-Z])", outcome.lead)[0]
    total, weights, kv, other, most = _numbers(sentence)[:5]
    assert other == pytest.approx(workspace * split, rel=0.01, abs=0.06e9)
    assert weights + kv + other == pytest.approx(total, rel=0.04)
    assert most == pytest.approx(per_gpu, rel=0.01)  # the most-loaded GPU, as checked


def test_uneven_stages_name_the_most_loaded_gpu() -> None:
    lead = calculate(parse("8张910B部署DeepSeek-V3需要多少显存")).lead
    assert "负载最重的一张 173.3 GB" in lead
    assert "激活工作区 43.2 GB" not in lead


def test_all_sequences_on_one_copy_hold_more_than_one_replica() -> None:
    # two replicas of 32 sequences each: the 64 on one copy of the weights hold every KV copy
    # (an MLA latent on each of the 8 TP GPUs), so they need more than one replica's 32
    lead = calculate(parse("32张H100部署DeepSeek-V3，64个并发，需要多少显存")).lead
    each, all_on_one = lead.split("。")[:2]  # "每个副本约需 …。全部 64 路放在一份权重上共约 …"
    replica, whole = _numbers(each)[0], _numbers(all_on_one)[0]
    assert whole > replica
