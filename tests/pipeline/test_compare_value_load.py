"""Serving comparisons decided on value when value is asked, with speed and cost per token at one
load for every option (issue 10, compare3).

The expectations are re-derived from each option's own figures (its price, GPU count and
tokens/s), from the GPU catalog's memory bandwidths, or from the question's own numbers; none is
copied from an answer.
"""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate, criterion
from assistant.calculate.outcome import Outcome
from assistant.parse import parse
from assistant.records import Option
from calculators.catalog.hardware import lookup_gpu

THREE_PRICED = (
    "H100 vs H200 vs MI300X for serving Llama-3.1-70B at $2.5/hr, $3.5/hr and $3.0/hr per GPU: "
    "which is cheapest per token?"
)
VALUE_8B = (
    "L40S vs A6000 for Llama-3.1-8B inference — which is better value at $1.00/hr vs $0.80/hr?"
)


def _ask(question: str) -> Outcome:
    return calculate(parse(question))


def _sentences(outcome: Outcome) -> list[str]:
    return [s for s in re.split(r"(?<=[.。])\s+|(?<=。)", outcome.focus) if s]


def _by_gpu(outcome: Outcome) -> dict[str, Option]:
    return {o.scenario.gpu or "": o for o in outcome.options}


def _per_million(option: Option) -> float:
    """The option's cost per million generated tokens from its own price, count and rate."""
    s, rate = option.scenario, float(option.figures["tokens_per_second"])  # type: ignore[arg-type]
    hourly = (s.gpu_count or 1) * (s.price_per_gpu_hour or 0.0)
    return hourly / (rate * 3600) * 1e6


@pytest.mark.parametrize(
    "question",
    [
        "A at $1/h vs B at $0.8/h: which is better value?",
        "A or B, which gives the best bang for the buck?",
        "A vs B — which is more cost-effective?",
        "A和B哪个性价比高？",
        "A和B哪个更划算？",
        "A和B值不值？",
        "A和B哪个便宜？",
        "A or B: which is more economical for serving?",
        "A和B哪个更经济？",
    ],
)
def test_value_words_ask_for_cost(question: str) -> None:
    assert criterion.criterion(question) == "cost"


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("A vs B: which is fastest?", "speed"),
        ("A vs B vs C: which needs the fewest GPUs?", "count"),
        ("A at $2/h or B at $3/h, which is cheapest?", "cost"),
        ("A vs B, which draws less power?", "power"),
    ],
)
def test_the_other_criteria_are_read_as_before(question: str, wanted: str) -> None:
    assert criterion.criterion(question) == wanted


@pytest.mark.parametrize(
    ("question", "prices"),
    [
        (THREE_PRICED, [2.5, 3.5, 3.0]),
        (
            "H100 vs H200 vs MI300X for Llama-3-70B at $2.5, $3.5 and $3 per GPU-hour?",
            [2.5, 3.5, 3.0],
        ),
        (VALUE_8B, [1.0, 0.8]),
        ("8×H20 at $1.5/GPU-hr vs 8×A100 at $1.8/GPU-hr for Llama-3.1-70B?", [1.5, 1.8]),
    ],
)
def test_a_list_of_prices_after_the_options_is_in_their_order(
    question: str, prices: list[float]
) -> None:
    assert [o.price_per_gpu_hour for o in parse(question).options] == prices


def test_the_value_winner_leads_with_both_costs_then_the_speed_difference() -> None:
    outcome = _ask(VALUE_8B)
    options = _by_gpu(outcome)
    costs = {gpu: _per_million(o) for gpu, o in options.items()}
    cheap, dear = sorted(costs, key=costs.__getitem__)
    first, second = _sentences(outcome)[:2]
    assert first.startswith(f"1 × {cheap} is the better value")
    saving = round((1 - costs[cheap] / costs[dear]) * 100)
    assert f"({saving}% cheaper)" in first
    assert f"{costs[cheap]:.3g}" in first
    assert f"{costs[dear]:.3g}" in first
    rates = {gpu: float(o.figures["tokens_per_second"]) for gpu, o in options.items()}  # type: ignore[arg-type]
    assert second.startswith(f"1 × {max(rates, key=rates.__getitem__)} is faster")
    assert "No criterion was named" not in outcome.focus


def test_value_in_chinese_is_the_cost_criterion_too() -> None:
    outcome = _ask("L40S每卡时7元，A6000每卡时5.5元，跑Llama-3.1-8B推理，哪个性价比高？")
    costs = {gpu: _per_million(o) for gpu, o in _by_gpu(outcome).items()}
    cheap = min(costs, key=costs.__getitem__)
    assert _sentences(outcome)[0].startswith(f"1 张 {cheap} 性价比更高")
    assert "没有指定比较标准" not in outcome.focus


