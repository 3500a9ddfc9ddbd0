"""Facts an expert's questions state that were dropped or misread (tests/golden/answers_expert)."""

from __future__ import annotations

import pytest

from assistant.calculate.compare import options_of
from assistant.calculate.outcome import Outcome
from assistant.parse import parse
from assistant.parse.hardware import read_memory
from assistant.parse.load import read_concurrency
from assistant.parse.names import unknown_names
from assistant.records import Scenario


def test_cards_each_is_every_options_count() -> None:
    # "8 cards each" read as 8 per node only: the options were 1 × H20 against 1 × H100
    query = parse("H20 vs H100 for serving Llama-3.1-70B to 32 users, 8 cards each")
    assert [o.gpu_count for o in query.options] == [8, 8]
    assert query.scenario.concurrency == 32


def test_users_being_served_are_concurrent_sequences() -> None:
    assert read_concurrency("serve it to 32 users") == 32
    assert read_concurrency("for 200 users") == 200
    assert read_concurrency("50个用户同时使用") == 50
    assert read_concurrency("train on data from 32 users") is None


def test_an_unknown_card_keeps_its_spelling_and_suffix() -> None:
    query = parse("Can 4 RTX 5000 Ada serve Llama-3.1-70B in int4?")
    assert query.unknown_names == ("RTX 5000 Ada",)
    assert unknown_names("一张32gb的mi50能推理") == ("mi50",)  # no \b before a CJK letter


def test_memory_typed_before_an_unknown_card() -> None:
    assert read_memory("一张32gb的 ⟨gpu⟩ 能推理") == 32e9
    assert parse("一张32GB的MI50能推理Qwen2.5-14B吗").scenario.gpu_memory_bytes == 32e9


@pytest.mark.parametrize(
    ("question", "memory"),
    [
        ("My GPU has 24 GB of VRAM. Can it run Qwen2.5-14B?", 24e9),
        ("a card with 48GB of video memory for Llama-3-70B in int4", 48e9),
        ("Hygon K100 has 64GB; are 4 of them enough to run Llama-3-70B?", 64e9),
        ("a box with 64 GB of memory and 2 A100 for Llama-3-8B", None),  # the machine's RAM
    ],
)
def test_memory_said_as_gb_of_vram(question: str, memory: float | None) -> None:
    assert parse(question).scenario.gpu_memory_bytes == memory


def _served(gpu: str, verdict: str, rate: float, need: float) -> Outcome:
    from assistant.records import Check

    memory = Check(
        kind="memory",
        verdict="ok",
        summary="",
        figures={"required_bytes_per_gpu": need, "available_bytes_per_gpu": 72e9},
    )
    compute = Check(
        kind="compute", verdict="ok", summary="", figures={"decode_tokens_per_s_all_replicas": rate}
    )
    return Outcome(
        verdict=verdict,  # type: ignore[arg-type]
        lead="",
        scenario=Scenario(gpu=gpu, gpu_count=1, task="inference"),
        checks=(memory, compute),
    )


def test_an_option_that_cannot_do_the_job_wins_nothing() -> None:
    options = options_of(
        [
            _served("H20 96GB", "conditional", 357.0, 150e9),  # over its memory: no headroom
            _served("H100 SXM 80GB", "infeasible", 445.0, 184e9),
        ]
    )
    assert [o.wins for o in options] == [(), ()]


def test_working_options_still_win() -> None:
    options = options_of(
        [
            _served("H20 96GB", "feasible", 357.0, 50e9),
            _served("H100 SXM 80GB", "feasible", 445.0, 60e9),
        ]
    )
    assert [o.wins for o in options] == [("memory",), ("speed",)]


