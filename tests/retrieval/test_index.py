"""Index lifecycle with the real USE-m encoder, faiss and jieba on a small fixture corpus."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from assistant.config import Settings
from assistant.errors import KnowledgeBaseError
from assistant.i18n import text
from assistant.retrieval import storage
from assistant.retrieval.encoder import UseEncoder, make_encoder
from assistant.retrieval.engine import KnowledgePaths, ensure_index
from assistant.retrieval.index import load_index, verify_index
from assistant.retrieval.manifest import chunk_cap, collect_sources, expected_identity
from calculators.messages import Msg

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def settings(tmp_path: Path, make_corpus) -> Settings:  # noqa: ANN001
    return Settings(home=tmp_path / "home", knowledge_dir=make_corpus())


def _verify(settings: Settings) -> list[str]:
    paths = KnowledgePaths.from_settings(settings)
    encoder = make_encoder(settings)
    sources = collect_sources(paths.knowledge_dir, paths.documents_dir)
    problems = verify_index(
        paths.index_dir, sources, expected_identity(encoder, chunk_cap(encoder))
    )
    return [text(problem, "en") for problem in problems]


class FailingEncoder(UseEncoder):
    """The real encoder, failing after `ok_calls` batches (a crash in the build step)."""

    def __init__(self, ok_calls: int) -> None:
        super().__init__(threads=2)
        self.ok_calls = ok_calls

    def encode(self, texts: list[str]) -> np.ndarray:
        if self.ok_calls <= 0:
            msg = "simulated crash while embedding"
            raise RuntimeError(msg)
        self.ok_calls -= 1
        return super().encode(texts)


def test_build_indexes_every_readable_file_and_reports_the_rest(settings: Settings) -> None:
    data, report = ensure_index(settings, make_encoder(settings))
    assert report is not None
    assert {d["key"] for d in data.documents} == {
        "knowledge/guides/net.zh.md",
        "knowledge/guides/net.en.md",
        "knowledge/guides/memory.zh.md",
        "knowledge/guides/pipeline.en.md",
        "knowledge/sites/demo.zh.md",
    }
    assert [(s.source, s.reason) for s in data.skipped] == [
        ("guides/broken.md", Msg("errors.doc.binary"))
    ]
    assert data.vectors.ntotal == len(data.passages) == len(data.keyword) == report.passages
    gbk = [p for p in data.passages if p.doc_id == "memory"]
    assert gbk
    assert "12 字节显存" in gbk[0].text
    utf16 = [p for p in data.passages if p.doc_id == "pipeline"]
    assert utf16
    assert "micro-batches" in utf16[0].text
    assert _verify(settings) == []


def test_metadata_is_json_arrays_and_sqlite_not_pickle(settings: Settings) -> None:
    import sqlite3

    data, _ = ensure_index(settings, make_encoder(settings))
    for path in [data.path / "manifest.json", *data.path.glob("*.meta.json")]:
        json.loads(path.read_text(encoding="utf-8"))
    for path in [*data.path.glob("*.npy"), *data.path.glob("*.npz")]:
        np.load(path, allow_pickle=False)  # raises on a pickled object array
    (table,) = data.path.glob("*.passages.sqlite")
    with sqlite3.connect(table) as db:
        assert db.execute("SELECT count(*) FROM passages").fetchone() == (len(data.passages),)
    manifest = data.manifest
    assert manifest["encoder"] == "use-m"
    assert manifest["dim"] == 512
    assert manifest["tokenizer_version"].startswith("tok")
    assert set(manifest["files"]) >= {"knowledge/guides/net.zh.md"}


def test_vectors_match_a_fresh_encoding(settings: Settings) -> None:
    """Cross-check: stored row i is the encoding of passage i's text."""
    from assistant.retrieval.chunking import embedding_text

    data, _ = ensure_index(settings, make_encoder(settings))
    stored = data.vectors.reconstruct_n(0, data.vectors.ntotal)
    fresh = UseEncoder().encode([embedding_text(p) for p in data.passages])
    np.testing.assert_allclose(stored, fresh, atol=1e-5)


