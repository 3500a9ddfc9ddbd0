"""Cut documents into passages: by heading, then paragraph, then sentence, under a size cap.

Every passage is a span of the document's normalised text, so its id (a hash of the
document key, the offsets and the text) is stable across rebuilds and a citation can never
point at another chunk.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator

from assistant.records import Passage
from assistant.retrieval.documents import Document, Section

#: Passage size cap in (estimated) encoder tokens: short passages make precise citations
#: and suit USE-m, which averages over its input.
DEFAULT_CHUNK_TOKENS = 160
#: Changes whenever the chunking rules change (stored in the manifest: a change rebuilds).
CHUNKER_VERSION = 2

_SENTENCE_RE = re.compile(r"[^。！？；!?;\n]*?(?:[。！？；!?;]+|\.(?=\s)|\n|$)", re.DOTALL)
_WORD_RE = re.compile(r"[A-Za-z0-9_]+")
_CJK_OR_SYMBOL_RE = re.compile(r"[^\sA-Za-z0-9_]")
_FENCE_RE = re.compile(r"^[ \t]*(```|~~~)")

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


def _blocks(text: str, section: Section) -> Iterator[Span]:
    """Paragraphs (blank-line separated; a fenced code block stays whole)."""
    offset, block_start, in_fence = section.start, None, False
    for line in text[section.start : section.end].splitlines(keepends=True):
        line_start, offset = offset, offset + len(line)
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        if not line.strip() and not in_fence:
            if block_start is not None:
                yield (block_start, line_start)
            block_start = None
        elif block_start is None:
            block_start = line_start
    if block_start is not None:
        yield (block_start, section.end)


def _sentences(text: str, span: Span) -> Iterator[Span]:
    start, end = span
    for match in _SENTENCE_RE.finditer(text, start, end):
        if match.end() > match.start():
            yield (match.start(), match.end())


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


def _pack(text: str, spans: Iterable[Span], cap: int) -> Iterator[Span]:
    """Join consecutive spans while the joined text stays under the cap."""
    current: Span | None = None
    for span in spans:
        if current is not None and estimate_tokens(text[current[0] : span[1]]) <= cap:
            current = (current[0], span[1])
            continue
        if current is not None:
            yield current
        current = span
    if current is not None:
        yield current


def _fit(text: str, span: Span, cap: int) -> Iterator[Span]:
    """Pieces of at most `cap` tokens covering `span`: the span itself, else its sentences,
    else hard splits. Left unpacked, so that a short lead-in ("as follows:") before a long
    list joins the list's first sentences instead of standing alone."""
    if estimate_tokens(text[span[0] : span[1]]) <= cap:
        yield span
        return
    sentences = list(_sentences(text, span))
    if len(sentences) <= 1:
        yield from _hard_split(text, span, cap)
        return
    for sentence in sentences:
        yield from _fit(text, sentence, cap)


def section_spans(text: str, section: Section, cap: int) -> list[Span]:
    """The passage spans of one section."""
    fitted = (s for block in _blocks(text, section) for s in _fit(text, block, cap))
    spans = (_strip(text, s) for s in _pack(text, fitted, cap))
    return [s for s in spans if s is not None]


def chunk_document(doc: Document, cap: int = DEFAULT_CHUNK_TOKENS) -> list[Passage]:
    """The passages of one document, in reading order (translation links not yet set)."""
    return [passage for passage, _ in chunk_with_spans(doc, cap)]


def chunk_with_spans(doc: Document, cap: int = DEFAULT_CHUNK_TOKENS) -> list[tuple[Passage, Span]]:
    """Each passage with its `(start, end)` offsets in the document text."""
    passages: list[tuple[Passage, Span]] = []
    for section in doc.sections:
        for start, end in section_spans(doc.text, section, cap):
            body = doc.text[start:end]
            passages.append((Passage(
                id=passage_id(doc.key, start, end, body),
                doc_id=doc.doc_id,
                source=doc.source,
                title=doc.title,
                heading=section.heading,
                text=body,
                lang=doc.lang,
                anchor=section.anchor,
            ), (start, end)))
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
