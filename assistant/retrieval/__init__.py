"""Retrieval: bilingual hybrid search (faiss dense lane + jieba BM25 lane, rank fusion).

The contract the rest of the assistant uses is the :class:`Retriever` protocol and
:func:`open_retriever`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from assistant.records import Language, Passage, SiteProfile


class Retriever(Protocol):
    """What answer composition needs from the knowledge base."""

    def search(self, query: str, k: int = 5, *, lang: Language | None = None) -> list[Passage]:
        """Best passages for `query`, most relevant first; empty when nothing clears the
        relevance threshold. `lang` prefers passages in that language (their translations
        are swapped in where linked)."""
        ...

    def get(self, passage_id: str) -> Passage | None:
        """One passage by id."""
        ...

    def document_passages(self, doc_id: str, lang: Language | None = None) -> list[Passage]:
        """All passages of one document, in order."""
        ...

    def site_profiles(self) -> list[SiteProfile]:
        """Every site profile in the shipped and the user's documents."""
        ...
