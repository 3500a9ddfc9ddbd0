"""The keyword lane: Okapi BM25 over :mod:`assistant.retrieval.tokenize` tokens, numpy-scored.

Scoring (Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and
Beyond", eq. 3.15), for weighted query terms t with weight w_t:

    score(d, q) = Σ_t  w_t · idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))

with the non-negative idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)) (as in Lucene): the
classic Robertson–Spärck Jones idf goes negative for terms in more than half the passages,
which would make a passage *lose* score for matching a query word in a small corpus.
k1 = 1.5 and b = 0.75 are the usual defaults (R&Z §3.4 gives k1 ∈ [1.2, 2.0], b = 0.75);
our passages are short, capped chunks, so length normalisation matters little.

`search` returns a *normalised* score: the raw score divided by the score a passage of
average length would get by containing each query word once, Σ w_t·idf(t) over the words
typed (and the corrections of misspelt ones), not their synonyms. It is about the share of
the query's informative words a passage contains, comparable across queries, which the
fusion uses as this lane's confidence.

State is plain JSON (`to_json`/`from_json`) or numpy arrays (`to_arrays`/`from_arrays`, one
:class:`PostingArrays` per index segment, loaded without parsing every posting), never pickle.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assistant.retrieval.aliases import alias_terms, cjk_bigrams, fix_typos, has_alias
from assistant.retrieval.tokenize import (
    SYNONYM_WEIGHT,
    TOKENIZER_VERSION,
    expand_query,
    index_tokens,
    tokenize,
)

__all__ = [
    "ALIAS_WEIGHT",
    "B",
    "BIGRAM_WEIGHT",
    "FUZZY_WEIGHT",
    "K1",
    "KeywordIndex",
    "PostingArrays",
]

K1 = 1.5
B = 0.75
#: Weight of the index word a misspelt query word is corrected to ("memery" → "memory").
FUZZY_WEIGHT = 0.8
#: Weight of a query's CJK character bigram: a partial match for a differently segmented or
#: out-of-dictionary word, worth less than a synonym and not part of the normalising ceiling.
BIGRAM_WEIGHT = 0.3
#: Weight of an alias's expansion ("ib" → "infiniband"): nearly what was typed. Aliases are
#: alternatives, so they stay out of the normalising ceiling, and so does a typed word the
#: index does not know when it has an alias (the user's "oom" is matched by its expansion).
ALIAS_WEIGHT = 0.9
_FORMAT = 1
_FUZZY_MIN_LENGTH = 5

WeightedTerms = Sequence[tuple[str, float]]


@dataclass(frozen=True)
class PostingArrays:
    """The postings of consecutive rows as flat arrays: term i's rows are
    `rows[offsets[i]:offsets[i + 1]]` (ascending, local to the part), with their term
    frequencies in `tfs`; `lengths[r]` is row r's token count."""

    terms: dict[str, int]
    offsets: np.ndarray
    rows: np.ndarray
    tfs: np.ndarray
    lengths: np.ndarray

    def slice(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        i = self.terms.get(term)
        if i is None:
            return None
        start, end = int(self.offsets[i]), int(self.offsets[i + 1])
        return self.rows[start:end], self.tfs[start:end]

    def df(self, term: str) -> int:
        i = self.terms.get(term)
        return 0 if i is None else int(self.offsets[i + 1] - self.offsets[i])


class KeywordIndex:
    """An inverted index of passage tokens with BM25 scoring.

    Passages are numbered 0..n-1 in the order they were added (the same order as the
    dense index's rows). Search returns `(row, normalised_score)` pairs, best first.
    """

    def __init__(self, *, k1: float = K1, b: float = B) -> None:
        self.k1 = k1
        self.b = b
        self._postings: dict[str, tuple[list[int], list[int]]] = {}
        """Postings of the rows added with :meth:`add_tokens` (after the parts' rows)."""
        self._lengths: list[int] = []
        self._parts: list[tuple[int, PostingArrays]] = []
        """Read-only parts loaded with :meth:`from_arrays`, with their first row."""
        self._part_rows = 0
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._length_array: np.ndarray | None = None
        self._by_initial: dict[str, list[str]] | None = None

    # -- building ---------------------------------------------------------------------

    @classmethod
    def build(cls, texts: Iterable[str], *, k1: float = K1, b: float = B) -> KeywordIndex:
        """An index over `texts` (row i is the i-th text)."""
        index = cls(k1=k1, b=b)
        index.add(texts)
        return index

    @classmethod
    def from_tokens(
        cls, documents: Iterable[Sequence[str]], *, k1: float = K1, b: float = B
    ) -> KeywordIndex:
        """An index over already tokenized documents (used by tests and tuning)."""
        index = cls(k1=k1, b=b)
        index.add_tokens(documents)
        return index

    def add(self, texts: Iterable[str]) -> None:
        """Append passages; their rows follow the existing ones."""
        self.add_tokens(index_tokens(text) for text in texts)

    def add_tokens(self, documents: Iterable[Sequence[str]]) -> None:
        """Append already tokenized passages."""
        for tokens in documents:
            row = self._part_rows + len(self._lengths)
            self._lengths.append(len(tokens))
            for term, tf in Counter(tokens).items():
                rows, tfs = self._postings.setdefault(term, ([], []))
                rows.append(row)
                tfs.append(tf)
        self._arrays.clear()
        self._length_array = None
        self._by_initial = None

    def __len__(self) -> int:
        return self._part_rows + len(self._lengths)

    def _df(self, term: str) -> int:
        """How many rows contain `term`."""
        own = len(self._postings[term][0]) if term in self._postings else 0
        return own + sum(part.df(term) for _, part in self._parts)

    def _knows(self, term: str) -> bool:
        return term in self._postings or any(term in part.terms for _, part in self._parts)

    def _vocabulary(self) -> Iterator[str]:
        seen = self._postings.keys()
        yield from seen
        for _, part in self._parts:
            yield from (term for term in part.terms if term not in seen)

    # -- scoring ----------------------------------------------------------------------

    def idf(self, term: str) -> float:
        """ln(1 + (N − df + 0.5)/(df + 0.5)); a term absent from the index has df = 0."""
        df = self._df(term)
        n = len(self)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def scores(self, terms: WeightedTerms) -> np.ndarray:
        """Raw BM25 score of every passage for weighted `terms` (repeated terms add up)."""
        n = len(self)
        out = np.zeros(n, dtype=np.float64)
        if n == 0:
            return out
        lengths = self._lengths_np()
        norm = self.k1 * (1.0 - self.b + self.b * lengths / max(float(lengths.mean()), 1e-9))
        for term, weight in terms:
            arrays = self._postings_np(term)
            if arrays is None:
                continue
            rows, tfs = arrays
            gain = tfs * (self.k1 + 1.0) / (tfs + norm[rows])
            out[rows] += weight * self.idf(term) * gain
        return out

    def query_terms(self, query: str) -> list[tuple[str, float]]:
        """The weighted terms a query string is searched with.

        Listed typos fixed first (`typos.tsv`); tokens and their aliases at 1.0; a Latin
        word absent from the index replaced by the closest index word within edit distance
        1 (2 from 8 letters) at `FUZZY_WEIGHT`; synonyms of all of them at
        `SYNONYM_WEIGHT`; CJK character bigrams at `BIGRAM_WEIGHT`.
        """
        text = fix_typos(query)
        tokens = tokenize(text)
        aliases = alias_terms(tokens)
        tokens += aliases
        corrected = {t: fix for t in tokens if (fix := self._correction(t)) is not None}
        terms = expand_query([corrected.get(t, t) for t in tokens])
        fixes = set(corrected.values()) - set(tokens)
        weighted = {
            t: FUZZY_WEIGHT if t in fixes else ALIAS_WEIGHT if t in aliases and w == 1.0 else w
            for t, w in terms
        }
        for gram in cjk_bigrams(text):
            weighted.setdefault(gram, BIGRAM_WEIGHT)
        return list(weighted.items())

    def _correction(self, token: str) -> str | None:
        """The index word a misspelt Latin token most likely meant, if any."""
        if (
            self._knows(token)
            or len(token) < _FUZZY_MIN_LENGTH
            or not token.isascii()
            or not token.isalpha()
        ):
            return None
        budget = 1 if len(token) < 8 else 2
        best: tuple[int, int, str] | None = None
        for word in self._initials().get(token[0], ()):
            if abs(len(word) - len(token)) > budget:
                continue
            distance = _edit_distance(token, word, budget)
            if distance <= budget:
                candidate = (distance, -self._df(word), word)
                best = candidate if best is None or candidate < best else best
        return best[2] if best else None

    def _initials(self) -> dict[str, list[str]]:
        if self._by_initial is None:
            groups: dict[str, list[str]] = {}
            for word in dict.fromkeys(self._vocabulary()):
                if len(word) >= _FUZZY_MIN_LENGTH - 1 and word.isascii() and word.isalpha():
                    groups.setdefault(word[0], []).append(word)
            self._by_initial = groups
        return self._by_initial

    def search(self, query: str | WeightedTerms, k: int = 10) -> list[tuple[int, float]]:
        """Top `k` passages as `(row, normalised score)`, best first; only rows that match.

        `query` is a string, or weighted terms as :meth:`query_terms` makes them.
        """
        terms = self.query_terms(query) if isinstance(query, str) else list(query)
        ceiling = sum(w * self.idf(t) for t, w in terms if self._in_ceiling(t, w))
        if isinstance(query, str):
            ceiling += self._alias_ceiling(query)
        if not terms or ceiling <= 0.0 or not len(self):
            return []
        raw = self.scores(terms)
        hits = np.flatnonzero(raw > 0.0)
        if hits.size == 0:
            return []
        top = _top_rows(raw, hits, k)
        return [(int(row), float(raw[row] / ceiling)) for row in top]

    def _in_ceiling(self, term: str, weight: float) -> bool:
        """Whether a query term counts towards the normalising ceiling: typed words and
        corrections, except an unknown word that has an alias."""
        if weight <= SYNONYM_WEIGHT or weight == ALIAS_WEIGHT:
            return False
        return self._knows(term) or not has_alias(term)

    def _alias_ceiling(self, query: str) -> float:
        """What the typed words left out of the ceiling (unknown, with an alias) add back:
        each its best known expansion, at `ALIAS_WEIGHT`."""
        total = 0.0
        for token in dict.fromkeys(tokenize(fix_typos(query))):
            if self._knows(token) or not has_alias(token):
                continue
            known = [self.idf(t) for t in alias_terms([token]) if self._knows(t)]
            total += ALIAS_WEIGHT * max(known, default=0.0)
        return total

    def known_share(self, query: str) -> float:
        """Share of the query's words (after typo fixes, before expansion) the index knows,
        directly or through an alias: low for a question about something else entirely."""
        tokens = tokenize(fix_typos(query))
        if not tokens:
            return 0.0
        known = [
            self._knows(t)
            or any(self._knows(a) for a in alias_terms([t]))
            or self._correction(t) is not None
            for t in tokens
        ]
        return sum(known) / len(known)

    def _postings_np(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        cached = self._arrays.get(term)
        if cached is None:
            pieces = [
                (rows.astype(np.int64) + first, tfs)
                for first, part in self._parts
                if (found := part.slice(term)) is not None
                for rows, tfs in [found]
            ]
            entry = self._postings.get(term)
            if entry is not None:
                pieces.append((np.asarray(entry[0], dtype=np.int64), np.asarray(entry[1])))
            if not pieces:
                return None
            cached = (
                np.concatenate([rows for rows, _ in pieces]),
                np.concatenate([tfs for _, tfs in pieces]).astype(np.float64),
            )
            self._arrays[term] = cached
        return cached

    def _lengths_np(self) -> np.ndarray:
        if self._length_array is None:
            own = np.asarray(self._lengths, dtype=np.float64)
            parts = [part.lengths.astype(np.float64) for _, part in self._parts]
            self._length_array = np.concatenate([*parts, own]) if parts else own
        return self._length_array

    # -- persistence ------------------------------------------------------------------

    def to_arrays(self) -> PostingArrays:
        """The postings of an index built in memory, as flat arrays (see :meth:`from_arrays`)."""
        if self._parts:
            msg = "to_arrays() of an index loaded from arrays"
            raise ValueError(msg)
        terms = list(self._postings)
        counts = np.fromiter((len(self._postings[t][0]) for t in terms), np.int64, len(terms))
        offsets = np.zeros(len(terms) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        total = int(offsets[-1])
        rows = np.fromiter((r for t in terms for r in self._postings[t][0]), np.int32, total)
        tfs = np.fromiter((f for t in terms for f in self._postings[t][1]), np.int32, total)
        lengths = np.asarray(self._lengths, dtype=np.int32)
        return PostingArrays({t: i for i, t in enumerate(terms)}, offsets, rows, tfs, lengths)

    @classmethod
    def from_arrays(
        cls, parts: Sequence[PostingArrays], *, k1: float = K1, b: float = B
    ) -> KeywordIndex:
        """An index over consecutive parts (part 2's rows follow part 1's); nothing is copied."""
        index = cls(k1=k1, b=b)
        first = 0
        for part in parts:
            index._parts.append((first, part))
            first += len(part.lengths)
        index._part_rows = first
        return index

    def to_json(self) -> dict[str, Any]:
        """The index as JSON-serialisable data."""
        return {
            "format": _FORMAT,
            "tokenizer_version": TOKENIZER_VERSION,
            "k1": self.k1,
            "b": self.b,
            "lengths": list(self._lengths),
            "postings": {term: [rows, tfs] for term, (rows, tfs) in self._postings.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KeywordIndex:
        """An index from :meth:`to_json` data.

        Raises:
            ValueError: the data has another format or was made by another tokenizer
                version (the index must be rebuilt).
        """
        if data.get("format") != _FORMAT or data.get("tokenizer_version") != TOKENIZER_VERSION:
            msg = (
                f"keyword index format {data.get('format')}/{data.get('tokenizer_version')} "
                f"does not match {_FORMAT}/{TOKENIZER_VERSION}; rebuild the index"
            )
            raise ValueError(msg)
        index = cls(k1=float(data["k1"]), b=float(data["b"]))
        # Lists of JSON integers are used as they are: copying them element by element
        # doubled the load time of a 100k-passage index.
        index._lengths = list(data["lengths"])
        index._postings = {term: (rows, tfs) for term, (rows, tfs) in data["postings"].items()}
        return index


def _top_rows(raw: np.ndarray, hits: np.ndarray, k: int) -> np.ndarray:
    """The `k` best of `hits` (ascending rows) by `raw`, ties in row order: what a stable sort
    of all of them would give first, without sorting tens of thousands of matches."""
    scores = raw[hits]
    if k < hits.size:
        kth = np.partition(scores, hits.size - k)[hits.size - k]
        keep = scores >= kth  # every tie of the k-th score, so the stable order is kept
        hits, scores = hits[keep], scores[keep]
    return hits[np.argsort(-scores, kind="stable")][:k]


def _edit_distance(a: str, b: str, budget: int) -> int:
    """Optimal-string-alignment distance of `a` and `b` (insert, delete, substitute, swap two
    neighbours: "modle" → "model" is 1), or `budget + 1` once it must exceed `budget`."""
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > budget:
            return budget + 1
        before, previous = previous, current
    return previous[-1]