def test_a_card_known_by_its_memory_is_judged_on_that_memory() -> None:
    from assistant.calculate import calculate

    # 13.0e9 x 2 B = 26 GB of fp16 weights > 0.9 x 24 GB: it was "Feasible" on the A100 80GB
    # that the typical set-ups tried next, a card the question ruled out by saying 24GB
    outcome = calculate(parse("Can a 24GB card run a 13B model in fp16?"))
    assert outcome.verdict == "infeasible"
    assert outcome.scenario is not None
    # a generic 24 GB card (figures of the RTX 4090), not the RTX 4090 itself
    assert outcome.scenario.gpu == "24GB GPU"
    assert "known only by its memory, 24.0 GB" in outcome.assumptions[0]
    assert "RTX 4090 24GB" in outcome.assumptions[0]


def test_an_unknown_card_with_its_memory_is_evaluated_and_still_named() -> None:
    from assistant.calculate import calculate

    outcome = calculate(parse("一张32GB的MI50能推理Qwen2.5-14B吗"))
    # the verdict first, then the one story about the card: a generic 32 GB card
    assert outcome.lead.startswith("显存不够")
    assert "MI50 不在目录中：按显存 32.0 GB" in outcome.lead
    assert outcome.verdict == "conditional"  # 29.5 GB of bf16 weights > 28.8 GB; int8 fits
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_memory_bytes == 32e9


def test_how_long_past_a_year_invents_no_deadline() -> None:
    from assistant.calculate import calculate

    # 1.003e11 FLOPs/token x 3e12 = 3.0e23 on 64 x 312e12 x 0.40: ~437 days. No deadline was
    # stated, so no "期限 365 天" and no "lengthen the deadline to 438 days (was 365)"
    outcome = calculate(parse("64张A800预训练Qwen2.5-14B，3万亿token，要多久？"))
    assert "超过一年，不现实" in outcome.lead
    assert "要在一年内完成需要约 77 张" in outcome.lead
    assert "期限" not in outcome.lead
    assert all("期限" not in s.change for s in outcome.suggestions)
    assert outcome.scenario is not None
    assert outcome.scenario.deadline_seconds is None


def test_a_latency_per_token_is_a_target() -> None:
    from assistant.parse.load import read_seconds_per_token

    assert read_seconds_per_token("serve it with under 30 ms per token") == 0.03
    assert read_seconds_per_token("每个token 30毫秒") == 0.03
    assert read_seconds_per_token("tpot 50ms") == 0.05
    assert read_seconds_per_token("首字 500ms") is None  # a first-token bound, not per token


def test_a_stated_count_short_of_a_target_says_what_meets_it() -> None:
    from assistant.calculate import calculate

    # 141 GB of bf16 weights: TP=2 reads 70.6 GB per GPU per token (~31 ms with overheads),
    # TP=4 halves it; "2 H100" is the count to judge, not a node of two where nothing meets it.
    # The bf16 is stated, so FP8 (which would meet it) is a suggestion under `infeasible`.
    question = "Can 2 H100 serve Llama-3.1-70B in bf16 with under 30 ms per token?"
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.target_seconds_per_token == 0.03
    assert outcome.verdict == "infeasible"
    assert "it takes 4 × H100 SXM 80GB" in outcome.lead
    assert "No deployment" not in outcome.lead
    assert "Served in FP8 (weights; KV cache in 16 bits) instead of the stated BF16" in outcome.lead


def test_a_target_met_in_a_format_left_open_is_a_condition() -> None:
    from assistant.calculate import calculate

    # no precision stated: H100 runs FP8, 35.3 GB per GPU at TP=2 reads in about half the time
    outcome = calculate(parse("Can 2 H100 serve Llama-3.1-70B with under 30 ms per token?"))
    assert outcome.verdict == "conditional"
    assert outcome.scenario is not None
    assert outcome.scenario.precision == "fp8"
    assert outcome.scenario.gpu_count == 2  # the stated count, not a larger one
    assert "served in FP8 (weights; KV cache in 16 bits)" in outcome.lead
    assert "In BF16 it takes 4 × H100 SXM 80GB" in outcome.lead
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert compute.figures["seconds_per_token"] < 0.03  # the checks are of the FP8 plan


