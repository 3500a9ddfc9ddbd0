"""Fusion of the dense and keyword lanes: floors, confidence weights and the threshold.

Scores are written relative to the calibrated constants so the table stays meaningful when
they are recalibrated.
"""

from __future__ import annotations

import pytest

from assistant.retrieval.fusion import (
    DENSE_ACCEPT,
    DENSE_FLOOR,
    KEYWORD_ACCEPT,
    KEYWORD_FLOOR,
    MIN_SCORE,
    RRF_K,
    evidence,
    fuse,
)

D_STRONG = DENSE_ACCEPT + 0.05
D_MID = (DENSE_FLOOR + DENSE_ACCEPT) / 2
D_NOISE = DENSE_FLOOR - 0.02
K_STRONG = KEYWORD_ACCEPT + 0.2
K_MID = (KEYWORD_FLOOR + KEYWORD_ACCEPT) / 2
K_NOISE = KEYWORD_FLOOR - 0.02


@pytest.mark.parametrize(
    ("dense", "keyword", "top"),
    [
        # A strong dense hit (cross-language question) beats keyword noise ranked first.
        ([(1, D_STRONG), (2, D_NOISE)], [(7, K_MID), (8, K_MID - 0.01)], 1),
        # A strong keyword hit (exact GPU name) beats dense noise ranked first.
        ([(5, D_NOISE), (6, D_NOISE - 0.01)], [(2, K_STRONG)], 2),
        # A strong keyword hit beats a merely middling dense hit.
        ([(5, D_MID)], [(2, K_STRONG)], 2),
        # Found by both lanes beats found strongly by one.
        ([(1, D_STRONG), (3, D_MID)], [(3, K_STRONG), (4, K_MID)], 3),
        # Order of the input lists does not matter: lanes are sorted by score.
        ([(2, D_NOISE), (1, D_STRONG)], [], 1),
    ],
)
def test_the_right_row_comes_first(
    dense: list[tuple[int, float]], keyword: list[tuple[int, float]], top: int
) -> None:
    fused = fuse(dense, keyword, k=5)
    assert fused[0][0] == top


@pytest.mark.parametrize(
    ("dense", "keyword"),
    [
        ([], []),
        ([(1, D_NOISE), (2, D_NOISE - 0.05)], []),  # junk question: weak cosines only
        ([], [(3, K_NOISE)]),  # a stray common word matched
        ([(1, D_NOISE)], [(3, K_NOISE)]),
        # Each lane below its accept level, on different rows: no agreement, nothing sure.
        ([(1, DENSE_FLOOR + 0.01)], [(3, KEYWORD_FLOOR + 0.01)]),
    ],
)
def test_nothing_is_returned_below_the_threshold(
    dense: list[tuple[int, float]], keyword: list[tuple[int, float]]
) -> None:
    assert fuse(dense, keyword, k=5) == []


def test_two_middling_lanes_that_agree_clear_the_threshold() -> None:
    fused = fuse([(4, D_MID + 0.01)], [(4, K_MID + 0.01)], k=5)
    assert [row for row, _ in fused] == [4]
    assert fused[0][1] >= MIN_SCORE


def test_noise_is_dropped_from_the_results() -> None:
    fused = fuse([(1, D_STRONG), (2, D_NOISE)], [(3, K_NOISE)], k=5)
    assert [row for row, _ in fused] == [1]


def test_a_single_lane_hit_at_its_accept_level_scores_one() -> None:
    assert fuse([(1, DENSE_ACCEPT)], [], k=1) == [(1, pytest.approx(1.0))]
    assert fuse([], [(1, KEYWORD_ACCEPT)], k=1) == [(1, pytest.approx(1.0))]


def test_rrf_rank_discount() -> None:
    fused = dict(fuse([(1, D_STRONG), (2, D_STRONG - 0.01)], [], k=5))
    assert fused[2] == pytest.approx((RRF_K + 1) / (RRF_K + 2))


def test_k_limits_and_orders_the_results() -> None:
    dense = [(row, D_STRONG - row * 0.001) for row in range(10)]
    fused = fuse(dense, [], k=3)
    assert [row for row, _ in fused] == [0, 1, 2]
    assert [s for _, s in fused] == sorted((s for _, s in fused), reverse=True)


def test_a_row_repeated_in_one_lane_counts_once() -> None:
    once = fuse([(1, D_STRONG)], [], k=5)
    twice = fuse([(1, D_STRONG), (1, D_STRONG)], [], k=5)
    assert once == twice


@pytest.mark.parametrize(("min_score", "expected"), [(0.0, [1]), (5.0, [])])
def test_min_score_overrides_the_threshold(min_score: float, expected: list[int]) -> None:
    fused = fuse([(1, DENSE_FLOOR + 0.01)], [], k=5, min_score=min_score)
    assert [row for row, _ in fused] == expected


def test_calibrated_constants_are_ordered() -> None:
    assert 0.0 < DENSE_FLOOR < DENSE_ACCEPT < 1.0
    assert 0.0 < KEYWORD_FLOOR < KEYWORD_ACCEPT
    assert MIN_SCORE > 0.0


def test_evidence_is_per_question_not_per_row() -> None:
    # A misspelt question: a middling cosine on one passage and a middling keyword match on
    # another; together they are enough evidence, and both passages are returned.
    fused = fuse([(1, D_MID + 0.01)], [(2, K_MID + 0.01)], k=5)
    assert sorted(row for row, _ in fused) == [1, 2]
    assert evidence([(1, D_MID + 0.01)], [(2, K_MID + 0.01)]) >= MIN_SCORE


@pytest.mark.parametrize(
    ("dense", "keyword", "expected"),
    [
        ([], [], 0.0),
        ([(1, D_NOISE)], [(2, K_NOISE)], 0.0),
        ([(1, DENSE_ACCEPT + 0.1)], [], 1.0),  # confidence is capped at 1 per lane
        ([(1, DENSE_ACCEPT)], [(2, KEYWORD_ACCEPT)], 2.0),
    ],
)
def test_evidence_table(
    dense: list[tuple[int, float]], keyword: list[tuple[int, float]], expected: float
) -> None:
    assert evidence(dense, keyword) == pytest.approx(expected)


def test_a_section_found_in_both_languages_adds_up() -> None:
    # Rows 1 (zh) and 2 (en) are one section; the dense lane found the Chinese version, the
    # keyword lane the English one. Row 3 was found by both lanes at rank 2.
    dense = [(1, D_STRONG), (3, D_STRONG - 0.01)]
    keyword = [(2, K_STRONG), (3, K_STRONG - 0.01)]
    ungrouped = fuse(dense, keyword, k=5)
    assert ungrouped[0][0] == 3
    sections = {1: "s", 2: "s", 3: "t"}
    grouped = fuse(dense, keyword, k=5, group=sections.__getitem__)
    assert [row for row, _ in grouped] == [1, 3]  # the section once, ahead of row 3
