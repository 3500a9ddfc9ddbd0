"""Parse stage: question text → :class:`~assistant.records.Query`.

`question` runs the stage: `language` tells Chinese from English, `mentions` finds and masks
the catalog names (`hardware` matches them and reads a GPU's memory), and `scenario` collects
the typed slots and the notes on them. `numbers` cleans text and reads Chinese and English
numerals; the slot readers are `counts` (GPUs and nodes), `links` (NVLink, PCIe, fabrics),
`slots` (task, method, precision, parallelism), `sizes` (model sizes, token budgets, context
and batch), `durations`, `prices`, `lengths`, `kv` and `load`; `audience` reads who a deployment
serves (one user, a head-count) and `spending` what the money is for (rent or a purchase);
`domain` tells questions about large-model jobs from everything else.
"""

from __future__ import annotations

from assistant.parse.question import (
    MAX_QUESTION_CHARS,
    detect_language,
    mentioned_gpus,
    merge_followup,
    parse,
)

__all__ = [
    "MAX_QUESTION_CHARS",
    "detect_language",
    "mentioned_gpus",
    "merge_followup",
    "parse",
]
