"""Build the knowledge-base index: segments of faiss vectors, BM25 postings and passages.

The manifest records what the index was built from (encoder and model, dimension,
tokenizer/dictionary version, each document's hash, app version) and the segments it is made
of (:mod:`segments`). When the configuration differs, everything is rebuilt, reusing the
stored vector of every passage whose text is unchanged. When only documents changed, the
segments holding none of them are kept as they are (shared, not copied) and one new segment
holds the added and changed documents plus the other documents of the segments that held a
changed or removed one: adding a note embeds and writes only its passages. `kb rebuild`
merges everything into one segment. Writers hold a file lock; a new generation is published
atomically (see :mod:`storage`).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import DocumentError, KnowledgeBaseError
from assistant.records import Passage, SiteProfile
from assistant.retrieval import storage
from assistant.retrieval.chunking import (
    chunk_with_spans,
    embedding_text,
    link_translations,
)
from assistant.retrieval.documents import (
    Document,
    read_document,
    site_profile,
    unique_documents,
)
from assistant.retrieval.loading import (
    LoadedIndex,
    SegmentEntry,
    Skipped,
    index_problem,
    load_checked,
    load_index,
    verify_index,
)
from assistant.retrieval.manifest import (
    SourceFile,
    chunk_cap,
    expected_identity,
    file_entry,
    same_file,
    stale_reasons,
)
from assistant.retrieval.segments import SegmentContent, write_segment
from calculators.messages import Msg

if TYPE_CHECKING:
    import numpy as np

    from assistant.retrieval.encoder import Encoder
    from assistant.retrieval.keyword import KeywordIndex

__all__ = [
    "BuildReport",
    "LoadedIndex",
    "Progress",
    "Skipped",
    "build_index",
    "index_problem",
    "load_checked",
    "load_index",
    "verify_index",
    "writer_lock",
]

EMBED_BATCH = 64
LOCK_TIMEOUT_S = 900.0

Progress = Callable[[int, int], None]
Parsed = list[tuple[SourceFile, Document, SiteProfile | None]]

#: Segments a generation may have before the small ones are merged into one.
MAX_SEGMENTS = 8


@dataclass(frozen=True)
class Plan:
    """What a build keeps and what it (re)builds."""

    kept: list[SegmentEntry]
    """Segments of the live generation kept as they are (in order)."""
    sources: list[SourceFile]
    """The documents of the one new segment."""
    skipped: list[Skipped]
    """Skipped files carried over (unchanged, not re-read)."""
    dropped_ids: frozenset[str] = frozenset()
    """Document ids of the documents removed or changed since the live generation."""


def plan_build(
    previous: LoadedIndex | None, identity: dict[str, Any], sources: list[SourceFile], force: bool
) -> Plan:
    """Keep the live segments that hold no changed or removed document; rebuild the rest."""
    if force or previous is None or any(previous.manifest.get(k) != v for k, v in identity.items()):
        return Plan([], sources, [])
    stored: dict[str, Any] = previous.manifest.get("files", {})
    current = {s.key for s in sources}
    fresh = {s.key for s in sources if s.key not in stored or not same_file(s.path, stored[s.key])}
    dropped = (stored.keys() - current) | (fresh & stored.keys())
    if dropped and previous.skipped:  # a skipped duplicate may now be the one to index
        return Plan([], sources, [])
    dirty = [e for e in previous.segments if e.keys & dropped or not e.rows]
    clean = [e for e in previous.segments if e not in dirty]
    if len(clean) + 1 > MAX_SEGMENTS:  # merge all but the largest
        largest = max(clean, key=lambda e: e.rows)
        dirty, clean = [e for e in previous.segments if e is not largest], [largest]
    kept_keys = {key for e in clean for key in e.keys}
    rebuilt = [s for s in sources if s.key not in kept_keys]
    by_source = {s.source: s.key for s in sources}
    skipped = [
        s for s in previous.skipped if by_source.get(s.source) in current - fresh - kept_keys
    ]
    rebuilt = [s for s in rebuilt if s.source not in {k.source for k in skipped}]
    gone = frozenset(str(d.get("doc_id")) for d in previous.documents if d.get("key") in dropped)
    return Plan(clean, rebuilt, skipped, gone)


def _overlaps(plan: Plan, parsed: Parsed) -> bool:
    """Whether a document to (re)build or a dropped one shares its id with a kept one: its
    translation links and duplicate check then span segments, so everything is rebuilt."""
    kept = {str(d.get("doc_id")) for e in plan.kept for d in e.documents}
    return bool(kept & ({doc.doc_id for _, doc, _ in parsed} | plan.dropped_ids))


@dataclass(frozen=True)
class BuildReport:
    """What a build did."""

    documents: int
    passages: int
    embedded: int
    """Passages whose vectors were computed (the rest were reused)."""
    skipped: tuple[Skipped, ...]
    seconds: float
    locked_from: float = 0.0
    """Wall-clock time (time.time()) the writers' lock was taken and released."""
    locked_until: float = 0.0
    path: Path | None = field(default=None, compare=False)


