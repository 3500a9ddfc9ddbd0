"""An index that grows by segments: an append writes only the new documents' segment and shares
the rest (hard links), a removal rewrites only the segment that held the document, and the
result searches exactly like an index built from scratch (real USE-m, faiss, jieba)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.i18n import text
from assistant.retrieval.encoder import make_encoder
from assistant.retrieval.engine import HybridRetriever, KnowledgePaths, ensure_index
from assistant.retrieval.index import verify_index
from assistant.retrieval.loading import LoadedIndex
from assistant.retrieval.manifest import chunk_cap, collect_sources, expected_identity

QUERIES = [
    "ZeRO-3 是什么?",
    "How much GPU memory does fine-tuning a 7B model need?",
    "机柜 供电 功耗",
    "InfiniBand NDR racks",
    "checkpoint every few hours",
]
NOTE_A = "## Racks {#racks}\n\nOur racks hold four eight-GPU servers with InfiniBand NDR.\n"
NOTE_B = "## 检查点 {#ckpt}\n\n每隔几个小时保存一次检查点（checkpoint），机柜供电 40 kW。\n"


@pytest.fixture
def settings(kb_home: Path) -> Settings:
    (kb_home / "documents").mkdir(mode=0o700, exist_ok=True)
    return Settings(home=kb_home)


def _inodes(data: LoadedIndex, segment: int) -> dict[str, int]:
    entry = data.segments[segment]
    return {name: (data.path / name).stat().st_ino for name in entry.checksums}


def _results(data: LoadedIndex, settings: Settings) -> list[list[tuple[str, float]]]:
    retriever = HybridRetriever(data, make_encoder(settings))
    return [[(p.id, round(p.score, 6)) for p in retriever.search(q, 5)] for q in QUERIES]


def _verify(settings: Settings) -> list[str]:
    paths = KnowledgePaths.from_settings(settings)
    encoder = make_encoder(settings)
    sources = collect_sources(paths.knowledge_dir, paths.documents_dir)
    problems = verify_index(
        paths.index_dir, sources, expected_identity(encoder, chunk_cap(encoder))
    )
    return [text(problem, "en") for problem in problems]


def test_an_append_writes_one_segment_and_links_the_others(settings: Settings) -> None:
    encoder = make_encoder(settings)
    before, _ = ensure_index(settings, encoder)
    (settings.home / "documents" / "a.md").write_text(NOTE_A, "utf-8")
    after, report = ensure_index(settings, encoder)
    assert report is not None
    assert report.embedded == 1
    assert after.path != before.path
    assert len(after.segments) == len(before.segments) + 1
    for i in range(len(before.segments)):  # the same files, not copies
        assert _inodes(after, i) == _inodes(before, i)
    assert len(after.passages) == len(before.passages) + 1
    assert after.passages[len(after.passages) - 1].text.startswith("Our racks")
    assert _verify(settings) == []


def test_appended_and_removed_segments_search_like_a_fresh_build(settings: Settings) -> None:
    encoder = make_encoder(settings)
    ensure_index(settings, encoder)
    documents = settings.home / "documents"
    (documents / "a.md").write_text(NOTE_A, "utf-8")
    ensure_index(settings, encoder)
    (documents / "b.md").write_text(NOTE_B, "utf-8")
    grown, _ = ensure_index(settings, encoder)
    (documents / "a.md").unlink()
    shrunk, report = ensure_index(settings, encoder)
    assert report is not None
    assert report.embedded == 0  # b's segment was kept, a's dropped: nothing to embed
    assert len(shrunk.segments) == len(grown.segments) - 1
    assert _inodes(shrunk, 0) == _inodes(grown, 0)  # the shipped knowledge was not rewritten
    assert "Our racks" not in " ".join(p.text for p in shrunk.passages)
    incremental = _results(shrunk, settings)
    fresh, _ = ensure_index(settings, encoder, force=True)
    assert len(fresh.segments) == 1  # kb rebuild merges
    assert _results(fresh, settings) == incremental
    assert sorted(p.id for p in fresh.passages) == sorted(p.id for p in shrunk.passages)
    assert _verify(settings) == []


def test_a_translation_of_a_kept_document_is_linked_across_the_rebuild(
    settings: Settings,
) -> None:
    encoder = make_encoder(settings)
    ensure_index(settings, encoder)
    documents = settings.home / "documents"
    head = '+++\nid = "racks"\nlang = "{lang}"\ntitle = "Racks"\n+++\n\n'
    (documents / "racks.en.md").write_text(head.format(lang="en") + NOTE_A, "utf-8")
    ensure_index(settings, encoder)
    (documents / "racks.zh.md").write_text(head.format(lang="zh") + NOTE_B, "utf-8")
    data, _ = ensure_index(settings, encoder)
    linked = {p.lang: p for p in data.passages.of_document("racks")}
    assert linked["en"].anchor is not None
    zh = "## 机柜 {#racks}\n\n每个机柜四台八卡服务器。\n"
    (documents / "racks.zh.md").write_text(head.format(lang="zh") + zh, "utf-8")
    data, _ = ensure_index(settings, encoder)
    linked = {p.lang: p for p in data.passages.of_document("racks")}
    assert linked["en"].translation_id == linked["zh"].id  # the kept side links to the new
    assert linked["zh"].translation_id == linked["en"].id
    assert _verify(settings) == []


def test_a_full_disk_while_writing_the_passage_table_is_an_oserror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite reports a full disk as its own error; the build reports it like any full disk
    (kb remove then frees caches and retries; the CLI says nothing was changed)."""
    import errno
    import sqlite3

    from assistant.records import Passage
    from assistant.retrieval import segments

    def full(*_args: object, **_kwargs: object) -> sqlite3.Connection:
        msg = "database or disk is full"
        raise sqlite3.OperationalError(msg)

    monkeypatch.setattr(segments.sqlite3, "connect", full)
    passage = Passage("p", "d", "d.md", "T", "H", "text", "en")
    content = segments.SegmentContent([passage], [{"key": "k", "start": 0, "end": 4}], [], [])
    with pytest.raises(OSError, match="disk is full") as raised:
        segments._write_table(tmp_path / "s.passages.sqlite", content)
    assert raised.value.errno == errno.ENOSPC


