"""New question or follow-up (issue 10): weak and strong marks, "add N more", a change of task,
and the link and load phrasings the follow-ups lean on."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.records import Query, SiteProfile

JILIN = SiteProfile(
    id="regional-single-node",
    title="Regional single node",
    aliases=("吉林", "Jilin", "吉林GPU服务器"),
    nodes=1,
    gpus_per_node=8,
    gpu="A100 PCIe 80GB",
)


def chain(*turns: str) -> Query:
    """The last turn's query, each turn parsed as a follow-up of the one before."""
    previous: Query | None = None
    for turn in turns:
        previous = parse(turn, sites=[JILIN], previous=previous)
    assert previous is not None
    return previous


@pytest.mark.parametrize(
    ("turns", "followup"),
    [
        # a leading 那 is weak: a question naming its own model, task and card is new
        (("8张A100能训练13B模型吗", "那Llama-3.1-8B 推理需要几张4090？"), False),
        (("Llama-2-70B用8张H100推理", "那 Qwen2.5-7B 用一张 4090 全参微调行吗"), False),
        (("8 H100 train 13B", "then Qwen2.5-7B inference on one 4090?"), False),
        # …呢 / what about are strong: the same wording with them follows up
        (("8张A100能训练13B模型吗", "那用 Llama-2-13B 训练呢"), True),
        (("8 H100 train 13B", "what about Qwen2.5-7B inference on one 4090?"), True),
        # a bare 那 with nothing of its own still follows up, and so does one with no task
        (("8张A100能训练13B模型吗", "那用H800"), True),
        (("8张H100能训练13B吗", "那 70B 需要几张?"), True),
        # asking which model its own hardware takes is a question of its own
        (("8 H100 fine-tune Llama-2-70B", "What's the largest model 4 L40S can serve?"), False),
        (("两台8卡H100预训练千亿模型要多久", "8张4090能微调多大的模型？"), False),
        (("两台8卡H100预训练千亿模型要多久", "那4090呢"), True),
    ],
)
def test_new_question_or_follow_up(turns: tuple[str, ...], followup: bool) -> None:
    assert chain(*turns).followup is followup


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("两台8卡A100训练70B模型", "再加一台呢"), {"nodes": 3, "gpus_per_node": 8}),
        (("两台8卡A100训练70B模型", "再加两台呢"), {"nodes": 4, "gpus_per_node": 8}),
        (("2 nodes of 8x A100 train 70B", "what about 2 more nodes?"), {"nodes": 4}),
        (("2 nodes of 8x A100 train 70B", "and another server?"), {"nodes": 3}),
        (("8张A100训练7B", "再加一台呢"), {"nodes": 2, "gpus_per_node": 8}),  # one server of 8
        (("16张A100训练7B", "再加8张卡呢"), {"gpu_count": 24}),
        (("吉林GPU服务器能训练千亿模型吗", "再加一台呢"), {"nodes": 2}),  # the site is one server
        # absolute counts stay absolute
        (("16张A100训练7B", "增加到24张呢"), {"gpu_count": 24}),
        (("两台8卡A100训练70B模型", "16台呢"), {"nodes": 16}),
    ],
)
def test_adding_is_relative_to_the_previous_count(
    turns: tuple[str, ...], expected: dict[str, int]
) -> None:
    query = chain(*turns)
    assert query.followup
    for slot, value in expected.items():
        assert getattr(query.scenario, slot) == value, slot
    assert set(query.changed_slots) == set(expected) - {"gpus_per_node"}


def test_adding_with_no_previous_turn_reads_the_count_as_stated() -> None:
    assert parse("再加一台A100训练7B").scenario.nodes == 1


