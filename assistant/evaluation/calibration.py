"""Calibration of the fusion thresholds: both lanes in memory, and a grid sweep.

`gpu-advisor kb eval --sweep` runs :func:`sweep` to choose the constants in
:mod:`assistant.retrieval.fusion`; :class:`DirectLanes` lets `kb eval --direct` score the
documents without an index on disk.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.evaluation.retrieval import (
    CANDIDATES,
    CUTOFFS,
    GoldenQuery,
    LaneMetrics,
    Lanes,
    _label,
    score_system,
)
from assistant.records import Passage
from assistant.retrieval import fusion
from assistant.retrieval.chunking import read_passages
from assistant.retrieval.gate import FITTED_FOR, GateFeatures, answerable, query_features

__all__ = ["SWEEP_GRID", "DirectLanes", "SweepPoint", "sweep"]


class DirectLanes:
    """Both lanes built in memory straight from document folders (no index on disk).

    Used when no engine is given, and by tuning, which must rescore many fusion settings
    without re-encoding: the lanes' results are memoised per query.
    """

    def __init__(self, roots: Sequence[Path], encoder: Any) -> None:
        from assistant.retrieval.keyword import KeywordIndex

        self._passages = read_passages(roots)
        texts = [_indexed_text(p) for p in self._passages]
        self._vectors = encoder.encode(texts) if texts else None
        self._encoder = encoder
        self._keyword = KeywordIndex.build(texts)
        self._memo: dict[tuple[str, str], list[tuple[int, float]]] = {}
        self.fuse_options: dict[str, Any] = {}
        from assistant.retrieval.definitions import DefinitionPrior

        self._definitions = DefinitionPrior(self._passages)

    @property
    def passages(self) -> Sequence[Passage]:
        return self._passages

    def section(self, row: int) -> tuple[str, str | None]:
        """Fusion group of a row: the section, in either language."""
        passage = self._passages[row]
        return passage.doc_id, passage.anchor or passage.id

    def dense_hits(self, query: str, k: int) -> list[tuple[int, float]]:
        import numpy as np

        key = ("dense", query)
        if key not in self._memo:
            if self._vectors is None:
                return []
            sims = self._vectors @ self._encoder.encode([query])[0]
            top = np.argsort(-sims, kind="stable")[:CANDIDATES]
            self._memo[key] = [(int(r), float(sims[r])) for r in top]
        return self._memo[key][:k]

    def keyword_hits(self, query: str, k: int) -> list[tuple[int, float]]:
        key = ("keyword", query)
        if key not in self._memo:
            self._memo[key] = self._keyword.search(query, CANDIDATES)
        return self._memo[key][:k]

    def gate_features(self, query: str) -> GateFeatures:
        """The no-answer decision's features for `query`."""
        return query_features(
            query,
            self.dense_hits(query, CANDIDATES),
            self.keyword_hits(query, CANDIDATES),
            index=self._keyword,
            section=self.section,
        )

    def search(self, query: str, k: int = 5) -> list[Passage]:
        options = dict(self.fuse_options)
        if "min_score" not in options and getattr(self._encoder, "name", None) == FITTED_FOR:
            if not answerable(self.gate_features(query)):
                return []
            options["min_score"] = 0.0
        fused = fusion.fuse(
            self.dense_hits(query, CANDIDATES),
            self.keyword_hits(query, CANDIDATES),
            k=CANDIDATES,
            group=self.section,
            **options,
        )
        return [self._passages[row] for row, _ in self._definitions.rerank(query, fused)[:k]]


def _indexed_text(passage: Passage) -> str:
    from assistant.retrieval.chunking import embedding_text

    return embedding_text(passage)


@dataclass(frozen=True)
class SweepPoint:
    """Hybrid scores of one fusion setting, with its threshold margin."""

    options: dict[str, float]
    metrics: LaneMetrics
    margin: float
    """Distance of the closest golden question's evidence from the threshold (positive: all
    on the right side); the setting furthest from every question generalises best."""


#: The grid `kb eval --sweep` searches (fusion keyword arguments).
SWEEP_GRID: dict[str, tuple[float, ...]] = {
    "dense_floor": (0.10, 0.15, 0.20, 0.25, 0.30, 0.35),
    "dense_accept": (0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70),
    "keyword_floor": (0.05, 0.10, 0.15, 0.20, 0.25, 0.30),
    "keyword_accept": (0.50, 0.60, 0.70, 0.80, 1.00, 1.20),
}


def sweep(golden: Sequence[GoldenQuery], lanes: Lanes, *, top: int = 10) -> list[SweepPoint]:
    """Score the hybrid system for every setting in `SWEEP_GRID`, best first: all find-nothing
    questions silent, then recall@3, MRR (to 0.01) and the widest threshold margin."""
    hits = [
        (lanes.dense_hits(q.query, CANDIDATES), lanes.keyword_hits(q.query, CANDIDATES))
        for q in golden
    ]
    names = list(SWEEP_GRID)
    group = getattr(lanes, "section", None)
    points = []
    for values in itertools.product(*SWEEP_GRID.values()):
        options = dict(zip(names, values))
        if options["dense_floor"] >= options["dense_accept"]:
            continue
        if options["keyword_floor"] >= options["keyword_accept"]:
            continue
        points.append(_sweep_point(golden, lanes.passages, hits, options, group))
    # MRR to two decimals: a difference of one question's rank matters less than margin.
    points.sort(
        key=lambda p: (
            -p.metrics.no_passage_accuracy,
            -p.metrics.recall[3],
            -round(p.metrics.mrr, 2),
            -p.margin,
        )
    )
    return points[:top]


def _sweep_point(
    golden: Sequence[GoldenQuery],
    passages: Sequence[Passage],
    hits: Sequence[tuple[list[tuple[int, float]], list[tuple[int, float]]]],
    options: dict[str, float],
    group: Callable[[int], Hashable] | None,
) -> SweepPoint:
    results = []
    margin = float("inf")
    for question, (dense, keyword) in zip(golden, hits):
        sure = fusion.evidence(dense, keyword, capped=False, **options) - fusion.MIN_SCORE
        margin = min(margin, sure if question.expected_doc else -sure)
        fused = fusion.fuse(
            dense,
            keyword,
            k=max(CUTOFFS),
            group=group,
            dense_floor=options["dense_floor"],
            dense_accept=options["dense_accept"],
            keyword_floor=options["keyword_floor"],
            keyword_accept=options["keyword_accept"],
        )
        results.append([_label(passages[row]) for row, _ in fused])
    return SweepPoint(options, score_system("hybrid", golden, results), margin)
