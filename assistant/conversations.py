"""The conversation store: SQLite at `locations.conversations_db()`, shared by `ask` and the TUI.

WAL mode and a busy timeout let two processes write at once; every write is one short
transaction. The schema version lives in `PRAGMA user_version`; :data:`MIGRATIONS` upgrades
older files in place, each step in its own transaction.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from assistant import locations
from assistant.errors import AssistantError
from assistant.records import Answer
from assistant.render.serialize import answer_from_record, answer_to_record
from calculators.messages import Msg

__all__ = [
    "SCHEMA_V1",
    "SCHEMA_VERSION",
    "Conversation",
    "ConversationStore",
    "ConversationSummary",
    "StoreError",
    "Turn",
]

#: The first schema, kept verbatim so the migration from it can be tested.
SCHEMA_V1 = """
CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    question TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    created_at REAL NOT NULL
);
"""


def _migrate_to_v2(conn: sqlite3.Connection) -> None:
    """v2: language and verdict per turn (listing without parsing JSON), updated_at, an index."""
    conn.execute("ALTER TABLE conversations ADD COLUMN updated_at REAL")
    conn.execute(
        "UPDATE conversations SET updated_at = COALESCE("
        "(SELECT MAX(created_at) FROM turns WHERE conversation_id = conversations.id),"
        " created_at)"
    )
    conn.execute("ALTER TABLE turns ADD COLUMN language TEXT")
    conn.execute("ALTER TABLE turns ADD COLUMN verdict TEXT")
    for turn_id, answer_json in conn.execute("SELECT id, answer_json FROM turns").fetchall():
        try:
            data = json.loads(answer_json)
            language, verdict = data.get("language"), data.get("verdict")
        except (ValueError, AttributeError):
            language = verdict = None
        conn.execute(
            "UPDATE turns SET language = ?, verdict = ? WHERE id = ?", (language, verdict, turn_id)
        )
    conn.execute("CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, id)")


def _create_v1(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA_V1.split(";"):
        if statement.strip():
            conn.execute(statement)


#: MIGRATIONS[i] upgrades a database at version i to version i + 1.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_create_v1, _migrate_to_v2)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(AssistantError):
    """The conversation store cannot be used (corrupt file, newer schema, locked too long)."""


@dataclass(frozen=True)
class Turn:
    """One question and its answer."""

    id: int
    question: str
    answer: Answer
    created_at: float
    """Seconds since the epoch (UTC)."""


@dataclass(frozen=True)
class ConversationSummary:
    """A conversation in a listing."""

    id: str
    title: str
    created_at: float
    updated_at: float
    turn_count: int


@dataclass(frozen=True)
class Conversation:
    """A conversation with all its turns, oldest first."""

    id: str
    title: str
    created_at: float
    updated_at: float
    turns: tuple[Turn, ...]
    skipped: int = 0
    """Turns whose saved answer could not be read back (corrupt rows), left out of `turns`."""


def _turn(row: tuple[int, str, str, float]) -> Turn | None:
    """A saved turn, or None when its answer cannot be read back (a corrupt row is skipped
    rather than making every later `ask --continue` fail)."""
    try:
        return Turn(row[0], row[1], answer_from_record(json.loads(row[2])), row[3])
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None


class ConversationStore:
    """Conversations and their turns in one SQLite file.

    Examples:
        >>> import tempfile, pathlib
        >>> store = ConversationStore(pathlib.Path(tempfile.mkdtemp()) / "c.sqlite3")
        >>> cid = store.new_conversation("test")
        >>> [c.title for c in store.list_conversations()]
        ['test']
    """

    def __init__(self, path: Path | None = None, *, timeout_s: float = 10.0) -> None:
        self.path = Path(path) if path is not None else locations.conversations_db()
        self.timeout_s = timeout_s
        self._held: tuple[int, sqlite3.Connection] | None = None
        self._migrate()

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """Keep one connection open for the calls made inside (a batch of `ask` lines), in
        this thread. Each write still commits on its own; what is saved is closing: when the
        last connection closes, SQLite checkpoints and syncs the WAL, 30-70 ms on a disk."""
        if self._held is not None:
            yield
            return
        with self._connect() as conn:
            self._held = (threading.get_ident(), conn)
            try:
                yield
            finally:
                self._held = None

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        held = self._held
        if held is not None and held[0] == threading.get_ident():
            try:
                yield held[1]
            except sqlite3.DatabaseError as exc:
                raise self._error(exc) from exc
            return
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout_s, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout_s * 1000)}")
            conn.execute("PRAGMA foreign_keys = ON")
            # In WAL mode NORMAL never corrupts the file; a power cut (not a crash of this
            # process) may lose the last commits. FULL syncs every commit, ~30 ms each here.
            conn.execute("PRAGMA synchronous = NORMAL")
            yield conn
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from exc
        finally:
            conn.close()

    def _error(self, exc: Exception) -> StoreError:
        return StoreError(Msg("errors.store.unusable", path=str(self.path), detail=str(exc)))

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _create_private(self) -> None:
        """Create the database file 0600 before SQLite opens it (SQLite would create it 0644
        under the usual umask) and tighten a file an older version left readable; SQLite gives
        its -wal and -shm files the database file's mode."""
        locations.private_dir(self.path.parent)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except OSError as exc:
            raise self._error(exc) from exc
        try:
            os.fchmod(fd, 0o600)
        finally:
            os.close(fd)
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.chmod(f"{self.path}{suffix}", 0o600)

    def _migrate(self) -> None:
        self._create_private()
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode = WAL")
        while True:
            with self._write() as conn:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        Msg(
                            "errors.store.newer",
                            path=str(self.path),
                            version=version,
                            known=SCHEMA_VERSION,
                        )
                    )
                if version == SCHEMA_VERSION:
                    return
                MIGRATIONS[version](conn)
                conn.execute(f"PRAGMA user_version = {version + 1}")

    def schema_version(self) -> int:
        """The file's `PRAGMA user_version`."""
        with self._connect() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def new_conversation(self, title: str = "") -> str:
        """Create an empty conversation; returns its id."""
        conversation_id = uuid.uuid4().hex
        now = time.time()
        with self._write() as conn:
            conn.execute(
                "INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (conversation_id, title[:200], now, now),
            )
        return conversation_id

    def add_turn(self, conversation_id: str, answer: Answer) -> int:
        """Append one answered question; the conversation's title is its first question."""
        payload = json.dumps(answer_to_record(answer), ensure_ascii=False, allow_nan=False)
        now = time.time()
        with self._write() as conn:
            row = conn.execute(
                "SELECT title FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if row is None:
                raise StoreError(Msg("errors.store.no_conversation", id=conversation_id))
            cursor = conn.execute(
                "INSERT INTO turns (conversation_id, question, answer_json, created_at, language,"
                " verdict) VALUES (?, ?, ?, ?, ?, ?)",
                (conversation_id, answer.question, payload, now, answer.language, answer.verdict),
            )
            title = row[0] or answer.question[:80]
            conn.execute(
                "UPDATE conversations SET updated_at = ?, title = ? WHERE id = ?",
                (now, title, conversation_id),
            )
        return int(cursor.lastrowid or 0)

    def list_conversations(self, limit: int = 100) -> list[ConversationSummary]:
        """Conversations, most recently updated first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT c.id, c.title, c.created_at, c.updated_at, COUNT(t.id) FROM conversations c"
                " LEFT JOIN turns t ON t.conversation_id = c.id GROUP BY c.id"
                " ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [ConversationSummary(r[0], r[1], r[2], r[3] or r[2], r[4]) for r in rows]

    def last_conversation(self) -> Conversation | None:
        """The most recently updated conversation, with its turns; None when there is none."""
        listing = self.list_conversations(limit=1)
        return self.load(listing[0].id) if listing else None

    def load(self, conversation_id: str) -> Conversation:
        """One conversation with its turns; raises :class:`StoreError` when it does not exist."""
        with self._connect() as conn:
            head = conn.execute(
                "SELECT id, title, created_at, updated_at FROM conversations WHERE id = ?",
                (conversation_id,),
            ).fetchone()
            if head is None:
                raise StoreError(Msg("errors.store.no_conversation", id=conversation_id))
            rows = conn.execute(
                "SELECT id, question, answer_json, created_at FROM turns"
                " WHERE conversation_id = ? ORDER BY id",
                (conversation_id,),
            ).fetchall()
        turns = tuple(turn for turn in map(_turn, rows) if turn is not None)
        skipped = len(rows) - len(turns)
        return Conversation(head[0], head[1], head[2], head[3] or head[2], turns, skipped)

    def delete_conversation(self, conversation_id: str) -> None:
        """Remove a conversation and its turns."""
        with self._write() as conn:
            conn.execute("DELETE FROM turns WHERE conversation_id = ?", (conversation_id,))
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    def export_markdown(self, conversation_id: str) -> str:
        """The whole conversation as Markdown: each question as a heading, then its answer and
        its charts (a fenced text block)."""
        from assistant.render.charts import charts_markdown

        conversation = self.load(conversation_id)
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(conversation.created_at))
        lines = [f"# {conversation.title or conversation.id}", "", f"_{stamp}_", ""]
        for number, turn in enumerate(conversation.turns, start=1):
            lines += [f"## {number}. {turn.question}", "", turn.answer.text.strip(), ""]
            charts = charts_markdown(turn.answer)
            if charts:
                lines += [charts, ""]
        return "\n".join(lines)