def test_no_fp8_on_a100_so_int8_is_tried() -> None:
    from assistant.calculate import calculate

    # A100 has no FP8 tensor cores: the next format tried is int8, never FP8
    outcome = calculate(parse("Can 2 A100 serve Llama-3.1-70B with under 40 ms per token?"))
    # bf16 at TP=2: 70.6 GB / (2.039 TB/s x 0.8) = 43 ms + kernels > 40 ms; int8 halves it
    assert "FP8" not in outcome.lead
    assert outcome.verdict == "conditional"
    assert outcome.scenario is not None
    assert outcome.scenario.precision == "int8"


def test_an_unreadable_number_is_refused_as_its_slot() -> None:
    import pytest

    from assistant.i18n import input_error
    from calculators.errors import CalculatorInputError

    with pytest.raises(CalculatorInputError) as refused:
        parse("用1e999张H100训练7B模型")
    assert input_error(refused.value, "zh") == "GPU 数量 1e999：太大，无法作为数字读取"
    with pytest.raises(CalculatorInputError) as refused:
        parse("pretrain 7B on 1e999 tokens with 8 H100")
    assert refused.value.field == "tokens"


def test_how_many_is_the_count_it_was_evaluated_at() -> None:
    from assistant.calculate import calculate

    # 6 x 30e9 x 600e9 = 1.08e23 (+ attention) on 3.76e14 FLOP/s per H800 in 21 days: ~170,
    # 22 nodes. It said "at least 176" while evaluating 232 GPUs (a count read off 8 GPUs).
    outcome = calculate(parse("How many H800 to pretrain a 30B model on 600B tokens in 21 days?"))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 176
    assert outcome.lead.startswith("You need at least 176 × H800 SXM 80GB")


def test_over_budget_offers_no_fix_that_leaves_the_cost_and_says_what_it_buys() -> None:
    from assistant.calculate import calculate

    # 5.46e22 FLOPs / 3.76e14 per H100-second = 40,350 GPU-hours x $2.5 = $100,900; a longer
    # deadline fixes the run time, never the cost. $30,000 buys 1e12 x 30,000 / 100,900 tokens.
    question = "预算3万美元，每卡时2.5美元，8张H100预训练Llama-3.1-8B，1万亿token，够吗"
    outcome = calculate(parse(question))
    assert outcome.verdict == "infeasible"
    # the gap is the cost less the budget: 100,894 - 30,000 = 70,894; $30,000 / $2.5 = 12,000
    said = (
        "超出预算：约需 100,894 美元，预算 30,000 美元按每卡时 2.5 美元只够 12,000 GPU 小时，"
        "还差约 70,894 美元。"
    )
    assert outcome.lead.startswith(said)
    assert "约够训练 2973亿 token" in outcome.lead
    assert "最直接的办法" not in outcome.lead


def test_a_budget_question_with_no_deadline_is_not_judged_on_the_default_one() -> None:
    from assistant.calculate import calculate

    # 13B on 300B tokens: 2.64e22 FLOPs / 3.76e14 per H800-second = 19,540 GPU-hours x 15 yuan =
    # 293,100 yuan < 500,000; on the 8 cards assumed that is ~102 days, past the 90-day default
    # deadline the user never stated: the money is what was asked, and it is enough.
    question = "预算50万人民币，租H800 每卡时15元，训练一个13B的模型 3000亿token，钱够吗"
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("预算够：约需 ")
    # the generic 13B shape lands within 0.2% of 13e9 parameters, so the cost within 0.5%
    cost = float(outcome.lead.removeprefix("预算够：约需 ").split(" ")[0].replace(",", ""))
    assert cost == pytest.approx(293_100, rel=0.005)
    assert "期限" not in outcome.lead  # no deadline the user did not set


