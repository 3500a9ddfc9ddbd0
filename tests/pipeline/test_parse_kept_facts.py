"""Stated facts that used to be lost (issue 10, "Keep every fact the user stated"): each form
is read as the slot it states, in both languages, in wording of our own."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.records import SiteProfile

#: A site like the regional profile: one server of eight cards per node.
SITE = SiteProfile(
    id="regional-single-node",
    title="Regional single node",
    aliases=("吉林", "Jilin", "Jilin GPU server", "Jilin server", "吉林GPU服务器"),
    nodes=1,
    gpus_per_node=8,
    gpu="A100 80GB PCIe",
)


@pytest.mark.parametrize(
    ("question", "nodes"),
    [
        ("Could 3 of the Jilin GPU servers pretrain a 13B model on 300B tokens?", 3),
        ("connect 5 Jilin servers and fine-tune a 7B model", 5),
        ("what if two of our Jilin servers trained Llama-3.1-8B?", 2),
        ("拿其中3台吉林GPU服务器训练13B模型要多久", 3),
        ("吉林那边的5台机器能训练7B吗", 5),
    ],
)
def test_a_count_of_site_servers_is_a_node_count(question: str, nodes: int) -> None:
    scenario = parse(question, sites=[SITE]).scenario
    assert scenario.site_profile == "regional-single-node"
    assert scenario.nodes == nodes


def test_a_count_of_site_gpus_is_no_node_count() -> None:
    assert parse("6 Jilin GPUs pretrain a 1B model", sites=[SITE]).scenario.nodes is None


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("We have 6 old Tesla V100s: can they fine-tune a 7B with LoRA?", 6),
        ("three used RTX 3090s for Qwen2.5-14B inference", 3),
        ("2 spare A100 80GB cards: serve Llama-3.1-8B?", 2),
        ("5 idle NVIDIA L40S GPUs, can they serve a 32B model?", 5),
        ("4 old used GeForce 4090s for a 13B model", 4),
        ("6张旧的V100能微调7B吗", 6),
        ("三块二手的3090跑14B行吗", 3),
        ("两张闲置的A100跑Llama-3.1-8B", 2),
        ("我们有4张旧卡，能训练1B模型吗", 4),
    ],
)
def test_words_between_the_count_and_the_card_keep_the_count(question: str, count: int) -> None:
    assert parse(question).scenario.gpu_count == count


def test_a_time_span_before_a_card_is_no_count() -> None:
    assert parse("in 3 months, a new H100 cluster for a 70B model").scenario.gpu_count is None


@pytest.mark.parametrize(
    ("question", "prompt", "output"),
    [
        ("Qwen2.5-7B on an A10: prompts ~800 tokens, ~300 out", 800, 300),
        ("Llama-3.1-8B on 2 L4, 2.5k in, 400 out", 2560, 400),
        ("Llama-3.1-8B on an H100, ~3000 tokens in, ~600 out", 3000, 600),
        ("Qwen2.5-14B on one L40S with 150-token replies", None, 150),
        ("Qwen2.5-14B on one L40S, replies of ~350 tokens", None, 350),
        ("Qwen2.5-14B on one L40S, answers around 120 tokens", None, 120),
        ("H100部署Qwen2.5-7B，输入1500，输出约400", 1500, 400),
        ("H100部署Qwen2.5-7B，回复150 token左右", None, 150),
        ("H100部署Qwen2.5-7B，每次回答约250个token", None, 250),
    ],
)
def test_request_lengths_in_short_forms(question: str, prompt: int | None, output: int) -> None:
    scenario = parse(question).scenario
    assert (scenario.prompt_tokens, scenario.output_tokens) == (prompt, output)


@pytest.mark.parametrize(
    "question",
    [
        "train a 7B on 600B tokens in 3 months on 8 H100",  # a budget over a span, no prompt
        "H100 answers 20 users at once with Llama-3.1-8B",  # a count of users, no reply length
        "2张H100部署Qwen2.5-7B，回复3个问题",
        "500 out of 1000 requests time out on 4 A100 with Llama-3.1-8B",
    ],
)
def test_numbers_that_are_no_request_length(question: str) -> None:
    assert parse(question).scenario.output_tokens is None


@pytest.mark.parametrize(
    ("question", "qps"),
    [
        ("Can one A10 take 3 requests/sec for Qwen2.5-7B?", 3),
        ("Qwen2.5-7B on one A10 at 7 req/s", 7),
        ("Qwen2.5-7B on one A10 at 2.5 requests per second", 2.5),
        ("Qwen2.5-7B on one A10, 6 rps", 6),
        ("Qwen2.5-7B on one A10, 4 queries a second", 4),
        ("一张A10部署Qwen2.5-7B，每秒3个请求", 3),
        ("一张A10部署Qwen2.5-7B，每秒钟6次请求", 6),
    ],
)
def test_request_rates(question: str, qps: float) -> None:
    scenario = parse(question).scenario
    assert scenario.target_qps == qps
    assert scenario.target_tokens_per_second is None


@pytest.mark.parametrize(
    ("question", "price", "currency"),
    [
        ("L40S每小时1.2美元，4卡微调7B，50亿token，多少钱", 1.2, "USD"),
        ("A100 每小时的租金 9 元，8张训练3B模型要花多少", 9, "CNY"),
        ("每张卡每小时6块，4张A800训练1B模型多少钱", 6, "CNY"),
        ("4 A100 at $1.6 an hour each: cost to pretrain a 1B model on 20B tokens?", 1.6, "USD"),
        ("$3.1/hr per H200, 8 of them, pretrain a 7B on 50B tokens: cost?", 3.1, "USD"),
    ],
)
def test_a_price_per_hour_beside_a_card_is_per_gpu_hour(
    question: str, price: float, currency: str
) -> None:
    query = parse(question)
    assert (query.scenario.price_per_gpu_hour, query.scenario.currency) == (price, currency)
    assert not query.warnings  # no node price was divided


@pytest.mark.parametrize(
    ("question", "per_gpu", "currency"),
    [
        ("两台8卡A800服务器，每台每小时96元，训练7B模型多少钱", 12, "CNY"),
        ("租一台8卡H100服务器，服务器每小时 200 元，训练3B要花多少", 25, "CNY"),
        (
            "4 nodes of 8 H100 at $28/hr per node: what does a 13B pretrain on 300B tokens cost?",
            3.5,
            "USD",
        ),
        ("$16 an hour per server, one server of 8 A100: cost of fine-tuning a 7B?", 2, "USD"),
    ],
)
def test_a_price_per_server_hour_is_divided_over_its_gpus_and_said(
    question: str, per_gpu: float, currency: str
) -> None:
    query = parse(question)
    assert (query.scenario.price_per_gpu_hour, query.scenario.currency) == (per_gpu, currency)
    assert len(query.warnings) == 1
    assert "8" in query.warnings[0]  # the GPUs per node it was divided by


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("一张4090能跑deepseek-r1的32b蒸馏版吗", "DeepSeek-R1-Distill-Qwen-32B"),
        ("R1蒸馏14B 两张3090行吗", "DeepSeek-R1-Distill-Qwen-14B"),
        ("can an L4 serve the r1 distill 8b?", "DeepSeek-R1-Distill-Llama-8B"),
        ("DeepSeek-R1 蒸馏的 Llama 70B 要几张 H100", "DeepSeek-R1-Distill-Llama-70B"),
        ("Qwen 7B 的 R1 蒸馏版在 T4 上能跑吗", "DeepSeek-R1-Distill-Qwen-7B"),
        ("deepseek r1 14b on one 4090", "DeepSeek-R1-Distill-Qwen-14B"),
        # the size of the R1 itself, or no size, stays the 671B model
        ("deepseek-r1 671b on 8 H200", "DeepSeek-R1"),
        ("DeepSeek-R1 on 16 H100", "DeepSeek-R1"),
    ],
)
def test_a_size_beside_r1_names_its_distill(question: str, model: str) -> None:
    assert parse(question).scenario.model == model


def test_a_distill_the_catalog_lacks_is_named_not_replaced() -> None:
    query = parse("Can a 4090 run the R1 distill Qwen 1.5B?")
    assert query.scenario.model is None
    assert any("1.5b" in name.lower() for name in query.unknown_names)


@pytest.mark.parametrize(
    ("question", "precision"),
    [
        ("16张H100部署满血版DeepSeek-R1可以吗", "fp8"),
        ("DeepSeek-V3满血版要几张H200", "fp8"),
        ("Can 16 H100 serve DeepSeek-V3 at full precision?", "fp8"),
        ("两张A100跑原版Qwen2.5-32B可以吗", "bf16"),
        ("a full-precision Llama-3.1-70B on 4 H100", "bf16"),
        # a card without FP8 runs the FP8 release in 16 bits, and the note says both
        ("满血版DeepSeek-R1 用32张A100能部署吗", "bf16"),
    ],
)
def test_full_precision_words_state_the_released_precision(question: str, precision: str) -> None:
    query = parse(question)
    assert query.scenario.precision == precision
    assert any(precision.upper() in note for note in query.warnings)


def test_full_precision_on_a_card_without_fp8_says_the_release_format() -> None:
    (note,) = parse("Can 32 A100 serve the full-precision DeepSeek-R1?").warnings
    assert "FP8" in note
    assert "BF16" in note


def test_the_v3_keeps_its_name_after_the_full_word() -> None:
    assert parse("满血版DeepSeek-V3 用16张H100部署").scenario.model == "DeepSeek-V3"


@pytest.mark.parametrize(
    "question",
    [
        "满血版4090跑Qwen2.5-7B行吗",  # the full RTX 4090, not a 4090D
        "原版4090和魔改48G的4090跑Qwen2.5-14B",
        "满血H100训练Llama-3.1-8B要多久",
    ],
)
def test_full_words_beside_a_card_describe_the_card(question: str) -> None:
    query = parse(question)
    assert query.scenario.precision is None
    assert not any("满血" in n or "原版" in n for n in query.warnings)


def test_a_named_format_wins_over_full_precision_words() -> None:
    assert parse("满血版DeepSeek-R1 int4 8张4090能跑吗").scenario.precision == "int4"


def test_full_precision_makes_quantizing_a_change_not_a_condition() -> None:
    from assistant.calculate import calculate

    # R1 in FP8 is ~671 GB > 8 x 72 GB usable on H100: int4 would fit but undoes what was said
    assert calculate(parse("8张H100部署满血版DeepSeek-R1行吗")).verdict == "infeasible"
    assert calculate(parse("8张H100部署DeepSeek-R1行吗")).verdict == "conditional"


@pytest.mark.parametrize(
    ("question", "size", "said"),
    [
        ("8张A800，每台256GB内存，offload 微调 Llama-3-70B 行吗", 256 * 2**30, "256 GB"),
        ("One 8x H100 node with 2TB RAM: ZeRO-Offload fine-tune of a 70B?", 2 * 2**40, "2 TB"),
        ("单机8卡，4T内存，ZeRO-3 offload 训练 Llama-3.1-405B", 4 * 2**40, "4 TB"),
    ],
)
def test_a_stated_host_ram_is_binary_and_said_so(question: str, size: int, said: str) -> None:
    query = parse(question)
    assert query.scenario.host_ram_bytes == size
    binary = said.replace("TB", "TiB").replace("GB", "GiB")
    assert any(said in note and binary in note for note in query.warnings)


def test_a_host_ram_in_binary_units_or_decimal_gb_is_taken_as_written() -> None:
    for question, size in (
        ("8 A100 with 768 GiB of RAM, offload a 70B fine-tune", 768 * 2**30),
        ("8 A100 with 549.76 GB of RAM, offload a 70B fine-tune", 549.76e9),
    ):
        query = parse(question)
        assert query.scenario.host_ram_bytes == pytest.approx(size)
        assert not query.warnings


def test_a_distill_the_catalog_lacks_said_in_words_is_not_the_671b_model() -> None:
    query = parse("DeepSeek-R1 蒸馏的 Qwen 8B 用一张4090能跑吗")
    assert query.scenario.model is None
    assert query.scenario.params == 8e9
    assert query.unknown_names == ("deepseek-r1-distill-qwen-8b",)


def test_an_article_before_a_word_starting_with_h_is_no_hourly_price() -> None:
    assert (
        parse("$10 a hundred tokens? we have 8 H100 to train 7B").scenario.price_per_gpu_hour
        is None
    )


@pytest.mark.parametrize(
    ("question", "concurrency"),
    [
        ("2张A100 40G，想给50个学生同时用Qwen2.5-32B（bf16），显存够吗？", 50),
        ("一台8卡L40S，30个同事同时使用Qwen2.5-14B，够吗？", 30),
        ("同时有40个学生访问Llama-3.1-8B，4张A10够吗？", 40),
    ],
)
def test_people_at_once_are_the_load(question: str, concurrency: int) -> None:
    assert parse(question).scenario.concurrency == concurrency


@pytest.mark.parametrize(
    "question",
    [
        "4张4090 vllm qwen2.5-32b awq，32k上下文能开几个并发",
        "8张H100能支持几个并发用户跑Llama-3-70B",
    ],
)
def test_how_many_at_once_asks_for_the_most(question: str) -> None:
    assert parse(question).asks[0] == "max_concurrency"


@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("I can only get 2 of the 8 A100 40GB cards. Full fine-tune Qwen2.5-3B on those?", 2),
        ("we use 4 of our 16 H100s for serving llama 3 70b", 4),
    ],
)
def test_part_of_the_cards_is_the_count(question: str, gpus: int) -> None:
    assert parse(question).scenario.gpu_count == gpus


@pytest.mark.parametrize(
    ("question", "nodes"),
    [
        # "host" with what it hosts after it is the verb: 1.5 is the PUE, never 1.5 machines
        ("Can a 1.2 MW hall with PUE 1.5 host 1,000 H20 96GB?", None),
        ("will a 300 kW room at PUE 1.3 host the 200 H100s?", None),
        ("2 hosts with 8 H100 each: how long to fine-tune Llama-3-8B on 1B tokens?", 2),
        ("3 host machines of 8 A100 for Llama-3-70B", 3),
    ],
)
def test_host_as_a_verb_is_no_machine_count(question: str, nodes: int | None) -> None:
    assert parse(question).scenario.nodes == nodes


@pytest.mark.parametrize(
    ("question", "split", "zero"),
    [
        # data parallelism alone: every GPU a whole replica (TP 1, PP 1); "DDP" is also ZeRO-0
        ("2 nodes of 8x H100: a DDP full fine-tune of Qwen2.5-7B on 1B tokens", (1, 1), 0),
        ("8 A100, data-parallel full fine-tune of Llama-3-8B on 1B tokens", (1, 1), None),
        ("8张A100用纯数据并行预训练1B模型100B token要多久", (1, 1), None),
        # model parallelism named too, or serving's data-parallel attention: nothing implied
        ("16 H100, DDP with TP 2, fine-tune Llama-3-70B", (2, None), 0),
        ("数据并行和张量并行有什么区别", (None, None), None),
        ("Serve DeepSeek-V3 on 16 H20 with data-parallel attention", (None, None), None),
    ],
)
def test_data_parallelism_alone_is_a_whole_replica_per_gpu(
    question: str, split: tuple[int | None, int | None], zero: int | None
) -> None:
    scenario = parse(question).scenario
    assert (scenario.tensor_parallel, scenario.pipeline_parallel) == split
    assert scenario.zero_stage == zero


@pytest.mark.parametrize(
    ("question", "watts"),
    [
        ("Will a 500 kW hall at PUE 1.4 host 400 H100 SXM?", 500e3),
        ("Our server room has 200 kW: how many H20 fit?", 200e3),
        ("a 2 MW data hall: how many 8x H100 servers?", 2e6),
    ],
)
def test_a_hall_or_a_room_of_stated_power_is_a_power_budget(question: str, watts: float) -> None:
    assert parse(question).scenario.power_budget_watts == watts


@pytest.mark.parametrize(
    ("question", "concurrency"),
    [
        ("我们要建一个能同时服务500个用户的Qwen2.5-72B推理集群，用H20，需要几台8卡服务器？", 500),
        ("同时在线300人，Llama-3-70B要几张H100", 300),
        ("部署Qwen2.5-7B，要同时支持200路请求", 200),
    ],
)
def test_users_served_at_once_are_the_concurrency(question: str, concurrency: int) -> None:
    assert parse(question).scenario.concurrency == concurrency
