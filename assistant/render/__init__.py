"""Render stage: what people see, in their language.

`answer` turns an :class:`~assistant.records.Answer` into Markdown text and Rich renderables;
`calc` and `labels` display `gpu-advisor calc` results and calculator figures (used by the CLI
and the TUI alike); `serialize` writes the `--json` record and reads stored answers back.
"""

from __future__ import annotations

from assistant.render.answer import (
    CHECK_LABELS,
    CHECK_MARKS,
    VERDICT_LABELS,
    answer_renderable,
    fmt_bytes,
    fmt_count,
    fmt_flops,
    fmt_percent,
    fmt_rate,
    fmt_seconds,
    render_markdown,
)

__all__ = [
    "CHECK_LABELS",
    "CHECK_MARKS",
    "VERDICT_LABELS",
    "answer_renderable",
    "fmt_bytes",
    "fmt_count",
    "fmt_flops",
    "fmt_percent",
    "fmt_rate",
    "fmt_seconds",
    "render_markdown",
]
