"""A power budget is answered with the GPUs (or whole servers) it feeds, in both languages."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.power_budget import power_scope, read_power_budget, servers_asked


@pytest.mark.parametrize(
    ("question", "key", "count"),
    [
        ("our DC has 10 MW, how many H100s can we power?", "gpus", 6754),  # x PUE 1.58
        ("机房只有200kW供电，最多能放多少张H800", "gpus", 135),  # 机房: facility, x 1.58
        ("a 30 kW rack: how many 8x H100 servers?", "servers", 4),  # rack: at the socket
        ("一个机柜20kW，能放几台8卡H100服务器", "servers", 2),
        ("we have 1 MW of IT power, how many A100 80GB can we run?", "gpus", 1569),
        ("a data center with 1 MW and PUE 1.2, how many H100s?", "gpus", 889),  # stated PUE
    ],
)
def test_a_power_budget_gives_the_count(question: str, key: str, count: int) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"  # an estimate: the count is the answer
    (check,) = outcome.checks
    assert check.kind == "power"
    assert check.figures[key] == count


def test_whose_power_is_unsaid_reads_it_power_and_gives_the_facility_count() -> None:
    outcome = calculate(parse("with 2 MW, how many B200 can we run?"))
    assert outcome.checks[0].figures["gpus"] == 1616  # 2e6 / (1000 + 237)
    assert any("1,023" in note for note in outcome.assumptions)  # 2e6 / 1954.5 = 1023.3


def test_a_draw_or_an_energy_is_no_budget() -> None:
    assert read_power_budget("a dgx h100 draws 10.2 kw") is None
    assert read_power_budget("8张h100一个月用了5000 kwh") is None
    assert power_scope("机房里一个机柜20kW") == "it"  # the rack's feed wins
    assert not servers_asked("how many h100s can we power?")


def test_a_job_with_a_power_figure_is_still_the_job() -> None:
    outcome = calculate(parse("our DC has 10 MW: can 8x H100 serve Llama-3.1-70B?"))
    assert outcome.verdict != "unknown"


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("our rack has 30 kW, can it power 40 H100s?", "infeasible"),  # 32 fit at 937 W
        ("our rack has 30 kW, can it power 32 H100s?", "feasible"),  # boundary: exactly 32
        ("机房只有200kW供电，能放120张H800吗", "feasible"),  # 135 fit at PUE 1.58
    ],
)
def test_a_stated_count_is_judged_against_the_power(question: str, verdict: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == verdict


def test_a_facility_count_says_the_pue_it_would_fit_up_to() -> None:
    outcome = calculate(parse("机房只有200kW供电，能放120张H800吗"))
    assert any("1.78" in note for note in outcome.assumptions)  # 200e3 / (120 x 937)


def test_an_energy_question_beside_a_rack_is_still_the_energy() -> None:
    outcome = calculate(parse("机柜供电20kW，8张H100满载一个月电费多少，电价0.6元/度"))
    assert "kwh" in outcome.checks[0].figures  # the bill, not the count the rack feeds
