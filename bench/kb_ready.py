"""Where "knowledge base ready" goes: the steps of `open_retriever` plus the warm-up search, timed
one after another in a fresh process on a warm home (index built, OS file cache warm).

`bench/tui_startup.py` measures the figure in the chat app (from process start, with the
app's own work alongside); this script splits the loader's part into its steps, run in
sequence (the real loader overlaps the encoder load with the index load in a thread): imports,
jieba, the USE-m model (sentencepiece tokenizer and cached weights) and its first encode, the
document list and its comparison with the manifest, the index load, the retriever, the
pipeline's imports, and the first two searches. Wall and CPU (user + system) milliseconds of
each step, the median over `--runs` fresh processes, and the load average.

Usage: `.venv/bin/python bench/kb_ready.py [--runs 3]`
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, os, time
def cpu():
    t = os.times()
    return t.user + t.system
marks, last = [], [time.perf_counter(), cpu()]
def mark(label):
    wall, used = time.perf_counter(), cpu()
    marks.append((label, wall - last[0], used - last[1]))
    last[:] = [wall, used]
from assistant.config import Settings
from assistant.retrieval import engine
from assistant.retrieval.manifest import (
    chunk_cap, collect_sources, expected_identity, stale_reasons,
)
mark("imports (config, engine)")
settings = Settings()
from assistant.retrieval.encoder import make_encoder
from assistant.retrieval.tokenize import import_jieba
encoder = make_encoder(settings)
import_jieba()
mark("jieba import")
encoder.encode(["warm-up"])
mark("USE-m load + first encode")
paths = engine.KnowledgePaths.from_settings(settings)
sources = collect_sources(paths.knowledge_dir, paths.documents_dir)
mark("document list")
data, problem = engine._load(paths.index_dir)
assert data is not None, problem
mark("index load")
assert not stale_reasons(data.manifest, expected_identity(encoder, chunk_cap(encoder)), sources)
mark("manifest comparison")
retriever = engine.HybridRetriever(data, encoder, min_score=settings.min_score)
mark("retriever (faiss import)")
import assistant.pipeline
mark("pipeline imports")
retriever.search("GPU 显存 memory", k=1)
mark("first search (jieba dictionary)")
retriever.search("8张A100能训练70B模型吗", k=5)
mark("second search")
print(json.dumps(marks))
"""


def _env(home: Path, pycache: Path) -> dict[str, str]:
    env = dict(os.environ, GPU_ADVISOR_HOME=str(home), PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(os.pathsep)
    return env


def _child(env: dict[str, str]) -> list[tuple[str, float, float]]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"child failed:\n{done.stderr[-2000:]}")
    return [tuple(m) for m in json.loads(done.stdout.splitlines()[-1])]  # type: ignore[misc]


def main() -> int:
    """Build the index once, then print the median step times of `--runs` warm processes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        env = _env(Path(scratch) / "home", Path(scratch) / "pycache")
        subprocess.run(
            [sys.executable, "-m", "assistant", "kb", "search", "显存"],
            env=env,
            capture_output=True,
            check=True,
            cwd=ROOT,
        )
        runs = [_child(env) for _ in range(args.runs)]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for index, (label, _, _) in enumerate(runs[0]):
        wall = statistics.median(r[index][1] for r in runs) * 1000
        cpu = statistics.median(r[index][2] for r in runs) * 1000
        print(f"{label:<34} wall {wall:6.0f} ms   cpu {cpu:6.0f} ms")
    total_wall = statistics.median(sum(m[1] for m in r) for r in runs)
    total_cpu = statistics.median(sum(m[2] for m in r) for r in runs)
    print(f"{'total':<34} wall {total_wall:6.2f} s    cpu {total_cpu:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
