"""Compose stage: Query + calculator Outcome + passages → :class:`~assistant.records.Answer`.

`answer` assembles the answer deterministically (no generative model); `citing` chooses which
passages back which claim.
"""

from __future__ import annotations

from assistant.compose.answer import (
    TOPIC_DOCUMENTS,
    cite_check,
    claim_kind,
    compose,
    concept_citations,
    lead_in,
    mention_terms,
    topic_query,
)

__all__ = [
    "TOPIC_DOCUMENTS",
    "cite_check",
    "claim_kind",
    "compose",
    "concept_citations",
    "lead_in",
    "mention_terms",
    "topic_query",
]
