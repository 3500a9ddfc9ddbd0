"""The hybrid retriever: dense lane (faiss) + keyword lane (BM25) + rank fusion.

:func:`open_retriever` is the one way in: it loads the index of the shipped knowledge and
the user's documents, rebuilding it first (and saying so) when the documents, the encoder
or the tokenizer changed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import KnowledgeBaseError
from assistant.records import Language, Passage, SiteProfile
from assistant.retrieval.definitions import DefinitionPrior
from assistant.retrieval.index import (
    BuildReport,
    LoadedIndex,
    Progress,
    build_index,
    load_checked,
    load_index,
)
from assistant.retrieval.integrity import CorruptIndexError
from assistant.retrieval.manifest import (
    chunk_cap,
    collect_sources,
    expected_identity,
    stale_reasons,
)
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.retrieval.encoder import Encoder

Notify = Callable[[str], None]

#: How many candidates each lane hands to fusion, per result asked for (and at least).
CANDIDATES_PER_RESULT = 4
MIN_CANDIDATES = 20


@dataclass(frozen=True)
class KnowledgePaths:
    """Where one configuration keeps its index and the user's documents."""

    knowledge_dir: Path
    documents_dir: Path
    index_dir: Path
    lock_path: Path

    @classmethod
    def from_settings(cls, settings: Settings) -> KnowledgePaths:
        home = Path(settings.home)
        return cls(
            knowledge_dir=Path(settings.knowledge_dir),
            documents_dir=home / "documents",
            index_dir=home / "index",
            lock_path=home / ".index.lock",
        )


#: Query vectors kept per retriever: an answer's topic queries ("显存需求 … ZeRO 切分") come
#: back question after question in a batch or a chat session, and encoding one takes 3-7 ms.
QUERY_VECTORS_KEPT = 512

#: Search results kept per retriever: the three checks of an answer search for fixed topic
#: queries ("GPU 功耗 TDP、PUE 与电力散热"), so a batch of 175 golden questions made 550 searches
#: of 66 distinct queries. The index of a retriever never changes, so a result kept is the
#: result the search would give again.
SEARCHES_KEPT = 512

#: Score factor for template passages when the query is not about templates or profiles.
TEMPLATE_WEIGHT = 0.5
TEMPLATE_QUERY = re.compile(
    r"模板|档案|描述.{0,6}集群|template|profile|describe (?:my|our) cluster", re.IGNORECASE
)