def read_documents(sources: list[SourceFile]) -> tuple[Parsed, list[Skipped]]:
    """Parse every source; a bad file is skipped with its reason and the batch goes on."""
    parsed: list[tuple[SourceFile, Document, SiteProfile | None]] = []
    skipped: list[Skipped] = []
    for src in sources:
        try:
            doc = read_document(src.path, source=src.source, key=src.key)
            parsed.append((src, doc, site_profile(doc)))
        except DocumentError as exc:
            skipped.append(Skipped(src.source, exc.reason))
    kept, dup_errors = unique_documents(doc for _, doc, _ in parsed)
    kept_ids = {id(doc) for doc in kept}
    skipped += [Skipped(e.path, e.reason) for e in dup_errors]
    return [entry for entry in parsed if id(entry[1]) in kept_ids], skipped


def _embed(
    encoder: Encoder,
    texts: list[str],
    keys: list[str],
    reuse: dict[str, np.ndarray],
    progress: Progress | None,
    dim: int,
) -> tuple[np.ndarray, int]:
    import numpy as np

    todo = [i for i, key in enumerate(keys) if key not in reuse]
    fresh: dict[str, np.ndarray] = {}
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start : start + EMBED_BATCH]
        for i, vector in zip(batch, encoder.encode([texts[i] for i in batch])):
            fresh[keys[i]] = vector
        if progress is not None:
            progress(min(start + EMBED_BATCH, len(todo)), len(todo))
    matrix = np.zeros((len(keys), dim), dtype=np.float32)
    for row, key in enumerate(keys):
        vector = fresh[key] if key in fresh else reuse[key]
        if vector.shape != (dim,):
            shape = str(vector.shape)
            raise KnowledgeBaseError(Msg("errors.index.bad_vectors", shape=shape, dim=dim))
        matrix[row] = vector
    return matrix, len(todo)


def _reusable(
    previous: LoadedIndex | None, identity: dict[str, Any], plan: Plan, wanted: set[str]
) -> dict[str, np.ndarray]:
    """Stored vectors of the `wanted` embedding keys, from the segments being rebuilt."""
    same_model = previous is not None and all(
        previous.manifest.get(name) == identity[name] for name in ("encoder", "model")
    )
    if not same_model or previous is None or not wanted:
        return {}
    kept = {entry.name for entry in plan.kept}
    rows = [
        (e, range(e.first_row, e.first_row + e.rows))
        for e in previous.segments
        if e.name not in kept
    ]
    found: dict[str, np.ndarray] = {}
    stored = dict(zip((e.name for e in previous.segments), previous.arrays))
    for entry, span in rows:
        keys = previous.passages.embed_keys(span.start, span.stop)
        for local, key in enumerate(keys):
            if key in wanted and key not in found:
                found[key] = stored[entry.name][local]
    return found


