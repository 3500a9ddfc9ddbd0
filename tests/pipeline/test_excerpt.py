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


def test_the_excerpt_of_a_quoted_passage_starts_at_the_quoted_sentence() -> None:
    """A source whose answering sentence lies past the first 160 characters is shown from
    that sentence, not cut before it."""
    lead = "Per token, every layer stores one key and one value vector per KV head. " * 3
    quote = "GQA shares each KV head among several query heads; 64/8 heads make it 8 times smaller."
    said = excerpt(lead + quote, limit=160, around=quote)
    assert said.startswith("…GQA shares each KV head")
    assert "8 times smaller" in said


def test_a_quote_inside_the_first_window_changes_nothing() -> None:
    text = "MFU is the share of peak FLOP/s spent on the model. " + "More text. " * 30
    quote = "MFU is the share of peak FLOP/s spent on the model."
    assert excerpt(text, limit=100, around=quote) == excerpt(text, limit=100)