def test_a_refused_deadline_is_said_in_days() -> None:
    from assistant.calculate import calculate

    lead = calculate(parse("Pretrain a 7B model on 8 H100 in -3 days")).lead
    assert "deadline -3 days: must be" in lead  # it said "deadline -259200", the SI seconds


def test_a_comparison_answers_the_criterion_asked_first() -> None:
    from assistant.calculate import calculate

    # H100: 6.78e21 / 3.76e14 = 5,010 GPU-h x $2.5 = $12,500; A100: 15,100 GPU-h x $1.2 = $18,100
    question = (
        "Which is cheaper to pretrain a 7B model on 140B tokens: "
        "64 H100 at $2.5/h or 64 A100 at $1.2/h?"
    )
    lead = calculate(parse(question)).lead
    assert lead.startswith("64 × H100 SXM 80GB is the cheapest run")
    faster = calculate(parse("H100 和 A100 哪个训练7B更快，各8张")).lead
    assert faster.startswith("8 张 H100 SXM 80GB 更快")


def test_a_new_concurrency_is_one_change() -> None:
    from assistant.calculate.followup import changed_note

    first = parse("8张H100推理Llama-3.1-70B，32k上下文")
    second = parse("那并发64路呢", previous=first)
    # one change, named as the scenario tab and refusals name the slot; not "批大小/并发、并发"
    assert changed_note(second) == "在上一问的基础上改了：并发数。"


def test_electricity_of_stated_hardware_needs_no_model() -> None:
    from assistant.calculate import calculate

    # 1,024 x (700 W TDP + 237 W host) x PUE 1.58 = 1,516 kW; x 720 h = 1,091,514 kWh x 0.5
    outcome = calculate(parse("电价0.5元/度，1024张H800跑30天电费多少"))
    assert outcome.verdict == "unknown"  # an estimate: no job to judge
    assert outcome.lead.startswith("电费：约 1,091,514 度 × 0.5 元/度 = 545,757 元。")
    power = outcome.checks[0]
    assert power.figures["kwh"] == pytest.approx(1024 * 937 * 1.58 * 720 / 1000)


@pytest.mark.parametrize(
    ("question", "price"),
    [
        ("H800每卡时费用12元，8卡跑一个月多少钱", 12.0),  # words between 卡时 and the price
        ("每张卡每小时的费用是12元，8张H800跑30天要花多少钱", 12.0),
    ],
)
def test_the_rent_of_stated_hardware_needs_no_model(question: str, price: float) -> None:
    from assistant.calculate import calculate

    # 8 GPUs x 720 h = 5,760 GPU-hours x 12 yuan = 69,120 yuan: no job, so no verdict
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"
    cost = next(c for c in outcome.checks if c.kind == "cost")
    assert cost.figures["gpu_hours"] == pytest.approx(8 * 720)
    assert cost.figures["cost"] == pytest.approx(8 * 720 * price)
    assert "69,120 元" in outcome.lead


def test_the_power_of_a_stated_server_needs_no_duration() -> None:
    from assistant.calculate import calculate

    # "8卡A100服务器": one server of 8 cards; 8 x (400 W + 237 W host) x PUE 1.58 = 8.05 kW
    outcome = calculate(parse("8卡A100服务器满载功率多少瓦"))
    assert outcome.verdict == "unknown"
    power = next(c for c in outcome.checks if c.kind == "power")
    assert power.figures["average_power_watts"] == pytest.approx(8 * 637 * 1.58, rel=0.01)


def test_the_electricity_of_serving_is_for_the_period_stated() -> None:
    from assistant.calculate import calculate

    # serving's power check is per hour (64 x (400 + 237) W x 1.58 = 64.4 kWh an hour): "一天"
    # is 24 of them, 1,546 kWh x 0.5 = 773 yuan, not one hour's 32 yuan
    outcome = calculate(parse("64张H20推理DeepSeek-V3一天电费多少，电价0.5元/度"))
    per_hour = next(c for c in outcome.checks if c.kind == "power").figures["kwh_per_hour"]
    assert isinstance(per_hour, float)
    assert f"{per_hour * 24 * 0.5:,.0f} 元" in outcome.lead