def test_an_index_of_the_previous_format_is_rebuilt_with_a_notice(settings: Settings) -> None:
    """Format 1 (one passages.json, keyword.json and vectors.faiss per generation) is not read."""
    import json

    data, _ = ensure_index(settings, make_encoder(settings))
    manifest = json.loads((data.path / "manifest.json").read_text("utf-8"))
    del manifest["segments"]
    (data.path / "manifest.json").write_text(json.dumps({**manifest, "format": 1}), "utf-8")
    notices: list[str] = []
    rebuilt, report = ensure_index(settings, make_encoder(settings), notify=notices.append)
    assert report is not None
    assert "index format 1 was written by another version" in notices[0]
    assert len(rebuilt.passages) == len(data.passages)


def test_an_index_of_another_tokenizer_is_stale_not_damaged(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new domain dictionary (an upgrade) makes the stored index stale: the notice names the
    tokenizer in the user's language, not "unreadable: seg-…: another tokenizer"."""
    import assistant.retrieval.tokenize as tokenize
    from assistant.retrieval import loading

    ensure_index(settings, make_encoder(settings))
    loading._LOADED.clear()  # as a new process: segments are read again, not reused
    monkeypatch.setattr(tokenize, "TOKENIZER_VERSION", "a-newer-dictionary")
    notices: list[str] = []
    zh = Settings(home=settings.home, language="zh")
    _, report = ensure_index(zh, make_encoder(zh), notify=notices.append)
    assert report is not None
    assert "分词器" in notices[0]
    assert "已变化" in notices[0]
    assert "无法读取" not in notices[0]
    assert "another tokenizer" not in notices[0]
