"""Build, save and load the knowledge-base index: faiss vectors + BM25 state + JSON metadata.

The manifest records what the index was built from (encoder and model, dimension,
tokenizer/dictionary version, each document's hash, app version). When any of that differs
from the current configuration the index is rebuilt. A rebuild reuses the stored vector of
every passage whose text is unchanged, so adding one document embeds only its passages.
Writers hold a file lock; the files are replaced atomically (see :mod:`storage`).
"""

from __future__ import annotations

import hashlib
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
from assistant.retrieval.integrity import (
    CorruptIndexError,
    check_checksum,
    check_counts,
    check_shapes,
    checksums,
    require,
)
from assistant.retrieval.manifest import (
    SourceFile,
    chunk_cap,
    expected_identity,
    file_entry,
    file_hash,
    stale_reasons,
)

if TYPE_CHECKING:
    import numpy as np

    from assistant.retrieval.encoder import Encoder
    from assistant.retrieval.keyword import KeywordIndex

EMBED_BATCH = 64
LOCK_TIMEOUT_S = 900.0

Progress = Callable[[int, int], None]
Parsed = list[tuple[SourceFile, Document, SiteProfile | None]]


@dataclass(frozen=True)
class Skipped:
    """A file left out of the index, and why."""

    source: str
    reason: str
    reason_zh: str


@dataclass
class LoadedIndex:
    """An index generation in memory."""

    path: Path
    manifest: dict[str, Any]
    passages: list[Passage]
    rows: list[dict[str, Any]]
    """Per passage: key, start, end, embed_key (parallel to `passages`)."""
    documents: list[dict[str, Any]]
    profiles: list[SiteProfile]
    skipped: list[Skipped]
    vectors: Any
    """faiss.IndexFlatIP over unit vectors, row i = passages[i]."""
    keyword: KeywordIndex


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
            skipped.append(Skipped(src.source, exc.reason, exc.reason_zh))
    kept, dup_errors = unique_documents(doc for _, doc, _ in parsed)
    kept_ids = {id(doc) for doc in kept}
    skipped += [Skipped(e.path, e.reason, e.reason_zh) for e in dup_errors]
    return [entry for entry in parsed if id(entry[1]) in kept_ids], skipped


def _embed(
    encoder: Encoder,
    texts: list[str],
    keys: list[str],
    reuse: dict[str, np.ndarray],
    progress: Progress | None,
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
    dim = encoder.dim
    matrix = np.zeros((len(keys), dim), dtype=np.float32)
    for row, key in enumerate(keys):
        vector = fresh[key] if key in fresh else reuse[key]
        if vector.shape != (dim,):
            msg = f"encoder returned {vector.shape} vectors, expected ({dim},)"
            raise KnowledgeBaseError(msg)
        matrix[row] = vector
    return matrix, len(todo)


def _reusable(previous: LoadedIndex | None, identity: dict[str, Any]) -> dict[str, np.ndarray]:
    same_model = previous is not None and all(
        previous.manifest.get(name) == identity[name] for name in ("encoder", "model")
    )
    if not same_model or previous is None or not previous.rows:
        return {}
    vectors = previous.vectors.reconstruct_n(0, previous.vectors.ntotal)
    return {row["embed_key"]: vectors[i] for i, row in enumerate(previous.rows)}


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
        msg = f"another process has been rebuilding the index for {LOCK_TIMEOUT_S:.0f} s"
        raise KnowledgeBaseError(
            msg, message_zh=f"另一个进程已重建索引 {LOCK_TIMEOUT_S:.0f} 秒仍未结束"
        ) from exc
    except OSError as exc:  # disk full, read-only home, …: the previous index stays live
        why = exc.strerror or str(exc)
        msg = f"cannot write the index in {index_dir}: {why}"
        raise KnowledgeBaseError(msg, message_zh=f"无法写入索引 {index_dir}：{why}") from exc
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
    import faiss

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
    files = {src.key: file_entry(src.path) for src in sources if src.path.is_file()}
    parsed, skipped = read_documents(sources)
    passages, rows, documents = _passages(parsed, identity["chunk_tokens"])
    texts = [embedding_text(p) for p in passages]
    for row, text in zip(rows, texts):
        row["embed_key"] = hashlib.sha256(f"{encoder.name}\0{text}".encode()).hexdigest()[:24]
    matrix, embedded = _embed(
        encoder,
        texts,
        [r["embed_key"] for r in rows],
        {} if force else _reusable(previous, identity),
        progress,
    )
    vectors = faiss.IndexFlatIP(encoder.dim)
    if len(matrix):
        vectors.add(matrix)
    manifest = {
        **identity,
        "dim": encoder.dim,
        "passages": len(passages),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "files": files,
        "skipped": [asdict(s) for s in skipped],
    }
    metadata = {
        "passages": [{**asdict(p), **r} for p, r in zip(passages, rows)],
        "documents": documents,
        "site_profiles": [asdict(p) for _, _, p in parsed if p is not None],
    }
    _write_generation(index_dir, vectors, KeywordIndex.build(texts), metadata, manifest)
    return BuildReport(
        len(parsed),
        len(passages),
        embedded,
        tuple(skipped),
        0.0,
        path=storage.current_generation(index_dir),
    )


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


def _write_generation(
    index_dir: Path,
    vectors: Any,
    keyword: KeywordIndex,
    metadata: dict[str, Any],
    manifest: dict[str, Any],
) -> None:
    """Write a complete generation and make it live (manifest last)."""
    import faiss

    with storage.new_generation(index_dir) as temp:
        storage.write_bytes(temp / "vectors.faiss", faiss.serialize_index(vectors).tobytes())
        storage.write_json(temp / "passages.json", metadata)
        storage.write_json(temp / "keyword.json", keyword.to_json())
        storage.write_json(temp / "manifest.json", {**manifest, "checksums": checksums(temp)})


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


def load_index(index_dir: Path) -> LoadedIndex | None:
    """The live generation, or None when there is none (or it is unreadable or corrupt)."""
    try:
        return load_checked(index_dir)
    except CorruptIndexError:
        return None


def index_problem(index_dir: Path) -> str | None:
    """Why the live generation cannot be used (None when it can, or when there is none)."""
    try:
        load_checked(index_dir)
    except CorruptIndexError as exc:
        return str(exc)
    return None


def load_checked(index_dir: Path) -> LoadedIndex | None:
    """The live generation; None when there is none; :class:`CorruptIndexError` when a part is
    unreadable, of the wrong shape or fails its checksum, or the pointer is bad."""
    for _ in range(3):  # a writer may prune the generation between pointer and read
        path = storage.current_generation(index_dir)
        if path is None:
            if storage.pointer_exists(index_dir):
                msg = f"{storage.POINTER}: not a readable generation name"
                raise CorruptIndexError(msg)
            return None
        try:
            return _load_generation(path)
        except FileNotFoundError:
            continue
        except CorruptIndexError:
            raise
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RuntimeError) as exc:
            msg = f"{path.name}: {type(exc).__name__}: {exc}"
            raise CorruptIndexError(msg) from exc
    return None


