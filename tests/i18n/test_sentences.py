"""Sentences whose wording depends on a fact choose their catalog key from it: no sentence is
made by editing another one's text (the tight-network lead was once the failing one with
"网络跟不上" replaced by "网络偏紧")."""

from __future__ import annotations

import pytest

from assistant.calculate.headline import shortfall
from assistant.records import Check

_NETWORK = {"allreduce_seconds_per_step": 2.0, "compute_seconds_per_step": 8.0}


@pytest.mark.parametrize(
    ("verdict", "lang", "start"),
    [
        ("fail", "en", "the network cannot keep up: 2 s of communication per step"),
        ("tight", "en", "the network is tight: 2 s of communication per step"),
        ("fail", "zh", "网络跟不上：每步通信 2 秒"),
        ("tight", "zh", "网络偏紧：每步通信 2 秒"),
    ],
)
def test_network_lead_follows_the_verdict(verdict: str, lang: str, start: str) -> None:
    check = Check(kind="network", verdict=verdict, summary="", figures=_NETWORK)  # type: ignore[arg-type]
    said = shortfall(check, lang, "H100")  # type: ignore[arg-type]
    assert said.startswith(start), said
    # "计算只要 8 秒" read as if the compute were the short part: the share is of the compute
    assert said.endswith("(25%)" if lang == "en" else "是计算时间 8 秒的 25%")


@pytest.mark.parametrize(
    ("need", "lead"),
    [(60e9, "fits in memory"), (70e9, "tight on memory"), (90e9, "memory does not fit")],
)
def test_memory_lead_follows_the_ratio(need: float, lead: str) -> None:
    figures = {"required_bytes_per_gpu": need, "available_bytes_per_gpu": 72e9}
    check = Check(kind="memory", verdict="ok", summary="", figures=figures)
    assert shortfall(check, "en", "H100").startswith(lead)
