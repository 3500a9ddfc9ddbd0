"""Budgets, the largest model within a budget, comparisons that say what each option wins on,
and quantities asked with no hardware named, on Query values built by hand."""

from __future__ import annotations

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
    lead = calculate(query).lead
    assert lead.startswith("50,000 USD buys 25,000 GPU-hours")
    assert "about 16.8B parameters" in lead


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
