"""What a question means by its wording, in both languages: a "how many at once" question, one
user, money held beside a rent price, a quantity question of its own after a chain, a
head-count of people sharing a deployment, and a budget to buy hardware (not rent)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.records import Query

_H200_8B = "单卡H200跑Llama-3.1-8B，32k上下文"


@pytest.mark.parametrize(
    "question",
    [
        f"{_H200_8B}最多能同时跑几路请求？",
        f"{_H200_8B}最多同时服务几个人？",
        f"{_H200_8B}能扛多少人同时用？",
        "两张4090部署Qwen2.5-14B，最多能同时扛得住多少用户？",
        "4张A100跑Llama-3.1-70B能同时支持几个用户",
        "One H200 running Llama-3.1-8B at 32k context: how many users at once can it handle?",
        "One H200 running Llama-3.1-8B at 32k context: how many simultaneous requests?",
        "How many people can 2 H100 serve with Llama-3.1-70B?",
        "With Llama-3.1-8B on an L40S, how many chats can run at the same time?",
        "One H100 with Llama-3.1-8B: what's the maximum number of simultaneous users?",
        "一张H100跑Llama-3.1-8B，并发上限是多少？",
        "一张H100跑Llama-3.1-8B，同时在线最多多少人？",
        "一张H100跑Llama-3.1-8B，可以同时给多少人用？",
        # a context length between "how many" and the noun, no verb after it
        "DeepSeek-V3 in FP8 on one 8xH200 node: does it fit, and how many 32k-context sessions?",
        "Llama-3.1-8B on one H100: how many 8k ctx users fit?",
        "how many 8k-token sessions can one H100 hold for Llama-3.1-8B?",
    ],
)
def test_how_many_at_once_asks_the_most_concurrent_sequences(question: str) -> None:
    assert parse(question).asks[0] == "max_concurrency"


@pytest.mark.parametrize(
    "question",
    [
        "H100跑Llama-3.1-8B每秒能处理多少个请求？",  # a rate, not sequences in flight
        "How many requests per second can 8 H100 handle for Llama-3.1-70B?",
        "8张H100能同时跑几个Llama-3.1-8B模型？",  # models, not users
        "How many users per day can one H100 with Llama-3.1-8B handle?",
        "How do most users deploy Llama-3.1-8B on one H100?",
    ],
)
def test_a_rate_or_other_count_is_no_concurrency_question(question: str) -> None:
    assert "max_concurrency" not in parse(question).asks


@pytest.mark.parametrize(
    ("question", "speed"),
    [
        ("Serve Mixtral-8x7B at 50 tok/s for a single user on A100 40GB cards: how many?", 50),
        ("For one user, Llama-3.1-8B at 80 tokens/s on an L4: enough?", 80),
        ("I'm the only user: Qwen2.5-7B at 60 tok/s on one 4090?", 60),
        ("只有我自己用，Qwen2.5-14B 要跑到 40 token/s，一张 4090 够吗？", 40),
        ("单用户 50 token/s 跑 Mixtral-8x7B，需要几张A100 40GB？", 50),
        ("一个人用，Llama-3.1-8B 30 token/s，L4 行吗？", 30),
        ("Mixtral-8x7B at 50 tok/s, one user, on A100 40GB cards: how many?", 50),
    ],
)
def test_one_user_is_one_sequence_at_its_own_speed(question: str, speed: float) -> None:
    scenario = parse(question).scenario
    assert scenario.concurrency == 1
    assert scenario.target_tokens_per_second is None
    assert scenario.target_seconds_per_token == pytest.approx(1 / speed)


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama-3.1-8B at 1000 tok/s on H100s: how many?",  # no user named: a throughput
        "我们公司自己用，Llama-3.1-8B 要 1000 token/s，需要几张H100？",  # a company, not one person
    ],
)
def test_a_throughput_with_no_single_user_stays_a_throughput(question: str) -> None:
    scenario = parse(question).scenario
    assert scenario.target_tokens_per_second == 1000
    assert scenario.concurrency != 1


@pytest.mark.parametrize(
    ("question", "budget", "currency"),
    [
        ("With $20k and H200s at $3.50/hr, what's the largest model we can pretrain?", 2e4, "USD"),
        ("20k USD, H100 at $2 per GPU-hour: biggest model to pretrain?", 2e4, "USD"),
        ("$1.5M and A100s at $1.2/hr: largest model compute-optimally?", 1.5e6, "USD"),
        ("有20万块钱，H100每卡时20元，最大能预训练多大的模型？", 2e5, "CNY"),
        ("手上就5万美元，H100每卡时2美元，最大能预训练多大的模型？", 5e4, "USD"),
        ("2万刀，H100每卡时2.5美元，能预训练多大的模型？", 2e4, "USD"),
    ],
)
def test_money_beside_a_rent_price_is_the_budget(
    question: str, budget: float, currency: str
) -> None:
    scenario = parse(question).scenario
    assert scenario.budget == pytest.approx(budget)
    assert scenario.currency == currency


@pytest.mark.parametrize(
    "question",
    [
        "H200s at $3.50/hr: what's the largest model 64 of them can pretrain in 30 days?",
        "4块H100每卡时20元，训练7B要多少钱？",  # 4块 counts cards
    ],
)
def test_a_price_alone_is_no_budget(question: str) -> None:
    assert parse(question).scenario.budget is None


_TRAINING = "Train Llama-2-7B with LoRA on 32 A100 80GB, how long for 1B tokens?"


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("What's the KV cache of Mixtral-8x7B at 32k context for one request?", "inference"),
        ("Tell me the KV cache of Llama-3.1-8B at 128k context.", "inference"),
        ("说说 Mixtral-8x7B 在 32k 上下文时的 KV cache", "inference"),
        ("Qwen2.5-72B 的权重有多大？", "inference"),
        ("How big are the weights of Llama-3.1-70B in bf16?", "inference"),
        ("Mixtral-8x7B 需要多少显存？", None),  # memory alone does not say which job
    ],
)
def test_a_quantity_of_a_named_model_is_a_new_question(question: str, task: str | None) -> None:
    previous = parse(_TRAINING)
    query = parse(question, previous=previous)
    assert not query.followup
    assert query.scenario.gpu_count is None  # the 32 A100 are not carried over
    assert query.scenario.task == task


@pytest.mark.parametrize(
    "question",
    ["那KV cache占多少？", "那KV cache呢？", "and the KV cache?", "What about the KV cache?"],
)
def test_a_kv_cache_followup_without_a_model_still_follows(question: str) -> None:
    query = parse(question, previous=parse("8张H100推理Llama-3.1-70B，32k上下文"))
    assert query.followup
    assert query.asks[0] == "kv_cache"
    assert query.scenario.gpu_count == 8


@pytest.mark.parametrize(
    "question", ["KV cache 是什么呢？", "What is KV cache?", "KV cache 是什么"]
)
def test_what_a_kv_cache_is_stays_a_concept(question: str) -> None:
    assert parse(question).asks == ("concept",)


def _notes(query: Query) -> str:
    return " ".join(query.warnings)


@pytest.mark.parametrize(
    ("question", "count", "note"),
    [
        ("Is 4x L40S enough to run Mixtral 8x7B in fp16 for a team of 30 people?", 30, "30 people"),
        ("We want Llama-3.1-8B on one L40S for 25 developers - will it hold up?", 25, "25 people"),
        ("Can a 50-person company share Qwen2.5-32B on 2 H100?", 50, "upper bound"),
        (
            "我们公司想私有化部署一个70B的模型给100个员工用，需要几张H100？",
            100,
            "按 100 人同时使用计",
        ),
        ("全公司200人，部署Qwen2.5-72B需要几张H100？", 200, "上限"),
        ("30人的团队用4张A100跑Llama-3.1-70B，够吗？", 30, "上限"),
        # a word between the count and the people ("internal users", "名员工日常使用")
        ("Serve Qwen2.5-72B to about 200 internal users on 8x A100 80GB. Enough?", 200, "200"),
        ("支撑500名员工日常使用 Qwen2.5-72B 需要几张H20？", 500, "按 500 人同时使用计"),
        ("8张A100给我们200名员工用够吗，跑Llama-3.1-70B", 200, "上限"),
    ],
)
def test_a_head_count_is_evaluated_all_at_once_and_said(
    question: str, count: int, note: str
) -> None:
    query = parse(question)
    assert query.scenario.concurrency == count
    assert note in _notes(query)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("私有化部署一个70B的模型给200人同时用，需要几张H100？", 200),  # 同时: a concurrency
        ("Llama-3.1-70B on 8 H100 with 64 concurrent users?", 64),
        ("1000 users per day on Llama-3.1-8B with one H100, QPS 2?", None),  # a rate
        ("团队30人，用8张H100训练Llama-2-7B要多久？", None),  # training serves no one
        ("Llama-3.1-8B on one H100 for 200 daily users?", None),  # people per day: a rate
    ],
)
def test_a_stated_concurrency_or_a_rate_gets_no_head_count_note(
    question: str, count: int | None
) -> None:
    query = parse(question)
    assert query.scenario.concurrency == count
    assert "upper bound" not in _notes(query)
    assert "上限" not in _notes(query)


@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("我们公司想私有化部署一个70B的模型给100个员工用，预算50万，买什么卡？", "购置硬件的预算"),
        ("预算100万采购GPU服务器跑Qwen2.5-72B，买哪种？", "没有 GPU 的购买价格"),
        ("We plan to buy GPUs to serve Qwen2.5-72B to 40 staff, budget $300k.", "buy hardware"),
        ("Budget of $500k to build a cluster for Llama-3.1-70B serving: what to get?", "quotes"),
    ],
)
def test_a_budget_to_buy_hardware_is_not_rent(question: str, note: str) -> None:
    query = parse(question)
    assert query.scenario.budget is None
    assert note in _notes(query)


@pytest.mark.parametrize(
    "question",
    [
        "预算50万租H100跑Llama-3.1-70B，能跑多久？",  # renting
        "Budget $50k: buy time on H100s at $2/hr to fine-tune Llama-2-13B?",  # a rent price
    ],
)
def test_a_rent_budget_is_kept(question: str) -> None:
    assert parse(question).scenario.budget is not None


@pytest.mark.parametrize(
    "question",
    [
        "With a budget of $50k, can we fine-tune a 13B model in 10 days?",
        "预算20万，部署一个70B的模型给50人同时用，用什么配置？",
    ],
)
def test_the_typical_set_up_the_lead_evaluates_is_not_listed_as_unknown(question: str) -> None:
    outcome = calculate(parse(question))
    assert "Cannot tell" not in outcome.lead
    assert "无法判断" not in outcome.lead
    assert "depends on the price" in outcome.lead or "取决于单价" in outcome.lead


@pytest.mark.parametrize(
    "question",
    [
        "预算50万买算力，训练Llama-2-7B要多久？",  # buying compute time is renting
        "With a $40k budget to buy GPU-hours, can we fine-tune Llama-2-13B in a week?",
    ],
)
def test_buying_time_is_renting(question: str) -> None:
    query = parse(question)
    assert query.scenario.budget is not None
    assert "buy hardware" not in _notes(query)
    assert "购置硬件" not in _notes(query)


def test_a_stated_request_rate_is_the_load_rather_than_the_head_count() -> None:
    scenario = parse("给1000个用户用Llama-3.1-8B，QPS 5，需要几张H100？").scenario
    assert scenario.concurrency is None
    assert scenario.target_qps == 5


def test_one_request_per_second_is_a_rate_not_one_user() -> None:
    scenario = parse("Llama-3.1-8B on one H100 with 1 request per second at 50 tok/s?").scenario
    assert scenario.concurrency != 1


@pytest.mark.parametrize(
    "question",
    [
        "只有我们公司的50人用，Llama-3.1-8B 跑在一张 L40S 上够吗？",
        "面向个人用户的 Llama-3.1-8B 服务，一张 H100 能跑多少 token/s？",
        "我们自己用，部署 Qwen2.5-7B 需要几张4090？",
    ],
)
def test_we_or_personal_users_are_not_one_user(question: str) -> None:
    assert parse(question).scenario.concurrency != 1


@pytest.mark.parametrize(
    ("question", "params"),
    [
        ("Budget 2M CNY to pretrain a 7B model on 140B tokens in 30 days?", 7e9),
        ("$1.5M, A100s at $1.2/hr: largest model we can pretrain?", None),
        ("预算2M元，预训练7B模型要多久？", 7e9),
        ("Pretrain a 2M parameter toy model on one 4090?", 2e6),  # no currency: a size
    ],
)
def test_an_amount_of_money_is_no_model_size(question: str, params: float | None) -> None:
    assert parse(question).scenario.params == params


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("就我一个人用，单张4090跑Qwen2.5-7B能到多少token/s？", "按所说的 1 路并发"),
        ("Only me: serve Qwen2.5-7B on one 4090, how many tokens/s?", "(as stated)"),
    ],
)
def test_a_stated_single_sequence_is_not_called_unstated(question: str, said: str) -> None:
    lead = calculate(parse(question)).lead
    assert said in lead
    assert "没有给出并发数" not in lead
    assert "no concurrency was given" not in lead


@pytest.mark.parametrize(
    ("question", "counted"),
    [
        ("4张A100 80G跑Qwen2.5-72B，8k上下文最多能同时处理多少个请求？", False),  # requests
        ("这套配置最多支持多少个用户同时在线", False),
        ("部署Qwen2.5-72B需要多少个H100", True),
        ("训练7B需要多少个GPU", True),
    ],
)
def test_duoshao_ge_counts_cards_only_before_no_other_noun(question: str, counted: bool) -> None:
    assert ("gpu_count" in parse(question).asks) is counted
