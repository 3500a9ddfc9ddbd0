"""Issue 10 (parse5): cards given by their memory, unknown cards with a memory, sequences in
flight written as "seqs" or "路", and generic models under a stated tensor parallelism."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.layouts import to_plan
from assistant.parse import parse
from assistant.parse.load import read_concurrency
from assistant.records import Scenario
from calculators.catalog.generic import generic_name


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("我有一张32GB显存的卡，能用bf16跑Qwen2.5-7B推理吗？", "feasible"),
        ("One 16GB card, bf16, Llama-3-8B inference: does it fit?", "infeasible"),
        ("Can a 48GB card serve Qwen2.5-32B with FP8 weights?", "feasible"),
    ],
)
def test_a_card_known_by_its_memory_gets_a_verdict_not_a_refusal(
    question: str, verdict: str
) -> None:
    outcome = calculate(parse(question))
    assert outcome.mode == "verdict"
    assert outcome.verdict == verdict
    assert outcome.scenario is not None
    assert outcome.scenario.gpu == generic_name(parse(question).scenario.gpu_memory_bytes or 0)


def test_a_generic_card_suggests_int8_not_fp8_tensor_cores() -> None:
    # the 32 GB stand-in has no FP8: the generic card is not said to have FP8 tensor cores
    outcome = calculate(parse("我有一张32GB的卡，能用bf16跑Qwen2.5-14B推理吗？"))
    assert outcome.verdict == "infeasible"
    assert "FP8 张量核心" not in outcome.lead
    assert "int8" in outcome.lead


@pytest.mark.parametrize(
    ("question", "name", "memory"),
    [
        ("8张燧原S60（每张48GB显存）能不能跑Llama-3-70B推理？", "燧原S60", "48.0 GB"),
        ("Can 2 Moore Threads MTT S4000 cards (48GB each) serve Llama-3-70B?", "S4000", "48.0 GB"),
    ],
)
def test_an_unknown_card_with_its_memory_tells_one_story(
    question: str, name: str, memory: str
) -> None:
    query = parse(question)
    outcome = calculate(query)
    assert outcome.mode == "verdict"
    assert name in outcome.lead
    assert memory in outcome.lead
    said = " ".join((outcome.lead, *outcome.assumptions, *query.warnings))
    for contradiction in ("没有用其他条目代替", "not replaced", "To add it", "要添加它"):
        assert contradiction not in said


def test_fp8_on_a_generic_card_is_weight_only_and_on_a_catalog_card_as_its_chip_allows() -> None:
    asked = {"task": "inference", "precision": "fp8", "params": 32e9, "gpu_count": 1}
    generic = to_plan(Scenario(gpu=generic_name(48e9), **asked))  # type: ignore[arg-type]
    assert (generic.weight_dtype, generic.precision) == ("fp8", "bf16")
    # names2: an Ampere card serves FP8 weight-only too (vLLM FP8 Marlin, compute capability
    # >= 7.5); a Volta card keeps its own limit (7.0 is below it)
    ampere = to_plan(Scenario(gpu="RTX A6000 48GB", **asked))  # type: ignore[arg-type]
    assert (ampere.weight_dtype, ampere.precision) == ("fp8", "bf16")
    volta = to_plan(Scenario(gpu="V100 SXM2 32GB", **asked))  # type: ignore[arg-type]
    assert volta.precision == "fp8"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("kv cache for qwen2.5-72b, 128 seqs x 8k ctx", 128),
        ("with 64 sequences at 4k context", 64),
        ("serve it with a batch of 32 seqs", 32),
        ("一张a100上跑 128 路，4k 上下文", 128),
        ("同时 16 条序列", 16),
        ("8路服务器跑70b", None),  # an eight-GPU server
        ("4路张量并行", None),  # a parallel degree
        ("20 seqs/s", None),  # a rate
        ("100 sequences per second", None),
        ("fine-tune on 50000 sequences", None),  # a data set
        ("50000 sequences of training data", None),
    ],
)
def test_sequences_in_flight(text: str, count: int | None) -> None:
    assert read_concurrency(text) == count


@pytest.mark.parametrize(
    ("question", "tp"),
    [
        ("Can 4 A100 80GB serve a 30B model in bf16 with TP4?", 4),
        ("8 张 H100 用 TP8 跑一个 14B 的模型推理可以吗？", 8),
        ("Can 2 L40S serve a 7B model in fp16 with tensor parallel 2?", 2),
    ],
)
def test_a_generic_model_takes_the_stated_tensor_parallelism(question: str, tp: int) -> None:
    outcome = calculate(parse(question))
    assert outcome.mode == "verdict"
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert outcome.scenario.tensor_parallel == tp
