"""Index segments: immutable sets of whole documents, each written once and shared by the
generations that list it (see :mod:`storage`).

A segment `<name>` is four files in a generation folder:

    <name>.vectors.npy       float32 (passages, dim): row i is passage i's unit vector
    <name>.passages.sqlite   one table row per passage (text, offsets, section head, heading
                             tokens computed at build time), looked up by row, id or document
    <name>.postings.npz      the BM25 postings as flat arrays (:class:`keyword.PostingArrays`)
    <name>.meta.json         counts, dimension, the documents and site profiles, the terms

Nothing is parsed as a whole at load: vectors and postings are arrays, passages are read from
SQLite when a search needs them. Every file's SHA-256 is recorded in the generation's manifest.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import mmap
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.records import Passage
from assistant.retrieval import storage
from assistant.retrieval.integrity import check_checksum, checksum_mismatch, require
from calculators.messages import Msg

if TYPE_CHECKING:
    import numpy as np

    from assistant.retrieval.keyword import KeywordIndex, PostingArrays

FORMAT = 1
_SQLITE_FULL = 13  # SQLITE_FULL: "database or disk is full"
SUFFIXES = (".vectors.npy", ".passages.sqlite", ".postings.npz", ".meta.json")
COLUMNS = (
    "id",
    "doc_id",
    "source",
    "title",
    "heading",
    "text",
    "lang",
    "anchor",
    "translation_id",
    "key",
    "start",
    "end",
    "embed_key",
    "head",
    "heading_tokens",
)
PASSAGE_COLUMNS = ", ".join(f'"{c}"' for c in COLUMNS[:9])
_SCHEMA = (
    'CREATE TABLE passages("row" INTEGER PRIMARY KEY, '
    + ", ".join(f'"{c}"' for c in COLUMNS)
    + "); CREATE INDEX passages_id ON passages(id); "
    "CREATE INDEX passages_doc ON passages(doc_id);"
)


@dataclass(frozen=True)
class SegmentContent:
    """What one segment holds, in row order (rows: key, start, end, embed_key per passage)."""

    passages: list[Passage]
    rows: list[dict[str, Any]]
    documents: list[dict[str, Any]]
    profiles: list[dict[str, Any]]


@dataclass(frozen=True)
class Segment:
    """A segment read from disk: its vectors, postings, documents and passage table."""

    name: str
    vectors: np.ndarray
    postings: PostingArrays
    documents: list[dict[str, Any]]
    profiles: list[dict[str, Any]]
    table: sqlite3.Connection


def section_heads(passages: list[Passage]) -> list[int]:
    """Row of the first passage of each row's section (same document, language and anchor)."""
    first: dict[tuple[str, str, str], int] = {}
    return [
        first.setdefault((p.doc_id, p.lang, p.anchor or p.id), row)
        for row, p in enumerate(passages)
    ]


def _table_rows(content: SegmentContent) -> list[tuple[Any, ...]]:
    from assistant.retrieval.tokenize import tokenize

    heads = section_heads(content.passages)
    tokens: dict[str, str] = {}
    out = []
    for row, (p, extra, head) in enumerate(zip(content.passages, content.rows, heads)):
        heading = p.heading if p.heading else p.title
        if head == row and heading not in tokens:
            tokens[heading] = json.dumps(tokenize(heading), ensure_ascii=False)
        out.append(
            (row, p.id, p.doc_id, p.source, p.title, p.heading, p.text, p.lang, p.anchor)
            + (p.translation_id, extra["key"], extra["start"], extra["end"], extra["embed_key"])
            + (head, tokens[heading] if head == row else None)
        )
    return out


def _write_table(path: Path, content: SegmentContent) -> None:
    """Write the passage table (0600; no journal: an unfinished file is never referenced)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        table = sqlite3.connect(path)
        try:
            table.execute("PRAGMA journal_mode=OFF")
            table.executescript(_SCHEMA)
            marks = ", ".join("?" * (len(COLUMNS) + 1))
            table.executemany(f"INSERT INTO passages VALUES ({marks})", _table_rows(content))
            table.commit()
        finally:
            table.close()
    except sqlite3.Error as exc:  # "database or disk is full", …: reported like any OSError
        full = getattr(exc, "sqlite_errorcode", None) == _SQLITE_FULL or "full" in str(exc)
        raise OSError(errno.ENOSPC if full else errno.EIO, f"{path.name}: {exc}") from exc


def _npy_bytes(**arrays: np.ndarray) -> bytes:
    import numpy as np

    buffer = io.BytesIO()
    if list(arrays) == ["vectors"]:
        np.save(buffer, arrays["vectors"], allow_pickle=False)
    else:
        np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def write_segment(
    folder: Path, name: str, content: SegmentContent, vectors: np.ndarray, keyword: KeywordIndex
) -> dict[str, str]:
    """Write segment `name` into `folder`; returns each file's SHA-256 (for the manifest)."""
    from assistant.retrieval.tokenize import TOKENIZER_VERSION

    arrays = keyword.to_arrays()
    meta = {
        "format": FORMAT,
        "passages": len(content.passages),
        "dim": int(vectors.shape[1]),
        "documents": content.documents,
        "site_profiles": content.profiles,
        "tokenizer_version": TOKENIZER_VERSION,
        "terms": list(arrays.terms),
    }
    parts = {
        ".vectors.npy": _npy_bytes(vectors=vectors),
        ".postings.npz": _npy_bytes(
            offsets=arrays.offsets, rows=arrays.rows, tfs=arrays.tfs, lengths=arrays.lengths
        ),
    }
    sums = {}
    for suffix, data in parts.items():
        storage.write_bytes(folder / f"{name}{suffix}", data)
        sums[name + suffix] = hashlib.sha256(data).hexdigest()
    _write_table(folder / f"{name}.passages.sqlite", content)
    sums[f"{name}.passages.sqlite"] = storage.file_sha256(folder / f"{name}.passages.sqlite")
    storage.write_json(folder / f"{name}.meta.json", meta)
    sums[f"{name}.meta.json"] = storage.file_sha256(folder / f"{name}.meta.json")
    return sums


