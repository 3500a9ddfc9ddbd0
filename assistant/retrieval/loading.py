"""Load and verify the live index generation: its manifest and the segments it lists.

Loading maps the vectors (copied into one faiss `IndexFlatIP` on the first search), reads the
postings arrays and the small metadata of every segment, and opens each segment's passage
table; no passage text is parsed. Every file's checksum, every shape and count is checked
first: anything wrong is :class:`CorruptIndexError` ("no index"; the caller rebuilds it).

A process keeps the segments of its last load: a segment whose files are the same (inode,
size, modification time: the hard links of a newer generation are) is not read and
checksummed again, so `kb add` reads the big segment once, not three times.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.records import SiteProfile
from assistant.retrieval import storage
from assistant.retrieval.integrity import CorruptIndexError, check_manifest, require
from assistant.retrieval.manifest import SourceFile, file_hash
from calculators.messages import Msg

if TYPE_CHECKING:
    import numpy as np

    from assistant.retrieval.keyword import KeywordIndex
    from assistant.retrieval.passage_table import PassageTable
    from assistant.retrieval.segments import Segment


@dataclass(frozen=True)
class Skipped:
    """A file left out of the index, and why."""

    source: str
    reason: Msg

    def to_record(self) -> dict[str, Any]:
        """The manifest's JSON form."""
        return {"source": self.source, "reason": message_record(self.reason)}

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Skipped:
        """Read a manifest entry; one written before reasons were messages holds two texts."""
        reason = row.get("reason")
        if isinstance(reason, dict):
            return cls(str(row["source"]), message_from_record(reason))
        pair = Msg("errors.text_pair", en=str(reason), zh=str(row.get("reason_zh", reason)))
        return cls(str(row["source"]), pair)


def message_record(message: Msg) -> dict[str, Any]:
    """A message as JSON data: its key and its parameters (nested messages and lists too)."""

    def value(v: Any) -> Any:
        if isinstance(v, Msg):
            return message_record(v)
        return [value(x) for x in v] if isinstance(v, tuple) else v

    return {"key": message.key, "params": {k: value(v) for k, v in message.items_}}


def message_from_record(record: dict[str, Any]) -> Msg:
    """The message :func:`message_record` wrote."""

    def value(v: Any) -> Any:
        if isinstance(v, dict):
            return message_from_record(v)
        return tuple(value(x) for x in v) if isinstance(v, list) else v

    return Msg(str(record["key"]), **{k: value(v) for k, v in record["params"].items()})


@dataclass(frozen=True)
class SegmentEntry:
    """One segment of the live generation, as its manifest lists it."""

    name: str
    first_row: int
    rows: int
    checksums: dict[str, str]
    documents: tuple[dict[str, Any], ...]

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(str(d.get("key")) for d in self.documents)


@dataclass
class LoadedIndex:
    """An index generation in memory (passage text stays on disk until asked for)."""

    path: Path
    manifest: dict[str, Any]
    passages: PassageTable
    documents: list[dict[str, Any]]
    profiles: list[SiteProfile]
    skipped: list[Skipped]
    arrays: list[np.ndarray]
    """Each segment's unit vectors (memory-mapped), in row order."""
    keyword: KeywordIndex
    segments: list[SegmentEntry]
    dim: int
    _flat: Any = field(default=None, repr=False)

    @property
    def vectors(self) -> Any:
        """faiss.IndexFlatIP over unit vectors, row i = passages[i] (built on first use: a
        `kb add` that searches nothing never copies them)."""
        if self._flat is None:
            import faiss

            flat = faiss.IndexFlatIP(self.dim)
            for matrix in self.arrays:
                if len(matrix):
                    flat.add(matrix)
            self._flat = flat
        return self._flat


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


def load_checked(index_dir: Path, *, reuse: bool = True) -> LoadedIndex | None:
    """The live generation; None when there is none; :class:`CorruptIndexError` when a part is
    unreadable, of the wrong shape or fails its checksum, or the pointer is bad. With
    `reuse=False` every segment is read and checked again, even one loaded before."""
    import sqlite3

    for _ in range(3):  # a writer may prune the generation between pointer and read
        path = storage.current_generation(index_dir)
        if path is None:
            if storage.pointer_exists(index_dir):
                raise CorruptIndexError(Msg("index.corrupt.pointer", file=storage.POINTER))
            return None
        try:
            return _load_generation(path, reuse)
        except FileNotFoundError:
            continue
        except CorruptIndexError:
            raise
        except (
            OSError,
            ValueError,
            KeyError,
            TypeError,
            AttributeError,
            RuntimeError,
            sqlite3.Error,
        ) as exc:
            detail = f"{type(exc).__name__}: {exc}"
            unreadable = Msg("index.corrupt.unreadable", file=path.name, detail=detail)
            raise CorruptIndexError(unreadable) from exc
    return None


