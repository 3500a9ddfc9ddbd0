"""Colloquial Chinese wordings from the probeD probe (boss, student, ops, product manager):
each reads the slot or question kind it states, in wordings of our own."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "一张4090全参微调7B模型行不行？不想用lora",
        "8张A100微调Llama-3.1-8B，不打算用LoRA",
        "Can 8 A100 fine-tune Llama-3.1-8B? I don't want to use LoRA, full fine-tune",
    ],
)
def test_a_method_the_user_does_not_want_is_not_the_method(question: str) -> None:
    assert parse(question).scenario.method != "lora"


@pytest.mark.parametrize(
    ("question", "qps"),
    [
        ("做个客服机器人，高峰QPS大概5，模型用Qwen2.5-7B，需要几张4090？", 5),
        ("峰值QPS约12，8张H20跑Qwen3-32B行不行", 12),
        # boundary: the plain form still reads
        ("QPS 20，8张H20部署Qwen3-32B能扛住吗", 20),
    ],
)
def test_a_qps_after_a_chinese_word_or_a_hedge_is_the_target(question: str, qps: float) -> None:
    assert parse(question).scenario.target_qps == qps


@pytest.mark.parametrize(
    ("question", "seconds"),
    [
        ("吉林服务器开一整年电费多少？按0.6元一度算", 365 * 86400.0),
        ("两台8卡H100跑一整个月，电费一块一度，多少钱", 30 * 86400.0),
    ],
)
def test_a_whole_year_or_month_is_the_period(question: str, seconds: float) -> None:
    assert parse(question).scenario.deadline_seconds == seconds


@pytest.mark.parametrize(
    "question",
    [
        "一张4090推理Qwen2.5-7B，8k上下文能并发几个",
        "4张L20跑Qwen2.5-32B，可以并发多少路",
        "单卡H100跑Llama-3.1-8B，并发能到多少",
    ],
)
def test_can_it_run_how_many_at_once_asks_for_the_concurrency(question: str) -> None:
    assert parse(question).asks[0] == "max_concurrency"


@pytest.mark.parametrize(
    ("question", "formats"),
    [
        # 910B has no FP8: BF16 there; the H20 runs R1's released FP8
        (
            "910B和H20哪个更适合跑满血版DeepSeek-R1推理？都是8卡一台",
            {"Ascend 910B 64GB": "bf16", "H20 96GB": "fp8"},
        ),
        ("8张H20和8张A100跑满血DeepSeek-R1哪个好", {"H20 96GB": "fp8", "A100 SXM 80GB": "bf16"}),
    ],
)
def test_compared_cards_run_full_precision_each_in_its_own_format(
    question: str, formats: dict[str, str]
) -> None:
    assert {o.gpu: o.precision for o in parse(question).options} == formats


def test_a_named_format_is_one_for_all_compared_cards() -> None:
    query = parse("8张H20和8张A100跑bf16的DeepSeek-R1哪个好")
    assert query.scenario.precision == "bf16"
    assert all(o.precision is None for o in query.options)  # the question's bf16 for each


@pytest.mark.parametrize(
    ("question", "price"),
    [
        # spoken "X万Y" is X.Y万: 15,000, not 10,005 (or 100,005 with an Arabic 1)
        ("预算五十万能买几张4090？一张1万5", 15_000),
        ("预算五十万能买几张4090？一张一万五", 15_000),
        ("H20一张十万五，预算一百万能买几张", 105_000),
        # boundary: 零 keeps the units
        ("4090一张一万零五，预算十万能买几张", 10_005),
    ],
)
def test_a_spoken_price_with_a_trailing_digit_is_the_next_place_down(
    question: str, price: float
) -> None:
    assert parse(question).scenario.purchase_price == price


@pytest.mark.parametrize(
    ("question", "budget"),
    [
        ("老板问：花五十万租卡，H100每卡时8块，能租多少卡时", 500_000),
        ("拿出100万租H800，每卡时10块，能训多大的模型", 1_000_000),
    ],
)
def test_money_spent_on_renting_is_the_budget(question: str, budget: float) -> None:
    assert parse(question).scenario.budget == budget


def test_days_spent_are_no_money() -> None:
    assert parse("花了3天训练7B模型，8张A100").scenario.budget is None


@pytest.mark.parametrize(
    ("question", "price"),
    [
        ("电费八毛五一度，两台8卡A800满载跑一个月，电费多少", 0.85),
        ("8张4090跑一周，电价6毛一度，多少钱", 0.6),
        # boundary: the yuan-and-tenths form still reads
        ("8张4090跑一周，两块五一度电，多少钱", 2.5),
    ],
)
def test_mao_is_a_tenth_of_a_yuan(question: str, price: float) -> None:
    assert parse(question).scenario.price_per_kwh == price


def test_a_customer_service_bot_is_served_and_its_daily_requests_are_a_rate() -> None:
    # 10,000 users x 10 questions a day = 100,000 requests / 86,400 s = 1.157 QPS on average
    s = parse("我们是做智能客服的，日活1万，每人每天问10个问题，用Qwen2.5-14B，要几张L20").scenario
    assert s.task == "inference"
    assert s.deadline_seconds is None  # "每天" is the rate's period, not how long it runs
    assert s.target_qps == pytest.approx(100_000 / 86_400)


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("Qwen2.5-14B做聊天机器人要几张L20", "inference"),
        # boundary: a training word still decides
        ("用客服对话数据微调Qwen2.5-7B，8张A100要多久", "finetune"),
    ],
)
def test_what_a_deployment_is_for_names_the_task(question: str, task: str) -> None:
    assert parse(question).scenario.task == task


def test_daily_users_without_a_per_person_rate_is_no_load() -> None:
    assert parse("日活1万，用Qwen2.5-14B，要几张L20").scenario.target_qps is None


def test_a_speed_in_chinese_characters_is_read_as_tokens_and_said() -> None:
    query = parse("100个人同时用，首字延迟1秒内，每人每秒15个字，8张H20跑Qwen2.5-72B够不够")
    assert query.scenario.target_seconds_per_token == pytest.approx(1 / 15)
    assert query.scenario.target_first_token_seconds == 1.0
    assert any("个字按每秒" in w for w in query.warnings)


def test_bytes_a_second_are_no_characters() -> None:
    assert parse("8张H20跑Qwen2.5-72B，网络每秒15字节").scenario.target_seconds_per_token is None


@pytest.mark.parametrize(
    ("question", "link"),
    [
        ("两台8卡910B之间只有25G网，跨机训练13B模型行不行，1000亿token", "25GbE TCP"),
        ("两台8卡A100，100G网，训练7B", "100GbE TCP"),
        # boundary: a named fabric still wins
        ("两台8卡A100，机间200G IB，训练7B", "InfiniBand HDR"),
    ],
)
def test_a_speed_before_a_bare_wang_is_the_inter_node_link(question: str, link: str) -> None:
    assert parse(question).scenario.inter_link == link