_LOCKS: dict[str, Any] = {}


def writer_lock(lock_path: Path) -> Any:
    """The writers' file lock (one reentrant object per path in this process)."""
    from filelock import FileLock

    key = str(lock_path)
    if key not in _LOCKS:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        _LOCKS[key] = FileLock(key, timeout=LOCK_TIMEOUT_S, mode=0o600)
    return _LOCKS[key]


def build_index(
    index_dir: Path,
    sources: list[SourceFile] | Callable[[], list[SourceFile]],
    encoder: Encoder,
    *,
    lock_path: Path,
    progress: Progress | None = None,
    force: bool = True,
) -> BuildReport:
    """(Re)build the index of `sources` as a new generation, under the writers' lock.

    With `force=False` nothing is built when, once the lock is held, the live index turns
    out to match already (another process rebuilt it meanwhile), and the vectors of
    unchanged passages are reused; `force=True` re-embeds everything. Pass `sources` as a
    function to list the documents only once the lock is held: a list taken before waiting
    for the lock may miss a document another process added meanwhile (a lost update).
    """
    from filelock import Timeout

    started = time.perf_counter()
    try:
        with writer_lock(lock_path):
            locked_from = time.time()
            current = sources() if callable(sources) else sources
            report = _build_locked(index_dir, current, encoder, progress, force)
            locked_until = time.time()
    except Timeout as exc:
        locked = Msg("errors.index.locked", seconds=round(LOCK_TIMEOUT_S))
        raise KnowledgeBaseError(locked) from exc
    except OSError as exc:  # disk full, read-only home, …: the previous index stays live
        why = exc.strerror or str(exc)
        unwritable = Msg("errors.index.unwritable", index_dir=str(index_dir), detail=why)
        raise KnowledgeBaseError(unwritable) from exc
    return BuildReport(
        report.documents,
        report.passages,
        report.embedded,
        report.skipped,
        time.perf_counter() - started,
        locked_from,
        locked_until,
        report.path,
    )


def _build_locked(
    index_dir: Path,
    sources: list[SourceFile],
    encoder: Encoder,
    progress: Progress | None,
    force: bool,
) -> BuildReport:
    from assistant.retrieval.keyword import KeywordIndex

    previous = load_index(index_dir)
    identity = expected_identity(encoder, chunk_cap(encoder))
    if (
        not force
        and previous is not None
        and not stale_reasons(previous.manifest, identity, sources)
    ):
        return BuildReport(
            len(previous.documents),
            len(previous.passages),
            0,
            tuple(previous.skipped),
            0.0,
            path=previous.path,
        )
    # Hashes first: a file edited during the build then looks stale next time, not current.
    stored = previous.manifest.get("files", {}) if previous is not None and not force else {}
    files = {src.key: _file_entry(src, stored) for src in sources if src.path.is_file()}
    plan = plan_build(previous, identity, sources, force)
    parsed, skipped = read_documents(plan.sources)
    if plan.kept and _overlaps(plan, parsed):
        plan = Plan([], sources, [])
        parsed, skipped = read_documents(sources)

    def stored_vectors(keys: set[str]) -> dict[str, np.ndarray]:
        return {} if force else _reusable(previous, identity, plan, keys)

    content, matrix, embedded = _segment(parsed, encoder, identity, progress, stored_vectors)
    skipped = plan.skipped + skipped
    manifest = {
        **identity,
        "dim": encoder.dim,
        "passages": sum(e.rows for e in plan.kept) + len(content.passages),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "files": files,
        "skipped": [s.to_record() for s in skipped],
    }
    texts = [embedding_text(p) for p in content.passages]
    new = (content, matrix, KeywordIndex.build(texts)) if content.documents else None
    path = _write_generation(index_dir, previous, plan, new, manifest)
    return BuildReport(
        sum(len(e.documents) for e in plan.kept) + len(parsed),
        manifest["passages"],
        embedded,
        tuple(skipped),
        0.0,
        path=path,
    )


