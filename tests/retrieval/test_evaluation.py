"""The retrieval evaluation: metric arithmetic, golden-set loading, and the targets on the
shipped knowledge with the real retriever (USE-m, faiss, jieba BM25, fusion)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.errors import UsageError
from assistant.evaluation.retrieval import (
    EvaluationReport,
    GoldenQuery,
    evaluate,
    load_golden,
    open_lanes,
    score_system,
)

MIN_QUESTIONS = 60
MIN_FIND_NOTHING = 10


def _q(expected: str | None) -> GoldenQuery:
    return GoldenQuery("q", "en", "none" if expected is None else "en", expected)


def test_metrics_worked_by_hand() -> None:
    golden = [_q("a"), _q("b"), _q("c"), _q(None), _q(None)]
    results = [["a", "x"], ["x", "x", "b"], ["x"] * 5 + ["c"], [], ["a"]]
    m = score_system("s", golden, results)
    assert m.recall == {1: pytest.approx(1 / 3), 3: pytest.approx(2 / 3), 5: pytest.approx(2 / 3)}
    assert m.mrr == pytest.approx((1 + 1 / 3 + 1 / 6) / 3)  # the hit at rank 6 still counts
    assert m.no_passage_accuracy == pytest.approx(1 / 2)
    assert (m.answerable, m.unanswerable) == (3, 2)
    assert [miss.expected_doc for miss in m.misses] == ["c", None]


def test_load_golden_reads_every_file_and_names_bad_lines(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(
        '{"query": "显存", "lang": "zh", "kind": "zh", "expected_doc": "gpu-memory"}\n\n',
        encoding="utf-8",
    )
    (tmp_path / "b.jsonl").write_text(
        '{"query": "weather", "lang": "en", "kind": "none", "expected_doc": null}\n',
        encoding="utf-8",
    )
    assert [q.expected_doc for q in load_golden(tmp_path)] == ["gpu-memory", None]
    (tmp_path / "c.jsonl").write_text('{"query": "x", "kind": "none", "expected_doc": "d"}\n')
    with pytest.raises(UsageError, match=r"c\.jsonl:1"):
        load_golden(tmp_path)
    with pytest.raises(UsageError, match="not found"):
        load_golden(tmp_path / "missing")


def test_golden_set_is_large_varied_and_points_at_real_documents() -> None:
    golden = load_golden()
    kinds = {q.kind for q in golden}
    assert len(golden) >= MIN_QUESTIONS
    assert sum(q.expected_doc is None for q in golden) >= MIN_FIND_NOTHING
    assert {"zh", "en", "cross", "paraphrase", "typo", "none"} <= kinds
    shipped = {
        line.split("=", 1)[1].strip().strip('"')
        for path in (Path(__file__).parents[2] / "knowledge").rglob("*.md")
        for line in path.read_text(encoding="utf-8").splitlines()[:5]
        if line.startswith("id =")
    }
    unknown = {q.expected_doc for q in golden if q.expected_doc} - shipped
    assert not unknown, f"golden questions name documents that do not exist: {unknown}"


@pytest.fixture
def report(kb_home: Path) -> EvaluationReport:
    from assistant.config import Settings

    lanes = open_lanes(Settings())
    assert type(lanes).__name__ == "HybridRetriever"  # the real engine, not the fallback
    return evaluate(load_golden(), lanes)


@pytest.mark.e2e
def test_hybrid_meets_the_targets_and_beats_each_lane(report: EvaluationReport) -> None:
    hybrid, dense, bm25 = (report.system(n) for n in ("hybrid", "dense", "bm25"))
    misses = [(m.query, m.returned) for m in hybrid.misses]
    assert hybrid.recall[3] >= 0.95, misses
    assert hybrid.mrr >= 0.85, misses
    # The golden set now holds GPU-adjacent find-nothing questions (hard.jsonl) that share
    # words with the documents: the bar is the issue's (at most 1 in 10 answered, at most
    # 2 in 50 answerable ones silent), not perfection.
    answered = round((1 - hybrid.no_passage_accuracy) * hybrid.unanswerable)
    silent = sum(1 for m in hybrid.misses if m.expected_doc and not m.returned)
    assert answered <= hybrid.unanswerable / 10, misses
    assert silent <= hybrid.answerable * 2 / 50, misses
    for lane in (dense, bm25):
        assert hybrid.recall[3] >= lane.recall[3]
        assert hybrid.mrr > lane.mrr


@pytest.mark.e2e
def test_kb_eval_json(kb_home: Path, tmp_path: Path) -> None:
    from assistant.cli.kb_eval import kb_eval

    golden = tmp_path / "g.jsonl"
    golden.write_text(
        '{"query": "LoRA 微调 70B 需要多少显存", "lang": "zh", "kind": "zh", '
        '"expected_doc": "gpu-memory"}\n'
        '{"query": "红烧肉怎么做", "lang": "zh", "kind": "none", "expected_doc": null}\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(kb_eval, ["--json", "--golden", str(golden)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["systems"]) == {"dense", "bm25", "hybrid"}
    assert data["queries"] == 2
    assert data["systems"]["hybrid"]["no_passage_accuracy"] == 1.0
    assert data["systems"]["hybrid"]["recall@5"] == 1.0


def test_kb_eval_reports_a_missing_golden_file(tmp_path: Path) -> None:
    from assistant.cli.kb_eval import kb_eval

    result = CliRunner().invoke(kb_eval, ["--golden", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2
    assert "not found" in result.output


@pytest.mark.e2e
def test_held_out_style_set_meets_the_issue_targets(kb_home: Path) -> None:
    """The held-out-style set (tests/retrieval/heldout/), both parts, real engine. The
    targets are those of issue 11 for a held-out set, scaled to each part's size."""
    from assistant.config import Settings
    from assistant.evaluation.retrieval import breakdown

    lanes = open_lanes(Settings())
    golden = load_golden(Path(__file__).parent / "heldout")
    results = [[f"{p.doc_id}#{p.anchor}" for p in lanes.search(q.query, 5)] for q in golden]
    rows = {(b.part, b.lang): b for b in breakdown(golden, results)}
    for part in ("tune", "test"):
        every, zh = rows[(part, "all")], rows[(part, "zh")]
        # tune: 25 written from the documents + the 8 questions issue 11 names as silent
        assert (every.answerable, every.unanswerable) == ({"tune": 33, "test": 25}[part], 5)
        assert every.recall3 >= 0.8, (part, every)
        assert zh.recall3 >= 0.8, (part, zh)
        assert every.silent <= 1, (part, every)  # ≤ 2 in 50
        assert every.answered <= 1, (part, every)  # ≤ 1 in 10