def test_training_after_serving_drops_the_serving_load() -> None:
    query = chain(
        "Can 8 H100 serve Llama-3.1-70B for 20 concurrent users at 1000 tok/s?",
        "what about training it instead?",
    )
    s = query.scenario
    assert (s.task, s.model, s.gpu_count) == ("pretrain", "Llama-3.1-70B", 8)
    assert (s.concurrency, s.target_tokens_per_second, s.batch_size) == (None, None, None)
    assert query.changed_slots == ("task",)  # cleared slots are a consequence, not reported


def test_serving_after_a_fine_tune_drops_the_method() -> None:
    query = chain("两台8卡A800全参微调Qwen2.5-72B要多久", "同样的配置推理呢")
    assert (query.scenario.task, query.scenario.method) == ("inference", None)
    assert query.scenario.gpu_count == 16
    assert query.changed_slots == ("task",)


def test_a_follow_up_keeping_the_task_keeps_the_load() -> None:
    query = chain("8张H100部署Llama-3.1-70B，20 个并发", "换成 H200 呢")
    assert query.scenario.concurrency == 20
    assert query.changed_slots == ("gpu",)


@pytest.mark.parametrize(
    ("question", "slot", "value"),
    [
        ("2 nodes of 8 H800 on RoCE v2 200G train 30B", "inter_link", "200GbE RoCE"),
        ("两台8卡H100，IB 400G，训练70B", "inter_link", "InfiniBand NDR"),
        ("两台8卡H100，RoCE，训练70B", "inter_link", "100GbE RoCE"),  # no speed: the default
        ("8 A100 with NVLink train 7B", "intra_link", "NVLink 3"),  # the A100's own NVLink
        ("8 H100 with NVLink train 7B", "intra_link", "NVLink 4"),
        ("8 A100 with NVLink 3 train 7B", "intra_link", "NVLink 3"),
        ("8张A100，第三代NVLink，训练7B", "intra_link", "NVLink 3"),
        ("2 A100 PCIe with an NVLink bridge train 7B", "intra_link", "NVLink 3"),
        ("2 A800 PCIe with an NVLink bridge train 7B", "intra_link", "A800 NVLink"),
        ("2 H100 PCIe with an NVLink bridge train 7B", "intra_link", "NVLink bridge (H100 PCIe)"),
        ("2张3090加NVLink桥接，LoRA微调13B", "intra_link", "NVLink bridge (GA102)"),
        ("8 A100 without NVLink train 7B", "intra_link", "PCIe Gen4 x16"),
        ("4张A100部署Qwen2.5-72B，TPS 1000", "target_tokens_per_second", 1000.0),
        ("4 A100 serve Qwen2.5-72B at 2000 TPS", "target_tokens_per_second", 2000.0),
        ("8张A100训练7B，电费0.8块一度", "price_per_kwh", 0.8),
        ("8张A100训练7B，电价0.6元/度", "price_per_kwh", 0.6),
    ],
)
def test_link_and_load_phrasings(question: str, slot: str, value: object) -> None:
    assert getattr(parse(question).scenario, slot) == value


@pytest.mark.parametrize(
    ("turns", "note"),
    [
        (("两台8卡A100训练70B模型", "再加一台呢"), "在上一问的基础上改了：节点数。"),
        (("两台8卡A100训练70B模型", "需要多久?"), "沿用上一问的设定。"),
        (("Train a 70B model on 16 H100", "how long?"), "Same set-up as the previous question."),
        (("两台8卡A100训练70B模型", "Qwen2.5-7B 推理需要几张卡"), ""),  # a new question
    ],
)
def test_the_answer_says_when_it_used_the_previous_question(
    turns: tuple[str, ...], note: str
) -> None:
    from assistant.calculate.followup import changed_note

    assert changed_note(chain(*turns)) == note


def test_a_changed_budget_is_read_in_a_follow_up() -> None:
    query = chain("两台8卡A100训练70B模型", "预算改成 50w 呢")
    assert (query.scenario.budget, query.scenario.currency) == (500000.0, "CNY")
    assert query.changed_slots[0] == "budget"
    query = chain("Train a 7B model on 8 H100", "and if the budget goes to $80k?")
    assert (query.scenario.budget, query.scenario.currency) == (80000.0, "USD")