class HybridRetriever:
    """Implements :class:`assistant.retrieval.Retriever` over a loaded index."""

    def __init__(self, data: LoadedIndex, encoder: Encoder, *, min_score: float | None = None):
        self.data = data
        self.encoder = encoder
        self.min_score = min_score
        self._lock = threading.Lock()
        self._vectors: dict[str, Any] = {}
        self._results: dict[tuple[str, int, str | None, float | None], tuple[Passage, ...]] = {}
        self._documents: dict[tuple[str, str | None], tuple[Passage, ...]] = {}
        self._definitions = DefinitionPrior(data.passages)
        self._templates = {d.get("doc_id") for d in data.documents if d.get("kind") == "template"}
        _single_threaded_faiss()

    @property
    def passages(self) -> Sequence[Passage]:
        """Every passage, in index order (row i of both lanes)."""
        return self.data.passages

    def __len__(self) -> int:
        return len(self.data.passages)

    # -- lanes ------------------------------------------------------------------------

    def dense_hits(self, query: str, n: int) -> list[tuple[int, float]]:
        """`(row, cosine similarity)` of the `n` nearest passages."""
        if not query.strip() or not self.data.passages:
            return []
        with self._lock:  # USE-m and faiss calls are serialised for thread safety
            vector = self._vectors.get(query)
            if vector is None:
                if len(self._vectors) >= QUERY_VECTORS_KEPT:
                    self._vectors.clear()
                vector = self._vectors[query] = self.encoder.encode([query])
            scores, rows = self.data.vectors.search(vector, min(n, len(self.data.passages)))
        return [(int(r), float(s)) for r, s in zip(rows[0], scores[0]) if r >= 0]

    def keyword_hits(self, query: str, n: int) -> list[tuple[int, float]]:
        """`(row, normalised BM25)` of the `n` best keyword matches."""
        if not query.strip():
            return []
        return self.data.keyword.search(query, n)

    def fused_hits(self, query: str, k: int) -> list[tuple[int, float]]:
        """`(row, fused score)` best first, one row per section (with the definitional-question
        prior of :mod:`assistant.retrieval.definitions`); empty when the no-answer decision
        of :mod:`assistant.retrieval.gate` says nothing relevant exists (or, with an explicit
        `min_score` or an encoder the gate was not fitted for, when the fused evidence of
        :mod:`assistant.retrieval.fusion` is below the threshold)."""
        from assistant.retrieval.fusion import fuse
        from assistant.retrieval.gate import FITTED_FOR, answerable, query_features

        n = max(k * CANDIDATES_PER_RESULT, MIN_CANDIDATES)
        dense, keyword = self.dense_hits(query, n), self.keyword_hits(query, n)
        gated = self.min_score is None and getattr(self.encoder, "name", None) == FITTED_FOR
        if gated and not answerable(
            query_features(query, dense, keyword, index=self.data.keyword, section=self.section)
        ):
            return []
        hits = fuse(
            dense, keyword, k=n, group=self.section, min_score=0.0 if gated else self.min_score
        )
        return self._demote_templates(query, self._definitions.rerank(query, hits))

    def section(self, row: int) -> tuple[str, str]:
        """The evidence a row stands for: its section, in either language (a passage
        without an anchor is its own section). Fusion and :meth:`search` return one row
        per section, so three hits are three different pieces of evidence."""
        return section_key(self.data.passages[row])

    def _demote_templates(
        self, query: str, hits: list[tuple[int, float]]
    ) -> list[tuple[int, float]]:
        """Push copy-me templates below real guidance unless the query asks about templates.

        A template explains how to describe a cluster, so it shares many words ("集群",
        "network", "nodes") with real questions while answering none of them.
        """
        if not self._templates or TEMPLATE_QUERY.search(query):
            return hits
        passages = self.data.passages
        scored = [
            (row, score * TEMPLATE_WEIGHT if passages[row].doc_id in self._templates else score)
            for row, score in hits
        ]
        return sorted(scored, key=lambda hit: -hit[1])

    # -- the Retriever protocol ---------------------------------------------------------

    def search(self, query: str, k: int = 5, *, lang: Language | None = None) -> list[Passage]:
        """Best passages for `query`; empty when nothing clears the relevance threshold.

        With `lang`, a passage in the other language is replaced by its linked translation,
        and a passage and its translation are never both returned. Results are kept
        (:data:`SEARCHES_KEPT`): the same query gives the same passages again.
        """
        key = (query, k, lang, self.min_score)
        kept = self._results.get(key)
        if kept is None:
            if len(self._results) >= SEARCHES_KEPT:
                self._results.clear()
            kept = self._results[key] = tuple(self._search(query, k, lang))
        return list(kept)

    def _search(self, query: str, k: int, lang: Language | None) -> list[Passage]:
        results: list[Passage] = []
        seen: set[tuple[str, str]] = set()
        for row, score in self.fused_hits(query, k):
            passage = self.data.passages[row]
            twin_id = passage.translation_id
            twin = self.get(twin_id) if lang and passage.lang != lang and twin_id else None
            if twin is not None:
                passage = twin
            if section_key(passage) in seen:
                continue
            seen.add(section_key(passage))
            results.append(replace(passage, score=score))
            if len(results) >= k:
                break
        return results

    def get(self, passage_id: str) -> Passage | None:
        return self.data.passages.find(passage_id)

    def document_passages(self, doc_id: str, lang: Language | None = None) -> list[Passage]:
        """The passages of `doc_id` (in `lang`), kept: answers cite the same few documents."""
        kept = self._documents.get((doc_id, lang))
        if kept is None:
            if len(self._documents) >= SEARCHES_KEPT:
                self._documents.clear()
            found = self.data.passages.of_document(doc_id)
            kept = tuple(p for p in found if lang is None or p.lang == lang)
            self._documents[(doc_id, lang)] = kept
        return list(kept)

    def site_profiles(self) -> list[SiteProfile]:
        return list(self.data.profiles)

    def documents(self) -> list[dict[str, Any]]:
        """One entry per indexed document (key, source, doc_id, lang, title, kind, user, …)."""
        return list(self.data.documents)


def section_key(passage: Passage) -> tuple[str, str]:
    """`(doc_id, anchor)`: the same for every chunk of a section and for its translation."""
    return passage.doc_id, passage.anchor or passage.id


def _single_threaded_faiss() -> None:
    """One OpenMP thread for faiss: a search is one query vector, and on the shared 2-core
    machine a 100k-vector search took 35 ms with 1 thread against 118 ms with 2
    (bench/retrieval_bench.py)."""
    import faiss

    faiss.omp_set_num_threads(1)


