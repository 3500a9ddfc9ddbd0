"""Serving targets and the formats left open (issue 10): a smaller format is said, and is a
condition only when the stated count misses the target in the released one."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.parse import parse


def test_a_count_asked_is_answered_as_asked_with_the_fp8_count_beside_it() -> None:
    # bf16 8B on H100: ~103 sequences x 4096 at ~28 ms a step = ~3.7k tok/s per GPU, so 2;
    # FP8 weights and KV cache: ~236 sequences at about the same step = ~8k tok/s on one
    outcome = calculate(parse("How many H100 do I need to serve Llama-3.1-8B at 5000 tokens/s?"))
    assert outcome.verdict == "feasible"  # works as asked: a count, in the released format
    assert outcome.scenario is not None
    assert (outcome.scenario.gpu_count, outcome.scenario.precision) == (2, "bf16")
    assert "Served in FP8 (weights and KV cache)" in outcome.lead
    assert "1 × H100 SXM 80GB would do" in outcome.lead


def test_a_stated_format_gets_no_smaller_count() -> None:
    outcome = calculate(parse("How many H100 to serve Llama-3.1-8B in bf16 at 5000 tokens/s?"))
    assert "FP8" not in outcome.lead


def test_a_chinese_condition_names_the_format_in_chinese() -> None:
    outcome = calculate(parse("两张H100部署Llama-3.1-70B，每个token 30毫秒以内，可以吗？"))
    assert outcome.verdict == "conditional"
    assert "问题未限定精度，改用 FP8（权重与 KV cache）后" in outcome.lead
    assert "weights" not in outcome.lead
