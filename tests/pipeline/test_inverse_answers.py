"""Budgets, the largest model within a budget, comparisons that say what each option wins on,
and quantities asked with no hardware named, on Query values built by hand."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse.load import read_budget
from assistant.records import Query, Scenario


def _ask(question: str, lang: str = "en", **kwargs: object) -> Query:
    scenario = kwargs.pop("scenario", Scenario())
    return Query(question=question, language=lang, scenario=scenario, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("with a $30,000 budget at $2.50 per gpu-hour", (30000.0, "USD")),  # crashed: 3 groups
        ("we have $50,000 at $2 per h100-hour", (50000.0, "USD")),
        ("手头有20万元，每卡时15元", (200000.0, "CNY")),
        ("we have 8 h100", (None, None)),  # a count, not money
        ("我们有8张a100", (None, None)),
    ],
)
def test_budgets_are_read_and_counts_are_not(text: str, expected: tuple[object, object]) -> None:
    assert read_budget(text) == expected


def test_the_largest_model_a_budget_buys() -> None:
    # $50,000 / $2 = 25,000 GPU-hours; at 989.4e12 x 0.38 FLOP/s per H100 that is
    # 25,000 x 3600 x 3.76e14 = 3.38e22 FLOPs; Chinchilla N = sqrt(C / 120) = 16.8B.
    query = _ask(
        "We have $50,000 at $2 per H100-hour. What's the largest model we can pretrain?",
        scenario=Scenario(
            gpu="H100 SXM 80GB",
            task="pretrain",
            budget=50000.0,
            price_per_gpu_hour=2.0,
            currency="USD",
        ),
        asks=("max_model",),
    )
    outcome = calculate(query)
    assert outcome.lead.startswith("50,000 USD buys 25,000 GPU-hours")
    # 16.8B counts 6·N·D only; the calculators add attention FLOPs (6ND + 12·L·s·d per token,
    # ~7% at 4k context for this size), so the model the budget really buys is a little smaller
    # and the answer's own cost check (of the model it names) stays within the budget.
    size = re.search(r"about (\d+\.\d)B parameters", outcome.lead)
    assert size is not None
    assert 15.0 <= float(size.group(1)) <= 16.8
    cost = next(c for c in outcome.checks if c.kind == "cost").figures["cost"]
    assert isinstance(cost, float)
    assert cost <= 50000.0


def test_the_largest_model_is_shown_with_its_own_figures() -> None:
    # 8 x 312e12 x MFU 0.40 x 30 days = 2.59e21 FLOPs; N = sqrt(C/120) = 4.6B by 6ND alone, a
    # little less with attention. The key figures are that model's (about 20 tokens per
    # parameter, run time within the 30 days), not those of the 1B probe behind the rates.
    query = _ask(
        "8张A100一个月内最大能训练多大的模型",
        lang="zh",
        scenario=Scenario(
            gpu="A100 SXM 80GB", gpu_count=8, task="pretrain", deadline_seconds=30 * 86400.0
        ),
        asks=("max_model",),
    )
    outcome = calculate(query)
    compute = next(c for c in outcome.checks if c.kind == "compute").figures
    tokens, seconds = compute["tokens"], compute["seconds"]
    assert isinstance(tokens, float)
    assert isinstance(seconds, float)
    assert 4.0e9 * 20 <= tokens <= 4.7e9 * 20
    assert 25 * 86400 <= seconds <= 30 * 86400
    assert outcome.verdict == "feasible"
    assert f"{tokens / 1e8:.0f}亿 token" in outcome.lead  # the headline names that model


def test_the_largest_model_to_serve_fits_as_stated() -> None:
    # 2 x 72.0 GB usable = 144 GB; less the KV cache and workspace, over 2 bytes per bf16
    # weight, about 71B. The first guess (71.3B) needed 72.2 GB per GPU, a hair past the 72.0
    # usable; the answer called it "conditionally feasible" (quantize) while its headline said
    # 71.3B serves in bf16. The size named must pass its own memory check in the stated set-up.
    query = _ask(
        "What's the largest model I can serve on 2x A100 80GB?",
        scenario=Scenario(gpu="A100 SXM 80GB", gpu_count=2, task="inference"),
        asks=("max_model",),
    )
    outcome = calculate(query)
    memory = next(c for c in outcome.checks if c.kind == "memory").figures
    needed, usable = memory["required_bytes_per_gpu"], memory["available_bytes_per_gpu"]
    assert isinstance(needed, float)
    assert isinstance(usable, float)
    assert needed <= usable
    assert outcome.verdict == "feasible"
    size = re.search(r"about (\d+(?:\.\d)?)B parameters", outcome.lead)
    assert size is not None
    assert 65.0 <= float(size.group(1)) <= 72.0


def test_a_comparison_says_what_each_option_wins_on() -> None:
    # Same LoRA job: 4 x 989 = 3,958 TFLOP/s beats 8 x 312 = 2,496 (A100) and 8 x 362 (L40S)
    query = _ask(
        "4x H100 vs 8x A100 vs 8x L40S for LoRA on Llama-3.1-8B",
        scenario=Scenario(model="Llama-3.1-8B", task="finetune", method="lora"),
        options=(
            Scenario(gpu="H100 SXM 80GB", gpu_count=4),
            Scenario(gpu="A100 SXM 80GB", gpu_count=8),
            Scenario(gpu="L40S 48GB", gpu_count=8),
        ),
        asks=("compare",),
    )
    outcome = calculate(query)
    assert [o.scenario.gpu_count for o in outcome.options] == [4, 8, 8]
    assert "speed" in outcome.options[0].wins
    assert all("speed" not in o.wins for o in outcome.options[1:])
    seconds = [o.figures["seconds"] for o in outcome.options]
    assert seconds[0] == min(seconds)  # type: ignore[type-var]
    assert "4 × H100 SXM 80GB is faster" in outcome.lead


def test_equal_figures_win_nothing() -> None:
    # Both hold 141 GB of weights over 8 GPUs in the same layout: the same memory share
    query = _ask(
        "8 H100 vs 8 A100 for Llama-3.1-70B inference",
        scenario=Scenario(model="Llama-3.1-70B", task="inference"),
        options=(
            Scenario(gpu="H100 SXM 80GB", gpu_count=8),
            Scenario(gpu="A100 SXM 80GB", gpu_count=8),
        ),
        asks=("compare",),
    )
    options = calculate(query).options
    assert options[0].figures["memory_share"] == pytest.approx(options[1].figures["memory_share"])
    assert "memory" not in options[0].wins + options[1].wins
    assert options[0].wins == ("speed",)  # 3.35 TB/s against 2.04 TB/s


def test_a_quantity_with_no_hardware_is_not_judged_on_a_default_card() -> None:
    query = _ask(
        "How much GPU memory does Qwen2.5-32B need for inference in int8?",
        scenario=Scenario(model="Qwen2.5-32B", task="inference", precision="int8"),
        asks=("memory",),
    )
    lead = calculate(query).lead
    assert lead.startswith("It needs about")
    assert "usable per GPU" not in lead


def test_options_are_in_the_json_and_survive_the_store() -> None:
    from assistant.records import Answer, Option
    from assistant.render.serialize import answer_from_record, answer_to_json, answer_to_record
    from tests.json_contract import KEYS, OPTION_KEYS, SCENARIO_KEYS

    option = Option(
        scenario=Scenario(gpu="H20 96GB", gpu_count=8),
        verdict="feasible",
        figures={"tokens_per_second": 38.0, "memory_share": 0.82},
        wins=("speed",),
    )
    query = Query(question="8×H20 vs 8×910B", language="en", scenario=Scenario())
    answer = Answer(
        question="8×H20 vs 8×910B",
        language="en",
        verdict="feasible",
        binding_constraint=None,
        text="…",
        query=query,
        options=(option,),
    )
    data = answer_to_json(answer)
    assert set(data) == KEYS
    assert set(data["options"][0]) == OPTION_KEYS
    assert set(data["options"][0]["scenario"]) == SCENARIO_KEYS
    assert data["options"][0]["wins"] == ["speed"]
    assert answer_from_record(answer_to_record(answer)).options == (option,)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "各8张": the count after the GPUs is each one's
        ("H100 和 A100 哪个训练7B更快，各8张", [("H100 SXM 80GB", 8), ("A100 SXM 80GB", 8)]),
        # the price clause names the 4090 again: not a third option
        (
            "8张4090和2张A100 80G，推理Qwen2.5-32B哪个更划算？每卡时4090 2元，A100 8元",
            [("RTX 4090 24GB", 8), ("A100 SXM 80GB", 2)],
        ),
    ],
)
def test_comparison_options_as_stated(question: str, expected: list[tuple[str, int]]) -> None:
    from assistant.parse import parse

    options = parse(question).options
    assert [(o.gpu, o.gpu_count) for o in options] == expected


def test_the_most_concurrent_sequences_are_the_figures_shown() -> None:
    """'最多多少并发': the checks under the count are for that many sequences (memory nearly
    full, KV cache for all of them), not for the one sequence a plain inference default uses.
    Llama-2-13B on one A100 80GB at 2k: (72 - 26.0) GB / 1.68 GB of KV per sequence = 27."""
    query = _ask(
        "What's the maximum batch size for Llama-2-13B on one A100 80GB at 2k context?",
        scenario=Scenario(
            model="Llama-2-13B", gpu="A100 SXM 80GB", gpu_count=1, context_length=2048
        ),
    )
    outcome = calculate(query)
    assert outcome.scenario is not None
    assert outcome.scenario.batch_size == 27
    memory = next(c for c in outcome.checks if c.kind == "memory")
    kv = float(memory.figures["kv_cache_bytes"])  # type: ignore[arg-type]
    assert kv == pytest.approx(27 * 2048 * 819_200, rel=0.01)
    assert any("27" in a for a in outcome.assumptions)
    assert not any("one concurrent sequence" in a for a in outcome.assumptions)