def test_a_follow_up_of_names_and_one_chinese_word_is_chinese() -> None:
    query = chain("8张H100部署Llama-3.1-70B", "QPS 5 呢")
    assert (query.language, query.scenario.target_qps) == ("zh", 5.0)


def test_pretraining_after_a_lora_fine_tune_drops_the_method() -> None:
    query = chain(
        "Can 8 H100 fine-tune Llama-2-13B with LoRA?", "what about pretraining it instead?"
    )
    assert (query.scenario.task, query.scenario.method) == ("pretrain", None)
    assert query.changed_slots == ("task",)


def test_nvlink_on_a_card_without_one_is_its_own_link_with_a_note() -> None:
    query = parse("Can 2 RTX 4090 with NVLink fine-tune a 7B model with LoRA?")
    assert query.scenario.intra_link == "PCIe Gen4 x16"
    assert any("has no NVLink" in w for w in query.warnings)
    zh = parse("两张4090用NVLink连起来能LoRA微调7B吗")
    assert zh.scenario.intra_link == "PCIe Gen4 x16"
    assert any("没有 NVLink" in w for w in zh.warnings)


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # the nodes stated before keep their number: 2 nodes of 4
        (("两台8卡A100训练70B模型", "如果每台只有4张卡呢"), {"nodes": 2, "gpu_count": 8}),
        # a total stated without nodes keeps its GPUs: 8 GPUs = 2 nodes of 4
        (("8张A100训练7B", "每台4张卡呢"), {"nodes": 2, "gpu_count": 8}),
    ],
)
def test_a_new_per_node_count_regroups_the_gpus(
    turns: tuple[str, ...], expected: dict[str, int]
) -> None:
    query = chain(*turns)
    assert query.scenario.gpus_per_node == 4
    for slot, value in expected.items():
        assert getattr(query.scenario, slot) == value, slot
    assert query.changed_slots == ("gpus_per_node",)


@pytest.mark.parametrize(
    ("first", "gpu", "link"),
    [
        ("8张H100部署Llama-3.1-70B", "H100 PCIe 80GB", "PCIe Gen5 x16"),
        ("两台8卡A100训练70B模型", "A100 PCIe 80GB", "PCIe Gen4 x16"),
    ],
)
@pytest.mark.parametrize("followup", ["PCIe-only?", "no NVLink?", "如果没有NVLink呢"])
def test_pcie_only_as_a_follow_up_is_the_pcie_card(
    first: str, followup: str, gpu: str, link: str
) -> None:
    query = chain(first, followup)
    assert (query.scenario.gpu, query.scenario.intra_link) == (gpu, link)
    assert query.changed_slots == ("intra_link",)


@pytest.mark.parametrize(
    ("turns", "label"),
    [
        (("Train 7B on 8 A100", "with ZeRO-3?"), "ZeRO stage"),
        (("Train 7B on 8 A100", "TP4 PP2 instead?"), "tensor parallelism, pipeline parallelism"),
        (("8张H100部署Llama-3.1-70B", "QPS 5 呢"), "QPS 目标"),
        (("两台8卡A100训练70B模型", "如果每台只有4张卡呢"), "每节点 GPU 数"),
    ],
)
def test_every_changed_slot_is_named(turns: tuple[str, ...], label: str) -> None:
    from assistant.calculate.followup import changed_note

    assert label in changed_note(chain(*turns))


