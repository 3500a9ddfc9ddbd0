"""Settings of one job compared on the same hardware: "ZeRO-2 vs ZeRO-3", "LoRA和全参微调",
"FP8 vs BF16" (assistant/parse/job_options.py, assistant/calculate/job_compare.py)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.job_compare import job_side
from assistant.parse import parse
from assistant.parse.job_options import job_options

PSI = 13e9  # the generic 13B of the hand-worked rows


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("zero-2 vs zero-3 for 13b", ({"zero_stage": 2}, {"zero_stage": 3})),
        ("zero-1、zero-2和zero-3", ({"zero_stage": 1}, {"zero_stage": 2}, {"zero_stage": 3})),
        ("zero-1, zero-2 and zero-3", ({"zero_stage": 1}, {"zero_stage": 2}, {"zero_stage": 3})),
        ("lora还是全参微调", ({"method": "lora"}, {"method": "full"})),
        ("full fine-tuning or qlora?", ({"method": "full"}, {"method": "qlora"})),
        ("fp8和bf16哪个快", ({"precision": "fp8"}, {"precision": "bf16"})),
        ("int4 vs int8 weights", ({"precision": "int4"}, {"precision": "int8"})),
        ("fp8训练比bf16快多少", ({"precision": "fp8"}, {"precision": "bf16"})),  # the job's word
        # two settings of one job, or two parts of one model: no options
        ("lora with zero-3 on 8 cards", ()),
        ("bf16 weights and fp8 kv cache", ()),
        ("fp8 vs bf16 kv cache", ()),  # the KV cache's format, not the job's
        ("zero-3 vs zero-3", ()),  # one value said twice
    ],
)
def test_job_options(text: str, options: tuple[dict[str, object], ...]) -> None:
    assert job_options(text) == options


def test_hardware_options_are_not_job_side() -> None:
    query = parse("8x H100 vs 8x A100 for LoRA fine-tuning Llama-3.1-8B")
    assert query.options
    assert not job_side(query)


def test_a_zero_saving_is_answered_as_the_saving() -> None:
    # "ZeRO-3比ZeRO-2多省多少": the model states saved (zero_saving), not two runs compared
    query = parse("ZeRO-3比ZeRO-2多省多少显存？训练7B模型，8张卡")
    assert not job_side(query)


def _gb(pattern: str, focus: str) -> float:
    match = re.search(pattern, focus)
    assert match is not None, focus
    return float(match.group(1))


def test_zero3_against_zero2_saves_the_sharded_weights() -> None:
    query = parse("ZeRO-2 vs ZeRO-3 for full fine-tuning a 13B model on 8x A100 80GB: memory?")
    assert job_side(query)
    outcome = calculate(query)
    assert outcome.focus.startswith("With ZeRO-3 the model states take the least memory")
    # ZeRO-3 also shards the bf16 weights: 2Ψ − 2Ψ/8 = 22.75 GB less per GPU
    saving = _gb(r"([\d.]+) GB less per GPU", outcome.focus)
    assert saving == pytest.approx(2 * PSI * 7 / 8 / 1e9, rel=0.03)
    assert outcome.scenario is not None
    assert outcome.scenario.zero_stage == 3
    assert outcome.options == ()  # no chart of two bars both named 8 × A100


def test_lora_against_full_in_chinese() -> None:
    outcome = calculate(parse("Llama-3.1-8B在一张A100 80GB上，LoRA和全参微调显存差多少？"))
    assert outcome.focus.startswith("LoRA")
    assert "全参微调" in outcome.focus
    assert outcome.verdict == "feasible"  # LoRA fits one card; full fine-tuning does not


def test_fp8_against_bf16_is_a_speed_by_default() -> None:
    outcome = calculate(parse("FP8 vs BF16 for training a 7B model on 8x H100"))
    assert outcome.focus.startswith("With FP8 the job is faster")
    ratio = float(re.search(r"\(([\d.]+)× as fast\)", outcome.focus).group(1))  # type: ignore[union-attr]
    assert 1.0 < ratio <= 2.0  # at most the peak ratio 1979/989 TFLOPS


def test_only_the_option_that_fits_is_timed() -> None:
    outcome = calculate(parse("BF16 vs INT4 speed for serving Llama-3.1-70B on one H100"))
    # bf16 weights are 141 GB, one H100 holds 72 GB: only INT4 fits, no speed for bf16
    assert outcome.focus.startswith("Only with INT4 does the job fit")


def test_a_followup_keeps_the_job_comparison_on_new_hardware() -> None:
    first = parse("LoRA和全参微调Llama-3.1-8B，一张A100 80GB，显存差多少")
    then = parse("那用H100呢", previous=first)
    assert then.scenario.gpu == "H100 SXM 80GB"
    assert job_side(then)
    assert {o.method for o in then.options} == {"lora", "full"}
    # naming one of the compared settings ends the comparison: that setting alone
    assert parse("用LoRA呢", previous=then).options == ()


def test_three_stages_compare_their_model_states() -> None:
    # left alone, ZeRO-1 chose TP=8 and ZeRO-2 data parallelism only: the model states per GPU
    # at one split are the textbook ones, 2Ψ + 2Ψ + 12Ψ/8 > 2Ψ + 14Ψ/8 > 16Ψ/8
    query = parse("ZeRO-1, ZeRO-2 and ZeRO-3 for full fine-tuning a 13B model on 8x A100 80GB")
    focus = calculate(query).focus
    assert focus.startswith("With ZeRO-3 the model states take the least memory")
    assert _gb(r"least memory: ([\d.]+) GB per GPU", focus) == pytest.approx(
        16 * PSI / 8 / 1e9, rel=0.03
    )
    zero2 = _gb(r"against ([\d.]+) GB with ZeRO-2", focus)
    assert zero2 == pytest.approx((2 * PSI + 14 * PSI / 8) / 1e9, rel=0.03)
