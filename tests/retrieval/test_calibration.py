"""Calibration: both lanes in memory over a small knowledge folder, and the threshold sweep
(real USE-m encoder and jieba)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.evaluation.calibration import SWEEP_GRID, DirectLanes, sweep
from assistant.evaluation.retrieval import evaluate, load_golden

DOCS = {
    "memory.zh.md": (
        '+++\nid = "memory"\nlang = "zh"\ntitle = "显存估算"\nkind = "guide"\n+++\n\n'
        "## 训练 {#training}\n\n"
        "混合精度 Adam 训练每个参数需要 16 字节显存：权重、梯度和优化器状态。\n\n"
        "## 推理 {#inference}\n\n推理时 KV 缓存随上下文长度和批大小线性增长。\n"
    ),
    "memory.en.md": (
        '+++\nid = "memory"\nlang = "en"\ntitle = "GPU memory"\nkind = "guide"\n+++\n\n'
        "## Training {#training}\n\nMixed-precision Adam needs 16 bytes of GPU memory per "
        "parameter: weights, gradients and optimizer states.\n\n"
        "## Inference {#inference}\n\nThe KV cache grows linearly with context length and "
        "batch size.\n"
    ),
    "network.en.md": (
        '+++\nid = "network"\nlang = "en"\ntitle = "Networking"\nkind = "guide"\n+++\n\n'
        "## InfiniBand {#infiniband}\n\nAn NDR InfiniBand port carries 400 Gb/s; "
        "all-reduce time grows with model size over bandwidth.\n"
    ),
}
GOLDEN = [
    {"query": "训练每个参数要多少字节显存", "lang": "zh", "kind": "zh", "expected_doc": "memory"},
    {
        "query": "KV cache size at long context",
        "lang": "en",
        "kind": "en",
        "expected_doc": "memory",
        "expected_anchor": "inference",
    },
    {"query": "InfiniBand 带宽多少", "lang": "zh", "kind": "cross", "expected_doc": "network"},
    {"query": "红烧肉怎么做", "lang": "zh", "kind": "none", "expected_doc": None},
    {
        "query": "Who won the football match last night?",
        "lang": "en",
        "kind": "none",
        "expected_doc": None,
    },
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("calibration")
    (root / "knowledge").mkdir()
    for name, text in DOCS.items():
        (root / "knowledge" / name).write_text(text, encoding="utf-8")
    lines = "\n".join(json.dumps(q, ensure_ascii=False) for q in GOLDEN)
    (root / "golden.jsonl").write_text(lines + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def lanes(folder: Path) -> DirectLanes:
    from assistant.retrieval.encoder import UseEncoder

    return DirectLanes([folder / "knowledge"], UseEncoder(threads=2))


def test_direct_lanes_read_every_passage_and_search(lanes: DirectLanes) -> None:
    assert {p.doc_id for p in lanes.passages} == {"memory", "network"}
    top = lanes.search("InfiniBand 400 Gb/s", k=1)
    assert [p.doc_id for p in top] == ["network"]
    assert lanes.search("红烧肉怎么做", k=3) == []


def test_evaluation_over_direct_lanes(lanes: DirectLanes, folder: Path) -> None:
    report = evaluate(load_golden(folder / "golden.jsonl"), lanes)
    hybrid = report.system("hybrid")
    assert (hybrid.answerable, hybrid.unanswerable) == (3, 2)
    assert hybrid.recall[3] == 1.0
    assert hybrid.no_passage_accuracy == 1.0


def test_sweep_ranks_settings_silent_first(lanes: DirectLanes, folder: Path) -> None:
    points = sweep(load_golden(folder / "golden.jsonl"), lanes, top=5)
    assert len(points) == 5
    assert points[0].metrics.no_passage_accuracy == 1.0
    keys = [(-p.metrics.no_passage_accuracy, -p.metrics.recall[3]) for p in points]
    assert keys == sorted(keys)
    for point in points:
        assert set(point.options) == set(SWEEP_GRID)
        assert point.options["dense_floor"] < point.options["dense_accept"]


def test_kb_eval_direct_sweep_json(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.cli.kb_eval import kb_eval

    monkeypatch.setenv("GPU_ADVISOR_KNOWLEDGE", str(folder / "knowledge"))
    result = CliRunner().invoke(
        kb_eval, ["--direct", "--sweep", "--json", "--golden", str(folder / "golden.jsonl")]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows[0]["no_passage_accuracy"] == 1.0
    assert {"dense_floor", "keyword_accept", "margin"} <= set(rows[0])
