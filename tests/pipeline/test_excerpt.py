"""Source excerpts read as prose: a Markdown table's pipes and rules never reach the list."""

from __future__ import annotations

import doctest

import pytest

from assistant.render import excerpt as excerpt_module
from assistant.render.excerpt import excerpt

NVLINK = (
    "Per GPU:\n\n"
    "| GPU | NVLink generation | per direction |\n"
    "|---|---|---|\n"
    "| H100 SXM | NVLink 4 | 450 GB/s |\n"
    "| A800 | NVLink 3, reduced | 200 GB/s |\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            NVLINK,
            "Per GPU: H100 SXM: NVLink generation NVLink 4, per direction 450 GB/s. "
            "A800: NVLink generation NVLink 3, reduced, per direction 200 GB/s.",
        ),
        # aligned rules (":---:") are rules too
        ("| a | b |\n|:---|---:|\n| x | 1 |", "x: b 1."),
        # a table with no rule under its first row: every row is a row, no header
        ("| x | 1 |\n| y | 2 |", "x: 1. y: 2."),
        # an empty cell is left out rather than said as "b "
        ("| a | b | c |\n|---|---|---|\n| x |  | 3 |", "x: c 3."),
        ("no table here,\njust lines", "no table here, just lines"),
    ],
)
def test_a_table_is_told_as_sentences(text: str, expected: str) -> None:
    assert excerpt(text, limit=1000) == expected


def test_the_cut_is_marked_and_no_pipe_is_left() -> None:
    said = excerpt(NVLINK * 5, limit=100)
    assert len(said) == 101
    assert said.endswith("…")
    assert "|" not in said


def test_docstring_examples() -> None:
    result = doctest.testmod(excerpt_module)
    assert result.attempted > 0
    assert result.failed == 0
