"""Retrieval evaluation: recall@1/3/5, MRR and no-passage accuracy on the golden set.

The golden set is every `*.jsonl` file under `tests/retrieval/golden/` (one JSON object a
line: `query`, `lang`, `kind`, `expected_doc` (null for a find-nothing question) and an
optional `expected_anchor`). A *hit* is a returned passage whose `doc_id` equals
`expected_doc`, in either language version.

Three systems are scored on the same passages in one run:

- **dense**: the dense lane alone, answering nothing when its best cosine is not above the
  best cosine any find-nothing question reached (a threshold tuned on the test questions
  themselves, so the lane alone is given its best possible chance);
- **bm25**: the keyword lane alone, thresholded the same way on its normalised BM25;
- **hybrid**: the retriever's own `search` (both lanes through `fusion.fuse`, with the
  calibrated constants of :mod:`assistant.retrieval.fusion`).

Recall@k and MRR are over the answerable questions; a find-nothing question is correct
when the system returns nothing ("no-passage accuracy").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from assistant.errors import UsageError
from assistant.records import Passage
from calculators.messages import Msg

__all__ = [
    "CANDIDATES",
    "CUTOFFS",
    "Breakdown",
    "EvaluationReport",
    "GoldenQuery",
    "LaneMetrics",
    "Lanes",
    "breakdown",
    "default_golden_dir",
    "evaluate",
    "load_golden",
    "open_lanes",
    "score_system",
]

#: The k of recall@k.
CUTOFFS = (1, 3, 5)
#: Candidates each lane hands to the fusion.
CANDIDATES = 20
_KINDS = frozenset({"zh", "en", "cross", "paraphrase", "typo", "colloquial", "none"})


@dataclass(frozen=True)
class GoldenQuery:
    """One golden question and the document that answers it (None: nothing should)."""

    query: str
    lang: str
    kind: str
    expected_doc: str | None
    expected_anchor: str | None = None
    origin: str = ""
    """`file:line` the question came from."""

    @property
    def part(self) -> str:
        """`tune` or `test`: which part of the evaluation data the question belongs to.

        A file named `test.jsonl` or `tune.jsonl` says so itself; any other question goes to
        `test` when the first byte of the SHA-256 of its text is below 86 (about a third),
        so the split never depends on file order and never changes when questions are added.
        """
        name = self.origin.split(":", 1)[0]
        if name in ("test.jsonl", "tune.jsonl"):
            return name.removesuffix(".jsonl")
        return "test" if hashlib.sha256(self.query.encode()).digest()[0] < 86 else "tune"


@dataclass(frozen=True)
class Miss:
    """A question a system got wrong, for the report."""

    query: str
    expected_doc: str | None
    returned: tuple[str, ...]


@dataclass(frozen=True)
class LaneMetrics:
    """Scores of one system over the golden set."""

    name: str
    recall: dict[int, float]
    mrr: float
    no_passage_accuracy: float
    section_recall3: float
    """Share of questions with an `expected_anchor` whose section (either language) is in
    the top 3: whether the citation points at the right part of the document."""
    answerable: int
    unanswerable: int
    misses: tuple[Miss, ...] = ()


@dataclass(frozen=True)
class Breakdown:
    """The hybrid system on one part (`tune`/`test`) and language of the questions."""

    part: str
    lang: str
    answerable: int
    recall3: float
    silent: int
    """Answerable questions that got no passage at all."""
    unanswerable: int
    answered: int
    """Find-nothing questions that got passages (false positives)."""


def breakdown(golden: Sequence[GoldenQuery], results: Sequence[Sequence[str]]) -> list[Breakdown]:
    """Recall@3 and silent / false-positive counts of one system's `results`, per part of
    the data (tuning, test) and per language, then per part over both languages."""
    rows = []
    for part in ("tune", "test"):
        for lang in ("zh", "en", "all"):
            chosen = [
                (q, r)
                for q, r in zip(golden, results, strict=True)
                if q.part == part and lang in ("all", q.lang)
            ]
            if not chosen:
                continue
            answerable = [(q, r) for q, r in chosen if q.expected_doc]
            hits = sum(q.expected_doc in [x.split("#", 1)[0] for x in r[:3]] for q, r in answerable)
            rows.append(
                Breakdown(
                    part=part,
                    lang=lang,
                    answerable=len(answerable),
                    recall3=hits / len(answerable) if answerable else 0.0,
                    silent=sum(not r for _, r in answerable),
                    unanswerable=len(chosen) - len(answerable),
                    answered=sum(bool(r) for q, r in chosen if not q.expected_doc),
                )
            )
    return rows


@dataclass(frozen=True)
class EvaluationReport:
    """All systems' scores for one golden set."""

    queries: int
    passages: int
    systems: tuple[LaneMetrics, ...]
    breakdown: tuple[Breakdown, ...] = ()
    """The hybrid system by part and language."""
    by_kind: dict[str, int] = field(default_factory=dict)
    lane_thresholds: dict[str, float] = field(default_factory=dict)
    """The threshold each lane alone was given (best find-nothing score in that lane)."""

    def system(self, name: str) -> LaneMetrics:
        """One system's metrics by name (`dense`, `bm25`, `hybrid`)."""
        return next(m for m in self.systems if m.name == name)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (what `kb eval --json` prints)."""
        return {
            "queries": self.queries,
            "passages": self.passages,
            "by_kind": self.by_kind,
            "lane_thresholds": {k: round(v, 4) for k, v in self.lane_thresholds.items()},
            "hybrid_by_part": [vars(b) | {"recall3": round(b.recall3, 4)} for b in self.breakdown],
            "systems": {
                m.name: {
                    **{f"recall@{k}": round(v, 4) for k, v in m.recall.items()},
                    "mrr": round(m.mrr, 4),
                    "no_passage_accuracy": round(m.no_passage_accuracy, 4),
                    "section_recall@3": round(m.section_recall3, 4),
                    "answerable": m.answerable,
                    "unanswerable": m.unanswerable,
                    "misses": [vars(miss) | {"returned": list(miss.returned)} for miss in m.misses],
                }
                for m in self.systems
            },
        }


class Lanes(Protocol):
    """What the evaluation needs from a retriever: its passages, each lane, and the fusion."""

    @property
    def passages(self) -> Sequence[Passage]:
        """Passages by row (the row numbers the lanes return)."""
        ...

    def dense_hits(self, query: str, k: int) -> list[tuple[int, float]]:
        """Dense lane: `(row, cosine)` best first."""
        ...

    def keyword_hits(self, query: str, k: int) -> list[tuple[int, float]]:
        """Keyword lane: `(row, normalised BM25)` best first."""
        ...

    def search(self, query: str, k: int = 5) -> list[Passage]:
        """The hybrid search users get."""
        ...


def default_golden_dir() -> Path:
    """`tests/retrieval/golden/` of the source tree."""
    return Path(__file__).resolve().parents[2] / "tests" / "retrieval" / "golden"


def _golden_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(path.glob("*.jsonl"))
    if path.is_file():
        return [path]
    raise UsageError(Msg("errors.eval.not_found", path=str(path)))


def _parse_line(line: str, origin: str) -> GoldenQuery:
    try:
        row = json.loads(line)
        query = GoldenQuery(
            query=str(row["query"]),
            lang=str(row.get("lang", "")),
            kind=str(row.get("kind", "")),
            expected_doc=row.get("expected_doc") or None,
            expected_anchor=row.get("expected_anchor") or None,
            origin=origin,
        )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(Msg("errors.eval.bad_line", origin=origin, detail=str(exc))) from exc
    if query.kind not in _KINDS or (query.kind == "none") != (query.expected_doc is None):
        expected = str(query.expected_doc)
        said = Msg("errors.eval.disagree", origin=origin, kind=query.kind, expected=expected)
        raise UsageError(said)
    return query


def load_golden(path: Path | None = None) -> list[GoldenQuery]:
    """Golden questions from a `.jsonl` file or every `*.jsonl` in a folder.

    Raises:
        UsageError: the path does not exist or a line is not a valid golden query.
    """
    queries: list[GoldenQuery] = []
    for file in _golden_files(path or default_golden_dir()):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.lstrip().startswith("//"):
                queries.append(_parse_line(line, f"{file.name}:{number}"))
    return queries


def _first_hit(doc_ids: Sequence[str], expected: str) -> int | None:
    return next((rank for rank, doc in enumerate(doc_ids, 1) if doc == expected), None)


def _label(passage: Passage) -> str:
    """How a returned passage is recorded: `doc_id#anchor`."""
    return f"{passage.doc_id}#{passage.anchor}" if passage.anchor else passage.doc_id


def score_system(
    name: str, golden: Sequence[GoldenQuery], results: Sequence[Sequence[str]]
) -> LaneMetrics:
    """Metrics of one system from what it returned for each golden question: doc ids, or
    `doc_id#anchor` labels (which also give the section recall@3)."""
    hits = dict.fromkeys(CUTOFFS, 0)
    reciprocal = 0.0
    answerable = unanswerable = silent = sectioned = section_hits = 0
    misses: list[Miss] = []
    for question, labels in zip(golden, results, strict=True):
        doc_ids = [label.split("#", 1)[0] for label in labels]
        if question.expected_doc and question.expected_anchor:
            sectioned += 1
            wanted = f"{question.expected_doc}#{question.expected_anchor}"
            section_hits += wanted in labels[:3]
        if question.expected_doc is None:
            unanswerable += 1
            silent += not doc_ids
            if doc_ids:
                misses.append(Miss(question.query, None, tuple(doc_ids[:3])))
            continue
        answerable += 1
        rank = _first_hit(doc_ids, question.expected_doc)
        for k in CUTOFFS:
            hits[k] += rank is not None and rank <= k
        reciprocal += 1.0 / rank if rank else 0.0
        if rank is None or rank > 3:
            misses.append(Miss(question.query, question.expected_doc, tuple(doc_ids[:3])))
    return LaneMetrics(
        name=name,
        recall={k: hits[k] / answerable if answerable else 0.0 for k in CUTOFFS},
        mrr=reciprocal / answerable if answerable else 0.0,
        no_passage_accuracy=silent / unanswerable if unanswerable else 1.0,
        section_recall3=section_hits / sectioned if sectioned else 0.0,
        answerable=answerable,
        unanswerable=unanswerable,
        misses=tuple(misses),
    )


def _lane_alone(
    golden: Sequence[GoldenQuery], hits: Sequence[list[tuple[int, float]]]
) -> tuple[list[list[int]], float]:
    """A lane used on its own, with its own threshold set as favourably as the golden set
    allows: just above the best score any find-nothing question reached in that lane (an
    optimistic baseline: it is tuned on the very questions it is scored on)."""
    silent = [h[0][1] for q, h in zip(golden, hits) if q.expected_doc is None and h]
    threshold = max(silent, default=float("-inf"))
    rows = [[row for row, _ in h] if h and h[0][1] > threshold else [] for h in hits]
    return rows, threshold


def evaluate(
    golden: Sequence[GoldenQuery],
    lanes: Lanes,
    *,
    depth: int = max(CUTOFFS),
) -> EvaluationReport:
    """Score dense-only, BM25-only and hybrid retrieval on every golden question.

    The lanes alone answer with their top `depth` rows when their best score clears their
    own optimistic threshold (see `_lane_alone`); hybrid is the retriever's `search`.
    """
    passages = lanes.passages
    metrics = []
    thresholds: dict[str, float] = {}
    for name, search in (("dense", lanes.dense_hits), ("bm25", lanes.keyword_hits)):
        rows, thresholds[name] = _lane_alone(golden, [search(q.query, depth) for q in golden])
        results = [[_label(passages[row]) for row in r] for r in rows]
        metrics.append(score_system(name, golden, results))
    hybrid = [[_label(p) for p in lanes.search(q.query, depth)] for q in golden]
    metrics.append(score_system("hybrid", golden, hybrid))
    kinds: dict[str, int] = {}
    for question in golden:
        kinds[question.kind] = kinds.get(question.kind, 0) + 1
    return EvaluationReport(
        queries=len(golden),
        passages=len(passages),
        systems=tuple(metrics),
        breakdown=tuple(breakdown(golden, hybrid)),
        by_kind=dict(sorted(kinds.items())),
        lane_thresholds=thresholds,
    )


def open_lanes(settings: Any, *, direct: bool = False) -> Lanes:
    """The lanes to evaluate: the real retriever (`engine.open_retriever`) when it exposes
    its lanes, else both lanes built in memory from the configured document folders."""
    if not direct:
        try:
            from assistant.retrieval.engine import open_retriever
        except ImportError:
            pass
        else:
            retriever = open_retriever(settings)
            needed = ("passages", "dense_hits", "keyword_hits", "search")
            if all(hasattr(retriever, name) for name in needed):
                lanes: Lanes = retriever
                return lanes
    from assistant import locations
    from assistant.retrieval.encoder import make_encoder

    roots = [Path(settings.knowledge_dir), locations.user_documents_dir()]
    from assistant.evaluation.calibration import DirectLanes

    return DirectLanes([r for r in roots if r.is_dir()], make_encoder(settings))
