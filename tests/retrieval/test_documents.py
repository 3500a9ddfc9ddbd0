"""Reading documents: encodings, normalisation, front matter, sections, chunks, ids, links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.errors import DocumentError
from assistant.retrieval.chunking import (
    chunk_document,
    chunk_with_spans,
    estimate_tokens,
    link_translations,
    passage_id,
)
from assistant.retrieval.documents import (
    decode_bytes,
    discover,
    normalize_text,
    read_document,
    site_profile,
    unique_documents,
)
from assistant.retrieval.manifest import collect_sources

ZH_DOC = """+++
id = "zero-demo"
lang = "zh"
title = "ZeRO 演示"
kind = "guide"
topics = ["memory"]
+++
开头介绍：ZeRO 切分模型状态。

## 显存构成 {#memory}

混合精度训练时，每个参数需要 16 字节。优化器状态占 12 字节！

### 第三阶段 {#stage3}

ZeRO-3 把参数也切分。
"""

EN_DOC = """+++
id = "zero-demo"
lang = "en"
title = "ZeRO demo"
kind = "guide"
+++
Intro: ZeRO shards model states.

## Memory {#memory}

Mixed-precision training needs 16 bytes per parameter.

### Stage 3 {#stage3}

ZeRO-3 shards the parameters too.
"""


def _doc(tmp_path: Path, name: str, data: bytes | str):
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return read_document(path, source=name, key="knowledge/" + name)


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "gbk", "gb18030", "utf-16", "utf-16-le", "utf-16-be"]
)
def test_encodings_decode_to_the_same_text(tmp_path: Path, encoding: str) -> None:
    doc = _doc(tmp_path, "a.zh.md", ZH_DOC.encode(encoding))
    reference = _doc(tmp_path, "b.zh.md", ZH_DOC)
    assert doc.text == reference.text
    assert doc.content_hash == reference.content_hash  # same content in any encoding
    assert doc.title == "ZeRO 演示"


def test_short_gbk_text_is_read_as_chinese_not_korean() -> None:
    # charset-normalizer alone takes these 8 bytes for cp949 (Korean).
    assert decode_bytes("显存不够".encode("gbk")) == "显存不够"


def test_a_european_code_page_is_not_taken_for_chinese() -> None:
    text = "Größe der Modelle: über 70 Milliarden Parameter für das Training."
    decoded = decode_bytes(text.encode("cp1252"))
    assert decoded.startswith("Gr")
    assert not any("\u4e00" <= c <= "\u9fff" for c in decoded)


@pytest.mark.parametrize("blob", [bytes(range(256)) * 8, b"\x00\x01\x02binary\x00" * 50])
def test_binary_content_is_a_document_error(tmp_path: Path, blob: bytes) -> None:
    with pytest.raises(DocumentError, match="binary"):
        _doc(tmp_path, "blob.md", blob)


def test_full_width_forms_fold_but_chinese_punctuation_stays() -> None:
    assert normalize_text("Ａ１００－８０Ｇ，显存！\r\n") == "A100-80G，显存！\n"
    assert normalize_text("\u3000ＺｅＲＯ") == " ZeRO"


def test_front_matter_fields(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "zero.zh.md", ZH_DOC)
    assert (doc.doc_id, doc.lang, doc.kind, doc.topics) == ("zero-demo", "zh", "guide", ("memory",))
    assert [s.anchor for s in doc.sections] == ["intro", "memory", "stage3"]
    assert doc.sections[2].heading == "显存构成 > 第三阶段"
    assert "+++" not in doc.text[doc.sections[0].start :]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('+++\nid = "x\n+++\nbody\n', "invalid TOML"),
        ('+++\nid = "x"\nbody\n', "never closed"),
        ('+++\nlang = "fr"\n+++\nbody\n', "'lang'"),
        ('+++\nkind = "poem"\n+++\nbody\n', "'kind'"),
        ('+++\ntopics = "memory"\n+++\nbody\n', "'topics'"),
        ("   \n\n", "empty"),
    ],
)
def test_bad_front_matter_names_the_problem(tmp_path: Path, text: str, reason: str) -> None:
    with pytest.raises(DocumentError, match=reason):
        _doc(tmp_path, "bad.md", text)


def test_plain_markdown_and_text_get_derived_metadata(tmp_path: Path) -> None:
    md = _doc(tmp_path, "My Notes.md", "# Cluster notes\n\nWe have eight A100 GPUs.\n")
    assert (md.doc_id, md.lang, md.title, md.kind) == ("my-notes", "en", "Cluster notes", "note")
    txt = _doc(tmp_path, "笔记.txt", "我们有八张 A100 显卡，通过 NVLink 互联。\n# 不是标题\n")
    assert txt.lang == "zh"
    assert [s.anchor for s in txt.sections] == ["intro"]


def test_headings_inside_code_fences_are_not_sections(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "c.md", "## Real {#real}\n\n```bash\n# a comment\n```\n\nafter\n")
    assert [s.anchor for s in doc.sections] == ["real"]
    assert "# a comment" in chunk_document(doc)[0].text


def test_unsupported_suffix_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="unsupported file type"):
        _doc(tmp_path, "slides.pdf", "%PDF-1.4")


def test_chunks_respect_the_cap_and_split_at_sentences(tmp_path: Path) -> None:
    sentence = "张量并行把每一层的矩阵乘法切分到多张卡上，需要高带宽互联。"
    doc = _doc(tmp_path, "long.zh.md", "## 长段 {#long}\n\n" + sentence * 30 + "\n")
    cap = 60
    spans = chunk_with_spans(doc, cap)
    assert len(spans) > 5
    for passage, (start, end) in spans:
        assert estimate_tokens(passage.text) <= cap
        assert passage.text.endswith("。")  # cut at a sentence end, not mid-sentence
        assert doc.text[start:end] == passage.text
    assert "".join(p.text for p, _ in spans) == (sentence * 30)


def test_a_lead_in_line_stays_with_the_list_it_introduces(tmp_path: Path) -> None:
    items = "\n".join(f"- item {i}: shard the optimizer state across ranks." for i in range(40))
    doc = _doc(tmp_path, "list.md", f"## List {{#l}}\n\nDo this:\n\n{items}\n")
    passages = chunk_document(doc, 60)
    assert len(passages) > 3
    assert passages[0].text.startswith("Do this:\n\n- item 0")
    assert all(estimate_tokens(p.text) <= 60 for p in passages)


def test_a_run_without_sentence_breaks_is_still_capped(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "run.md", "## Run {#run}\n\n" + "x" * 900 + "\n")
    passages = chunk_document(doc, 50)
    assert all(estimate_tokens(p.text) <= 50 for p in passages)
    assert "".join(p.text for p in passages) == "x" * 900


def test_passage_ids_are_stable_and_change_with_content_source_or_offset(tmp_path: Path) -> None:
    first = [p.id for p in chunk_document(_doc(tmp_path, "z.zh.md", ZH_DOC))]
    again = [p.id for p in chunk_document(_doc(tmp_path, "z.zh.md", ZH_DOC))]
    assert first == again
    assert len(set(first)) == len(first)
    edited = [p.id for p in chunk_document(_doc(tmp_path, "z.zh.md", ZH_DOC.replace("16", "18")))]
    assert edited[0] == first[0]
    assert edited[1] != first[1]
    other = [p.id for p in chunk_document(_doc(tmp_path, "y.zh.md", ZH_DOC))]
    assert set(other).isdisjoint(first)
    assert passage_id("k", 0, 5, "hello") != passage_id("k", 1, 6, "hello")


def test_translations_link_by_anchor(tmp_path: Path) -> None:
    zh = chunk_document(_doc(tmp_path, "z.zh.md", ZH_DOC))
    en = chunk_document(_doc(tmp_path, "z.en.md", EN_DOC))
    linked = {p.id: p for p in link_translations(zh + en)}
    first_en = {p.anchor: p.id for p in reversed(en)}
    for p in zh:
        assert linked[p.id].translation_id == first_en[p.anchor]
    assert all(linked[p.id].translation_id in {q.id for q in zh} for p in en)


def test_duplicate_document_ids_are_reported(tmp_path: Path) -> None:
    a = _doc(tmp_path, "a.zh.md", ZH_DOC)
    b = _doc(tmp_path, "b.zh.md", ZH_DOC.replace("ZeRO 演示", "别的"))
    kept, errors = unique_documents([a, b])
    assert kept == [a]
    assert "already used by a.zh.md" in str(errors[0])
    assert "已被 a.zh.md 使用" in errors[0].localized("zh")


SITE = """+++
id = "demo-site"
lang = "zh"
title = "演示集群"
kind = "site"
[site]
aliases = ["演示", "Demo"]
nodes = 4
gpus_per_node = 8
gpu = "A100-80G"
intra_link = "NVLink"
pue = 1.3
+++
四台服务器。
"""


def test_site_profile_is_parsed(tmp_path: Path) -> None:
    profile = site_profile(_doc(tmp_path, "demo.zh.md", SITE))
    assert profile is not None
    assert (profile.id, profile.nodes, profile.gpus_per_node, profile.gpu) == (
        "demo-site",
        4,
        8,
        "A100-80G",
    )
    assert profile.aliases == ("演示", "Demo")
    assert profile.pue == 1.3
    assert profile.inter_link is None
    assert profile.source == "demo.zh.md"


def test_bad_site_field_names_the_field(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "demo.zh.md", SITE.replace("nodes = 4", 'nodes = "four"'))
    with pytest.raises(DocumentError, match="'nodes'"):
        site_profile(doc)


def test_discover_skips_hidden_and_other_files(tmp_path: Path) -> None:
    for name in ("a.md", "sub/b.txt", ".hidden/c.md", "d.pdf", "sub/.e.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert [p.relative_to(tmp_path).as_posix() for p in discover(tmp_path)] == ["a.md", "sub/b.txt"]
    assert [p.name for p in discover(tmp_path, recursive=False)] == ["a.md"]


def _tree_with_links(root: Path, outside: Path) -> None:
    for name in ("b.md", "a/c.txt", "a/deep/d.markdown", "a/.hidden/e.md", "f.pdf", "g.md/h.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")
    (outside / "secret.md").write_text("x", encoding="utf-8")
    (root / "a" / "link.md").symlink_to(outside / "secret.md")
    (root / "folder-link").symlink_to(outside, target_is_directory=True)
    (root / "a" / "deep" / "dangling.txt").symlink_to(root / "missing")


def test_discover_walks_once_without_stat_and_follows_no_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A warm start lists every document: the walk takes each entry's kind from the listing,
    # so no file is stat-ed (the glob-based walk stat-ed every path and each of its folders).
    root, outside = tmp_path / "root", tmp_path / "outside"
    outside.mkdir()
    _tree_with_links(root, outside)
    stats: list[object] = []
    real_stat = os.stat

    def counted(path: object, *args: object, **kwargs: object) -> os.stat_result:
        stats.append(path)
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", counted)
    links: list[Path] = []
    found = discover(root, links=links)
    monkeypatch.setattr(os, "stat", real_stat)
    assert stats == []
    assert [p.relative_to(root).as_posix() for p in found] == [
        "a/c.txt",
        "a/deep/d.markdown",
        "b.md",
        "g.md/h.md",
    ]
    assert [p.relative_to(root).as_posix() for p in links] == ["a/deep/dangling.txt", "a/link.md"]
    assert [p.name for p in discover(root, recursive=False)] == ["b.md"]
    assert discover(tmp_path / "missing") == []


def test_user_documents_are_named_by_their_resolved_path(tmp_path: Path) -> None:
    # collect_sources resolves the folder once; the name is what resolving each file gives.
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (real / "sub" / "n.md").write_text("x", encoding="utf-8")
    (tmp_path / "via").symlink_to(real, target_is_directory=True)
    sources = collect_sources(tmp_path / "no-knowledge", tmp_path / "via")
    assert [(s.key, s.source, s.user) for s in sources] == [
        ("documents/sub/n.md", str((tmp_path / "via" / "sub" / "n.md").resolve()), True)
    ]
    assert sources[0].source == str(real / "sub" / "n.md")
