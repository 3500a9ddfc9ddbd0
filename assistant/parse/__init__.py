"""Parse stage: question text → :class:`~assistant.records.Query`.

`question` detects the language and domain and fills the scenario slots; `numbers` cleans text
and reads Chinese and English numerals; `hardware` finds catalog names (GPUs, models, links,
sites); `slots` reads counts, sizes, deadlines and the other typed slots; `audience` reads who
a deployment serves (one user, a head-count) and `spending` what the money is for (rent or a
purchase); `domain` tells questions about large-model jobs from everything else.
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
