"""Parsing and follow-up gaps found by the Chinese expert set (issue 10): yuan as 块, alias
boundaries, uncounted cards, PUE, relative and size-only follow-ups, N-GPU servers, seq lengths."""

from __future__ import annotations

import re

import pytest

from assistant.calculate.one_card import with_one_card
from assistant.parse import load, parse, slots
from assistant.parse.followup import family_model, scaled_units
from assistant.parse.hardware import find_aliases
from assistant.parse.numbers import CURRENCY, normalize_numbers
from assistant.records import Query, Scenario
from calculators.catalog.hardware import GPUS, gpu_alias_index
from calculators.catalog.models import MODELS, model_alias_index


@pytest.mark.parametrize(
    ("question", "slot", "value", "currency"),
    [
        ("10万块钱预算，8张A100训练7B", "budget", 100000.0, "CNY"),
        ("预算20万块，8张A100训练7B", "budget", 200000.0, "CNY"),
        ("每卡时2块钱，8张A100训练7B", "price_per_gpu_hour", 2.0, "CNY"),
        ("每卡时8块，8张A100训练7B", "price_per_gpu_hour", 8.0, "CNY"),
        ("两块一度电，8张H100训练70B", "price_per_kwh", 2.0, "CNY"),
        ("电费0.6块钱1度，8张H100训练70B", "price_per_kwh", 0.6, "CNY"),
        ("两块五一度电，8张H100训练70B", "price_per_kwh", 2.5, "CNY"),  # 块 + tenths
        ("每卡时三块五钱，8张A100训练7B", "price_per_gpu_hour", 3.5, "CNY"),
        ("$3 per GPU-hour, 8 H100 pretrain 7B", "price_per_gpu_hour", 3.0, "USD"),
    ],
)
def test_kuai_is_yuan(question: str, slot: str, value: float, currency: str) -> None:
    s = parse(question).scenario
    assert getattr(s, slot) == pytest.approx(value)
    assert s.currency == currency


def test_one_currency_table() -> None:
    # both money readers use numbers.CURRENCY; no second table to drift
    assert not hasattr(slots, "_CURRENCY")
    assert not hasattr(load, "_CURRENCY")
    assert CURRENCY["块钱"] == CURRENCY["块"] == CURRENCY["元"] == "CNY"


def test_kuai_as_a_card_word_is_no_money() -> None:
    s = parse("8块A100训练7B模型要多久").scenario
    assert (s.gpu_count, s.budget, s.price_per_gpu_hour) == (8, None, None)
    assert parse("8块二手4090训练1B模型").scenario.gpu_count == 8  # not 8.2 of anything


@pytest.mark.parametrize(
    ("question", "gpu", "count", "tokens"),
    [
        ("910B 3.5万亿token 预训练70B模型，256张卡要多久", "Ascend 910B 64GB", 256, 3.5e12),
        ("8张910B3训练7B模型", "Ascend 910B 64GB", 8, None),  # glued: the 910B3 itself
        ("A100 SXM 4卡训练13B模型", "A100 SXM 80GB", 4, None),
        ("H100 8卡 训练7B模型", "H100 SXM 80GB", 8, None),
        ("A100 40G 2张能推理Qwen2.5-14B吗", "A100 SXM 40GB", 2, None),
        ("H100 SXM5 8卡训练7B模型", "H100 SXM 80GB", 8, None),
    ],
)
def test_alias_ends_at_a_token_boundary(
    question: str, gpu: str, count: int, tokens: float | None
) -> None:
    s = parse(question).scenario
    assert (s.gpu, s.gpu_count, s.tokens) == (gpu, count, tokens)


def _trailing_digit_aliases() -> list[tuple[str, str]]:
    """(alias, its last digit group) for every GPU and model alias ending in a letter and one or
    two digits ("910B3", "A100 SXM4", "GPT-3"): typed with a space, those digits read as a count
    (a longer group is a product number: "RTX 3090" is the 3090)."""
    out = []
    spellings = [a for g in GPUS.values() for a in (g.name, *g.aliases)]
    spellings += [a for m in MODELS.values() for a in (m.name, *m.aliases)]
    for alias in spellings:
        match = re.search(r"[A-Za-z](\d{1,2})$", alias)
        if match and not re.search(r"\s\d+$", alias):
            out.append((alias, match.group(1)))
    return out