def test_ids_are_stable_across_rebuilds(settings: Settings) -> None:
    encoder = make_encoder(settings)
    first, _ = ensure_index(settings, encoder)
    second, report = ensure_index(settings, encoder, force=True)
    assert report is not None
    assert report.embedded == len(second.passages)
    assert [p.id for p in first.passages] == [p.id for p in second.passages]
    assert first.path != second.path


def test_unchanged_documents_do_not_rebuild(settings: Settings) -> None:
    encoder = make_encoder(settings)
    first, _ = ensure_index(settings, encoder)
    notices: list[str] = []
    again, report = ensure_index(settings, encoder, notify=notices.append)
    assert report is None
    assert notices == []
    assert again.path == first.path


def test_a_new_document_embeds_only_its_passages(settings: Settings) -> None:
    encoder = make_encoder(settings)
    before, _ = ensure_index(settings, encoder)
    (settings.knowledge_dir / "guides" / "extra.en.md").write_text(
        "## Checkpoints {#ckpt}\n\nSave a checkpoint every few hours.\n", encoding="utf-8"
    )
    notices: list[str] = []
    after, report = ensure_index(settings, encoder, notify=notices.append)
    assert report is not None
    assert report.embedded == 1
    assert len(after.passages) == len(before.passages) + 1
    assert "documents added: knowledge/guides/extra.en.md" in notices[0]


def test_changed_encoder_name_in_manifest_triggers_a_rebuild(settings: Settings) -> None:
    encoder = make_encoder(settings)
    data, _ = ensure_index(settings, encoder)
    manifest = json.loads((data.path / "manifest.json").read_text(encoding="utf-8"))
    manifest["encoder"] = "st:some-other-model"
    (data.path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    notices: list[str] = []
    rebuilt, report = ensure_index(settings, encoder, notify=notices.append)
    assert report is not None
    assert report.embedded == len(rebuilt.passages)  # other model: nothing reusable
    assert "encoder changed ('st:some-other-model' → 'use-m')" in notices[0]
    assert rebuilt.manifest["encoder"] == "use-m"
    assert _verify(settings) == []


def test_a_crash_while_embedding_keeps_the_previous_index(settings: Settings) -> None:
    data, _ = ensure_index(settings, make_encoder(settings))
    paths = KnowledgePaths.from_settings(settings)
    (settings.knowledge_dir / "guides" / "new.en.md").write_text("## A {#a}\n\nnew text\n", "utf-8")
    with pytest.raises(RuntimeError, match="simulated crash"):
        ensure_index(settings, FailingEncoder(ok_calls=0))
    after = load_index(paths.index_dir)
    assert after is not None
    assert after.path == data.path
    assert [p.id for p in after.passages] == [p.id for p in data.passages]


def test_a_crash_while_writing_keeps_the_previous_index(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, _ = ensure_index(settings, make_encoder(settings))
    index_dir = KnowledgePaths.from_settings(settings).index_dir
    real_write = storage.write_bytes

    def write_then_fail(path: Path, payload: bytes) -> None:
        real_write(path, payload)
        if path.name.endswith(".postings.npz"):
            raise OSError(28, "No space left on device (simulated)")

    monkeypatch.setattr(storage, "write_bytes", write_then_fail)
    with pytest.raises(KnowledgeBaseError, match="cannot write the index .*simulated"):
        ensure_index(settings, make_encoder(settings), force=True)
    assert not list(index_dir.glob("tmp-*"))  # the half-written generation is gone
    assert storage.current_generation(index_dir) == data.path
    monkeypatch.undo()
    assert _verify(settings) == []


_KILL_SCRIPT = """
import sys, time
from pathlib import Path
from assistant.config import Settings
from assistant.errors import KnowledgeBaseError
from assistant.retrieval import storage
from assistant.retrieval.encoder import make_encoder
from assistant.retrieval.engine import ensure_index

marker = Path(sys.argv[3])
real_write = storage.write_bytes
def slow_write(path, payload):
    real_write(path, payload)
    if path.name.endswith(".postings.npz"):  # half of the new generation is on disk
        marker.write_text("writing")
        time.sleep(120)
storage.write_bytes = slow_write
settings = Settings(home=Path(sys.argv[1]), knowledge_dir=Path(sys.argv[2]))
ensure_index(settings, make_encoder(settings), force=True)
"""


def test_killing_a_rebuild_leaves_the_previous_index_loadable(settings: Settings) -> None:
    data, _ = ensure_index(settings, make_encoder(settings))
    paths = KnowledgePaths.from_settings(settings)
    marker = paths.index_dir.parent / "marker"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _KILL_SCRIPT,
            str(settings.home),
            str(settings.knowledge_dir),
            str(marker),
        ],
        cwd=REPO,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), "the rebuild never reached the write step"
        assert list(paths.index_dir.glob("tmp-*"))  # a half-written generation exists
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    after = load_index(paths.index_dir)
    assert after is not None
    assert after.path == data.path
    assert _verify(settings) == []
    ensure_index(settings, make_encoder(settings), force=True)  # the next writer cleans up
    assert not list(paths.index_dir.glob("tmp-*"))


