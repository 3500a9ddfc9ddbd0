"""The "why" of a two-part question answered beside its computed figure.

"为啥上下文越长KV cache越大？拿Qwen2.5-72B来说，128k上下文一条请求KV要占多少" asks a reason and a
quantity. The calculators answer the quantity; the reason is a sentence of the knowledge base,
quoted after the figure with its source number, found as a concept answer finds its sentence
(:func:`.concept.answering_sentence` over :func:`.concept.concept_citations` for that clause).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.compose.concept import TopicDocuments, concept_citations, concept_headline
from assistant.records import Citation, Query

if TYPE_CHECKING:
    from assistant.calculate import Outcome
    from assistant.retrieval import Retriever

__all__ = ["why_clause", "why_sentence"]

#: The clause that asks a reason, up to its question mark or full stop.
_WHY_CLAUSE = re.compile(
    r"[^。？?！!；;]*?(?:为什么|为啥|为何|\bwhy\b)[^。？?！!；;]*[。？?！!；;]?", re.IGNORECASE
)


def why_clause(question: str) -> str:
    """The clause of `question` that asks why ("" when none does).

    >>> why_clause("为啥上下文越长KV cache越大？拿Qwen2.5-72B来说，128k上下文一条请求KV要占多少")
    '为啥上下文越长KV cache越大？'
    >>> why_clause("How much KV cache does Llama-3-70B need at 32k?")
    ''
    """
    found = _WHY_CLAUSE.search(question)
    return found.group(0).strip() if found else ""


def why_sentence(
    query: Query,
    outcome: Outcome,
    citations: Sequence[Citation],
    retriever: Retriever | None,
    topics: TopicDocuments,
) -> tuple[str, list[Citation]]:
    """The knowledge-base sentence that answers the question's "why" clause, with its source
    number in `citations` (the passage appended when new); ("", citations) for a question
    with no such clause, a concept answer (its headline already quotes), or no sentence."""
    clause = why_clause(query.question)
    if not clause or outcome.mode in ("concept", "offtopic", "invalid") or retriever is None:
        return "", list(citations)
    if clause.strip(" ？?。.") == query.question.strip(" ？?。."):
        return "", list(citations)  # the whole question asks why: its answer says so itself
    asked = replace(query, question=clause, followup=False)
    found = concept_citations(asked, retriever, clause, topics)
    if not found:
        return "", list(citations)
    said, quoted = concept_headline(asked, retriever, found, clause)
    if not said:
        return "", list(citations)
    return _renumbered(said, quoted, list(citations))


def _renumbered(
    said: str, quoted: list[Citation], cited: list[Citation]
) -> tuple[str, list[Citation]]:
    """`said`'s source numbers (into `quoted`, one per passage) moved into `cited`, each passage
    it quotes appended when `cited` lacks it."""
    distinct = list({c.passage.id: c for c in quoted}.values())
    ids = [c.passage.id for c in cited]

    def number(match: re.Match[str]) -> str:
        citation = distinct[int(match.group(1)) - 1]
        if citation.passage.id not in ids:
            cited.append(citation)
            ids.append(citation.passage.id)
        return f"[{ids.index(citation.passage.id) + 1}]"

    return re.sub(r"\[(\d+)\]", number, said), cited
