"""Cut documents into passages: by heading, then paragraph, list item, table, sentence,
under a size cap.

List items stay whole (a passage ends between items, inside one only when that item alone
is over the cap); a table stays with the sentence that introduces it, and a table over the
cap is split between rows, each later passage repeating the header row (see
:mod:`assistant.retrieval.blocks`).

Every passage is a span of the document's normalised text (after the repeated header, for a
continued table), so its id (a hash of the document key, the offsets and the text) is stable
across rebuilds and a citation can never point at another chunk.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.records import Passage
from assistant.retrieval.blocks import MARKER_ONLY_RE, Segment, blocks, segments
from assistant.retrieval.documents import (
    Document,
    Section,
    discover,
    read_document,
    unique_documents,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

#: Passage size cap in (estimated) encoder tokens: short passages make precise citations
#: and suit USE-m, which averages over its input.
DEFAULT_CHUNK_TOKENS = 160
#: Changes whenever the chunking rules change (stored in the manifest: a change rebuilds).
CHUNKER_VERSION = 6

# "et al. 2023", "e.g. 8", "i.e. …" and "vs. …" do not end a sentence: cutting there left
# "GQA（Ainslie et al." at the end of one passage and its claim at the start of the next.
_SENTENCE_RE = re.compile(
    r"[^。！？；!?;\n]*?(?:[。！？；!?;]+|(?<!\bal)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)\.(?=\s)|\n|$)",
    re.DOTALL,
)
_WORD_RE = re.compile(r"[A-Za-z0-9_]+")
_CJK_OR_SYMBOL_RE = re.compile(r"[^\sA-Za-z0-9_]")

Span = tuple[int, int]


def estimate_tokens(text: str) -> int:
    """A conservative token estimate: one per CJK character or symbol, 1.3 per word."""
    words = len(_WORD_RE.findall(text))
    others = len(_CJK_OR_SYMBOL_RE.findall(text))
    return others + (words * 13 + 9) // 10


def passage_id(key: str, start: int, end: int, text: str) -> str:
    """Stable id of a passage: content hash plus the document key and offsets."""
    digest = hashlib.sha256(f"{key}\x00{start}\x00{end}\x00{text}".encode()).hexdigest()
    return digest[:20]


def _strip(text: str, span: Span) -> Span | None:
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def _sentences(text: str, span: Span) -> Iterator[Span]:
    """Sentence spans; a list marker standing alone ("3.") joins the sentence after it."""
    start, end = span
    pending: int | None = None
    for match in _SENTENCE_RE.finditer(text, start, end):
        if match.end() <= match.start():
            continue
        if MARKER_ONLY_RE.match(text[match.start() : match.end()]):
            pending = match.start() if pending is None else pending
            continue
        yield (match.start() if pending is None else pending, match.end())
        pending = None
    if pending is not None:
        yield (pending, end)


def _hard_split(text: str, span: Span, cap: int) -> Iterator[Span]:
    """Split a run with no sentence boundary into pieces under the cap (whitespace if any)."""
    start, end = span
    while start < end:
        stop = start + 1
        while stop < end and estimate_tokens(text[start : stop + 1]) <= cap:
            stop += 1
        if stop < end:
            space = text.rfind(" ", start + 1, stop)
            stop = space if space > start else stop
        yield (start, stop)
        start = stop


def _fit(text: str, span: Span, cap: int) -> Iterator[Span]:
    """Pieces of at most `cap` tokens covering `span`: the span itself, else its sentences,
    else hard splits."""
    if estimate_tokens(text[span[0] : span[1]]) <= cap:
        yield span
        return
    sentences = list(_sentences(text, span))
    if len(sentences) <= 1:
        yield from _hard_split(text, span, cap)
        return
    for sentence in sentences:
        yield from _fit(text, sentence, cap)


@dataclass(frozen=True)
class Piece:
    """A span that is never cut, before packing; `prefix` (a table's header) is shown first."""

    start: int
    end: int
    kind: str = "text"
    prefix: Span | None = None


def _tokens(text: str, piece: Piece, end: int | None = None) -> int:
    body = text[piece.start : piece.end if end is None else end]
    head = text[piece.prefix[0] : piece.prefix[1]] if piece.prefix else ""
    return estimate_tokens(head + body)


def _item_pieces(text: str, item: Segment, cap: int) -> list[Piece]:
    """A list item whole; an item over the cap split between its nested items, then at
    sentences."""
    if estimate_tokens(text[item.start : item.end]) <= cap:
        return [Piece(item.start, item.end, "item")]
    return [Piece(*s, "item") for part in item.parts for s in _fit(text, part, cap)]


def _table_pieces(text: str, table: Segment, cap: int, intro: Piece | None) -> list[Piece]:
    """A table with the sentence that introduces it; a table over the cap split between
    rows into as few pieces as fit, of even row counts, each later piece repeating the
    header."""
    first = intro.start if intro else table.start
    if estimate_tokens(text[first : table.end]) <= cap:
        return [Piece(first, table.end, "table")]
    header, rows = table.parts[0], table.parts[1:]
    lead: list[Piece] = []
    if intro is not None and (not rows or estimate_tokens(text[first : rows[0][1]]) > cap):
        lead, first = [intro], table.start  # intro, header and one row over the cap: intro alone
    greedy = _row_pieces(text, first, header, rows, cap, len(rows))
    even = _row_pieces(text, first, header, rows, cap, -(-len(rows) // len(greedy)))
    pieces = lead + (even if len(even) == len(greedy) else greedy)
    return [
        fitted
        for piece in pieces
        for fitted in (
            [piece]
            if _tokens(text, piece) <= cap
            else [Piece(*s, "table") for s in _fit(text, (piece.start, piece.end), cap)]
        )
    ]


def _row_pieces(
    text: str, first: int, header: Span, rows: list[Span], cap: int, most: int
) -> list[Piece]:
    """Rows packed under the cap, at most `most` a piece; the first piece starts at `first`."""
    pieces: list[Piece] = []
    current, count = Piece(first, header[1], "table"), 0
    for row in rows:
        grown = replace(current, end=row[1])
        if count < most and _tokens(text, grown) <= cap:
            current, count = grown, count + 1
            continue
        pieces.append(current)
        current, count = Piece(row[0], row[1], "table", header), 1
    pieces.append(current)
    return pieces


def _intro(text: str, pieces: list[Piece], table: Segment, cap: int) -> Piece | None:
    """Take the sentence that introduces `table` off the end of `pieces`: the preceding text
    piece, or only its last sentence when the whole piece and the table's first row would
    not fit together."""
    if not pieces or pieces[-1].kind != "text":
        return None
    intro = pieces.pop()
    first_row_end = table.parts[1][1] if len(table.parts) > 1 else table.end
    if estimate_tokens(text[intro.start : first_row_end]) > cap:
        sentences = list(_sentences(text, (intro.start, intro.end)))
        if len(sentences) > 1:
            pieces.append(Piece(intro.start, sentences[-2][1]))
            intro = Piece(*sentences[-1])
    return intro


def _pieces(text: str, section: Section, cap: int) -> list[Piece]:
    pieces: list[Piece] = []
    for block in blocks(text, section.start, section.end):
        for segment in segments(text, block):
            if segment.kind == "table":
                intro = _intro(text, pieces, segment, cap)
                pieces += _table_pieces(text, segment, cap, intro)
            elif segment.kind == "item":
                pieces += _item_pieces(text, segment, cap)
            else:
                pieces += [Piece(*s) for s in _fit(text, segment.span, cap)]
    return pieces


def _is_lead_in(text: str, piece: Piece) -> bool:
    return text[piece.start : piece.end].rstrip().endswith((":", "："))


def _pack(text: str, pieces: list[Piece], cap: int) -> Iterator[Piece]:
    """Join consecutive pieces into passages under the cap: as few passages as possible, a
    lead-in ("as follows:") never last in a passage when something follows it (counted as
    one more passage), and among those the most even sizes (least sum of squared tokens),
    so a list's last item is not left alone in a small passage. Dynamic programming over
    the section's pieces; a piece with a repeated table header always starts a passage."""
    n = len(pieces)
    best: list[tuple[int, int] | None] = [(0, 0)] + [None] * n
    start_of = [0] * (n + 1)
    for end in range(1, n + 1):
        for first in range(end - 1, -1, -1):
            if first < end - 1 and pieces[first + 1].prefix is not None:
                break
            chunk = replace(pieces[first], end=pieces[end - 1].end)
            size = _tokens(text, chunk)
            if size > cap and first < end - 1:
                break
            before = best[first]
            if before is None:
                continue
            dangling = end < n and _is_lead_in(text, pieces[end - 1])
            cost = (before[0] + 1 + dangling, before[1] + size * size)
            current = best[end]
            if current is None or cost < current:
                best[end], start_of[end] = cost, first
    bounds: list[tuple[int, int]] = []
    end = n
    while end > 0:
        bounds.append((start_of[end], end))
        end = start_of[end]
    for first, end in reversed(bounds):
        yield replace(pieces[first], end=pieces[end - 1].end)


def section_chunks(text: str, section: Section, cap: int) -> list[tuple[Span, Span | None]]:
    """The passages of one section: `(span, prefix)`, where `prefix` is the header of a
    table continued from the passage before (its text comes first), else None."""
    chunks = []
    for piece in _pack(text, _pieces(text, section, cap), cap):
        span = _strip(text, (piece.start, piece.end))
        if span is not None:
            chunks.append((span, piece.prefix and _strip(text, piece.prefix)))
    return chunks


def section_spans(text: str, section: Section, cap: int) -> list[Span]:
    """The passage spans of one section (without the repeated table headers)."""
    return [span for span, _ in section_chunks(text, section, cap)]


def chunk_text(text: str, span: Span, prefix: Span | None) -> str:
    """A passage's text: its span, after the repeated table header if any."""
    body = text[span[0] : span[1]]
    return f"{text[prefix[0] : prefix[1]]}\n{body}" if prefix else body


def chunk_document(doc: Document, cap: int = DEFAULT_CHUNK_TOKENS) -> list[Passage]:
    """The passages of one document, in reading order (translation links not yet set)."""
    return [passage for passage, _ in chunk_with_spans(doc, cap)]


def chunk_with_spans(doc: Document, cap: int = DEFAULT_CHUNK_TOKENS) -> list[tuple[Passage, Span]]:
    """Each passage with its `(start, end)` offsets in the document text."""
    passages: list[tuple[Passage, Span]] = []
    for section in doc.sections:
        for (start, end), prefix in section_chunks(doc.text, section, cap):
            body = chunk_text(doc.text, (start, end), prefix)
            passages.append(
                (
                    Passage(
                        id=passage_id(doc.key, start, end, body),
                        doc_id=doc.doc_id,
                        source=doc.source,
                        title=doc.title,
                        heading=section.heading,
                        text=body,
                        lang=doc.lang,
                        anchor=section.anchor,
                    ),
                    (start, end),
                )
            )
    return passages


def link_translations(passages: list[Passage]) -> list[Passage]:
    """Set `translation_id`: the first passage of the same document and anchor in the other
    language."""
    from dataclasses import replace

    first: dict[tuple[str, str | None, str], str] = {}
    for p in passages:
        first.setdefault((p.doc_id, p.anchor, p.lang), p.id)
    linked = []
    for p in passages:
        other = "en" if p.lang == "zh" else "zh"
        target = first.get((p.doc_id, p.anchor, other)) if p.anchor else None
        linked.append(replace(p, translation_id=target) if target else p)
    return linked


def embedding_text(passage: Passage) -> str:
    """What the encoders and the keyword lane see: title, heading path and text."""
    heading = f"{passage.title} > {passage.heading}" if passage.heading else passage.title
    return f"{heading}\n{passage.text}"


def read_passages(roots: Sequence[Path]) -> list[Passage]:
    """Every passage of the documents under `roots`, chunked and linked to its translation,
    without an index (the calibration and the synonym derivation read the knowledge so)."""
    docs = []
    for root in roots:
        for path in discover(root):
            relative = path.relative_to(root).as_posix()
            docs.append(read_document(path, source=relative, key=f"knowledge/{relative}"))
    kept, _ = unique_documents(docs)
    return link_translations([p for doc in kept for p in chunk_document(doc)])
