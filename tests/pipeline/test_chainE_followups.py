"""Follow-ups and loads the chainE probe found unread: a bare speed that replaces a fabric
("用25G而不是IB"), a bare count after "how many <card>…?", and users listed with the load."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.links import read_links
from assistant.parse.load import read_concurrency
from tests.pipeline.conversation import chain


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("用25g而不是ib呢", "25gbe"),
        ("25g instead of ib", "25gbe"),
        ("不用ib，用25g", "25gbe"),
        ("ib换成100g", "100gbe"),
        ("replace ib with 25gbe", "25gbe"),
        ("swap the ib for 100g", "100gbe"),
        ("100g代替ib", "100gbe"),
        ("4 nodes, 25gbe not ib", "25gbe"),
        ("用100g roce而不是ib", "roce 100g"),  # the replacing fabric named: RoCE
        ("4台8卡h800，节点间ib", "ib ndr"),  # IB itself, not replaced
    ],
)
def test_a_speed_replacing_a_fabric_is_the_link(text: str, first: str) -> None:
    assert read_links(text)[1][:1] == (first,)


def test_a_bare_25g_is_no_link() -> None:
    # a bare "25G" with no fabric replaced or named is not read as a network
    assert read_links("显存25g够吗")[1] == ()


TRAIN_IB = "用4台8卡H800训练Llama-3.1-70B，节点间IB，2T token，多久能训完"


@pytest.mark.parametrize(
    ("turns", "link"),
    [
        ((TRAIN_IB, "用25G而不是IB呢"), "25GbE TCP"),
        ((TRAIN_IB, "IB换成100G呢"), "100GbE TCP"),
        (
            (
                "Can 4 nodes of 8x H100 with InfiniBand pretrain a 13B model on 300B tokens?",
                "and with 25G instead of IB?",
            ),
            "25GbE TCP",
        ),
    ],
)
def test_a_followup_replacing_the_fabric_keeps_the_rest(turns: tuple[str, ...], link: str) -> None:
    query = chain(*turns)
    assert query.followup
    assert query.scenario.inter_link == link
    assert query.scenario.nodes == 4
    assert "inter_link" in query.changed_slots


def test_a_bare_count_after_how_many_of_a_card_is_that_card_count() -> None:
    query = chain(
        "How many H100s do I need to serve Llama-3.1-70B to 100 concurrent users at 4k context?",
        "what if we only had 4 of them",
    )
    assert query.followup
    assert (query.scenario.gpu, query.scenario.gpu_count) == ("H100 SXM 80GB", 4)
    assert query.scenario.concurrency == 100


def test_a_bare_number_after_a_question_with_no_card_is_no_count() -> None:
    query = chain("How much memory does Llama-3.1-70B need for inference?", "what if we had 4?")
    assert query.scenario.gpu_count is None


@pytest.mark.parametrize(
    ("text", "users"),
    [
        ("at 32k context, 50 users?", 50),
        ("32k上下文、50个用户，选哪个", 50),
        ("8k context and 40 users.", 40),
        ("公司有500个用户", None),  # a head count, not listed with the load
        (", 1000 users per day", None),  # a rate
        ("训练数据,1000个用户的对话", None),
    ],
)
def test_users_listed_with_the_load_are_in_flight(text: str, users: int | None) -> None:
    assert read_concurrency(text) == users


def test_a_comparison_no_figure_ranks_leads_with_the_one_that_runs() -> None:
    from assistant.calculate import calculate

    # 8 × H100 does not hold 50 × 32k of KV (84.8 GB per GPU of 72 GB): no speed or headroom
    # to rank it by, so the lead is that only the H200s run it as asked
    outcome = calculate(parse("8张H100和8张H200跑Llama-3.1-70B，32k上下文、50个用户，选哪个？"))
    assert outcome.focus.startswith("只有 8 张 H200")


@pytest.mark.parametrize(
    "question",
    [
        "8张H20和8张910B跑Qwen2.5-72B推理，32个并发",
        "Serve Qwen2.5-72B on 8x H20 and 8x 910B with 32 users",
    ],
)
def test_two_setups_each_with_its_count_are_compared(question: str) -> None:
    # answering for the first set-up alone would drop the second without a word
    query = parse(question)
    assert "compare" in query.asks
    assert [o.gpu for o in query.options] == ["H20 96GB", "Ascend 910B 64GB"]


def test_half_the_cards_in_chinese_halves_the_count() -> None:
    query = chain("8张H100推理Llama-3.1-70B，8k上下文，32个并发", "用一半的卡呢")
    assert query.followup
    assert query.scenario.gpu_count == 4


def test_a_year_after_how_many_of_a_card_is_no_count() -> None:
    query = chain("How many H100s do I need to serve Llama-3.1-70B?", "what about 2027?")
    assert query.scenario.gpu_count is None