def _segment(
    parsed: Parsed,
    encoder: Encoder,
    identity: dict[str, Any],
    progress: Progress | None,
    stored: Callable[[set[str]], dict[str, np.ndarray]],
) -> tuple[SegmentContent, np.ndarray, int]:
    """The new segment's content and vectors (the `stored` vectors of unchanged passages
    reused), and how many passages were embedded."""
    passages, rows, documents = _passages(parsed, identity["chunk_tokens"])
    texts = [embedding_text(p) for p in passages]
    for row, text in zip(rows, texts):
        row["embed_key"] = hashlib.sha256(f"{encoder.name}\0{text}".encode()).hexdigest()[:24]
    keys = [r["embed_key"] for r in rows]
    matrix, embedded = _embed(encoder, texts, keys, stored(set(keys)), progress, encoder.dim)
    profiles = [asdict(p) for _, _, p in parsed if p is not None]
    return SegmentContent(passages, rows, documents, profiles), matrix, embedded


def _write_generation(
    index_dir: Path,
    previous: LoadedIndex | None,
    plan: Plan,
    new: tuple[SegmentContent, np.ndarray, KeywordIndex] | None,
    manifest: dict[str, Any],
) -> Path:
    """Write a generation (kept segments linked, the new one written, manifest last) and make
    it live; returns its folder."""
    entries = []
    base = previous.path if previous is not None else index_dir
    with storage.new_generation(index_dir) as temp:
        for entry in plan.kept:  # only ever kept from `previous`
            for name in entry.checksums:
                storage.share_file(base / name, temp)
            entries.append(
                {"name": entry.name, "passages": entry.rows, "checksums": entry.checksums}
            )
        if new is not None:
            content, matrix, keyword = new
            name = f"seg-{time.time_ns()}-{os.getpid()}"
            sums = write_segment(temp, name, content, matrix, keyword)
            entries.append({"name": name, "passages": len(content.passages), "checksums": sums})
        storage.write_json(temp / "manifest.json", {**manifest, "segments": entries})
    path = storage.current_generation(index_dir)
    if path is None:  # pragma: no cover -- new_generation has just published it
        raise KnowledgeBaseError(Msg("errors.index.no_generation", index_dir=str(index_dir)))
    return path


def _file_entry(src: SourceFile, stored: dict[str, Any]) -> dict[str, Any]:
    """The manifest entry of a source: the stored one when size and time are unchanged."""
    entry = stored.get(src.key)
    if isinstance(entry, dict):
        stat = src.path.stat()
        if stat.st_size == entry.get("size") and stat.st_mtime_ns == entry.get("mtime_ns"):
            return entry
    return file_entry(src.path)


def _passages(
    parsed: Parsed, cap: int
) -> tuple[list[Passage], list[dict[str, Any]], list[dict[str, Any]]]:
    """Passages (translation-linked), their offset rows and the per-document entries."""
    passages: list[Passage] = []
    rows: list[dict[str, Any]] = []
    documents: list[dict[str, Any]] = []
    for src, doc, _ in parsed:
        chunks = chunk_with_spans(doc, cap)
        documents.append(_document_entry(src, doc, len(chunks)))
        passages += [passage for passage, _ in chunks]
        rows += [{"key": doc.key, "start": start, "end": end} for _, (start, end) in chunks]
    return link_translations(passages), rows, documents


def _document_entry(src: SourceFile, doc: Document, count: int) -> dict[str, Any]:
    return {
        "key": src.key,
        "source": src.source,
        "doc_id": doc.doc_id,
        "lang": doc.lang,
        "title": doc.title,
        "kind": doc.kind,
        "user": src.user,
        "passages": count,
        "content_hash": doc.content_hash,
    }
