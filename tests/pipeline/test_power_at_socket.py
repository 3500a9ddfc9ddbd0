"""The machine's own draw asked ("整机功耗", "配多大的UPS") is at the socket, before the site's
PUE (probeF: the UPS question was answered with 8.05 kW, the draw with the site's cooling)."""

from __future__ import annotations

import pytest

from assistant.calculate.energy import hardware_energy
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "watts"),
    [
        ("8卡A100服务器跑训练，整机功耗大概多少，要配多大的UPS？", 8 * (400 + 237)),
        ("8张H100服务器功耗多少，UPS配多大", 8 * (700 + 237)),
        ("8张H100的机器电源要多大", 8 * (700 + 237)),  # the supply's size asks the draw
        ("What size UPS does an 8x A100 server need?", 8 * (400 + 237)),
        # one machine's draw asked ("一台多少瓦", "one server"): at the socket too
        ("8卡H20服务器一台多少瓦？", 8 * (400 + 237)),
        ("How many watts does one 8x H100 server draw?", 8 * (700 + 237)),
        ("8卡H20服务器一台多少瓦？机房PUE 1.4", 8 * (400 + 237) * 1.4),
        # no machine-level word: the site's draw, PUE 1.58 as before
        ("8张A100满载功率多少", 8 * (400 + 237) * 1.58),
        # a stated PUE is always kept
        ("8卡A100整机功耗多少，PUE 1.3", 8 * (400 + 237) * 1.3),
    ],
)
def test_machine_draw_is_at_the_socket(question: str, watts: float) -> None:
    found = hardware_energy(parse(question))
    assert found is not None
    assert found[0].figures["average_power_watts"] == pytest.approx(watts)
