"""GPUs added to a stated count come as whole servers of the usual size (8, as DGX/HGX H100,
HGX A100 and Atlas 800 hold), not as more boxes of the count the question happened to state;
servers the question names ("two 4-GPU servers") keep their size."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _lead_and_suggestions(question: str) -> str:
    outcome = calculate(parse(question))
    return outcome.lead + "\n" + "\n".join(str(s) for s in outcome.suggestions)


@pytest.mark.parametrize(
    "question",
    [
        "4x H100, full fine-tuning of Llama-3.1-70B: does it fit?",
        "4 H100 GPUs to fully fine-tune Llama-3-70B",
        "4张H100全参微调Llama-3.1-70B可以吗",
        "用2张H100全参微调Qwen2.5-32B行吗",
    ],
)
def test_more_gpus_than_a_small_stated_count_come_in_8_gpu_servers(question: str) -> None:
    said = _lead_and_suggestions(question)
    assert re.search(r"nodes × 8|台 × 每台 8 张|= 1 node|1 台|× 8", said), said
    assert not re.search(r"nodes × [24]\b|每台 [24] 张", said), said


@pytest.mark.parametrize(
    ("question", "per_node"),
    [
        ("4x H100 training a 7B model", 8),
        ("2张A100推理Qwen2.5-14B", 8),
        ("two 4-GPU H100 servers, full fine-tune of Llama-3.1-70B", 4),
        ("一台4卡H100服务器全参微调Llama-3.1-70B", 4),
    ],
)
def test_the_evaluated_server_size(question: str, per_node: int) -> None:
    query = parse(question)
    outcome = calculate(query)
    assert outcome.scenario is not None
    assert outcome.scenario.gpus_per_node == per_node
    assert outcome.scenario.gpu_count == query.scenario.gpu_count  # the stated GPUs are evaluated


def test_a_named_4_gpu_server_scales_out_in_4_gpu_servers() -> None:
    said = _lead_and_suggestions("两台4卡H100服务器全参微调Llama-3.1-70B，可以吗")
    assert not re.search(r"每台 8 张|nodes × 8", said), said