@pytest.mark.parametrize(("alias", "digits"), _trailing_digit_aliases())
def test_no_alias_swallows_a_count_across_a_space(alias: str, digits: str) -> None:
    # "910B3" typed as "910B 3卡" or "A100 SXM4" as "A100 SXM 4卡": the digits are a count
    text = f"{alias[: -len(digits)]} {digits}卡".lower()
    index = {**gpu_alias_index(), **model_alias_index()}
    space = text.rindex(" ")
    for match in find_aliases(text, index):
        assert not match.start < space < match.end, (alias, text, match)


def test_an_alias_does_not_end_before_a_decimal() -> None:
    assert parse("GPT 3.5 推理需要多少显存").scenario.model is None
    assert parse("GPT-3 推理需要多少显存").scenario.model == "GPT-3 175B"


def _one_card(question: str, **slots_: object) -> Scenario:
    query = Query(question=question, language="zh", scenario=Scenario(**slots_))  # type: ignore[arg-type]
    return with_one_card(query, None)[0].scenario


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("用4090训练1B模型要多久", "RTX 4090 24GB", 1),  # a desktop card: one
        ("A6000能LoRA微调7B吗", "RTX A6000 48GB", 1),  # a workstation card: one
        ("H100训练7B模型", "H100 SXM 80GB", None),  # a data-centre card: the 8-GPU default
        ("4090服务器训练1B模型", "RTX 4090 24GB", None),  # a server of unstated size
        ("我的4090主机能训练1B模型吗", "RTX 4090 24GB", 1),  # a desktop PC: one card
        ("需要几张4090训练1B模型", "RTX 4090 24GB", None),  # the count is what is asked
    ],
)
def test_one_desktop_card(question: str, gpu: str, count: int | None) -> None:
    s = _one_card(question, gpu=gpu, params=1e9, task="pretrain")
    assert s.gpu_count == count


def test_an_h100_is_one_card_an_h100_node_is_not() -> None:
    assert parse("Can an H100 fine-tune Llama-3.1-8B with LoRA?").scenario.gpu_count == 1
    assert parse("Can an H100 node fine-tune Llama-3.1-70B?").scenario.gpu_count is None


@pytest.mark.parametrize(
    ("question", "pue"),
    [
        ("8张H100训练70B模型，PUE 1.3，耗电多少", 1.3),
        ("4张A100部署Qwen2.5-72B，PUE为1.2", 1.2),
        ("Serve Llama-3.1-70B on 8 H100 at a PUE of 1.25", 1.25),
        ("8张H100训练70B模型，1.4的PUE", 1.4),
        ("8张H100训练70B模型，PUE是什么", None),
    ],
)
def test_pue_is_read(question: str, pue: float | None) -> None:
    assert parse(question).scenario.pue == pue


def test_stated_pue_reaches_the_plan() -> None:
    from assistant.calculate.layouts import to_plan
    from calculators.planner.checks import plan_energy
    from calculators.power import DEFAULT_PUE

    stated = Scenario(model="Qwen2.5-7B", gpu="H100 SXM 80GB", gpu_count=1, task="inference")
    unstated = to_plan(stated)
    assert unstated.pue is None  # not stated: the energy model picks it for the host class
    assert plan_energy(unstated, 3600.0).pue == DEFAULT_PUE  # a data-centre card
    assert to_plan(Scenario(**{**stated.__dict__, "pue": 1.2})).pue == 1.2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("再加1倍卡呢", ("gpu_count", 2.0)),
        ("卡数减半呢", ("gpu_count", 0.5)),
        ("数据翻倍呢", ("tokens", 2.0)),
        ("节点数翻倍呢", ("nodes", 2.0)),
        ("what if we double the gpus?", ("gpu_count", 2.0)),
        ("half the tokens?", ("tokens", 0.5)),
        ("上下文翻倍呢", ("context_length", 2.0)),
        ("卡数变成3倍呢", ("gpu_count", 3.0)),
        ("翻倍呢", None),  # says nothing of what doubles
        ("what about 8 gpus in half precision?", None),  # a number format, not a change
        ("and in half a year with 8 gpus?", None),  # the half is of a year, far from the GPUs
        ("double the number of gpus?", ("gpu_count", 2.0)),
        ("8张⟨gpu⟩训练7b", None),
    ],
)
def test_relative_change(text: str, expected: tuple[str, float] | None) -> None:
    assert scaled_units(normalize_numbers(text)) == expected


