"""A fine-tune's card count asked with the method left open ("预算50万元，买几张4090能微调
Qwen2.5-72B") is sized with the method on the fewest servers (LoRA on one node here, not a
full fine-tune on 64 × RTX 4090 over Ethernet); a stated method is kept, and a card held to a
budget gets no other GPU model (the catalog has no purchase prices to hold it to the budget)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner.plan import Plan
from calculators.planner.suggest_scale import other_gpu


@pytest.mark.parametrize(
    "question",
    [
        "预算50万元，买几张4090能微调Qwen2.5-72B",
        "With a $70,000 budget, how many RTX 4090 do I need to fine-tune Qwen2.5-72B?",
        "How many H100 to fine-tune Llama-3-70B?",
    ],
)
def test_an_open_method_is_sized_on_the_fewest_servers(question: str) -> None:
    outcome = calculate(parse(question))
    s = outcome.scenario
    assert s is not None
    assert s.method in ("lora", "qlora")
    assert s.gpu_count is not None
    assert s.gpu_count <= 8  # one server, where the full fine-tune needs 16 or 64 cards
    assert "LoRA" in outcome.lead.splitlines()[0]


@pytest.mark.parametrize(
    ("question", "method"),
    [
        ("预算50万元，买几张4090能全参微调Qwen2.5-72B", "full"),  # stated: kept
        ("How many H100 do I need to fine-tune Llama-3-8B?", "full"),  # 2 cards, one node
        ("几张4090能用QLoRA微调Qwen2.5-72B", "qlora"),
    ],
)
def test_a_stated_or_fitting_method_is_kept(question: str, method: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.method == method


def test_one_card_gets_the_adapter_methods_on_more_of_it() -> None:
    outcome = calculate(parse("用4090能微调Qwen2.5-72B吗"))
    said = [s.change for s in outcome.suggestions]
    assert any("QLoRA" in c and "RTX 4090" in c for c in said), said


def test_a_card_held_to_a_budget_gets_no_other_model() -> None:
    outcome = calculate(parse("预算50万元，用4090能微调Qwen2.5-72B吗"))
    said = " ".join(s.change for s in outcome.suggestions)
    assert "GH200" not in said
    assert "910B" not in said


def test_other_gpu_names_nothing_when_the_card_is_kept() -> None:
    plan = Plan(
        task="finetune",
        model=lookup_model("Qwen2.5-72B"),
        gpu=lookup_gpu("RTX 4090"),
        gpus=1,
        method="full",
    )
    assert list(other_gpu(plan, {"memory"})) != []
    assert list(other_gpu(plan.replace(other_gpus=False), {"memory"})) == []