def test_speed_is_compared_at_one_load_and_capacity_is_its_own_figure() -> None:
    outcome = _ask(THREE_PRICED)
    options = _by_gpu(outcome)
    loads = {o.figures["concurrent_sequences"] for o in options.values()}
    capacities = {gpu: o.figures["capacity"] for gpu, o in options.items()}
    assert len(loads) == 1  # one load for all: the most every option holds
    assert loads == {min(capacities.values())}  # type: ignore[type-var]
    assert len(set(capacities.values())) > 1  # each option's own capacity is still reported
    # at one load, decode reads each GPU's share of the weights: the speed ratio of two
    # options on the same split cannot exceed their HBM bandwidth ratio by much (it was 68x)
    h100, h200 = options["H100 SXM 80GB"], options["H200 SXM 141GB"]
    ratio = float(h200.figures["tokens_per_second"]) / float(h100.figures["tokens_per_second"])  # type: ignore[arg-type]
    bandwidth = (
        lookup_gpu("H200").memory_bandwidth_bytes_per_s
        / lookup_gpu("H100").memory_bandwidth_bytes_per_s
    )
    assert 1.0 < ratio <= bandwidth * 1.05
    assert "the same load" in outcome.focus
    for gpu, capacity in capacities.items():
        assert f"{gpu}:" in outcome.focus
        assert f"the most concurrent sequences it holds: {capacity:,}" in outcome.focus


def test_the_cheapest_per_token_at_the_common_load_is_named_first() -> None:
    outcome = _ask(THREE_PRICED)
    costs = {gpu: _per_million(o) for gpu, o in _by_gpu(outcome).items()}
    for gpu, option in _by_gpu(outcome).items():  # the figure compared is the one recomputed
        assert float(option.figures["cost"]) == pytest.approx(costs[gpu], rel=1e-6)  # type: ignore[arg-type]
    cheapest = min(costs, key=costs.__getitem__)
    assert re.match(rf"\d+ × {re.escape(cheapest)} is the cheapest per million", outcome.focus)


def test_a_stated_load_is_the_basis_for_every_option() -> None:
    outcome = _ask(
        "Llama-3.1-8B serving with 16 concurrent users: L40S at $1.00/hr vs A6000 at $0.80/hr, "
        "which is cheaper?"
    )
    assert {o.figures["concurrent_sequences"] for o in outcome.options} == {16}
    assert "the stated load, 16 concurrent sequences" in outcome.focus
    assert "most sequences it holds" not in outcome.focus


def test_which_is_faster_with_no_load_stays_one_sequence_each() -> None:
    outcome = _ask("H100 vs H200 vs MI300X for serving Llama-3.1-70B: which is fastest?")
    assert {o.figures["concurrent_sequences"] for o in outcome.options} == {1}
    rates = {gpu: float(o.figures["tokens_per_second"]) for gpu, o in _by_gpu(outcome).items()}  # type: ignore[arg-type]
    fastest = max(rates, key=rates.__getitem__)
    assert re.match(rf"\d+ × {re.escape(fastest)} is faster for one sequence", outcome.focus)


def test_options_sized_to_a_stated_load_are_decided_on_their_rent() -> None:
    # 20 QPS: each option gets the GPUs that meet it, so both serve the same tokens and the
    # cheaper deployment per hour is the cheaper per token (not the one cheapest at capacity)
    outcome = _ask(
        "H100 vs A100 for serving Llama-3.1-8B at 20 QPS with 1k-token prompts and 256 output "
        "tokens, at $2.5/hr vs $1.5/hr: which is cheaper?"
    )
    rent = {
        gpu: (o.scenario.gpu_count or 0) * (o.scenario.price_per_gpu_hour or 0.0)
        for gpu, o in _by_gpu(outcome).items()
    }
    for gpu, option in _by_gpu(outcome).items():
        assert option.figures["cost"] == pytest.approx(rent[gpu])
    cheap, dear = sorted(rent, key=rent.__getitem__)
    first = _sentences(outcome)[0]
    assert re.match(rf"\d+ × {re.escape(cheap)} is the cheapest for the stated load", first)
    assert f"({round((1 - rent[cheap] / rent[dear]) * 100)}% cheaper)" in first


def test_equal_costs_are_said_to_tie() -> None:
    outcome = _ask(
        "H100每卡时20元和A100每卡时10元，Llama-3.1-8B推理每秒20个请求，"
        "输入1000 token输出256 token，哪个更划算？"
    )
    rent = {
        (o.scenario.gpu_count or 0) * (o.scenario.price_per_gpu_hour or 0.0)
        for o in outcome.options
    }
    if len(rent) == 1:  # 2 × 20 = 4 × 10 元/h: no winner, and the answer says they tie
        assert "成本基本相同" in _sentences(outcome)[0]
    else:
        assert "成本最低" in _sentences(outcome)[0]
