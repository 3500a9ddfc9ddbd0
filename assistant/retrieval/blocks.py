"""Markdown structure the chunker must not cut through: paragraphs, list items, tables.

A section's body is read line by line into :class:`Segment` objects, each a span of the
document text with the places where it may be split when it alone exceeds the size cap:

- ``text``: a paragraph (or a fenced code block, kept whole); split at sentences.
- ``item``: one list item (`-`, `*`, `+`, `•`, `1.`, `1)`), with its continuation lines and the
  items nested under it; split between its nested items, then at sentences.
- ``table``: a Markdown table (consecutive lines starting with `|`); split between rows,
  each later piece repeating the header row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

Span = tuple[int, int]
SegmentKind = Literal["text", "item", "table"]

_FENCE_RE = re.compile(r"^[ \t]*(```|~~~)")
_ITEM_RE = re.compile(r"^([ \t]*)(?:[-*+•◦▪]|\d{1,3}[.)])[ \t]*(?<=[ \t•◦▪])\S")
_TABLE_RE = re.compile(r"^[ \t]*\|")
_TABLE_RULE_RE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
#: A list marker on its own ("3.", "-"): never the end of a passage.
MARKER_ONLY_RE = re.compile(r"^\s*(?:[-*+•◦▪]|\d{1,3}[.)])\s*$")


@dataclass
class Segment:
    """A span of text with the sub-spans it may be split into (see the module docstring)."""

    kind: SegmentKind
    start: int
    end: int
    parts: list[Span] = field(default_factory=list)
    """`item`: the item's own lines, then each nested item. `table`: the header (its first
    line and the `|---|` rule), then each row. `text`: empty."""

    @property
    def span(self) -> Span:
        return (self.start, self.end)


def _lines(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    offset = start
    for line in text[start:end].splitlines(keepends=True):
        yield offset, line
        offset += len(line)


def blocks(text: str, start: int, end: int) -> Iterator[Span]:
    """Paragraphs (blank-line separated; a fenced code block stays whole)."""
    block_start, in_fence, offset = None, False, start
    for line_start, line in _lines(text, start, end):
        offset = line_start + len(line)
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        if not line.strip() and not in_fence:
            if block_start is not None:
                yield (block_start, line_start)
            block_start = None
        elif block_start is None:
            block_start = line_start
    if block_start is not None:
        yield (block_start, max(offset, block_start))


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def segments(text: str, block: Span) -> list[Segment]:
    """The paragraphs, list items and tables of one block, in order."""
    if _FENCE_RE.match(text[block[0] : block[1]]):
        return [Segment("text", *block)]
    out: list[Segment] = []
    base_indent: int | None = None
    in_fence = False
    for line_start, line in _lines(text, *block):
        line_end = line_start + len(line)
        current = out[-1] if out else None
        fence = _FENCE_RE.match(line) is not None
        if fence or in_fence:  # code stays with what it follows, whatever its lines look like
            in_fence = in_fence != fence
            if current is None:
                out.append(Segment("text", line_start, line_start))
            elif current.kind == "item":
                current.parts[-1] = (current.parts[-1][0], line_end)
        elif _TABLE_RE.match(line):
            if current is None or current.kind != "table":
                current = Segment("table", line_start, line_start)
                out.append(current)
            _add_row(current, text, (line_start, line_end))
        elif (marker := _ITEM_RE.match(line)) is not None:
            indent = _indent(marker.group(1))
            if (
                current is not None
                and current.kind == "item"
                and base_indent is not None
                and indent > base_indent
            ):
                current.parts.append((line_start, line_end))  # a nested item
            else:
                base_indent = indent if current is None or current.kind != "item" else base_indent
                current = Segment("item", line_start, line_start, [(line_start, line_end)])
                out.append(current)
        elif current is not None and current.kind == "item":
            last = current.parts[-1]
            current.parts[-1] = (last[0], line_end)  # a continuation line
        elif current is not None and current.kind == "text":
            pass
        else:
            current = Segment("text", line_start, line_start)
            out.append(current)
        out[-1].end = line_end
    return out


def _add_row(table: Segment, text: str, row: Span) -> None:
    """Rows 1 and 2 (header and rule) form the header part; each later row is a part."""
    if len(table.parts) == 1 and _TABLE_RULE_RE.match(text[row[0] : row[1]].rstrip("\n")):
        table.parts[0] = (table.parts[0][0], row[1])
    else:
        table.parts.append(row)
