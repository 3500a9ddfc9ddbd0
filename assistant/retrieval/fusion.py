"""Fusion of the dense and keyword lanes: confidence-weighted reciprocal-rank fusion.

Plain RRF (Cormack, Clarke & Büttcher 2009, "Reciprocal Rank Fusion outperforms Condorcet
and individual rank learning methods", SIGIR) scores a passage Σ_lane 1/(k + rank) with
k = 60. It ignores scores, so a lane that found nothing still contributes its top ranks:
for a Chinese question over an English-only passage the keyword lane returns noise at
rank 1, and that noise ties with the dense lane's real hit. Two changes stop that:

1. **Floors.** A hit below its lane's floor (cosine for dense, normalised BM25 for keyword)
   is noise and is dropped before ranking, so it cannot take a rank from a real hit.
2. **Confidence weights.** Each surviving hit contributes
   `confidence · (k + 1) / (k + rank)`, where confidence rises linearly from 0 at the
   lane's floor to 1 at its accept level. A strong hit in one lane therefore outranks
   weak hits in the other; a hit found by both lanes adds up and wins.

Relevance threshold, decided per question: the evidence is the sum of the two lanes' best
confidences. When it is below `MIN_SCORE`, nothing is returned (the answer says "no passage
found" instead of citing noise). With `MIN_SCORE = 1.0` that means one lane at its accept
level, or both lanes part of the way there (a misspelt question has a weak cosine *and* a
partial keyword match, while an off-topic one is weak in both, or matches one stray word).

Callers that know which rows are translations of each other pass `group=` (row → section
key such as `(doc_id, anchor)`), so a section found in Chinese by one lane and in English by
the other counts as found by both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

__all__ = [
    "DENSE_ACCEPT",
    "DENSE_FLOOR",
    "KEYWORD_ACCEPT",
    "KEYWORD_FLOOR",
    "MIN_SCORE",
    "RRF_K",
    "evidence",
    "fuse",
]

#: Cormack et al. 2009's constant: damps the difference between neighbouring ranks.
RRF_K = 60

# Calibration: `gpu-advisor kb eval --sweep` scores every combination in
# `calibration.SWEEP_GRID` on the golden set (tests/retrieval/golden/*.jsonl, USE-m encoder,
# shipped knowledge) and ranks them: all find-nothing questions silent first, then recall@3,
# MRR (to 0.01), then the widest margin: the distance of the closest question's (uncapped)
# evidence from MIN_SCORE. Chosen on 2026-11-29 over 196 questions (28 find-nothing) and
# 583 passages: no-passage accuracy 1.0, recall@3 0.994, MRR 0.93, margin +0.15.
# Find-nothing questions reach cosine 0.28 ("population of Jilin province") and normalised
# BM25 0.56 ("capital of Australia" matches "capital cost"), while misspelt answerable
# questions go down to cosine 0.21 (with BM25 0.59): neither lane alone can draw the line,
# their summed confidence can. Recalibrate when the encoder, tokenizer or knowledge changes.
DENSE_FLOOR = 0.25
"""Cosine similarity below which a dense hit is noise."""
DENSE_ACCEPT = 0.50
"""Cosine similarity at which a dense hit counts as relevant on its own."""
KEYWORD_FLOOR = 0.15
"""Normalised BM25 (share of the query's idf mass matched) below which a hit is noise."""
KEYWORD_ACCEPT = 0.70
"""Normalised BM25 at which a keyword hit counts as relevant on its own."""
MIN_SCORE = 1.0
"""Evidence (sum of the lanes' best confidences, 0–2) needed to return anything."""

Ranking = Sequence[tuple[int, float]]


def _confidence(score: float, floor: float, accept: float, cap: float = 1.0) -> float:
    if score < floor:
        return 0.0
    if accept <= floor:
        return cap
    return min(cap, (score - floor) / (accept - floor))


def _lane(hits: Ranking, floor: float, accept: float, rrf_k: int) -> tuple[dict[int, float], float]:
    """Row → contribution of one lane (ranks counted among hits above the floor only),
    and the lane's best confidence."""
    contributions: dict[int, float] = {}
    best = 0.0
    rank = 0
    for row, score in sorted(hits, key=lambda hit: -hit[1]):
        confidence = _confidence(score, floor, accept)
        if confidence <= 0.0 or row in contributions:
            continue
        rank += 1
        best = max(best, confidence)
        contributions[row] = confidence * (rrf_k + 1) / (rrf_k + rank)
    return contributions, best


def _lanes(
    dense: Ranking,
    keyword: Ranking,
    rrf_k: int,
    dense_floor: float,
    dense_accept: float,
    keyword_floor: float,
    keyword_accept: float,
) -> tuple[tuple[dict[int, float], float], tuple[dict[int, float], float]]:
    return (
        _lane(dense, dense_floor, dense_accept, rrf_k),
        _lane(keyword, keyword_floor, keyword_accept, rrf_k),
    )


def evidence(
    dense: Ranking,
    keyword: Ranking,
    *,
    dense_floor: float = DENSE_FLOOR,
    dense_accept: float = DENSE_ACCEPT,
    keyword_floor: float = KEYWORD_FLOOR,
    keyword_accept: float = KEYWORD_ACCEPT,
    capped: bool = True,
) -> float:
    """How sure the two lanes are that something relevant exists: the sum of each lane's
    best confidence (0 to 2). `fuse` returns nothing below `MIN_SCORE`. With
    `capped=False` confidences go past 1 (calibration uses it to measure margins).

    Examples:
        >>> evidence([(3, 0.62)], [(7, 0.05)])
        1.0
    """
    cap = 1.0 if capped else float("inf")
    return sum(
        max((_confidence(score, floor, accept, cap) for _, score in hits), default=0.0)
        for hits, floor, accept in (
            (dense, dense_floor, dense_accept),
            (keyword, keyword_floor, keyword_accept),
        )
    )


def fuse(
    dense: Ranking,
    keyword: Ranking,
    *,
    k: int,
    rrf_k: int = RRF_K,
    dense_floor: float = DENSE_FLOOR,
    dense_accept: float = DENSE_ACCEPT,
    keyword_floor: float = KEYWORD_FLOOR,
    keyword_accept: float = KEYWORD_ACCEPT,
    min_score: float | None = None,
    group: Callable[[int], Hashable] | None = None,
) -> list[tuple[int, float]]:
    """Fuse two rankings of passage rows into the top `k` `(row, fused score)`, best first.

    Args:
        dense: `(row, cosine similarity)` from the dense lane, any order.
        keyword: `(row, normalised BM25)` from the keyword lane, any order.
        k: how many rows to return at most.
        rrf_k: the RRF constant.
        dense_floor: see `DENSE_FLOOR`; dense_accept: see `DENSE_ACCEPT`.
        keyword_floor: see `KEYWORD_FLOOR`; keyword_accept: see `KEYWORD_ACCEPT`.
        min_score: relevance threshold on the :func:`evidence` (None: `MIN_SCORE`).
        group: row → key of rows that say the same thing (a section and its translation:
            `(doc_id, anchor)`). One lane often finds the Chinese version and the other the
            English one; grouped, their contributions add up as if both found one passage.
            Each group contributes its best row per lane and is returned once, as the row
            with the larger own score.

    Returns:
        An empty list when the evidence is below `min_score`: nothing relevant was found.

    Examples:
        >>> fuse([(3, 0.62), (1, 0.1)], [(7, 0.05)], k=5)
        [(3, 1.0)]
        >>> fuse([(3, 0.16)], [(7, 0.05)], k=5)
        []
    """
    threshold = MIN_SCORE if min_score is None else min_score
    lanes = _lanes(dense, keyword, rrf_k, dense_floor, dense_accept, keyword_floor, keyword_accept)
    if sum(best for _, best in lanes) < threshold - 1e-12:
        return []
    key = group or (lambda row: row)
    fused: dict[Hashable, float] = {}
    own: dict[int, float] = {}
    for contributions, _ in lanes:
        per_group: dict[Hashable, float] = {}
        for row, contribution in contributions.items():
            own[row] = own.get(row, 0.0) + contribution
            per_group[key(row)] = max(per_group.get(key(row), 0.0), contribution)
        for name, contribution in per_group.items():
            fused[name] = fused.get(name, 0.0) + contribution
    best_row: dict[Hashable, int] = {}
    for row in sorted(own, key=lambda r: (-own[r], r)):
        best_row.setdefault(key(row), row)
    ranked = sorted(best_row, key=lambda name: (-fused[name], -own[best_row[name]], best_row[name]))
    return [(best_row[name], round(fused[name], 6)) for name in ranked[:k]]