@pytest.mark.parametrize(
    ("question", "nodes", "per_node"),
    [
        ("two 8-GPU H100 nodes train 70B", 2, 8),
        ("Can 4 8-way A100 servers pretrain 13B?", 4, 8),
        ("两台每台8张H100，能预训练千亿模型吗", 2, 8),
        ("4x8 H100 pretrain 30B", 4, 8),
    ],
)
def test_node_and_per_node_counts(question: str, nodes: int, per_node: int) -> None:
    scenario = parse(question).scenario
    assert (scenario.nodes, scenario.gpus_per_node, scenario.gpu_count) == (
        nodes,
        per_node,
        nodes * per_node,
    )


@pytest.mark.parametrize(
    ("turns", "precision"),
    [
        # FP8 serving on a card without FP8 carries as its 8-bit format (the 910B's int8)
        (("8卡H20 推理 DeepSeek-V3 fp8", "换成 910B 呢"), "int8"),
        # FP8 training on a card without FP8: the card's own default (none stated)
        (("8张H100 fp8 预训练 7B 模型", "换成A100呢"), None),
        # a format the new card has is kept as it was
        (("8卡H20 推理 DeepSeek-V3 fp8", "换成H800呢"), "fp8"),
        (("4张4090 推理 Qwen2.5-32B int4", "换成L20呢"), "int4"),
    ],
)
def test_a_new_card_carries_the_format_it_has(
    turns: tuple[str, ...], precision: str | None
) -> None:
    query = chain(*turns)
    assert query.scenario.precision == precision
    assert ("precision" in query.changed_slots) == (precision not in ("fp8", "int4"))


@pytest.mark.parametrize(
    ("turns", "tokens", "params"),
    [
        # a data noun before a bare size makes it the token budget, not a 1T-parameter model
        (("8张H100训练70B模型，2T token", "数据改成1T"), 1e12, 70e9),
        (("8张H100训练70B模型，2T token", "换成Qwen2.5-72B，数据改成1T"), 1e12, None),
        (("8张H100训练70B模型，2T token", "数据量3T呢"), 3e12, 70e9),
        (("8 H100 train a 70B model on 2T tokens", "what if the data is 1T?"), 1e12, 70e9),
        # a size followed by a model word stays the model's, whatever comes before it
        (("8张H100训练70B模型，2T token", "训练数据 13B模型呢"), 2e12, 13e9),
    ],
)
def test_a_size_after_a_data_noun_is_the_token_budget(
    turns: tuple[str, ...], tokens: float, params: float | None
) -> None:
    scenario = chain(*turns).scenario
    assert scenario.tokens == tokens
    if params is not None:
        assert scenario.params == params
    else:
        assert scenario.model == "Qwen2.5-72B"


@pytest.mark.parametrize(
    ("turns", "asks"),
    [
        # a new deadline after the electricity bill asks whether the run makes it
        (("8张H100预训练7B模型，1T token要多久", "电费呢", "要是只有一个月呢"), ("feasibility",)),
        (
            ("8 H100 pretrain a 7B model on 1T tokens", "and the power bill?", "in 30 days?"),
            ("feasibility",),
        ),
        # how many cards make the new deadline: still the count
        (("8张H100预训练7B模型，1T token要多久", "需要几张", "要是只有一个月呢"), ("gpu_count",)),
        # a change that is no deadline keeps the electricity bill
        (("8张H100预训练7B模型，1T token要多久", "电费呢", "电价0.8元/度呢"), ("energy_cost",)),
    ],
)
def test_a_new_deadline_asks_whether_the_job_makes_it(
    turns: tuple[str, ...], asks: tuple[str, ...]
) -> None:
    query = chain(*turns)
    assert query.followup
    assert query.asks == asks


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("and the power?", ("power",)),
        ("what about the energy?", ("power",)),
        ("and the power bill?", ("energy_cost",)),  # the bill, not the draw
    ],
)
def test_and_the_power_asks_the_power_of_the_same_run(question: str, asks: tuple[str, ...]) -> None:
    query = chain("8 H100 pretrain a 7B model on 1T tokens", question)
    assert query.followup
    assert query.asks == asks
    assert query.scenario.gpu_count == 8
