"""The conversation store: round trips, schema migration from v1, two writers, export."""

from __future__ import annotations

import copy
import dataclasses
import json
import multiprocessing
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from assistant.conversations import SCHEMA_V1, SCHEMA_VERSION, ConversationStore, StoreError
from assistant.records import Answer, Check, Citation, Passage, Query, Scenario, Suggestion
from assistant.render.serialize import (
    _json_safe,
    answer_from_record,
    answer_to_json,
    answer_to_record,
)
from tests.json_contract import (
    CHECK_KEYS,
    CITATION_KEYS,
    KEYS,
    SCENARIO_KEYS,
    SUGGESTION_KEYS,
)
from tests.pipeline.conftest import GoldenResult


def make_answer(
    question: str = "吉林GPU服务器能训练千亿模型吗?", verdict: str = "infeasible"
) -> Answer:
    scenario = Scenario(task="pretrain", params=1e11, site_profile="regional-single-node")
    passage = Passage(
        id="p1",
        doc_id="gpu-memory",
        source="guides/gpu-memory.zh.md",
        title="显存",
        heading="训练",
        text="每参数 16 字节",
        lang="zh",
        score=0.8,
        anchor="training-states",
    )
    check = Check(
        kind="memory",
        verdict="fail",
        summary="每张 GPU 需要 200 GB",
        figures={"required_bytes_per_gpu": 2e11, "min_gpus": 21},
        formula="16 N / n",
    )
    return Answer(
        question=question,
        language="zh",
        verdict=verdict,
        binding_constraint="memory",  # type: ignore[arg-type]
        text="**不可行**",
        query=Query(question=question, language="zh", scenario=scenario),
        checks=(check,),
        suggestions=(Suggestion("用 ZeRO-3", "每卡 25 GB"),),
        assumptions=("bf16",),
        citations=(Citation(passage, claim=check.summary),),
        scenario=scenario,
    )


def test_record_round_trip_is_lossless() -> None:
    answer = make_answer()
    assert answer_from_record(json.loads(json.dumps(answer_to_record(answer)))) == answer


def test_public_json_has_exactly_the_listed_keys() -> None:
    data = answer_to_json(make_answer())
    assert set(data) == KEYS
    assert set(data["scenario"]) == SCENARIO_KEYS
    assert set(data["checks"][0]) == CHECK_KEYS
    assert set(data["citations"][0]) == CITATION_KEYS
    assert set(data["suggestions"][0]) == SUGGESTION_KEYS
    assert data["scenario"]["params"] == 1e11


def test_store_round_trip(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path / "c.sqlite3")
    cid = store.new_conversation()
    store.add_turn(cid, make_answer())
    store.add_turn(cid, make_answer("那用H100呢?", "conditional"))
    conversation = store.load(cid)
    assert [t.question for t in conversation.turns] == [
        "吉林GPU服务器能训练千亿模型吗?",
        "那用H100呢?",
    ]
    assert conversation.turns[1].answer.verdict == "conditional"
    assert conversation.title == "吉林GPU服务器能训练千亿模型吗?"
    last = store.last_conversation()
    assert last is not None
    assert last.id == cid
    assert store.list_conversations()[0].turn_count == 2
    markdown = store.export_markdown(cid)
    assert "## 2. 那用H100呢?" in markdown
    assert "**不可行**" in markdown


