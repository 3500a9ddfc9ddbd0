"""Less-covered ground (issue 10, answers_mix3): comparisons worded without "faster", cards
known by a size stated after them, GeForce numbers without "RTX", computers that are not GPUs,
names outside the catalog offered entries of their own kind, one copy of pipelined weights."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli
from assistant.calculate import calculate
from assistant.calculate.totals import one_copy
from assistant.parse import parse
from assistant.parse.names import closest_entries, cpu_only, is_computer
from assistant.records import Query, Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner.memory import memory_breakdown
from calculators.planner.plan import Plan


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Should I get 8 A100 or 4 H100 to fine-tune Llama-2-13B?", (8, 4)),
        ("用A100还是H100做Qwen2.5-7B的LoRA", (None, None)),
        ("8张H800和8张A800预训练7B怎么选", (8, 8)),
        ("H20 or L20 to serve Qwen2.5-14B?", (None, None)),
        ("A100跟H100比，微调13B怎么样", (None, None)),
    ],
)
def test_choosing_between_cards_is_a_comparison(
    question: str, options: tuple[int | None, ...]
) -> None:
    query = parse(question)
    assert query.asks[0] == "compare"
    assert tuple(o.gpu_count for o in query.options) == options


def test_one_card_named_with_or_is_no_comparison() -> None:
    # "or" between a card and something else: nothing to compare
    assert "compare" not in parse("Can 8 H100 train a 7B or 13B model?").asks


def test_a_comparison_states_no_contradiction_between_its_counts() -> None:
    query = parse("8张A100、4张H100、16张V100，预训练一个7B模型，选哪个")
    assert len(query.options) == 3
    assert not any("GPU 数量" in w for w in query.warnings)


def test_without_a_criterion_the_winner_leads() -> None:
    query = Query(
        question="H100 or A100 for pretraining 7B, 8 each?",
        language="en",
        scenario=Scenario(params=7e9, task="pretrain", gpu_count=8),
        options=(Scenario(gpu="A100 SXM 80GB"), Scenario(gpu="H100 SXM 80GB")),
        asks=("compare",),
    )
    lead = calculate(query).focus
    assert lead.startswith("8 × H100 SXM 80GB is faster")
    assert lead.index("is faster") < lead.index("8 × A100 SXM 80GB:")


@pytest.mark.parametrize(
    ("question", "memory"),
    [
        ("Can 4 MI325X with 256GB each serve Llama-3.1-70B?", 256e9),
        ("8 cards with 48GB each, can they serve a 70B model?", 48e9),
        ("4张卡每张48G能跑70B吗", 48e9),
        # a link speed or the host's memory is never the card's
        ("Can 8 H100 with 400G IB train a 70B model?", None),
        ("Can 4 A100 with 512GB of RAM fine-tune a 13B model?", None),
        ("8 H100 with 400Gb/s InfiniBand, 70B pretraining", None),
    ],
)
def test_memory_stated_after_the_card(question: str, memory: float | None) -> None:
    assert parse(question).scenario.gpu_memory_bytes == memory


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("两张2080ti 22g能跑7b吗", "2080ti"),
        ("8 GTX 1080 Ti cards for 7B inference", "GTX 1080 Ti"),
        ("2080 super 能跑7b吗", "2080 super"),
    ],
)
def test_a_geforce_number_with_its_suffix_is_a_card(question: str, name: str) -> None:
    assert name in parse(question).unknown_names


def test_a_year_is_no_card() -> None:
    assert parse("2080年能训练完7B吗").unknown_names == ()


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("寒武纪MLU370", "gpu"),  # a card, even though a model name is closer in spelling
        ("Gaudi 3", "gpu"),
        ("2080ti", "gpu"),
        ("Llama-5-400B", "model"),
    ],
)
def test_closest_entries_are_of_the_names_own_kind(name: str, kind: str) -> None:
    assert closest_entries(name)[0] == kind


def test_a_geforce_number_is_offered_geforce_cards() -> None:
    from calculators.catalog.hardware import GPUS

    offered = closest_entries("2080ti")[1]
    assert offered
    assert all(GPUS[name].gpu_class == "consumer" for name in offered)


def test_an_english_answer_names_a_chinese_maker_in_english() -> None:
    query = parse("寒武纪MLU370能推理Qwen2.5-7B吗", language="en")
    assert calculate(query).lead.startswith("Cambricon MLU370 is not in the catalog")


def test_the_note_offers_the_entries_the_lead_offers() -> None:
    query = parse("Can 8 Gaudi 3 train a 13B model?")
    assert any("closest: MI300X 192GB" in w for w in query.warnings)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的电脑没有显卡，只用cpu能跑7b吗", True),
        ("can i run llama-2-7b on my cpu?", True),
        ("cpu only inference of a 7b model", True),
        ("zero-3 with cpu offload on 2 4090", False),
        ("offload optimizer states to the cpu", False),
    ],
)
def test_cpu_only(text: str, expected: bool) -> None:
    assert cpu_only(text) is expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [("MacBook Pro M3", True), ("M2 Ultra", True), ("mac mini", True), ("MI325X", False)],
)
def test_computers_are_not_cards(name: str, expected: bool) -> None:
    assert is_computer(name) is expected


@pytest.mark.parametrize(
    ("question", "lang", "says"),
    [
        ("Can my MacBook Air M2 with 24GB run Llama-2-13B?", "en", "holds the 4-bit weights"),
        ("笔记本没有显卡，只用CPU能跑Qwen2.5-7B吗", "zh", "CPU 不在目录中"),
    ],
)
def test_a_computer_gets_no_verdict_and_no_stand_in(question: str, lang: str, says: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"
    assert outcome.checks == ()
    assert says in outcome.lead
    assert "RTX" not in outcome.lead  # no stand-in card lends it a speed
    assert "4090" not in outcome.lead


def test_a_named_catalog_gpu_wins_over_cpu_words() -> None:
    # ZeRO-3 CPU offload on catalog cards is evaluated as usual
    assert calculate(parse("Can 2 RTX 4090 fine-tune Llama-2-13B with CPU offload?")).checks


def test_one_copy_of_pipelined_weights_is_the_model_not_the_heaviest_stage_twice() -> None:
    model = lookup_model("DeepSeek-V3")
    plan = Plan(
        task="inference",
        model=model,
        gpu=lookup_gpu("H100"),
        gpus=16,
        gpus_per_node=8,
        tensor_parallel=8,
        pipeline_parallel=2,
        precision="fp8",
    )
    heaviest = memory_breakdown(plan).weights_bytes
    assert heaviest * 16 > 1.02 * model.params  # the stages differ: the product overcounts
    total = one_copy(plan, heaviest)
    assert total == pytest.approx(
        memory_breakdown(plan.replace(pipeline_parallel=1)).weights_bytes * 8
    )
    assert total == pytest.approx(model.params, rel=0.01)  # FP8: about a byte a parameter


@pytest.mark.parametrize(
    ("question", "text"),
    [("-3 张卡能训练7B吗", "GPU 数量 -3"), ("-1 GPUs for a 7B model?", "GPU count -1")],
)
def test_a_question_starting_with_a_minus_is_a_question(question: str, text: str) -> None:
    result = CliRunner().invoke(cli, ["ask", question])
    assert result.exit_code == 2, result.output  # refused as bad input (README), not as a flag
    assert text in result.output
    assert "No such option" not in result.output


def test_an_unknown_flag_is_still_a_usage_error() -> None:
    assert CliRunner().invoke(cli, ["ask", "--frobnicate", "hi"]).exit_code == 2


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("Gaudi 3 with 128GB: can 8 of them serve Llama-3.1-70B?", 8),
        ("I have H100s; can 16 of them train a 70B model?", 16),
    ],
)
def test_n_of_them_counts_the_card_named_before(question: str, count: int) -> None:
    assert parse(question).scenario.gpu_count == count


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("海光DCU K100 有64GB显存，4张能跑Llama-3-70B推理吗？", 4),
        ("燧原S60每张48GB，8张一起训练7B要多久", 8),
        ("H100 用4张跑Llama-3-70B推理够吗", 4),
        ("预算5000块能买几张4090", None),  # 块 before a verb is money, not cards
    ],
)
def test_a_bare_zhang_before_a_verb_counts_the_card_named_before(
    question: str, count: int | None
) -> None:
    assert parse(question).scenario.gpu_count == count


@pytest.mark.parametrize(
    ("question", "name", "count"),
    [
        ("RTX 4080 Laptop 两张能跑 70B 吗", "RTX 4080 Laptop", 2),  # 12 GB: not the desktop card
        ("RTX 4090 Laptop 能跑 7B 吗", "RTX 4090 Laptop", None),  # 16 GB, not the desktop card
        ("Can a Tesla K80 run Llama-2-7B?", "K80", None),  # never a typical set-up instead
    ],
)
def test_a_variant_or_an_old_card_outside_the_catalog_is_unknown(
    question: str, name: str, count: int | None
) -> None:
    query = parse(question)
    assert name in query.unknown_names
    assert query.scenario.gpu is None
    assert query.scenario.gpu_count == count


@pytest.mark.parametrize("question", ["top-k 50 sampling on 8 H100", "4k context on an A100"])
def test_sampling_and_context_words_are_no_cards(question: str) -> None:
    assert parse(question).unknown_names == ()


@pytest.mark.parametrize(
    "module",
    [
        "assistant.parse.names",
        "assistant.calculate.device",
        "assistant.calculate.totals",
        "assistant.render.excerpt",
    ],
)
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0


def test_a_computer_beside_catalog_cards_lends_them_no_memory() -> None:
    query = parse("my MacBook Pro M3 with 36GB and 2 A100s: can I fine-tune 13B?")
    assert query.scenario.gpu_memory_bytes is None
    assert query.scenario.gpu_count == 2
    assert query.unknown_names == ()


@pytest.mark.parametrize(
    ("question", "name"),
    [("Can I run Llama-3.1-8B on my laptop?", "Laptop"), ("我的笔记本能跑7B模型吗", "笔记本")],
)
def test_a_laptop_is_a_computer(question: str, name: str) -> None:
    assert calculate(parse(question)).lead.startswith(name)


def test_a_laptop_cooling_question_stays_off_topic() -> None:
    assert parse("笔记本显卡散热不好怎么办").in_domain is False


def test_which_with_a_verb_compares() -> None:
    query = parse("8 A100 and 4 H100: which trains a 70B model faster?")
    assert query.asks[0] == "compare"
    assert len(query.options) == 2
