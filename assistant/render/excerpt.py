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

__all__ = ["answer_sentences", "excerpt", "prose", "prose_sentences"]

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


def excerpt(text: str, limit: int = 160, around: str = "") -> str:
    """`text` on one line, tables told as prose, cut to `limit` characters with "…"; with
    `around` (a sentence of `text` the answer quotes) the window starts at that sentence when
    the first `limit` characters would cut it, so the excerpt shows what answers.

    Examples:
        >>> excerpt("Lead. " * 20 + "It is 8 times.", limit=20, around="It is 8 times.")
        '…It is 8 times.'
    """
    flat = " ".join(" ".join(_prose(text)).split())
    if around:
        plain = flat.replace("**", "")  # quoted sentences carry no bold marks
        start = plain.find(" ".join(around.split())[:30])
        if start > 0 and start + min(len(around), limit) > limit:
            window = plain[start : start + limit]
            return f"…{window}" + ("…" if start + limit < len(plain) else "")
    return flat[:limit] + ("…" if len(flat) > limit else "")


#: A sentence ends at "。！？" or at ". ! ?" before a capital, an opening bracket or a CJK
#: character ("Zhao et al. 2023" and "e.g. 8" go on).
# a sentence may start with a lower-case product name ("vLLM adds PagedAttention", "cuBLAS …")
_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+(?=[A-Z(\u4e00-\u9fff]|[a-z]{1,3}[A-Z])")


def prose_sentences(text: str) -> list[str]:
    """The sentences of a passage's prose lines (headings, list items, quotes, code and tables
    skipped), without bold marks.

    Examples:
        >>> prose_sentences("## ZeRO\\n\\nZeRO shards states (Rajbhandari et al. 2020). It has 3.")
        ['ZeRO shards states (Rajbhandari et al. 2020).', 'It has 3.']
        >>> prose_sentences("FSDP 是原生实现。它对应 ZeRO-3。\\n\\n- a list item\\n| a | b |")
        ['FSDP 是原生实现。', '它对应 ZeRO-3。']
    """
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "|", "- ", "* ", "•", ">", "`")) or line[0].isdigit():
            continue
        out += [s.strip() for s in _SENTENCE_END.split(line.replace("**", "")) if s.strip()]
    return out


#: A complete sentence ends with "。！？.!?", maybe followed by a closing bracket or quote.
_COMPLETE = re.compile(r"[。！？.!?][)）\]」』”\"'*]*$")
#: A line that states a formula: "GPU 数 ≥ 16 × N / 每卡可用显存", "MFU = tokens/s × 6N / …".
_FORMULA = re.compile(r"[=≥≤≈]")
_FORMULA_LIMIT = 160
_LIST_MARK = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def answer_sentences(text: str) -> list[str]:
    """The complete sentences of a passage that can be quoted on their own: prose lines and
    list items (bold marks dropped), each a sentence ending in "。" or "." ; a line that leads
    into a formula ("…最少 GPU 数为" and then "GPU 数 ≥ 16 × N / 每卡可用显存") is kept whole
    with its formula, and one that leads into a list, a table or nothing is left out.

    Examples:
        >>> answer_sentences("所需 GPU 数为\\n\\nGPU 数 ≥ 16 × N / 每卡可用显存\\n\\n其余照旧。")
        ['所需 GPU 数为 GPU 数 ≥ 16 × N / 每卡可用显存。', '其余照旧。']
        >>> answer_sentences("Three modes:\\n\\n- **FULL_SHARD** shards all.\\n| a | b |")
        ['FULL_SHARD shards all.']
    """
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    out: list[str] = []
    skip = code = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            code = not code
        if skip or code or line.startswith(("#", "|", ">", "```")):
            skip = False
            continue
        prose = _LIST_MARK.sub("", line).replace("**", "")
        pieces = [s.strip() for s in _SENTENCE_END.split(prose) if s.strip()]
        if pieces and not _COMPLETE.search(pieces[-1]):
            after = lines[i + 1] if i + 1 < len(lines) else ""
            if _formula(after):
                pieces[-1] = f"{pieces[-1]} {after}{'。' if _cjk(pieces[-1]) else '.'}"
                skip = True
            else:
                pieces.pop()  # a lead-in to a list or table, or a cut line: not a sentence
        out += pieces
    return out


def _formula(line: str) -> bool:
    return (
        bool(line)
        and not line.startswith(("#", "|", ">", "-", "*", "`"))
        and bool(_FORMULA.search(line))
        and len(line) <= _FORMULA_LIMIT
        and not _COMPLETE.search(line)
    )


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
