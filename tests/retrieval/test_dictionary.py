"""jieba's dictionary read a first character at a time segments exactly as the whole one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assistant.retrieval import dictionary
from assistant.retrieval.tokenize import _add_user_words, _data_text, import_jieba

ROOT = Path(__file__).resolve().parents[2]


def _fresh(cache: Path) -> dictionary.Dictionary:
    tokenizer = import_jieba().Tokenizer()
    key = dictionary.cache_key(_data_text("userdict.txt"))
    return dictionary.open_dictionary(tokenizer, cache, key, _add_user_words)


def _cut(loaded: dictionary.Dictionary, text: str) -> list[str]:
    loaded.cover(text)
    return list(loaded.tokenizer.lcut(text, HMM=False))


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """Every paragraph of the shipped Chinese knowledge, plus user-dictionary words."""
    paragraphs = []
    for path in sorted((ROOT / "knowledge").rglob("*.zh.md")):
        paragraphs += [p for p in path.read_text("utf-8").split("\n\n") if p.strip()]
    assert len(paragraphs) > 100
    return [*paragraphs, "张量并行和流水线并行", "显存不够用 ZeRO-3"]


def test_shards_segment_the_knowledge_as_the_whole_dictionary(
    tmp_path: Path, texts: list[str]
) -> None:
    cache = tmp_path / "jieba.cache"
    whole = _fresh(cache)  # no cache yet: built from dict.txt, then written
    assert whole.complete
    assert cache.is_file()
    sharded = _fresh(cache)
    assert not sharded.complete
    assert sharded.tokenizer.FREQ == {}  # nothing read before a text needs it
    assert sharded.tokenizer.total == whole.tokenizer.total
    for text in texts:
        assert _cut(sharded, text) == _cut(whole, text)
    assert len(sharded.tokenizer.FREQ) < len(whole.tokenizer.FREQ)
    sharded.load_everything()
    assert sharded.tokenizer.FREQ == whole.tokenizer.FREQ  # user words and prefixes included


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data[:100], id="torn header"),
        pytest.param(lambda data: b"\x00" * len(data), id="zeroed"),
        pytest.param(lambda data: data.replace(dictionary.FORMAT.encode(), b"x" * 10), id="old"),
    ],
)
def test_a_bad_or_foreign_cache_is_rebuilt(tmp_path: Path, damage: Any) -> None:
    cache = tmp_path / "jieba.cache"
    _fresh(cache)
    cache.write_bytes(damage(cache.read_bytes()))
    again = _fresh(cache)
    assert again.complete  # rebuilt from dict.txt ...
    assert not _fresh(cache).complete  # ... and written again
    assert _cut(again, "张量并行训练") == ["张量并行", "训练"]


def test_jieba_own_cache_format_is_not_unmarshalled(tmp_path: Path) -> None:
    import marshal

    cache = tmp_path / "jieba.cache"
    cache.write_bytes(marshal.dumps(({"张量": 3}, 3)))  # what jieba 0.42 writes
    assert _fresh(cache).complete


def test_shards_torn_after_the_header_fall_back_to_the_whole_dictionary(tmp_path: Path) -> None:
    cache = tmp_path / "jieba.cache"
    whole = _fresh(cache)
    data = cache.read_bytes()
    cache.write_bytes(data[: len(data) // 2])
    sharded = _fresh(cache)
    assert not sharded.complete  # the header is intact
    text = "数据并行、张量并行与流水线并行的显存占用各不相同"
    assert _cut(sharded, text) == _cut(whole, text)
    assert sharded.complete
