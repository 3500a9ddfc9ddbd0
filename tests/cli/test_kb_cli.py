"""`gpu-advisor kb …` end to end: real index, real encoder, CliRunner and one subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

NOTE_ZH = (
    "## 集群 {#cluster}\n\n我们的集群有八张 A100-80G 显卡，通过 NVLink 互联，机柜功率 30 千瓦。\n"
)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["kb", *args], catch_exceptions=False)


def test_search_json_has_the_documented_fields(kb_home: Path) -> None:
    result = run("search", "吉林GPU服务器能训练千亿模型吗?", "-k", "3", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert 1 <= len(rows) <= 3
    for row in rows:
        assert {"id", "source", "title", "text", "score", "lang"} <= row.keys()
        assert not Path(row["source"]).is_absolute()  # shipped: relative to knowledge/
        assert (Path(__file__).parents[2] / "knowledge" / row["source"]).is_file()
    # the founding document and the site profile that turns it into numbers (its "能做什么、
    # 不能做什么" answers the question with figures) both lead; nothing else does
    assert rows[0]["doc_id"] in ("jilin-gpu-server", "regional-single-node")
    assert "jilin-gpu-server" in [row["doc_id"] for row in rows]


def test_search_text_output_and_find_nothing(kb_home: Path) -> None:
    result = run("search", "pipeline parallelism bubble", "-k", "2")
    assert result.exit_code == 0
    assert result.stdout.startswith("1. [")
    nothing = run("search", "红烧肉怎么做才好吃？")
    assert nothing.exit_code == 0
    assert "没有找到相关段落" in nothing.stdout
    assert run("search", "  ").exit_code == 2


def test_list_and_verify(kb_home: Path) -> None:
    listed = run("list", "--json")
    assert listed.exit_code == 0
    docs = json.loads(listed.stdout)["documents"]
    assert any(d["doc_id"] == "jilin-gpu-server" and d["lang"] == "zh" for d in docs)
    verified = run("verify")
    assert verified.exit_code == 0
    assert verified.stdout.startswith("ok: ")


@pytest.mark.parametrize(
    ("lang", "header"),
    [
        ("en", ["document", "lang", "kind", "passages", "origin", "file", "title"]),
        ("zh", ["文档", "语言", "类别", "段落数", "来源", "文件", "标题"]),
    ],
)
def test_list_has_a_header_over_aligned_columns(
    kb_home: Path, lang: str, header: list[str]
) -> None:
    from rich.cells import cell_len

    listed = CliRunner().invoke(cli, ["kb", "--lang", lang, "list"], catch_exceptions=False)
    assert listed.exit_code == 0
    first, row = listed.stdout.splitlines()[:2]
    assert first.split() == header
    assert row.split()[0] == "jilin-gpu-server"
    # every column starts where its name does, counted in terminal cells
    title = first.rindex(header[-1])
    assert cell_len(row[: row.index("Is a Jilin")]) == cell_len(first[:title])


def test_add_reports_each_file_and_re_add_is_a_no_op(kb_home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    (folder / "sub").mkdir(parents=True)
    (folder / "cluster.zh.md").write_bytes(NOTE_ZH.encode("gbk"))
    (folder / "sub" / "deep.en.md").write_text("## Deep {#d}\n\nA nested note.\n", "utf-8")
    (folder / "scan.md").write_bytes(bytes(range(256)) * 4)
    result = run("add", str(folder))
    assert result.exit_code == 2  # one file was skipped
    lines = result.stdout.splitlines()
    assert any(line.startswith("added") and "cluster.zh.md" in line for line in lines)
    assert any(line.startswith("skipped") and "binary content" in line for line in lines)
    assert not any("deep.en.md" in line for line in lines)  # not recursive
    counts = re.search(r"\((\d+) embedded, (\d+) reused\)", result.stdout)
    assert counts is not None
    embedded, reused = map(int, counts.groups())
    assert embedded >= 1
    assert reused > 10 * embedded

    again = run("add", str(folder / "cluster.zh.md"))
    assert again.exit_code == 0
    assert again.stdout.startswith("unchanged")
    copy = tmp_path / "copy-of-cluster.zh.md"
    copy.write_bytes(NOTE_ZH.encode("utf-8"))  # same content, other name and encoding
    dup = run("add", str(copy))
    assert dup.stdout.startswith("duplicate")
    assert "same content as" in dup.stdout

    deep = run("add", "--recursive", str(folder / "sub"))
    assert deep.exit_code == 0
    assert deep.stdout.startswith("added")
    hits = json.loads(run("search", "八张 A100-80G NVLink 机柜功率", "--json").stdout)
    assert hits
    assert Path(hits[0]["source"]).name == "cluster.zh.md"
    assert Path(hits[0]["source"]).is_absolute()  # the user's own: absolute path


def test_changed_file_re_added_updates_its_copy(kb_home: Path, tmp_path: Path) -> None:
    note = tmp_path / "note.en.md"
    note.write_text("## N {#n}\n\nFirst version of the note.\n", "utf-8")
    assert run("add", str(note)).stdout.startswith("added")
    note.write_text("## N {#n}\n\nSecond version of the note about liquid cooling.\n", "utf-8")
    updated = run("add", str(note))
    assert updated.stdout.startswith("updated")
    docs = json.loads(run("list", "--json").stdout)["documents"]
    assert len([d for d in docs if d["user"]]) == 1


def test_same_name_from_two_folders_keeps_both(kb_home: Path, tmp_path: Path) -> None:
    for folder, text in (("a", "Rack A has liquid cooling."), ("b", "Rack B uses air cooling.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "rack.en.md").write_text(
            f'+++\nid = "rack-{folder}"\n+++\n## R {{#r}}\n\n{text}\n', "utf-8"
        )
    assert run("add", str(tmp_path / "a" / "rack.en.md")).stdout.startswith("added")
    second = run("add", str(tmp_path / "b" / "rack.en.md"))
    assert second.stdout.startswith("added")
    assert "(rack-2.en.md)" in second.stdout
    names = sorted(p.name for p in (kb_home / "documents").glob("*.md"))
    assert names == ["rack-2.en.md", "rack.en.md"]


def test_remove_by_id_and_errors(kb_home: Path, tmp_path: Path) -> None:
    note = tmp_path / "cluster.zh.md"
    note.write_text(NOTE_ZH, "utf-8")
    run("add", str(note))
    removed = run("remove", "cluster")
    assert removed.exit_code == 0
    assert "cluster.zh.md" in removed.stdout
    assert not any(d["user"] for d in json.loads(run("list", "--json").stdout)["documents"])
    missing = run("remove", "cluster")
    assert missing.exit_code == 2
    assert "no document of yours matches" in missing.output
    shipped = run("--lang", "zh", "remove", "jilin-gpu-server")
    assert shipped.exit_code == 2
    assert "不能删除" in shipped.output


def test_verify_fails_after_a_document_changes_and_rebuild_repairs(
    make_corpus,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    corpus = make_corpus(binary=False)
    monkeypatch.setenv("GPU_ADVISOR_KNOWLEDGE_DIR", str(corpus))
    assert run("verify").exit_code == 1  # no index yet
    assert run("rebuild").exit_code == 0
    assert run("verify").exit_code == 0
    (corpus / "guides" / "net.en.md").write_text("## N {#n}\n\nTampered.\n", "utf-8")
    result = run("verify")
    assert result.exit_code == 1
    assert "changed since the index was built" in result.output
    rebuilt = run("rebuild")
    assert rebuilt.exit_code == 0
    assert "index: 5 documents" in rebuilt.stdout
    assert run("verify").exit_code == 0


def test_a_bad_encoder_setting_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_ENCODER", "word2vec")
    result = run("search", "GPU memory")
    assert result.exit_code == 2
    assert "unknown encoder 'word2vec'" in result.output
    assert "Traceback" not in result.output
    chinese = run("search", "显存")  # messages follow the question's language
    assert chinese.exit_code == 2
    assert "未知的编码器 'word2vec'" in chinese.output


def test_an_empty_knowledge_base_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_KNOWLEDGE_DIR", str(tmp_path / "none"))
    assert run("list").stdout.strip() == "The knowledge base is empty."
    assert run("--lang", "zh", "search", "显存").stdout.strip() == "没有找到相关段落。"


def test_eval_is_registered_lazily() -> None:
    result = run("--help")
    assert "eval" in result.stdout
    assert run("eval", "--help").exit_code == 0


@pytest.mark.e2e
def test_search_as_a_subprocess_is_quiet_when_piped(kb_home: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "assistant", "kb", "search", "NVLink 带宽", "--json", "-k", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(json.loads(out.stdout)) == 1
    assert "━" not in out.stderr  # no progress bar when piped
    assert "\r" not in out.stderr


def test_eval_prints_recall_by_part_and_language(kb_home: Path) -> None:
    heldout = Path(__file__).parents[1] / "retrieval" / "heldout"
    result = run("eval", "--golden", str(heldout / "test.jsonl"))
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())  # rich wraps long lines
    for lang in ("zh", "en", "all"):
        assert re.search(rf"test {lang}: recall@3 [\d.]+ on \d+ answerable \(\d+ silent\)", text)
    assert "of 5 find-nothing questions answered" in text
    data = json.loads(run("eval", "--golden", str(heldout / "test.jsonl"), "--json").stdout)
    parts = {(row["part"], row["lang"]) for row in data["hybrid_by_part"]}
    assert parts == {("test", "zh"), ("test", "en"), ("test", "all")}