_WRITER_SCRIPT = """
import json, sys
from pathlib import Path
from assistant.config import Settings
from assistant.errors import KnowledgeBaseError
from assistant.retrieval.encoder import make_encoder
from assistant.retrieval.engine import ensure_index

settings = Settings(home=Path(sys.argv[1]), knowledge_dir=Path(sys.argv[2]))
_, report = ensure_index(settings, make_encoder(settings), force=True)
print(json.dumps([report.locked_from, report.locked_until]))
"""


def test_concurrent_writers_take_turns(settings: Settings) -> None:
    args = [sys.executable, "-c", _WRITER_SCRIPT, str(settings.home), str(settings.knowledge_dir)]
    procs = [
        subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    spans = sorted(json.loads(out) for out, _ in outputs)
    (_, first_end), (second_start, _) = spans
    assert first_end <= second_start  # the lock serialised the two builds
    assert _verify(settings) == []
    assert len(list(KnowledgePaths.from_settings(settings).index_dir.glob("gen-*"))) <= 2


def test_a_failed_update_falls_back_to_the_previous_index_with_a_notice(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, _ = ensure_index(settings, make_encoder(settings))
    (settings.knowledge_dir / "guides" / "new.en.md").write_text("## A {#a}\n\nnew\n", "utf-8")

    def disk_full(path: Path, payload: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage, "write_json", disk_full)
    notices: list[str] = []
    served, report = ensure_index(settings, make_encoder(settings), notify=notices.append)
    assert report is None
    assert served.path == data.path
    assert "No space left on device" in notices[-1]
    assert "previous index" in notices[-1]
    with pytest.raises(KnowledgeBaseError, match="No space left"):  # no notify: no fallback
        ensure_index(settings, make_encoder(settings))


def test_an_unreadable_index_is_rebuilt_with_a_notice(settings: Settings) -> None:
    data, _ = ensure_index(settings, make_encoder(settings))
    (meta,) = data.path.glob("*.meta.json")
    meta.write_text('{"documents": [', encoding="utf-8")
    notices: list[str] = []
    rebuilt, report = ensure_index(settings, make_encoder(settings), notify=notices.append)
    assert report is not None
    assert "the stored index is unreadable" in notices[0]
    assert len(rebuilt.passages) == len(data.passages)


def test_an_empty_knowledge_folder_gives_an_empty_working_index(tmp_path: Path) -> None:
    from assistant.retrieval.engine import open_retriever

    empty = Settings(home=tmp_path / "h", knowledge_dir=tmp_path / "nothing-here")
    retriever = open_retriever(empty)
    assert len(retriever) == 0
    assert retriever.search("显存", 5) == []
    assert _verify(empty) == []


def test_verify_reports_a_changed_document_and_a_count_mismatch(settings: Settings) -> None:
    data, _ = ensure_index(settings, make_encoder(settings))
    (settings.knowledge_dir / "guides" / "net.en.md").write_text("## X {#x}\n\nchanged\n", "utf-8")
    assert any("net.en.md: changed since" in p for p in _verify(settings))
    (meta,) = data.path.glob("*.meta.json")
    rows = json.loads(meta.read_text(encoding="utf-8"))
    rows["passages"] -= 1
    meta.write_text(json.dumps(rows), encoding="utf-8")
    problems = _verify(settings)  # the edit breaks the part's checksum and its counts
    assert any("meta.json: checksum mismatch" in p for p in problems), problems
