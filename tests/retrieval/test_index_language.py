"""What is wrong with a stored index, told in the user's language: the catalog words it and the
technical detail (a file name, a library's error) is its parameter, shown as it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.i18n import text
from assistant.retrieval.encoder import make_encoder
from assistant.retrieval.engine import KnowledgePaths, ensure_index
from assistant.retrieval.index import verify_index
from assistant.retrieval.integrity import CorruptIndexError, require
from assistant.retrieval.manifest import chunk_cap, collect_sources, expected_identity
from calculators.messages import Msg

#: An English word of two letters or more, outside file names ("seg-0001.meta.json").
ENGLISH = re.compile(r"(?<![\w.-])[A-Za-z]{2,}(?![\w.-])")


@pytest.fixture
def settings(tmp_path: Path, make_corpus) -> Settings:  # noqa: ANN001
    return Settings(home=tmp_path / "home", knowledge_dir=make_corpus())


def _flip_meta_byte(settings: Settings) -> str:
    """Change one byte of a segment's metadata (its checksum no longer matches); its name."""
    data, _ = ensure_index(settings, make_encoder(settings))
    (meta,) = data.path.glob("*.meta.json")
    rows = json.loads(meta.read_text(encoding="utf-8"))
    rows["passages"] -= 1
    meta.write_text(json.dumps(rows), encoding="utf-8")
    return meta.name


@pytest.mark.parametrize(
    ("language", "frame", "detail"),
    [
        ("zh", "已存储的索引无法读取：", "：校验和不符（文件在写入后被改动）"),
        ("en", "the stored index is unreadable: ", ": checksum mismatch (the file changed"),
    ],
)
def test_a_corrupt_index_notice_is_in_the_users_language(
    settings: Settings, language: str, frame: str, detail: str
) -> None:
    name = _flip_meta_byte(settings)
    notices: list[str] = []
    chosen = Settings(home=settings.home, knowledge_dir=settings.knowledge_dir, language=language)
    ensure_index(chosen, make_encoder(chosen), notify=notices.append)
    assert frame + name + detail in notices[0], notices
    if language == "zh":
        assert not ENGLISH.search(notices[0].replace(name, "")), notices[0]


def test_kb_verify_speaks_the_users_language(settings: Settings) -> None:
    name = _flip_meta_byte(settings)
    paths = KnowledgePaths.from_settings(settings)
    encoder = make_encoder(settings)
    sources = collect_sources(paths.knowledge_dir, paths.documents_dir)
    (problem,) = verify_index(
        paths.index_dir, sources, expected_identity(encoder, chunk_cap(encoder))
    )
    zh = text(problem, "zh")
    assert zh.startswith(f"{paths.index_dir} 中的索引不可用：{name}：校验和不符"), zh
    assert zh.endswith("（任何命令都会重建它）"), zh
    assert text(problem, "en").endswith("(any command rebuilds it)")


def test_a_shape_problem_keeps_its_detail_as_a_parameter() -> None:
    with pytest.raises(CorruptIndexError) as info:
        require(False, "seg-0001: 3 rows, manifest says more")
    assert info.value.msg == Msg(
        "index.corrupt.damaged", detail="seg-0001: 3 rows, manifest says more"
    )
    assert (
        text(info.value.msg, "zh")
        == "部分内容已损坏或不完整（seg-0001: 3 rows, manifest says more）"
    )
    assert (
        str(info.value) == "a part is damaged or incomplete (seg-0001: 3 rows, manifest says more)"
    )
