"""gpu-advisor (算力顾问): grounded answers on whether a GPU setup can do a large-model job.

The public API is small: :func:`answer` turns a question into an :class:`Answer`, built
from deterministic calculators and cited knowledge-base passages. The CLI and the TUI are
thin adapters over it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.records import Answer

__all__ = ["Answer", "Settings", "__version__", "answer"]


def __getattr__(name: str) -> Any:
    # Resolved lazily so that `import assistant` stays cheap for the CLI's start-up.
    if name == "answer":
        from assistant.pipeline import answer

        return answer
    if name == "Answer":
        from assistant.records import Answer

        return Answer
    if name == "Settings":
        from assistant.config import Settings

        return Settings
    msg = f"module 'assistant' has no attribute {name!r}"
    raise AttributeError(msg)
