"""A passage shortened to one readable line, for source lists: Markdown tables become prose.

A table flattened as it is ("| GPUs | time | |---|---| | 8 × V100 | ≈ 95 days |") shows raw
pipes; each row is instead told as "first cell: header value, header value", the header row
and the `|---|` rule are dropped.

Examples:
    >>> excerpt("At 40 % MFU:\\n\\n| GPUs | time |\\n|---|---|\\n| 8 × V100 | ≈ 95 days |")
    'At 40 % MFU: 8 × V100: time ≈ 95 days.'
    >>> excerpt("plain text " * 30, limit=20)
    'plain text plain tex…'
"""

from __future__ import annotations

import re

__all__ = ["excerpt", "prose"]

_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table_rows(lines: list[str]) -> list[str]:
    """A table's body rows as sentences, each cell after the first named by its header."""
    header = _cells(lines[0]) if len(lines) > 1 and _RULE.match(lines[1]) else []
    body = lines[2:] if header else lines
    said = []
    for line in body:
        cells = _cells(line)
        named = [
            f"{header[i]} {cell}" if i < len(header) and header[i] else cell
            for i, cell in enumerate(cells[1:], start=1)
            if cell
        ]
        said.append(f"{cells[0]}: {', '.join(named)}." if named else f"{cells[0]}.")
    return said


def _prose(text: str) -> list[str]:
    """The passage's lines, with each run of table lines replaced by its rows as sentences."""
    out: list[str] = []
    table: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            table.append(line)
            continue
        if table:
            out += _table_rows(table)
            table = []
        out.append(line)
    return out


def prose(text: str) -> str:
    """`text` with its lines kept and each Markdown table told as prose, one row a line (for a
    passage shown in full, where table pipes wrapped to a narrow panel cannot be read).

    Examples:
        >>> print(prose("Times:\\n\\n| GPUs | time |\\n|---|---|\\n| 8 × V100 | 95 d |\\n\\nEnd."))
        Times:
        <BLANKLINE>
        8 × V100: time 95 d.
        <BLANKLINE>
        End.
    """
    return "\n".join(_prose(text)).strip("\n")


def excerpt(text: str, limit: int = 160) -> str:
    """`text` on one line, tables told as prose, cut to `limit` characters with "…"."""
    flat = " ".join(" ".join(_prose(text)).split())
    return flat[:limit] + ("…" if len(flat) > limit else "")
