"""The no-answer decision: features, the fitted weights, and fitting itself."""

from __future__ import annotations

import pytest

from assistant.retrieval.gate import (
    FEATURES,
    WEIGHTS,
    GateFeatures,
    answerable,
    domain_score,
    fit,
    lane_agreement,
    probability,
)

STRONG = GateFeatures(dense=0.55, keyword=1.0, agree=1.0, known=1.0, domain=1.0)
OFF_TOPIC = GateFeatures(dense=0.2, keyword=0.2, agree=0.0, known=0.2, domain=0.0)


def test_weights_match_the_features() -> None:
    assert len(WEIGHTS) == len(FEATURES) == len(STRONG.vector())
    assert all(w > 0 for w in WEIGHTS)  # each feature is evidence *for* an answer


@pytest.mark.parametrize("name", FEATURES)
def test_more_evidence_never_lowers_the_probability(name: str) -> None:
    weaker = GateFeatures(dense=0.3, keyword=0.4, agree=0.5, known=0.5, domain=0.5)
    stronger = GateFeatures(**{**vars(weaker), name: getattr(weaker, name) + 0.3})
    assert probability(stronger) > probability(weaker)


def test_clear_cases() -> None:
    assert answerable(STRONG)
    assert not answerable(OFF_TOPIC)


@pytest.mark.parametrize(
    ("tokens", "score"),
    [
        (["h100", "功耗"], 1.0),
        (["nccl"], 0.5),
        (["70b"], 0.5),  # a model size
        (["红烧肉", "做法"], 0.0),
        ([], 0.0),
    ],
)
def test_domain_score(tokens: list[str], score: float) -> None:
    assert domain_score(tokens) == score


def test_lane_agreement() -> None:
    section = {1: ("a", "x"), 2: ("a", "y"), 3: ("b", "z")}.__getitem__
    assert lane_agreement([(1, 0.5)], [(1, 0.9)], section) == 1.0
    assert lane_agreement([(1, 0.5)], [(2, 0.9)], section) == 0.5  # same document only
    assert lane_agreement([(1, 0.5)], [(3, 0.9)], section) == 0.0
    assert lane_agreement([], [(3, 0.9)], section) == 0.0


def test_fit_separates_a_separable_set() -> None:
    rows = [STRONG, GateFeatures(0.5, 0.8, 1.0, 0.9, 0.5)] * 3 + [
        OFF_TOPIC,
        GateFeatures(0.3, 0.3, 0.0, 0.3, 0.5),
    ] * 3
    labels = [True, True] * 3 + [False, False] * 3
    weights, bias = fit(rows, labels, steps=3000)
    assert all(
        (probability(r, weights, bias) >= 0.5) == y for r, y in zip(rows, labels, strict=True)
    )
    assert fit(rows, labels, steps=3000) == (weights, bias)  # deterministic