def _read(path: Path, manifest: dict[str, Any]) -> bytes:
    data = path.read_bytes()
    check_checksum(manifest, path.name, data)
    return data


def read_segment(
    folder: Path, name: str, sums: dict[str, Any], dim: int, tokenizer: object
) -> Segment:
    """Segment `name` of a generation, checked against its checksums, dimension and counts.

    Its tokenizer must be the generation's (`tokenizer`, from the manifest): a segment of
    another is damage. A generation whose tokenizer is not this program's is stale, not
    damaged, and the manifest check says so ("tokenizer changed"), which is why the segment
    is not compared with the program's own version here."""
    import numpy as np

    from assistant.retrieval.keyword import PostingArrays

    checked = {"checksums": sums}
    meta = json.loads(_read(folder / f"{name}.meta.json", checked))
    require(isinstance(meta, dict), f"{name}.meta.json is not a JSON object")
    require(meta.get("format") == FORMAT, f"{name}: segment format {meta.get('format')!r}")
    require(meta.get("tokenizer_version") == tokenizer, f"{name}: another tokenizer")
    for key in ("documents", "site_profiles"):
        value = meta.get(key)
        require(
            isinstance(value, list) and all(isinstance(v, dict) for v in value),
            f"{name}.meta.json '{key}' is not a list of objects",
        )
    count, terms = meta.get("passages"), meta.get("terms")
    require(isinstance(count, int) and count >= 0, f"{name}: passage count is not a number")
    require(isinstance(terms, list), f"{name}.meta.json 'terms' is not a list")
    vectors = _vectors(folder / f"{name}.vectors.npy", sums)
    require(
        vectors.dtype == np.float32 and vectors.shape == (count, dim),
        f"{name}: vectors of shape {vectors.shape}, expected ({count}, {dim})",
    )
    postings_path = folder / f"{name}.postings.npz"
    recorded = sums.get(postings_path.name)
    digest = storage.file_sha256(postings_path)  # streamed: the file is not held twice
    require(recorded is None or digest == recorded, _mismatch(postings_path))
    with np.load(postings_path, allow_pickle=False) as npz:
        offsets, rows, tfs, lengths = (npz[k] for k in ("offsets", "rows", "tfs", "lengths"))
    require(
        offsets.shape == (len(terms) + 1,) and rows.shape == tfs.shape == (int(offsets[-1]),),
        f"{name}: postings do not match the terms",
    )
    require(lengths.shape == (count,), f"{name}: {lengths.shape[0]} keyword rows for {count}")
    postings = PostingArrays({t: i for i, t in enumerate(terms)}, offsets, rows, tfs, lengths)
    table = open_table(folder / f"{name}.passages.sqlite", sums, count)
    return Segment(name, vectors, postings, meta["documents"], meta["site_profiles"], table)


def mapped(path: Path) -> mmap.mmap:
    """A read-only memory map of a whole file (page cache, no copy)."""
    with open(path, "rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def _vectors(path: Path, sums: dict[str, Any]) -> np.ndarray:
    """The vectors of a `.npy` file, checksummed and viewed in place (no copy)."""
    import numpy as np

    data = mapped(path)
    expected = sums.get(path.name)
    require(expected is None or hashlib.sha256(data).hexdigest() == expected, _mismatch(path))
    header = io.BytesIO(data[:4096])
    version = np.lib.format.read_magic(header)
    read_header = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    shape, fortran, dtype = read_header(header)
    require(not fortran and len(shape) == 2, f"{path.name}: not a matrix of rows")
    count = int(shape[0]) * int(shape[1])
    flat = np.frombuffer(data, dtype=dtype, count=count, offset=header.tell())
    return flat.reshape(shape)


def _mismatch(path: Path) -> Msg:
    return checksum_mismatch(path.name)


def open_table(path: Path, sums: dict[str, Any], count: int) -> sqlite3.Connection:
    """The passage table, read-only, after its checksum and row count are checked."""
    digest = storage.file_sha256(path)
    expected = sums.get(path.name)
    require(expected is None or digest == expected, _mismatch(path))
    uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
    table = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        (rows,) = table.execute("SELECT count(*) FROM passages").fetchone()
    except sqlite3.DatabaseError as exc:
        table.close()
        msg = f"{path.name}: {exc}"
        raise ValueError(msg) from exc
    if rows != count:
        table.close()
        require(False, f"{path.name}: {rows} passages, the segment says {count}")
    return table
