"""The passages of a loaded index, read from the segments' SQLite tables when asked for.

A cold search reads the handful of rows it returns (and the sections of its candidates), not
the text of every passage. Row numbers are global: segment 2's rows follow segment 1's.
"""

from __future__ import annotations

import bisect
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Any, overload

from assistant.records import Passage
from assistant.retrieval.segments import PASSAGE_COLUMNS

#: Passages kept in memory once read (a search reads at most a few hundred).
CACHED_ROWS = 4096


def _passage(row: Sequence[Any]) -> Passage:
    return Passage(
        id=row[0],
        doc_id=row[1],
        source=row[2],
        title=row[3],
        heading=row[4],
        text=row[5],
        lang=row[6],
        anchor=row[7],
        translation_id=row[8],
    )


class PassageTable(Sequence[Passage]):
    """Row i -> :class:`Passage`, over the passage tables of consecutive segments."""

    def __init__(self, tables: Sequence[tuple[sqlite3.Connection, int]]) -> None:
        self._tables = [table for table, _ in tables]
        self._starts: list[int] = []
        total = 0
        for _, count in tables:
            self._starts.append(total)
            total += count
        self._total = total
        self._lock = threading.Lock()  # one connection per segment, shared by threads
        self._cache: dict[int, Passage] = {}

    def __len__(self) -> int:
        return self._total

    def _locate(self, row: int) -> tuple[int, int]:
        if row < 0:
            row += self._total
        if not 0 <= row < self._total:
            msg = f"passage row {row} out of range"
            raise IndexError(msg)
        part = bisect.bisect_right(self._starts, row) - 1
        return part, row - self._starts[part]

    def _query(self, part: int, sql: str, args: tuple[Any, ...]) -> list[Any]:
        with self._lock:
            return self._tables[part].execute(sql, args).fetchall()

    def _fetch(self, row: int, columns: str) -> Sequence[Any]:
        part, local = self._locate(row)
        found = self._query(part, f'SELECT {columns} FROM passages WHERE "row" = ?', (local,))
        return found[0]  # type: ignore[no-any-return]

    @overload
    def __getitem__(self, row: int) -> Passage: ...
    @overload
    def __getitem__(self, row: slice) -> list[Passage]: ...
    def __getitem__(self, row: int | slice) -> Passage | list[Passage]:
        if isinstance(row, slice):
            return [self[i] for i in range(*row.indices(self._total))]
        cached = self._cache.get(row)
        if cached is None:
            cached = _passage(self._fetch(row, PASSAGE_COLUMNS))
            if len(self._cache) >= CACHED_ROWS:
                self._cache.clear()
            self._cache[row] = cached
        return cached

    def __iter__(self) -> Iterator[Passage]:
        for part in range(len(self._tables)):
            sql = f'SELECT {PASSAGE_COLUMNS} FROM passages ORDER BY "row"'
            yield from (_passage(r) for r in self._query(part, sql, ()))

    def find(self, passage_id: str) -> Passage | None:
        """The passage with this id, if the index holds it."""
        sql = f'SELECT {PASSAGE_COLUMNS} FROM passages WHERE id = ? ORDER BY "row" LIMIT 1'
        for part in range(len(self._tables)):
            found = self._query(part, sql, (passage_id,))
            if found:
                return _passage(found[0])
        return None

    def of_document(self, doc_id: str) -> list[Passage]:
        """The passages of one document, in order."""
        sql = f'SELECT {PASSAGE_COLUMNS} FROM passages WHERE doc_id = ? ORDER BY "row"'
        return [
            _passage(r)
            for part in range(len(self._tables))
            for r in self._query(part, sql, (doc_id,))
        ]

    def head(self, row: int) -> int:
        """Row of the first passage of `row`'s section (same document, language, anchor)."""
        part, _ = self._locate(row)
        return self._starts[part] + int(self._fetch(row, "head")[0])

    def heading_tokens(self, row: int) -> list[str]:
        """Tokens of the heading (or title) of a section's first row, computed at build time."""
        stored = self._fetch(self.head(row), "heading_tokens")[0]
        return list(json.loads(stored)) if stored else []

    def entries(self) -> Iterator[tuple[Passage, dict[str, Any]]]:
        """Every passage with its key, offsets and embedding key, in row order."""
        sql = f'SELECT {PASSAGE_COLUMNS}, key, start, "end", embed_key FROM passages ORDER BY "row"'
        for part in range(len(self._tables)):
            for r in self._query(part, sql, ()):
                yield _passage(r), dict(zip(("key", "start", "end", "embed_key"), r[9:]))

    def embed_keys(self, start: int, stop: int) -> list[str]:
        """Embedding keys of rows `start`..`stop - 1`, which must lie in one segment."""
        if stop <= start:
            return []
        part, local = self._locate(start)
        sql = 'SELECT embed_key FROM passages WHERE "row" >= ? AND "row" < ? ORDER BY "row"'
        return [r[0] for r in self._query(part, sql, (local, local + stop - start))]

    def close(self) -> None:
        for table in self._tables:
            table.close()