def _message(settings: Settings, message: Msg, language: Language | None = None) -> str:
    """A notice in `language`, else the settings' language (both, joined, when neither is
    chosen)."""
    from assistant.i18n import text

    if language is None:
        chosen = settings.language if settings.language != "auto" else settings.ui_language
        language = chosen if chosen in ("zh", "en") else None
    if language in ("zh", "en"):
        return text(message, language)
    return f"{text(message, 'en')} · {text(message, 'zh')}"


def ensure_index(
    settings: Settings,
    encoder: Encoder,
    *,
    notify: Notify | None = None,
    progress: Progress | None = None,
    force: bool = False,
    language: Language | None = None,
) -> tuple[LoadedIndex, BuildReport | None]:
    """Load the index, (re)building it first when forced, missing or stale; `notify` is told
    why in `language` (default: the settings')."""
    paths = KnowledgePaths.from_settings(settings)
    sources = collect_sources(paths.knowledge_dir, paths.documents_dir)
    data, problem = (None, None) if force else _load(paths.index_dir)
    missing = [] if data is not None else [Msg("index.reason.missing")]
    reasons = [Msg("index.reason.forced")] if force else missing
    if problem is not None:
        reasons = [Msg("index.reason.unreadable", detail=problem)]
    identity = expected_identity(encoder, chunk_cap(encoder))
    if data is not None:
        reasons = stale_reasons(data.manifest, identity, sources)
    report = None
    if reasons:
        if notify is not None and not force:
            rebuilding = Msg("index.rebuilding", reasons=tuple(reasons))
            notify(_message(settings, rebuilding, language))
        try:
            report = build_index(  # the document list is taken again under the lock
                paths.index_dir,
                lambda: collect_sources(paths.knowledge_dir, paths.documents_dir),
                encoder,
                lock_path=paths.lock_path,
                progress=progress,
                force=force,
            )
        except KnowledgeBaseError as exc:
            if not _still_usable(data, identity) or notify is None or data is None:
                raise
            notify(_message(settings, Msg("index.previous", error=exc.msg), language))
            return data, None
        data = load_index(paths.index_dir)
    if data is None:
        raise KnowledgeBaseError(Msg("errors.index.unusable", index_dir=str(paths.index_dir)))
    return data, report


def _load(index_dir: Path) -> tuple[LoadedIndex | None, Msg | None]:
    """The live index, or why it cannot be used (a corrupt index is rebuilt like a missing one)."""
    try:
        return load_checked(index_dir), None
    except CorruptIndexError as exc:
        return None, exc.msg


def _still_usable(data: LoadedIndex | None, identity: dict[str, Any]) -> bool:
    """A stale index can still serve searches when only the documents changed (same
    encoder, model and tokenizer), e.g. while the disk is full."""
    return data is not None and all(data.manifest.get(k) == v for k, v in identity.items())


def open_retriever(
    settings: Settings,
    *,
    notify: Notify | None = None,
    progress: Progress | None = None,
    language: Language | None = None,
) -> HybridRetriever:
    """The retriever over the shipped knowledge plus the user's documents.

    Builds the index on first use and rebuilds it when the manifest no longer matches
    (documents added/changed/removed, another encoder or tokenizer); `notify` receives a
    one-line message when that happens, in `language` (default: the settings').
    """
    from assistant.retrieval.encoder import make_encoder

    encoder = make_encoder(settings)
    _warm_up(encoder)
    data, _ = ensure_index(settings, encoder, notify=notify, progress=progress, language=language)
    return HybridRetriever(data, encoder, min_score=settings.min_score)


def _warm_up(encoder: Encoder) -> threading.Thread:
    """Load the encoder's model in a thread while the index loads and the first question is
    parsed and calculated; the first search waits for it (the encoder serialises its calls).

    A failure here is ignored: the same load runs again on first use and reports its error
    there. jieba's dictionary needs no warming: it is read a few characters at a time.
    """
    from assistant.retrieval.tokenize import import_jieba

    import_jieba()  # here: it changes warning filters, which is not thread-safe

    def run() -> None:
        try:
            encoder.encode(["warm-up"])
        except Exception:  # noqa: BLE001, S110 -- reported by the real call later
            pass

    # Not a daemon: a process that answers without searching (bad input, off-topic) would
    # otherwise exit while the encoder's native code runs in this thread, and the C++
    # runtime aborts the process ("terminate called without an active exception", exit 134).
    thread = threading.Thread(target=run, daemon=False)
    thread.start()
    return thread