def _load_generation(path: Path, reuse: bool) -> LoadedIndex:
    from assistant.retrieval.keyword import KeywordIndex
    from assistant.retrieval.passage_table import PassageTable
    from assistant.retrieval.segments import read_segment

    manifest = storage.read_json(path / "manifest.json")
    check_manifest(manifest)
    dim = manifest["dim"]
    segments, entries, first = [], [], 0
    loaded: dict[tuple[Any, ...], Segment] = {}
    for entry in manifest["segments"]:
        signature = _signature(path, entry["checksums"], dim)
        segment = (_LOADED.get(signature) if reuse else None) or read_segment(
            path, entry["name"], entry["checksums"], dim, manifest.get("tokenizer_version")
        )
        loaded[signature] = segment
        rows = len(segment.postings.lengths)
        require(rows == entry["passages"], f"{entry['name']}: {rows} rows, manifest says more")
        segments.append(segment)
        entries.append(
            SegmentEntry(entry["name"], first, rows, entry["checksums"], tuple(segment.documents))
        )
        first += rows
    require(first == manifest["passages"], f"{first} passages for {manifest['passages']}")
    _LOADED.clear()
    _LOADED.update(loaded)
    keyword = KeywordIndex.from_arrays([s.postings for s in segments])
    table = PassageTable([(s.table, len(s.postings.lengths)) for s in segments])
    documents = [d for s in segments for d in s.documents]
    profiles = [
        SiteProfile(**{**p, "aliases": tuple(p["aliases"])}) for s in segments for p in s.profiles
    ]
    skipped = [Skipped.from_record(s) for s in manifest.get("skipped", [])]
    return LoadedIndex(
        path,
        manifest,
        table,
        documents,
        profiles,
        skipped,
        [s.vectors for s in segments],
        keyword,
        entries,
        dim,
    )


#: The segments of this process's last load, by :func:`_signature`.
_LOADED: dict[tuple[Any, ...], Segment] = {}


def _signature(folder: Path, checksums: dict[str, Any], dim: int) -> tuple[Any, ...]:
    """What identifies a segment's files on disk, with the checksums they must match."""
    stats: list[Any] = []
    for name in sorted(checksums):
        stat = (folder / name).stat()
        stats.append((name, checksums[name], stat.st_dev, stat.st_ino, stat.st_size))
        stats.append(stat.st_mtime_ns)
    return (dim, *stats)


def verify_index(index_dir: Path, sources: list[SourceFile], identity: dict[str, Any]) -> list[Msg]:
    """Problems with the live index (empty when it is sound): counts, ids, file hashes, each a
    catalog message (``index.verify.*``) with its technical detail as a parameter."""
    try:
        data = load_checked(index_dir, reuse=False)
    except CorruptIndexError as exc:
        return [Msg("index.verify.unusable", index_dir=str(index_dir), problem=exc.msg)]
    if data is None:
        return [Msg("index.verify.none", index_dir=str(index_dir))]
    problems = [
        Msg(
            "index.reason.changed",
            name=Msg(f"index.part.{name}"),
            old=repr(data.manifest.get(name)),
            new=repr(value),
        )
        for name, value in identity.items()
        if data.manifest.get(name) != value
    ]
    counts = {
        "vectors": data.vectors.ntotal,
        "keyword_rows": len(data.keyword),
        "manifest_passages": data.manifest.get("passages"),
    }
    problems += [
        Msg(
            "index.verify.count",
            label=Msg(f"index.verify.label.{label}"),
            count=str(count),
            rows=len(data.passages),
        )
        for label, count in counts.items()
        if count != len(data.passages)
    ]
    problems += _passage_problems(data)
    return problems + _file_problems(data.manifest, sources)


def _passage_problems(data: LoadedIndex) -> list[Msg]:
    from assistant.retrieval.chunking import passage_id

    return [
        Msg("index.verify.passage", id=p.id)
        for p, row in data.passages.entries()
        if passage_id(row["key"], row["start"], row["end"], p.text) != p.id
    ]


def _file_problems(manifest: dict[str, Any], sources: list[SourceFile]) -> list[Msg]:
    problems = []
    stored: dict[str, Any] = manifest.get("files", {})
    for src in sources:
        entry = stored.get(src.key)
        if entry is None:
            problems.append(Msg("index.verify.not_indexed", source=src.source))
        elif file_hash(src.path) != entry.get("sha256"):
            problems.append(Msg("index.verify.changed", source=src.source))
    current = {src.key for src in sources}
    problems += [Msg("index.verify.gone", key=key) for key in stored if key not in current]
    return problems