def _read_part(path: Path, manifest: dict[str, Any]) -> bytes:
    data = path.read_bytes()
    check_checksum(manifest, path.name, data)
    return data


def _load_generation(path: Path) -> LoadedIndex:
    import json

    import faiss
    import numpy as np

    from assistant.retrieval.keyword import KeywordIndex

    manifest = storage.read_json(path / "manifest.json")
    require(isinstance(manifest, dict), "manifest.json is not a JSON object")
    meta = json.loads(_read_part(path / "passages.json", manifest))
    check_shapes(manifest, meta)
    raw = np.frombuffer(_read_part(path / "vectors.faiss", manifest), dtype=np.uint8)
    vectors = faiss.deserialize_index(raw)
    keyword = KeywordIndex.from_json(json.loads(_read_part(path / "keyword.json", manifest)))
    check_counts(manifest, vectors, len(keyword))
    fields = set(Passage.__dataclass_fields__)
    entries = meta["passages"]
    passages = [Passage(**{k: v for k, v in e.items() if k in fields}) for e in entries]
    rows = [{k: e[k] for k in ("key", "start", "end", "embed_key")} for e in entries]
    profiles = [SiteProfile(**{**p, "aliases": tuple(p["aliases"])}) for p in meta["site_profiles"]]
    skipped = [Skipped(**s) for s in manifest.get("skipped", [])]
    return LoadedIndex(
        path, manifest, passages, rows, meta["documents"], profiles, skipped, vectors, keyword
    )


def verify_index(index_dir: Path, sources: list[SourceFile], identity: dict[str, Any]) -> list[str]:
    """Problems with the live index (empty when it is sound): counts, ids, file hashes."""
    from assistant.retrieval.chunking import passage_id

    try:
        data = load_checked(index_dir)
    except CorruptIndexError as exc:
        return [f"the index in {index_dir} is unusable: {exc} (any command rebuilds it)"]
    if data is None:
        return [f"no readable index in {index_dir}"]
    problems = [
        f"manifest {name} is {data.manifest.get(name)!r}, configuration wants {value!r}"
        for name, value in identity.items()
        if data.manifest.get(name) != value
    ]
    counts = {
        "faiss vectors": data.vectors.ntotal,
        "keyword rows": len(data.keyword),
        "manifest passages": data.manifest.get("passages"),
    }
    problems += [
        f"{label} = {count}, metadata rows = {len(data.passages)}"
        for label, count in counts.items()
        if count != len(data.passages)
    ]
    problems += [
        f"passage {p.id} does not match its text and offsets"
        for p, row in zip(data.passages, data.rows)
        if passage_id(row["key"], row["start"], row["end"], p.text) != p.id
    ]
    stored: dict[str, Any] = data.manifest.get("files", {})
    for src in sources:
        entry = stored.get(src.key)
        if entry is None:
            problems.append(f"{src.source}: not in the index (run `kb rebuild`)")
        elif file_hash(src.path) != entry.get("sha256"):
            problems.append(f"{src.source}: changed since the index was built (hash differs)")
    current = {src.key for src in sources}
    problems += [f"{key}: indexed but no longer on disk" for key in stored if key not in current]
    return problems
