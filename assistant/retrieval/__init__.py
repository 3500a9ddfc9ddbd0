"""Retrieval stage: bilingual hybrid search (faiss dense lane + jieba BM25 lane, rank fusion).

The contract the rest of the assistant uses is the :class:`Retriever` protocol and
:func:`~assistant.retrieval.engine.open_retriever`. Owns, in the order a passage travels:

- reading the knowledge: `documents` (bytes → sections), `validation` (per-kind checks at
  `kb add`), `blocks` and `chunking` (sections → passages, translations linked);
- the lanes: `encoder` and `weights` (USE-m, cached), `tokenize`, `dictionary`, `aliases` and
  `pairs` (jieba tokens, typos, aliases, zh↔en synonyms), `keyword` (BM25);
- deciding: `fusion` (rank fusion), `definitions` (a prior for "what is" questions), `gate`
  (answer at all?);
- storing: `index`, `storage`, `integrity`, `manifest` (generations on disk, what they were
  built from); `engine` (loads or rebuilds, searches); `library` and `transaction` (the
  user's documents, changed all-or-nothing).

How well it does is measured by :mod:`assistant.evaluation`, which is not loaded to answer.
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
