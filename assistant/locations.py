"""Every path the assistant reads or writes comes from here.

`GPU_ADVISOR_HOME` overrides the platform's user data directory; tests point it at a
temporary folder so they never touch the user's real home.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def home_dir() -> Path:
    """The user's data directory (created on first use)."""
    override = os.environ.get("GPU_ADVISOR_HOME")
    if override:
        path = Path(override).expanduser()
    else:
        from platformdirs import user_data_path

        path = user_data_path("gpu-advisor", appauthor=False)
    private_dir(path)
    return path


def private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) readable by the user only (0700)."""
    if not path.is_dir():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.chmod(0o700)  # mkdir's mode is masked by the umask (missing parents get the umask's)
    return path


def shipped_knowledge_dir() -> Path:
    """The documents shipped with the program (`knowledge/` beside the packages)."""
    override = os.environ.get("GPU_ADVISOR_KNOWLEDGE")
    if override:
        return Path(override).expanduser()
    return _PACKAGE_ROOT / "knowledge"


def user_documents_dir() -> Path:
    """Documents the user added with `gpu-advisor kb add` (copies, so the index can rebuild)."""
    return private_dir(home_dir() / "documents")


def index_dir() -> Path:
    """Where the current faiss index and its manifest live."""
    return home_dir() / "index"


def cache_dir() -> Path:
    """Caches we control (jieba's dictionary cache goes here, not to the temp dir)."""
    return private_dir(home_dir() / "cache")


def conversations_db() -> Path:
    """The SQLite store of conversations, shared by `ask` and the TUI."""
    return home_dir() / "conversations.sqlite3"


def lock_path(name: str) -> Path:
    """A lock file that serialises writers of one resource."""
    return home_dir() / f".{name}.lock"
