"""The no-answer decision: should a search return anything at all?

A single fused-score cut-off fitted to one question set does not carry over to questions
written by someone else: colloquial Chinese questions reach lower scores than the golden
set's, while GPU-adjacent off-topic questions ("4090 玩游戏帧数") reach higher ones, so
moving the cut-off only trades misses for false positives. The decision here looks at
several numbers that fail in different ways:

- `dense`: the dense lane's best cosine;
- `keyword`: the keyword lane's best normalised BM25 (capped at 1.5);
- `agree`: 1 when the two lanes' top five share a section, 0.5 when they share only a
  document (two independent lanes pointing at the same evidence is strong evidence);
- `known`: the share of the query's words the keyword index knows (directly, through an
  alias or a spelling correction): low for a question about something else entirely;
- `domain`: whether the query names anything from the domain's vocabulary (GPU and model
  names, `domain.txt`, the dictionary, synonym and alias words): 0, 0.5 or 1 for none,
  one, two or more.

They are combined by logistic regression, `P(answerable) = σ(w · x + b)`, and the search
answers when P ≥ `THRESHOLD`. The weights are fitted by :func:`fit` (L2-regularised,
plain gradient descent, deterministic) on the *tuning* parts only (see
:mod:`assistant.retrieval.splits`); the test parts are only scored.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import astuple, dataclass
from functools import lru_cache
from typing import Protocol

__all__ = [
    "FEATURES",
    "FITTED_FOR",
    "THRESHOLD",
    "WEIGHTS",
    "GateFeatures",
    "answerable",
    "domain_words",
    "fit",
    "probability",
    "query_features",
]

#: Feature names, in the order of `WEIGHTS`.
FEATURES = ("dense", "keyword", "agree", "known", "domain")

# Fitted with `fit(..., negative_weight=3, l2=0.001, steps=20000, rate=2.0)` on 2026-12-01 over
# the `tune` parts of tests/retrieval/golden/ and tests/retrieval/heldout/ (209 questions, 37
# find-nothing; USE-m encoder, shipped knowledge) by `bench/fit_gate.py`; the `test` parts
# were only scored.
WEIGHTS: tuple[float, ...] = (1.208, 5.664, 0.742, 2.884, 5.066)
BIAS = -9.575
#: The encoder the weights were fitted with: another encoder's cosines mean something else,
#: so the retriever falls back to the fusion threshold until the gate is refitted for it.
FITTED_FOR = "use-m"
#: Least probability of being answerable for a search to return passages.
THRESHOLD = 0.5

_KEYWORD_CAP = 1.5
_TOP = 5
_GPU_NAME = re.compile(
    r"^(?:[a-z]{1,4}\d{2,4}[a-z]?|\d+(?:\.\d+)?(?:[bkmt]|[gt]b|gib|gbe|gbps|g|kw|mw|tflops))$"
)


@dataclass(frozen=True)
class GateFeatures:
    """The numbers the no-answer decision looks at (see the module docstring)."""

    dense: float
    keyword: float
    agree: float
    known: float
    domain: float

    def vector(self) -> tuple[float, ...]:
        """The features in the order of `FEATURES`."""
        return astuple(self)


Ranking = Sequence[tuple[int, float]]


def lane_agreement(dense: Ranking, keyword: Ranking, section: Callable[[int], Hashable]) -> float:
    """1 when the lanes' top five share a section, 0.5 a document only, else 0.
    A section key is `(doc_id, anchor)`; its first element is the document."""
    top_dense = {section(row) for row, _ in sorted(dense, key=lambda h: -h[1])[:_TOP]}
    top_keyword = {section(row) for row, _ in sorted(keyword, key=lambda h: -h[1])[:_TOP]}
    if top_dense & top_keyword:
        return 1.0
    docs = {_doc(key) for key in top_dense} & {_doc(key) for key in top_keyword}
    return 0.5 if docs else 0.0


def _doc(key: Hashable) -> Hashable:
    return key[0] if isinstance(key, tuple) and key else key


def features(
    dense: Ranking,
    keyword: Ranking,
    *,
    section: Callable[[int], Hashable],
    known: float,
    tokens: Sequence[str],
) -> GateFeatures:
    """The gate's features from both lanes' hits and the query's tokens."""
    return GateFeatures(
        dense=max((score for _, score in dense), default=0.0),
        keyword=min(_KEYWORD_CAP, max((score for _, score in keyword), default=0.0)),
        agree=lane_agreement(dense, keyword, section),
        known=known,
        domain=domain_score(tokens),
    )


