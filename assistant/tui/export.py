"""Export answers and conversations to Markdown files in the user's data directory."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.records import Answer


def exports_dir(home: Path) -> Path:
    """Where exports go: `<GPU_ADVISOR_HOME or user data dir>/exports`."""
    from assistant.locations import private_dir

    return private_dir(home / "exports")


def answers_markdown(answers: Sequence[Answer], title: str) -> str:
    """A Markdown document of `answers`, each under its question, its charts (memory, time
    against GPU count, options) after it as plain text in a fenced block."""
    from assistant.render.charts import charts_markdown

    lines = [f"# {title}", ""]
    for answer in answers:
        question = " ".join(answer.question.split())
        lines += [f"## {question}", "", answer.text.strip(), ""]
        charts = charts_markdown(answer)
        if charts:
            lines += [charts, ""]
    return "\n".join(lines)


def safe_stem(text: str) -> str:
    """A file-name-safe stem (letters, digits, CJK, dashes), at most 40 characters.

    Examples:
        >>> safe_stem("吉林GPU服务器能训练千亿模型吗?")
        '吉林GPU服务器能训练千亿模型吗'
        >>> safe_stem("../etc/passwd")
        'etc-passwd'
    """
    stem = re.sub(r"[^\w]+", "-", text, flags=re.UNICODE).strip("-_")
    return stem[:40] or "export"


def write_atomic(path: Path, text: str) -> Path:
    """Write `text` to `path` through a temporary file, fsync and rename; the file is the
    user's only (0600, mkstemp's mode), like everything else under the home: an export holds
    the conversation, which `conversations.sqlite3` keeps 0600 too."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def unique_path(directory: Path, stem: str, stamp: str) -> Path:
    """`directory/<stamp>-<stem>.md`, numbered when that name is taken."""
    candidate = directory / f"{stamp}-{stem}.md"
    number = 2
    while candidate.exists():
        candidate = directory / f"{stamp}-{stem}-{number}.md"
        number += 1
    return candidate