def _counting_connects(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record each real `sqlite3.connect` the store makes (the connection is the real one)."""
    opened: list[object] = []
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    return opened


def test_a_session_keeps_one_connection_and_every_write_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch of `ask` lines saves through one connection: closing a connection syncs the
    WAL (30-70 ms a turn here, most of a batch's time). Each write still commits at once."""
    store = ConversationStore(tmp_path / "c.sqlite3")
    reader = ConversationStore(tmp_path / "c.sqlite3")
    opened = _counting_connects(monkeypatch)
    ours = 0
    with store.session():
        for number in range(10):
            before = len(opened)
            cid = store.new_conversation(f"q{number}")
            store.add_turn(cid, make_answer(f"q{number}"))
            ours += len(opened) - before
            assert [t.question for t in reader.load(cid).turns] == [f"q{number}"]
    assert ours == 0  # the session's one connection was opened before the loop
    before = len(opened)
    assert len(store.list_conversations()) == 10
    assert len(opened) == before + 1  # after the session: a connection per call again


def test_a_session_is_this_threads_only(tmp_path: Path) -> None:
    """Another thread never borrows the session's connection (sqlite3 would refuse it)."""
    import threading

    store = ConversationStore(tmp_path / "c.sqlite3")
    failures: list[BaseException] = []

    def other() -> None:
        try:
            store.add_turn(store.new_conversation(), make_answer())
        except BaseException as exc:  # noqa: BLE001 -- reported by the assertion below
            failures.append(exc)

    with store.session():
        worker = threading.Thread(target=other)
        worker.start()
        worker.join()
    assert failures == []
    assert store.list_conversations()[0].turn_count == 1


def test_empty_store_has_no_last_conversation(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path / "c.sqlite3")
    assert store.last_conversation() is None
    with pytest.raises(StoreError):
        store.load("missing")


def test_store_uses_wal_and_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    store = ConversationStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migrates_a_v1_database(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V1)
    conn.execute("PRAGMA user_version = 1")
    record = json.dumps(answer_to_record(make_answer()), ensure_ascii=False)
    conn.execute("INSERT INTO conversations VALUES ('c1', 'old talk', 100.0)")
    conn.execute(
        "INSERT INTO turns (conversation_id, question, answer_json, created_at)"
        " VALUES ('c1', '吉林GPU服务器能训练千亿模型吗?', ?, 200.0)",
        (record,),
    )
    conn.commit()
    conn.close()
    store = ConversationStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    conversation = store.load("c1")
    assert conversation.updated_at == 200.0
    assert conversation.turns[0].answer.verdict == "infeasible"
    with sqlite3.connect(path) as check:
        verdicts = check.execute("SELECT language, verdict FROM turns").fetchall()
    assert verdicts == [("zh", "infeasible")]
    store.add_turn("c1", make_answer("那用H100呢?"))
    assert len(store.load("c1").turns) == 2


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(StoreError, match="schema version"):
        ConversationStore(path)


def test_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError) as info:
        ConversationStore(path)
    assert "junk.sqlite3" in str(info.value)


def _writer(path: str, conversation_id: str, count: int) -> None:
    store = ConversationStore(Path(path))
    for i in range(count):
        store.add_turn(conversation_id, make_answer(f"question {i}"))


def test_two_writers_do_not_lose_turns(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    store = ConversationStore(path)
    first, second = store.new_conversation(), store.new_conversation()
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_writer, args=(str(path), cid, 20)) for cid in (first, second)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [w.exitcode for w in workers] == [0, 0]
    assert len(store.load(first).turns) == 20
    assert len(store.load(second).turns) == 20
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_store_files_are_user_only(tmp_path: Path) -> None:
    """Issue 12: the database and its -wal/-shm files hold questions and answers: 0600."""
    path = tmp_path / "home" / "c.sqlite3"
    old_umask = os.umask(0o022)  # the usual umask, under which SQLite would create 0644 files
    try:
        store = ConversationStore(path)
        reader = sqlite3.connect(path)  # an open connection keeps -wal and -shm on disk
        try:
            reader.execute("SELECT COUNT(*) FROM turns").fetchone()
            store.add_turn(store.new_conversation(), make_answer())
            wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
            assert wal.exists()
            assert shm.exists()
            assert (_mode(path), _mode(wal), _mode(shm)) == (0o600, 0o600, 0o600)
        finally:
            reader.close()
    finally:
        os.umask(old_umask)
    assert _mode(path.parent) == 0o700


def test_store_left_readable_by_an_older_version_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    ConversationStore(path)
    path.chmod(0o644)
    ConversationStore(path).new_conversation()
    assert _mode(path) == 0o600


def test_records_are_built_in_one_pass_with_the_same_data(
    golden_results: list[GoldenResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every answer of an `ask` batch is saved: its record is built without dataclasses.asdict
    # (which deep-copies each leaf), and is what `_json_safe(asdict(answer))` gave, key order
    # included, for every golden answer.
    answers = [r.answer for r in golden_results if r.answer is not None]
    reference = [json.dumps(_json_safe(dataclasses.asdict(a)), ensure_ascii=False) for a in answers]
    copies: list[object] = []
    deepcopy = copy.deepcopy
    monkeypatch.setattr(copy, "deepcopy", lambda value, *a: copies.append(value) or deepcopy(value))
    records = [json.dumps(answer_to_record(a), ensure_ascii=False) for a in answers]
    assert copies == []
    assert len(records) > 100
    assert records == reference
