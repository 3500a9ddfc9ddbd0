"""New question or follow-up through the real `ask` CLI: stdin, --continue, --independent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e

JILIN_CHAIN = (
    "吉林GPU服务器能训练千亿模型吗\n那用H100呢\n如果有16台呢\nLlama-3-8B 推理需要多少显存?\n"
)


def run(args: list[str], stdin: str | None = None) -> list[dict[str, object]]:
    result = CliRunner().invoke(cli, ["ask", "--json", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def scenario(answer: dict[str, object]) -> dict[str, object]:
    value = answer["scenario"]
    assert isinstance(value, dict)
    return value


def test_stdin_batch_chains_follow_ups_but_not_new_questions(kb_home: Path) -> None:
    first, h100, sixteen, llama = run([], JILIN_CHAIN)
    assert scenario(h100)["site_profile"] == scenario(first)["site_profile"]
    assert scenario(sixteen)["nodes"] == 16
    # the fourth line names its own model and task: nothing of the Jilin thread carries over
    assert scenario(llama)["site_profile"] is None
    assert scenario(llama)["nodes"] in (None, 1)
    assert scenario(llama)["task"] == "inference"
    assert scenario(llama)["precision"] != "int4"


def test_a_new_question_after_a_huge_job_does_not_inherit_it(kb_home: Path) -> None:
    stdin = "1T model on 1024 H100, how long to pretrain?\nLlama-2-70B 4-bit权重有多大？\n"
    _, weights = run([], stdin)
    assert scenario(weights)["gpu_count"] != 1024
    assert scenario(weights)["task"] != "pretrain"


def test_independent_never_chains(kb_home: Path) -> None:
    _, follow = run(["--independent"], "两台8卡A100训练70B模型\n那用H100呢\n")
    assert scenario(follow)["params"] is None
    assert scenario(follow)["gpu_count"] is None


def test_continue_uses_the_same_rule(kb_home: Path) -> None:
    run([], "两台8卡A100训练70B模型\n")
    (follow,) = run(["--continue", "如果用25G以太网呢"])
    assert scenario(follow)["gpu_count"] == 16
    assert "在上一问的基础上改了" in str(follow["answer"])
    (fresh,) = run(["--continue", "Qwen2.5-7B 推理需要几张卡"])
    assert scenario(fresh)["gpu"] != "A100 SXM 80GB"
    assert scenario(fresh)["nodes"] in (None, 1)  # the evaluated layout, not the 2 nodes


def test_stdin_batch_adds_a_server_then_starts_afresh(kb_home: Path) -> None:
    stdin = "两台8卡A100训练70B模型\n再加一台呢\n那 Qwen2.5-7B 用一张 4090 全参微调行吗\n"
    _, added, fresh = run([], stdin)
    assert scenario(added)["nodes"] == 3
    assert "在上一问的基础上改了：节点数。" in str(added["answer"])
    assert scenario(fresh)["model"] == "Qwen2.5-7B"
    assert scenario(fresh)["gpu_count"] == 1
    assert "在上一问的基础上改了" not in str(fresh["answer"])


def test_independent_reads_an_added_server_as_stated(kb_home: Path) -> None:
    _, alone = run(["--independent"], "两台8卡A100训练70B模型\n再加一台呢\n")
    assert scenario(alone)["params"] is None
    assert "在上一问的基础上改了" not in str(alone["answer"])


def test_continue_switching_the_task_drops_the_old_tasks_slots(kb_home: Path) -> None:
    run([], "Can 8 H100 serve Llama-3.1-70B for 20 concurrent users?\n")
    (training,) = run(["--continue", "what about training it instead?"])
    assert scenario(training)["task"] == "pretrain"
    assert scenario(training)["model"] == "Llama-3.1-70B"
    assert scenario(training)["concurrency"] is None
    assert "Changed from the previous question: task." in str(training["answer"])


def test_continue_and_independent_together_is_a_usage_error(kb_home: Path) -> None:
    result = CliRunner().invoke(cli, ["ask", "--continue", "--independent", "8卡训练7B"])
    assert result.exit_code == 2


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("1e999 GPUs train 7B", "GPU count 1e999"),
        ("一亿亿亿参数的模型训练要多久", "中文数字"),
        ("train 7B on 8 H100 at $-2 per GPU-hour", "price per GPU-hour -2"),
    ],
)
def test_nonsense_numbers_exit_2_with_a_message(kb_home: Path, question: str, words: str) -> None:
    result = CliRunner().invoke(cli, ["ask", question])
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output
    assert "internal error" not in result.output


CONCEPT_CHAIN = "吉林GPU服务器能训练千亿模型吗\n那用H100呢\nZeRO-3是什么?\n如果有16台呢\n"


def test_a_concept_turn_mid_chain_does_not_take_over_the_thread(kb_home: Path) -> None:
    _, h100, concept, sixteen = run([], CONCEPT_CHAIN)
    assert concept["verdict"] == "unknown"  # answered as a concept
    assert scenario(concept)["gpu"] is None
    # the turn after it follows the H100 question, not the concept
    assert scenario(sixteen)["gpu"] == scenario(h100)["gpu"]
    assert scenario(sixteen)["site_profile"] == scenario(h100)["site_profile"]
    assert scenario(sixteen)["nodes"] == 16
    assert scenario(sixteen)["params"] == scenario(h100)["params"]


def test_continue_after_a_concept_turn_follows_the_job(kb_home: Path) -> None:
    run([], "吉林GPU服务器能训练千亿模型吗\n那用H100呢\n")
    run(["--continue", "What is ZeRO-3?"])
    (sixteen,) = run(["--continue", "如果有16台呢"])
    assert scenario(sixteen)["gpu"] == "H100 PCIe 80GB"
    assert scenario(sixteen)["nodes"] == 16
    assert sixteen["verdict"] != "unknown"
