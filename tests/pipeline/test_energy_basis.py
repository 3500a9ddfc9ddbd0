"""An electricity bill says what it counts: the GPUs' own share at full load, then the host
and the facility's PUE, so a desk-side box can see what a data-centre average adds."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _lead(question: str) -> tuple[str, dict[str, float]]:
    outcome = calculate(parse(question))
    power = next(c for c in outcome.checks if c.kind == "power")
    return outcome.lead, dict(power.figures)


def test_a_serving_bill_gives_the_gpu_share_and_the_average_pue() -> None:
    lead, figures = _lead("一台机器两张 L40S 跑 Qwen2.5-7B 推理，一周电费多少，1元一度")
    assert "电费：约" in lead
    # one week of two 350 W cards at full load: 2 x 350 W x 168 h = 117.6 kWh
    match = re.search(r"GPU 满载约 ([\d,.]+) 度", lead)
    assert match is not None
    gpu_kwh = float(match.group(1).replace(",", ""))
    assert gpu_kwh == pytest.approx(2 * 350 * 168 / 1000, rel=0.02)
    assert "PUE 1.58" in lead
    assert figures["energy_joules"] > figures["gpu_energy_joules"]


def test_a_stated_pue_is_named_as_stated_and_not_advised() -> None:
    lead, _ = _lead(
        "Electricity bill for 4 A100 running Llama-3.1-8B for a month, PUE 1.2, at $0.1/kWh?"
    )
    assert "stated PUE of 1.2" in lead
    assert "state its PUE" not in lead


def test_the_basis_follows_the_bill_it_explains() -> None:
    lead, _ = _lead("8张A100训练7B模型，电价0.8元/度，电费多少")
    assert lead.index("电费：约") < lead.index("其中 GPU 满载约")


def _per_token_kwh(question: str) -> tuple[str, dict[str, float]]:
    outcome = calculate(parse(question))
    power = next(c for c in outcome.checks if c.kind == "power")
    return outcome.lead, dict(power.figures)


@pytest.mark.parametrize(
    "question",
    [
        "Llama-3-8B on one H100 at full load: $ per 1M tokens electricity at $0.12/kWh",
        "单张H100跑Llama-3-8B，满载时每百万token电费多少，电价1元/度",
        "Llama-3-8B on one H100 at full load: energy per token?",
    ],
)
def test_energy_per_token_at_full_load_divides_all_power_by_all_tokens(question: str) -> None:
    lead, figures = _per_token_kwh(question)
    per_million = figures["kwh_per_million_tokens"]
    # at full load the card holds ~100 sequences (3,691 tokens/s in total): 1.48 kW over them is
    # ~0.11 kWh per million tokens; one stream's 134 tokens/s would give ~3 kWh
    assert per_million < 0.5
    assert "0.11" in lead or "0.111" in lead


def test_a_serving_bill_per_million_tokens_is_priced() -> None:
    lead, figures = _per_token_kwh(
        "Llama-3-8B on one H100 at full load: $ per 1M tokens electricity at $0.12/kWh"
    )
    cost = figures["kwh_per_million_tokens"] * 0.12
    assert f"{cost:.3g}" in lead
    assert "per hour of serving" in lead
