"""'What TP degree should I use', 'how should I split it', '并行策略怎么定': the split is the
answer, said first (issue 10: the headline answers the question), not a GPU count or a choice
between cards when only one set-up is named."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "What tensor parallel degree should I use for Llama-3.1-405B on 16 H100?",
        "what TP degree do I need for Llama-3-70B on 8 L40S?",
        "How should I split Llama-3-70B across 8 L40S for serving?",
        "Llama-3.1-405B在16张H100上推理，TP设多少合适？",
        "8张H800微调Qwen2.5-32B，1B token，并行策略怎么定？",
    ],
)
def test_the_split_is_the_ask(question: str) -> None:
    assert parse(question).asks[:1] == ("layout",)


def test_a_split_with_no_job_is_a_concept() -> None:
    assert "layout" not in parse("How should I split a model across GPUs?").asks


def test_serving_a_405b_on_two_nodes_leads_with_tp_inside_and_pp_across() -> None:
    # 405B bf16 = 811 GB: more than one node of 8 x 72 GB usable, so 2 stages across the two
    # nodes, TP8 inside each (TP is kept on NVLink; Megatron-LM, Narayanan et al. 2021 §3).
    outcome = calculate(
        parse("What tensor parallel degree should I use for Llama-3.1-405B on 16 H100?")
    )
    assert outcome.lead.startswith("Use TP=8, PP=2 on 16 × H100 SXM 80GB (1 replica)")
    assert "You need at least" not in outcome.lead


def test_training_leads_with_the_parallel_set_up() -> None:
    outcome = calculate(parse("8张H800微调Qwen2.5-32B，1B token，并行策略怎么定？"))
    assert outcome.lead.startswith("8 张 H800 SXM 80GB 上的并行配置：")
    assert "TP=" in outcome.lead.split("。")[0]
