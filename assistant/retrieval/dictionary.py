"""jieba's prefix dictionary, stored by first character and read on demand.

jieba keeps its dictionary as one dict of about 580,000 words and word prefixes; its own cache
is that dict marshalled, and loading it took 0.85-1.6 s per process on the shared 2-core
machine, holding the GIL the whole time. Segmenting a run of text only ever looks up
fragments that start with a character of that run (`Tokenizer.get_DAG` and `calc`), so the
cache here stores one marshalled dict per first character and an index of them; before a run
is segmented, :meth:`Dictionary.cover` reads the shards of its characters into the
tokenizer's (ordinary) `FREQ` dict. Every lookup therefore sees exactly the entries and
frequencies of the full dictionary, user words included: the shards are written from the
complete dictionary after our user dictionary was added to it.

The cache is keyed by jieba's version, its dictionary file (size, mtime) and our user
dictionary's text; a missing, stale or unreadable cache is rebuilt from jieba's `dict.txt`
(about 2 s, once). A cache that cannot be written (full or read-only disk) is not an error:
that process keeps the complete dictionary in memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: Changes when the file layout below changes; part of the cache key.
FORMAT = "gpu-advisor jieba dictionary by first character, 1"
#: The file's first bytes: jieba's own cache (same file name, one 9 MB marshalled dict) is
#: told apart without unmarshalling it.
MAGIC = b"GPUADVJIEBA1\n"

AddWords = Callable[[Any], None]


class Dictionary:
    """The shards of one cache file behind one jieba tokenizer (`complete` when the whole
    dictionary is already in memory)."""

    def __init__(
        self, tokenizer: Any, path: Path | None = None, index: dict[str, Any] | None = None
    ):
        self.tokenizer = tokenizer
        self.path = path
        self.index: dict[str, tuple[int, int]] = index or {}
        self.complete = path is None
        self._loaded: set[str] = set()
        self._lock = threading.Lock()
        self._rebuild: Callable[[], None] | None = None

    def cover(self, text: str) -> None:
        """Make sure the tokenizer's dictionary holds every entry starting with a character of
        `text`, reading the missing shards from the cache."""
        if self.complete:
            return
        missing = set(text) - self._loaded
        if not missing:
            return
        with self._lock:
            try:
                self._read(missing - self._loaded)
            except (OSError, ValueError, EOFError, TypeError):
                self._fall_back()

    def load_everything(self) -> None:
        """Read every shard, so the cache file is no longer needed by this process."""
        if not self.complete:
            self.cover("".join(self.index))
            self.complete = True

    def _read(self, chars: Iterable[str]) -> None:
        wanted = sorted((self.index[c], c) for c in chars if c in self.index)
        if wanted:
            freq = self.tokenizer.FREQ
            with Path(str(self.path)).open("rb") as handle:
                for (offset, size), _ in wanted:
                    handle.seek(offset)
                    shard = marshal.loads(handle.read(size))
                    if not isinstance(shard, dict):
                        msg = "a shard is not a dict"
                        raise TypeError(msg)
                    freq.update(shard)
        self._loaded.update(chars)

    def _fall_back(self) -> None:
        """The cache went bad while in use: load the whole dictionary the slow way."""
        if self._rebuild is not None:
            self._rebuild()
        self.complete = True


def cache_key(add_words_source: str) -> str:
    """The identity a cache must carry: our format, jieba's version and dictionary file, and
    the user dictionary (`add_words_source`, its text)."""
    import jieba

    digest = hashlib.sha256(FORMAT.encode())
    digest.update(str(jieba.__version__).encode())
    dict_file = _dict_file()
    with contextlib.suppress(OSError):
        stat = dict_file.stat()
        digest.update(f"{stat.st_size}:{stat.st_mtime_ns}".encode())
    digest.update(add_words_source.encode("utf-8"))
    return digest.hexdigest()


def _dict_file() -> Path:
    import jieba

    return Path(jieba.__file__).resolve().parent / "dict.txt"


def open_dictionary(tokenizer: Any, cache: Path, key: str, add_words: AddWords) -> Dictionary:
    """Give `tokenizer` its dictionary: an empty `FREQ` filled shard by shard from `cache` when
    the cache carries `key`, else the complete dictionary (built from jieba's `dict.txt` plus
    `add_words(tokenizer)`), written to `cache` for the next process when possible."""
    header = _read_header(cache, key)
    if header is not None:
        total, index = header
        tokenizer.FREQ, tokenizer.total, tokenizer.initialized = {}, total, True
        loaded = Dictionary(tokenizer, cache, index)
        loaded._rebuild = lambda: _build(tokenizer, add_words)  # noqa: SLF001 - own class
        return loaded
    _build(tokenizer, add_words)
    _write(cache, key, tokenizer.FREQ, tokenizer.total)
    return Dictionary(tokenizer)


def _build(tokenizer: Any, add_words: AddWords) -> None:
    with _dict_file().open("rb") as handle:
        freq, total = tokenizer.gen_pfdict(handle)
    tokenizer.FREQ, tokenizer.total, tokenizer.initialized = freq, total, True
    add_words(tokenizer)


def _read_header(cache: Path, key: str) -> tuple[int, dict[str, tuple[int, int]]] | None:
    """`(total, index)` of a cache that carries `key`; None when it is missing, stale or not
    one of ours (jieba's own cache format had the same file name)."""
    try:
        with cache.open("rb") as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            header = marshal.load(handle)
            start = handle.tell()
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not (isinstance(header, tuple) and len(header) == 4 and header[:2] == (FORMAT, key)):
        return None
    _, _, total, index = header
    if not isinstance(total, int) or not isinstance(index, dict):
        return None
    return total, {char: (start + offset, size) for char, (offset, size) in index.items()}


def _write(cache: Path, key: str, freq: dict[str, int], total: int) -> None:
    """Write the shards and their index atomically; a disk that refuses is not an error."""
    shards: dict[str, dict[str, int]] = {}
    for word, count in freq.items():
        shards.setdefault(word[0], {})[word] = count
    blobs = [(char, marshal.dumps(shard)) for char, shard in shards.items()]
    index: dict[str, tuple[int, int]] = {}
    position = 0
    for char, blob in blobs:
        index[char] = (position, len(blob))  # from the end of the header
        position += len(blob)
    try:
        fd, temp = tempfile.mkstemp(dir=cache.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(MAGIC)
            marshal.dump((FORMAT, key, total, index), handle)
            for _, blob in blobs:
                handle.write(blob)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, cache)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