def domain_score(tokens: Sequence[str]) -> float:
    """0, 0.5 or 1: how many of `tokens` (none, one, two or more) are domain words.

    Examples:
        >>> domain_score(["h100", "功耗"])
        1.0
        >>> domain_score(["红烧肉", "做"])
        0.0
    """
    vocabulary = _domain_words()
    hits = sum(1 for t in dict.fromkeys(tokens) if t in vocabulary or _GPU_NAME.match(t))
    return min(1.0, hits / 2)


def domain_words() -> frozenset[str]:
    """The domain vocabulary: user dictionary, `domain.txt`, synonym and alias words, GPU
    names with a digit (what :func:`domain_score` counts)."""
    return _domain_words()


@lru_cache(maxsize=1)
def _domain_words() -> frozenset[str]:
    from assistant.retrieval.tokenize import data_lines, normalize, synonym_groups

    words = {normalize(line.split()[0]) for line in data_lines("userdict.txt")}
    words.update(normalize(line) for line in data_lines("domain.txt"))
    for group in synonym_groups():
        words.update(token for member in group for token in member)
    for line in data_lines("aliases.tsv"):
        words.add(normalize(line.split("\t")[0].strip()))
    words.update(_catalog_gpu_tokens())
    return frozenset(words)


def _catalog_gpu_tokens() -> set[str]:
    """The tokens of the GPU catalog's names that carry a digit ("4090", "h100", "910b"): a
    bare model number is a GPU name, as much domain vocabulary as "显存"."""
    from assistant.retrieval.tokenize import normalize
    from calculators.catalog.hardware import gpu_alias_index

    tokens = (normalize(t) for alias in gpu_alias_index() for t in re.split(r"[\s_/-]+", alias))
    return {t for t in tokens if len(t) >= 3 and any(c.isdigit() for c in t)}


def probability(x: GateFeatures, weights: Sequence[float] = WEIGHTS, bias: float = BIAS) -> float:
    """σ(w · x + b): how likely the knowledge base answers the question."""
    z = bias + sum(w * v for w, v in zip(weights, x.vector(), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def answerable(x: GateFeatures, threshold: float = THRESHOLD) -> bool:
    """Whether to return passages at all."""
    return probability(x) >= threshold


def fit(
    rows: Sequence[GateFeatures],
    labels: Sequence[bool],
    *,
    l2: float = 0.01,
    steps: int = 4000,
    rate: float = 0.5,
    negative_weight: float = 1.0,
) -> tuple[tuple[float, ...], float]:
    """Logistic-regression weights and bias for `rows` (True: answerable).

    `negative_weight` scales the loss of find-nothing rows (they are few; a false answer
    cites noise, which is worse than staying silent).
    """
    import numpy as np

    x = np.asarray([r.vector() for r in rows], dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    sample = np.where(y > 0, 1.0, negative_weight)
    sample /= sample.sum()
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        error = (p - y) * sample
        w -= rate * (x.T @ error + l2 * w)
        b -= rate * float(error.sum())
    return tuple(round(float(v), 3) for v in w), round(b, 3)


class _Keyword(Protocol):
    def known_share(self, query: str) -> float: ...


def query_features(
    query: str,
    dense: Ranking,
    keyword: Ranking,
    *,
    index: _Keyword,
    section: Callable[[int], Hashable],
) -> GateFeatures:
    """:func:`features` for a query string, with the keyword index that searched it."""
    from assistant.retrieval.aliases import alias_terms, fix_typos
    from assistant.retrieval.tokenize import tokenize

    tokens = tokenize(fix_typos(query))
    return features(
        dense,
        keyword,
        section=section,
        known=index.known_share(query),
        tokens=tokens + alias_terms(tokens),
    )
