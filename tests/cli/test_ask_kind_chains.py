"""The kind a one-slot follow-up carries, through the real `ask` CLI: a stdin batch and
`--continue` (which reads the last turn back from the conversation store)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e


def run(args: list[str], stdin: str | None = None) -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["ask", "--json", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def sequences(answer: dict[str, Any]) -> float:
    memory = next(c for c in answer["checks"] if c["kind"] == "memory")
    return float(memory["figures"]["concurrent_sequences"])


def test_a_kv_format_follow_up_in_a_batch_is_still_the_maximum_concurrency(kb_home: Path) -> None:
    stdin = "单张H100跑Llama-3.1-8B，32k上下文能支持多少并发\n如果KV cache用fp8呢\n"
    bf16, fp8 = run([], stdin)
    # one byte per element instead of two: about twice the sequences fit, never one
    assert 1.7 <= sequences(fp8) / sequences(bf16) <= 2.3
    assert "在上一问的基础上改了：KV cache 格式。" in fp8["answer"]


def test_continue_carries_a_comparison_with_its_options(kb_home: Path) -> None:
    run([], "Which is faster for serving Llama-3.1-70B: 8 H100 or 8 A100?\n")
    (follow,) = run(["--continue", "what about Qwen2.5-72B?"])
    assert {o["scenario"]["gpu"] for o in follow["options"]} == {"H100 SXM 80GB", "A100 SXM 80GB"}
    assert follow["scenario"]["model"] == "Qwen2.5-72B"
