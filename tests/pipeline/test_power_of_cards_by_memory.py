"""Issue 10 (names2): a card given only by its memory is hardware, so a power or electricity
question about it is in the domain (it was answered as off-topic)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "Eight 48GB cards running for two weeks: how many kWh?",
        "4张24GB的卡满载一周耗电多少度",
    ],
)
def test_power_of_cards_known_by_memory_is_in_the_domain(question: str) -> None:
    query = parse(question)
    assert query.in_domain
    outcome = calculate(query)
    assert outcome.mode != "offtopic"
    assert "kWh" in outcome.lead or "度" in outcome.lead


def test_two_weeks_of_eight_48gb_cards_match_the_hand_figure() -> None:
    # generic 48 GB card = RTX A6000 figures (300 W); 8 cards = rack server with the BLOOM host
    # share 237 W per GPU at PUE 1.58: 8 x 537 W x 1.58 x 336 h = 2,280.6 kWh
    outcome = calculate(parse("Eight 48GB cards running for two weeks: how many kWh?"))
    assert "2,281 kWh" in outcome.lead


@pytest.mark.parametrize(
    "question",
    ["Is a 16GB card enough for Cyberpunk 2077 at 1440p?", "12GB的显卡玩黑神话够吗"],
)
def test_a_card_by_memory_in_another_domain_stays_out(question: str) -> None:
    assert not parse(question).in_domain
