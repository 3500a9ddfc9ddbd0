"""Chunking keeps list items and tables whole (table-driven): a passage ends between two
items, never inside one unless that item alone is over the cap; a table stays with the
sentence that introduces it, and a long table is split between rows, each later passage
repeating the header row."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from assistant.records import Passage
from assistant.retrieval.chunking import chunk_with_spans, estimate_tokens
from assistant.retrieval.documents import read_document

_MARKER_AT_END = re.compile(r"(^|\n)\s*(\d+[.)]|[-*+])\s*$")


def _numbered(n: int, words: int = 12) -> str:
    return "\n".join(
        f"{i}. **Step {i}** " + " ".join(f"word{i}x{j}" for j in range(words)) + "."
        for i in range(1, n + 1)
    )


def _bullets(n: int) -> str:
    item = "把优化器状态切分到各个数据并行进程上，每卡只存一片。"
    return "\n".join(f"- 第{i}项：{item}" for i in range(n))


def _table(rows: int) -> str:
    body = "\n".join(f"| GPU-{i} | {i * 8} GB | {i * 100} TFLOPS |" for i in range(rows))
    return f"| name | memory | dense |\n|---|---|---|\n{body}"


@dataclass(frozen=True)
class Case:
    name: str
    body: str
    cap: int
    whole: tuple[str, ...] = ()
    """Each must lie inside one passage (not cut)."""
    together: tuple[tuple[str, str], ...] = ()
    """Each pair must share a passage."""
    table_rows: int = 0
    """The section has one table with this many body rows (header repeated when split)."""


LONG_ITEM = "3. **A long item** " + "This sentence is part of one very long list item. " * 12 + "\n"

CASES = [
    Case(
        "numbered list, split between items",
        "Do these steps:\n\n" + _numbered(9),
        60,
        whole=tuple(f"{i}. **Step {i}**" + " word" for i in range(1, 10)),
        together=(("Do these steps:", "1. **Step 1**"),),
    ),
    Case(
        "numbered list without blank line after the lead-in",
        "Steps follow:\n" + _numbered(7, words=20),
        70,
        whole=tuple(f"{i}. **Step {i}**" for i in range(1, 8)),
        together=(("Steps follow:", "1. **Step 1**"),),
    ),
    Case(
        "bulleted Chinese list",
        "做法如下：\n\n" + _bullets(12),
        80,
        whole=tuple(
            f"- 第{i}项：把优化器状态切分到各个数据并行进程上，每卡只存一片。" for i in range(12)
        ),
        together=(("做法如下：", "- 第0项"),),
    ),
    Case(
        "one item over the cap is split inside, never leaving a bare marker",
        "1. short item.\n2. another short item.\n" + LONG_ITEM + "4. last short item.",
        60,
        whole=("1. short item.", "2. another short item.", "4. last short item."),
    ),
    Case(
        "nested items stay with their parent",
        "1. **Parent one** intro line.\n   - child a of one.\n   - child b of one.\n"
        "2. **Parent two** intro line.\n   - child a of two.\n",
        40,
        together=(("Parent one", "child b of one"), ("Parent two", "child a of two")),
    ),
    Case(
        "a short table stays with its intro sentence",
        "Some earlier paragraph about something else entirely. " * 3
        + "\n\nPer-GPU figures from the datasheets:\n\n"
        + _table(3),
        70,
        whole=("| GPU-0 | 0 GB | 0 TFLOPS |",),
        together=(
            ("Per-GPU figures from the datasheets:", "| name | memory | dense |"),
            ("Per-GPU figures from the datasheets:", "| GPU-2 |"),
        ),
        table_rows=3,
    ),
    Case(
        "a table right under its intro line (no blank line)",
        "每卡显存如下：\n" + _table(4),
        200,
        together=(("每卡显存如下：", "| GPU-3 |"),),
        table_rows=4,
    ),
    Case(
        "a long intro paragraph: its last sentence goes with the table",
        "Checkpoints hold the fp32 master weights and both Adam moments. " * 4
        + "Budget 16 bytes per parameter:\n\n"
        + _table(6),
        90,
        together=(("Budget 16 bytes per parameter:", "| name | memory | dense |"),),
        table_rows=6,
    ),
    Case(
        "bullets written with •",
        "Bottlenecks may include:\n"
        + "\n".join(
            f"• Bottleneck {i}: " + "limited bandwidth and no RDMA here. " * 3 for i in range(5)
        ),
        60,
        whole=tuple(
            f"• Bottleneck {i}: "
            + "limited bandwidth and no RDMA here. " * 2
            + "limited bandwidth and no RDMA here."
            for i in range(5)
        ),
        together=(("Bottlenecks may include:", "• Bottleneck 0"),),
    ),
    Case(
        "a long table split by rows, header repeated",
        "The whole catalogue:\n\n" + _table(40) + "\n\nAfter the table.",
        80,
        whole=tuple(f"| GPU-{i} | {i * 8} GB | {i * 100} TFLOPS |" for i in range(40)),
        together=(("The whole catalogue:", "| GPU-0 |"),),
        table_rows=40,
    ),
]


Chunks = list[tuple[Passage, tuple[int, int]]]


def _chunks(tmp_path: Path, body: str, cap: int) -> tuple[str, Chunks]:
    path = tmp_path / "doc.en.md"
    path.write_text(f"## Section {{#s}}\n\n{body}\n", encoding="utf-8")
    doc = read_document(path, source=path.name, key="knowledge/doc.en.md")
    return doc.text, chunk_with_spans(doc, cap)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_lists_and_tables_are_not_cut(tmp_path: Path, case: Case) -> None:
    text, chunks = _chunks(tmp_path, case.body, case.cap)
    passages = [p.text for p, _ in chunks]
    assert len(passages) > 1 or case.table_rows in (3, 4)
    for body in passages:
        assert estimate_tokens(body) <= case.cap, body
        assert not _MARKER_AT_END.search(body), f"passage ends with a bare list marker: {body!r}"
    for piece in case.whole:
        assert any(piece in body for body in passages), f"cut: {piece!r}"
    for first, second in case.together:
        assert any(first in body and second in body for body in passages), (first, second)
    for passage, (start, end) in chunks:
        assert passage.text.endswith(text[start:end])  # a span, after a repeated header
    if case.table_rows:
        _check_table(passages, case.table_rows)


def _check_table(passages: list[str], rows: int) -> None:
    """Every row exactly once; every passage holding rows starts its table with the header."""
    header = "| name | memory | dense |\n|---|---|---|"
    seen = [line for body in passages for line in body.splitlines() if line.startswith("| GPU-")]
    assert seen == [f"| GPU-{i} | {i * 8} GB | {i * 100} TFLOPS |" for i in range(rows)]
    holding = [body for body in passages if "| GPU-" in body]
    for body in holding:
        table_start = body.index("| ")
        assert body[table_start:].startswith(header), body
    if len(holding) > 1:
        counts = [body.count("| GPU-") for body in holding]
        assert max(counts) - min(counts) <= 1, counts  # split evenly, not 19 + 19 + 2


def test_text_is_the_span_except_for_a_continued_table(tmp_path: Path) -> None:
    text, chunks = _chunks(tmp_path, "Intro:\n\n" + _table(30) + "\n\nA closing paragraph.", 60)
    continued = [
        (p, s) for p, s in chunks if p.text.startswith("| name |") and "Intro:" not in p.text
    ]
    assert continued, "the table should have been split"
    for passage, (start, end) in chunks:
        if (passage, (start, end)) in continued:
            assert passage.text == "| name | memory | dense |\n|---|---|---|\n" + text[start:end]
        else:
            assert passage.text == text[start:end]


def test_the_shipped_knowledge_has_no_passage_ending_in_a_list_marker() -> None:
    root = Path(__file__).resolve().parents[2] / "knowledge"
    for path in sorted(root.rglob("*.md")):
        doc = read_document(path, source=path.name, key=f"knowledge/{path.name}")
        for passage, _ in chunk_with_spans(doc):
            assert not _MARKER_AT_END.search(passage.text), (path.name, passage.text[-80:])


def test_passages_are_even_rather_than_leaving_a_last_item_alone(tmp_path: Path) -> None:
    items = "\n".join(f"- item {i}: " + " ".join(f"w{i}{j}" for j in range(12)) for i in range(3))
    _, chunks = _chunks(tmp_path, "Three items follow:\n" + items, 60)
    sizes = [estimate_tokens(p.text) for p, _ in chunks]
    assert len(chunks) == 2, sizes
    # greedy packing would give [lead-in, item 0, item 1] + [item 2]; even packing does not
    assert chunks[0][0].text.startswith("Three items follow:\n- item 0")
    assert [p.text.count("- item") for p, _ in chunks] == [1, 2], sizes


def test_code_inside_a_list_item_is_not_read_as_items_or_tables(tmp_path: Path) -> None:
    body = (
        "1. Run this:\n   ```bash\n   - not an item\n   | not | a table |\n   ```\n2. Then this.\n"
    )
    _, chunks = _chunks(tmp_path, body, 200)
    assert len(chunks) == 1
    _, chunks = _chunks(tmp_path, body + "3. " + "More words here. " * 30, 60)
    whole = "1. Run this:\n   ```bash\n   - not an item\n   | not | a table |\n   ```"
    assert any(whole in p.text for p, _ in chunks)


@pytest.mark.parametrize(
    ("body", "kinds"),
    [
        (
            "Intro line.\n1. one\n2. two\n   - nested\n| a | b |\n|---|---|\n| 1 | 2 |\nAfter.",
            ["text", "item", "item", "table", "text"],
        ),
        ("1. Run:\n   ```\n   - code\n   | code |\n   ```\n2. Next.", ["item", "item"]),
        ("```\n- code\n| code |\n```", ["text"]),
    ],
)
def test_segments(body: str, kinds: list[str]) -> None:
    from assistant.retrieval.blocks import segments

    found = segments(body, (0, len(body)))
    assert [s.kind for s in found] == kinds
    assert "".join(body[s.start : s.end] for s in found) == body


def test_the_shipped_knowledge_has_no_passage_ending_in_et_al() -> None:
    """A citation's "et al. 2023" is not a sentence end: no passage stops right after
    "Ainslie et al." with the year and the claim in the next one."""
    root = Path(__file__).resolve().parents[2] / "knowledge"
    for path in sorted(root.rglob("*.md")):
        doc = read_document(path, source=path.name, key=f"knowledge/{path.name}")
        for passage, _ in chunk_with_spans(doc):
            assert not re.search(r"\bet al\.$", passage.text.rstrip()), (path.name, passage.text)


def test_sentence_ends_are_not_abbreviations() -> None:
    from assistant.retrieval.chunking import _sentences

    text = "GQA (Ainslie et al. 2023) shares heads, e.g. 8 of them. Next one."
    spans = [text[a:b].strip() for a, b in _sentences(text, (0, len(text)))]
    assert spans == ["GQA (Ainslie et al. 2023) shares heads, e.g. 8 of them.", "Next one."]
