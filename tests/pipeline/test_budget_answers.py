"""Budget questions, money-bounded answers and figures that agree with each other (issue 10)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _check(outcome, kind: str):  # type: ignore[no-untyped-def]
    return next(c for c in outcome.checks if c.kind == kind)


def test_the_network_key_figure_is_the_efficiency_the_run_time_uses() -> None:
    # 25GbE between two H800 nodes: the overlapped efficiency (what the time divides by) is
    # shown, not the lower no-overlap bound (they were 36% and 24%)
    outcome = calculate(parse("Can 2 nodes of 8x H800 over 25GbE fine-tune Llama-2-70B?"))
    used = _check(outcome, "compute").figures["network_efficiency"]
    shown = re.search(r"scaling efficiency (\d+)%", _check(outcome, "network").summary)
    assert shown is not None
    assert int(shown.group(1)) == round(100 * float(used))


def _shortfall(kind: str, figures: dict[str, float], lang: str) -> str:
    from assistant.calculate.headline import shortfall
    from assistant.records import Check

    check = Check(kind=kind, verdict="fail", summary="", figures=figures)  # type: ignore[arg-type]
    return shortfall(check, lang, "H100")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "figures", "lang", "said", "not_said"),
    [
        # 1.03x: "超出 1.0 倍" / "1.0× over" read as double; a small excess is a percentage
        (
            "memory",
            {"required_bytes_per_gpu": 74.16e9, "available_bytes_per_gpu": 72e9},
            "zh",
            "超出 3%",
            "倍",
        ),
        (
            "memory",
            {"required_bytes_per_gpu": 74.16e9, "available_bytes_per_gpu": 72e9},
            "en",
            "3% over",
            "×",
        ),
        (
            "compute",
            {"seconds": 26.25 * 86400, "deadline_seconds": 25 * 86400},
            "zh",
            "超出 5%",
            "倍",
        ),
        (
            "compute",
            {"seconds": 26.25 * 86400, "deadline_seconds": 25 * 86400},
            "en",
            "5% too long",
            "×",
        ),
        # a limit only just passed is not "0%" over
        ("compute", {"seconds": 100.2, "deadline_seconds": 100.0}, "en", "1% too long", "0%"),
        # from 1.1 up it stays a ratio
        (
            "memory",
            {"required_bytes_per_gpu": 108e9, "available_bytes_per_gpu": 72e9},
            "en",
            "1.5× over",
            "%",
        ),
        (
            "compute",
            {"seconds": 110 * 86400, "deadline_seconds": 100 * 86400},
            "zh",
            "差 1.1 倍",
            "%",
        ),
    ],
)
def test_a_small_excess_is_a_percentage_and_a_large_one_a_ratio(
    kind: str, figures: dict[str, float], lang: str, said: str, not_said: str
) -> None:
    text = _shortfall(kind, figures, lang)
    assert said in text, text
    assert not_said not in text.split("，")[-1].split(", ")[-1], text