@pytest.mark.parametrize(
    ("first", "then", "slot", "value"),
    [
        ("8张A100训练7B模型要多久", "再加一倍卡呢", "gpu_count", 16),
        ("16张H800训练13B模型要多久", "卡数减半呢", "gpu_count", 8),
        ("两台8卡H100预训练70B模型，1T token要多久", "数据翻倍呢", "tokens", 2e12),
        ("Can 8 H100 pretrain a 7B model on 1T tokens?", "half the tokens?", "tokens", 5e11),
        # no tokens stated: the 20-per-parameter default the answer assumed, doubled
        ("8张A100训练7B模型要多久", "数据翻倍呢", "tokens", 2.8e11),
        ("两台8卡A100训练30B模型要多久", "节点数翻倍呢", "nodes", 4),
    ],
)
def test_relative_followup(first: str, then: str, slot: str, value: float) -> None:
    query = parse(then, previous=parse(first))
    assert query.followup
    assert getattr(query.scenario, slot) == pytest.approx(value)


@pytest.mark.parametrize(
    ("model", "params", "expected"),
    [
        ("Qwen2.5-7B", 72e9, ("Qwen2.5-72B", "Qwen2.5")),
        ("Llama-3.1-8B", 70e9, ("Llama-3.1-70B", "Llama-3.1")),
        ("Qwen2.5-7B", 1.5e9, ("Qwen2.5-1.5B", "Qwen2.5")),
        ("Qwen2.5-7B", 70e9, (None, "Qwen2.5")),  # no such size: a generic 70B
        ("Mixtral-8x7B", 22e9, (None, None)),
        ("DeepSeek-V3", 70e9, (None, None)),
    ],
)
def test_family_model(model: str, params: float, expected: tuple[str | None, str | None]) -> None:
    assert family_model(model, params) == expected


def test_size_followup_picks_the_family_or_says_generic() -> None:
    first = parse("8张H100部署Qwen2.5-7B")
    assert parse("那72B呢", previous=first).scenario.model == "Qwen2.5-72B"
    generic = parse("那70B呢", previous=first)
    assert (generic.scenario.model, generic.scenario.params) == (None, 70e9)
    assert any("Qwen2.5" in w and "70B" in w for w in generic.warnings)
    english = parse("what about 70B?", previous=parse("Can 8 H100 serve Llama-3.1-8B?"))
    assert english.scenario.model == "Llama-3.1-70B"


@pytest.mark.parametrize(
    ("question", "nodes", "per_node", "count"),
    [
        ("8 GPU server with H100: can it fine-tune Llama-3.1-70B with LoRA?", 1, 8, 8),
        ("an 8-GPU H100 server, how long to pretrain a 7B model?", 1, 8, 8),
        ("8卡H100服务器训练7B模型要多久", 1, 8, 8),
        ("We have two 8 GPU servers with A100", 2, 8, 16),
        ("需要几台8卡H100服务器训练70B模型", None, 8, None),  # the server count is asked
        ("How many 8-GPU H100 servers do I need to train a 70B model?", None, 8, None),
    ],
)
def test_n_gpu_server(question: str, nodes: int | None, per_node: int, count: int | None) -> None:
    s = parse(question).scenario
    assert (s.nodes, s.gpus_per_node, s.gpu_count) == (nodes, per_node, count)


@pytest.mark.parametrize(
    ("question", "context"),
    [
        ("Train a 30B model on 16 H100, seq 8k", 8192),
        ("Train a 7B model on 8 H100, seqlen 4k", 4096),
        ("8张A100全参微调Llama-3.1-8B，序列8k", 8192),
        ("8张A100全参微调Llama-3.1-8B，序列长度为16k", 16384),
        ("16张H100训练70B模型，序列并行4", None),  # a parallelism degree, not a length
    ],
)
def test_seq_is_a_context_length(question: str, context: int | None) -> None:
    assert parse(question).scenario.context_length == context


def test_stated_pue_prices_a_hardware_only_energy_question() -> None:
    from assistant.calculate.energy import hardware_energy

    def watts(question: str) -> float:
        found = hardware_energy(parse(question))
        assert found is not None
        return float(found[0].figures["average_power_watts"])  # type: ignore[arg-type]

    # 8 A100 SXM: (400 W TDP + 237 W host) x 8 = 5096 W of IT power, times the PUE
    assert watts("8张A100满载一个月要多少电，PUE 1.2") == pytest.approx(5096 * 1.2)
    assert watts("8张A100满载一个月要多少电") == pytest.approx(5096 * 1.58)
