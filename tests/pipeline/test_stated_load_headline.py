"""A count asked for a stated number of users: the headline gives what those users get (the
load asked), and what one replica's memory could hold only as a separate "headroom" sentence;
"each wants 20 tok/s" is a speed per user, not a total. The hardware evaluated is said as the
servers hold it: nodes × GPUs per node is never more than the total."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.whole_nodes import on_nodes
from assistant.i18n import text
from assistant.parse import parse
from assistant.parse.load import read_seconds_per_token, read_tokens_per_second


@pytest.mark.parametrize(
    ("question", "speed"),
    [
        ("64 concurrent users, each wants >= 20 tok/s", 20.0),
        ("32 users; each user needs at least 15 tok/s", 15.0),
        ("48 个并发用户，每个用户至少 20 token/s", 20.0),
        ("每个用户要求不低于 25 token/s", 25.0),
    ],
)
def test_a_speed_each_user_wants_is_per_user(question: str, speed: float) -> None:
    assert read_tokens_per_second(question) is None
    assert read_seconds_per_token(question) == pytest.approx(1.0 / speed)


@pytest.mark.parametrize(
    "question",
    ["we need 2000 tok/s in total", "each GPU gets 2000 tok/s", "2000 tok/s each GPU"],
)
def test_a_total_throughput_stays_a_total(question: str) -> None:
    # "each GPU" is not each user: the number stays the deployment's (lower-cased, as parse)
    assert read_tokens_per_second(question.lower()) == 2000.0
    assert read_seconds_per_token(question.lower()) is None


def _focus(question: str) -> str:
    query = parse(question)
    return calculate(query).focus or ""


@pytest.mark.parametrize(
    ("question", "users", "room"),
    [
        (
            "64 concurrent users, each wants >= 20 tok/s, Llama-3.1-8B. how many H100s?",
            64,
            "Headroom",
        ),
        ("48 个并发用户，每个用户至少 20 token/s，Llama-3.1-8B，需要几张 A100 80G？", 48, "余量"),
    ],
)
def test_the_headline_states_the_users_asked_then_the_headroom(
    question: str, users: int, room: str
) -> None:
    head = _focus(question)
    load = re.search(rf"\b{users} (?:in flight|路在途)", head)
    assert load is not None, head
    assert room in head
    # the memory maximum comes after the load, in its own sentence
    assert head.index(room) > load.start()
    maximum = re.search(r"(?:up to|最多放得下) (\d+)", head)
    assert maximum is not None
    assert int(maximum.group(1)) > users


@pytest.mark.parametrize(
    ("count", "per_node", "nodes", "lang", "said"),
    [
        (14, 8, 2, "zh", "14 张 A10（2 台：8 + 6）"),
        (14, 8, 2, "en", "14 × A10 (2 nodes: 8 + 6)"),
        (16, 8, 2, "en", "2 nodes × 8 A10 (16 GPUs)"),  # whole servers: unchanged
        (16, 8, 2, "zh", "2 台 × 8 张 A10（共 16 张）"),
        (20, 8, 3, "en", "20 × A10 (3 nodes: 2 × 8 + 4)"),
        (20, 8, 3, "zh", "20 张 A10（3 台：2 台 × 8 张 + 4 张）"),
        (4, 8, 1, "zh", "1 台 4 张 A10"),
    ],
)
def test_a_count_that_is_not_whole_servers_is_said_as_its_split(
    count: int, per_node: int, nodes: int, lang: str, said: str
) -> None:
    assert text(on_nodes(count, per_node, nodes, "A10"), lang) == said  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "question",
    [
        "Can 12 H100s serve Llama-3.1-70B to 100 concurrent users?",
        "12 张 H100 跑 Llama-3.1-70B 推理，100 个并发，够吗？",
    ],
)
def test_no_answer_multiplies_out_to_more_gpus_than_it_has(question: str) -> None:
    lead = calculate(parse(question)).lead
    for nodes, per, total in re.findall(
        r"(\d+) (?:nodes|台) × (\d+) [^()（）\n]*[(（](?:共 )?(\d+)", lead
    ):
        assert int(nodes) * int(per) == int(total), lead
    assert re.search(r"8 \+ 4", lead), lead
