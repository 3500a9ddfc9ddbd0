"""Load the shipped knowledge documents the way the tests need them: front matter + anchors."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
KNOWLEDGE = REPO / "knowledge"
GOLDEN = REPO / "tests" / "retrieval" / "golden"

_FRONT_RE = re.compile(r"\A\+\+\+\n(.*?)\n\+\+\+\n", re.S)
_ANCHOR_RE = re.compile(r"^#{2,3} [^\n]*?\{#([A-Za-z0-9_-]+)\}[ \t]*$", re.M)
_FILE_RE = re.compile(r"^(?P<key>[a-z0-9-]+)\.(?P<lang>zh|en)\.md$")


@dataclass(frozen=True)
class KnowledgeFile:
    """One shipped Markdown file, split into front matter and body."""

    path: Path
    area: str
    key: str
    lang: str
    meta: dict[str, Any]
    body: str

    @property
    def rel(self) -> str:
        """Path relative to `knowledge/`, for messages."""
        return self.path.relative_to(KNOWLEDGE).as_posix()

    @property
    def anchors(self) -> list[str]:
        """Section anchors in order (`intro` not included)."""
        return _ANCHOR_RE.findall(self.body)


def parse_file(path: Path) -> KnowledgeFile:
    """Split one file; raises AssertionError with the reason when it is malformed."""
    match = _FILE_RE.match(path.name)
    assert match, f"{path.name}: file name must be <key>.<zh|en>.md"
    text = path.read_text(encoding="utf-8")
    front = _FRONT_RE.match(text)
    assert front, f"{path.name}: missing +++ TOML front matter"
    meta = tomllib.loads(front.group(1))
    return KnowledgeFile(
        path=path,
        area=path.parent.name,
        key=match["key"],
        lang=match["lang"],
        meta=meta,
        body=text[front.end() :],
    )


@cache
def all_files() -> tuple[KnowledgeFile, ...]:
    """Every shipped document file, sorted by path."""
    return tuple(parse_file(p) for p in sorted(KNOWLEDGE.rglob("*.md")))


def by_id() -> dict[str, dict[str, KnowledgeFile]]:
    """Document id -> language -> file."""
    out: dict[str, dict[str, KnowledgeFile]] = {}
    for f in all_files():
        out.setdefault(str(f.meta.get("id")), {})[f.lang] = f
    return out


def read(rel: str) -> str:
    """The full text of `knowledge/<rel>`."""
    return (KNOWLEDGE / rel).read_text(encoding="utf-8")