def test_an_electricity_price_with_no_unit_is_per_kwh() -> None:
    assert parse("1000张H800跑30天，电价0.6元，电费多少").scenario.price_per_kwh == 0.6
    assert parse("电价0.5元每小时，8卡H100").scenario.price_per_kwh is None  # not per kWh


def test_electricity_priced_per_degree_in_words_is_read() -> None:
    # "0.8元一度" (一 read as 1): 8 x (700 + 237) W x PUE 1.58 x 720 h = 8,527 kWh x 0.8
    outcome = parse("8张H100功耗多少？电费0.8元一度，一个月电费多少")
    assert outcome.scenario.price_per_kwh == 0.8


def test_a_bare_ascend_variant_is_an_unknown_card_with_its_count() -> None:
    # "910B4" matched nothing: typical set-ups on 4 H100 answered "8张910B4推理…"
    query = parse("8张910B4推理Qwen2.5-72B可以吗")
    assert query.unknown_names == ("910B4",)
    assert query.scenario.gpu_count == 8
    assert parse("8张910B推理Qwen2.5-72B").scenario.gpu == "Ascend 910B 64GB"


def test_a_chinese_question_with_product_names_is_chinese() -> None:
    assert parse("Ascend 910 32GB训练7B").language == "zh"
    assert parse("Can an Ascend 910 train 7B? 训练").language == "en"


@pytest.mark.parametrize(
    ("question", "gpu", "count", "memory"),
    [
        ("4张魔改48G的4090推理Llama-3.1-70B int4", "RTX 4090 24GB", 4, 48e9),  # was 1 × 24 GB
        ("8卡A800 40G微调Qwen2.5-14B LoRA", "A800 SXM 80GB", 8, 40e9),  # 40G was dropped
        ("8张24G的卡推理Llama-2-13B", None, 8, 24e9),  # the count was lost
        ("Can a 24GB card run a 7B model at 4-bit?", None, None, 24e9),  # "2" is not a count
        ("8 H100 100G RoCE pretrain 7B", "H100 SXM 80GB", 8, None),  # a link speed, not memory
    ],
)
def test_a_memory_stated_for_the_card_is_kept(
    question: str, gpu: str | None, count: int | None, memory: float | None
) -> None:
    s = parse(question).scenario
    assert (s.gpu, s.gpu_count, s.gpu_memory_bytes) == (gpu, count, memory)


def test_a_named_card_is_evaluated_with_the_memory_stated_for_it() -> None:
    from assistant.calculate import calculate

    # int4 70B: ~41 GB on one card; a modded 48 GB 4090 has 43.2 GB usable, a stock one 21.6
    outcome = calculate(parse("一张魔改48G的4090能推理Llama-3.1-70B int4吗"))
    memory = next(c for c in outcome.checks if c.kind == "memory")
    assert memory.figures["available_bytes_per_gpu"] == pytest.approx(0.9 * 48e9)
    assert outcome.assumptions[0].startswith("RTX 4090 24GB 按问题给出的显存 48.0 GB")


@pytest.mark.parametrize("question", ["910C 能训练 70B 的模型吗", "MTT S4000 能跑 Qwen2-7B 吗?"])
def test_an_unknown_cards_note_offers_the_leads_closest_entries(question: str) -> None:
    # The lead offered "Ascend 910B 64GB、Ascend 910 32GB、A10" while the note under it said
    # the closest was "A10": two lists from two look-ups. Both now come from one.
    from assistant.calculate import calculate
    from assistant.parse.names import closest_entries

    query = parse(question)
    (name,) = query.unknown_names
    _, closest = closest_entries(name)
    assert closest
    listed = "、".join(closest)
    assert listed in calculate(query).lead
    assert any(listed in warning for warning in query.warnings)
