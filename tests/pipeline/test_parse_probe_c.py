"""Slack-style wordings an ML-infrastructure probe used: a DGX box beside a total count is that
many boxes; a count said after the job in a comparison is every option's; a bare unit ("days?")
asks for the duration."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def test_a_dgx_box_beside_a_total_is_that_many_boxes() -> None:
    s = parse("a DGX H100 box pretraining a 70B on 2T tokens on 64 GPUs, how long?").scenario
    assert (s.gpu_count, s.nodes, s.gpus_per_node) == (64, 8, 8)
    outcome = calculate(parse("a DGX H100 box pretraining a 70B on 2T tokens on 64 GPUs"))
    assert outcome.refusal is None  # once "a multi-node job needs an inter-node link"


def test_one_dgx_alone_stays_one_box() -> None:
    s = parse("one DGX H100 pretraining a 7B on 100B tokens, how long?").scenario
    assert (s.gpu_count or 8, s.nodes) == (8, 1)


@pytest.mark.parametrize(
    "question",
    [
        "DGX H100 at $2.5/GPU-hr vs DGX B200 at $5/GPU-hr for pretraining a 70B on 2T tokens "
        "on 64 GPUs: which is cheaper?",
        "H100 at $2.5/GPU-hr vs B200 at $5/GPU-hr for pretraining a 70B on 2T tokens on 64 "
        "GPUs: which is cheaper?",
    ],
)
def test_a_count_after_the_job_is_every_options(question: str) -> None:
    assert [o.gpu_count for o in parse(question).options] == [64, 64]


def test_an_options_own_count_is_kept() -> None:
    options = parse("8 H100 vs B200 for serving Llama-3.1-70B on 16 GPUs").options
    assert [o.gpu_count for o in options] == [8, 16]


@pytest.mark.parametrize(
    "question",
    [
        "DGX B200 pods, 64 GPUs total, pretrain a 70B on 2T tokens: days?",
        "64 H100, 7B, 1T tokens. Weeks?",
    ],
)
def test_a_bare_unit_asks_the_duration(question: str) -> None:
    assert parse(question).asks[0] == "duration"


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        (
            "Mixtral 8x7B on a single H100 in fp8: will it fit, and what's the TPOT?",
            "token_latency",
        ),
        ("Llama-3.1-8B on one L4: what is the inter-token latency?", "token_latency"),
        (
            "what's the max ctx I can run Llama-3.1-70B at on 4x H100 in fp8 for 8 users?",
            "max_context",
        ),
    ],
)
def test_tpot_and_max_ctx_are_asked(question: str, ask: str) -> None:
    assert ask in parse(question).asks


def test_a_tpot_target_is_no_speed_question() -> None:
    # "TPOT <= 50 ms" states a target; it does not ask for the speed
    asks = parse("Need p99 TPOT <= 50 ms for Llama-3.1-70B on 2x H100").asks
    assert "throughput" not in asks
    assert "token_latency" not in asks


def test_gpu_hours_to_lora_asks_gpu_hours() -> None:
    question = "GPU-hrs to LoRA Llama-3.1-70B on 300M tokens w/ 16x A100-80G?"
    assert parse(question).asks[0] == "gpu_hours"


def test_a_sum_per_month_is_a_monthly_budget() -> None:
    s = parse(
        "we have ~$40k/mo, H200 is $3.2/gpu/hr — how many H200s can we keep running?"
    ).scenario
    assert (s.budget, s.price_per_gpu_hour, s.deadline_seconds) == (40_000.0, 3.2, 30 * 86_400.0)
