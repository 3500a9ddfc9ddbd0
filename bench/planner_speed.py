"""Planner speed: evaluate (with suggestions) on the founding scenarios (target < 50 ms), and
calculate() per question over the golden set (target: median < 5 ms).

Run: .venv/bin/python bench/planner_speed.py

Wall times on the shared 2-core machine swing with the load (printed); the CPU times do less.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `bench.golden_answers`

from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import generic_model, lookup_model
from calculators.planner import evaluate
from calculators.planner.plan import Plan

SCENARIOS = {
    "100B pretrain, 8 x A100 PCIe, 25GbE": Plan(
        task="pretrain",
        model=generic_model(params=100e9),
        gpu=lookup_gpu("A100 80GB PCIe"),
        gpus=8,
        inter_link=lookup_link("25GbE"),
    ),
    "Llama-2-70B QLoRA, 8 x RTX 4090": Plan(
        task="finetune",
        method="qlora",
        model=lookup_model("Llama-2-70B"),
        gpu=lookup_gpu("RTX 4090"),
        gpus=8,
    ),
    "GPT-3 175B, 1024 x A100, HDR x 8": Plan(
        task="pretrain",
        model=lookup_model("GPT-3 175B"),
        gpu=lookup_gpu("A100"),
        gpus=1024,
        tokens=300e9,
        tensor_parallel=8,
        pipeline_parallel=16,
        inter_link=lookup_link("HDR"),
        nics_per_node=8,
    ),
    "Llama-2-70B inference, 2 x A100": Plan(
        task="inference", model=lookup_model("Llama-2-70B"), gpu=lookup_gpu("A100"), gpus=2
    ),
}


def golden_calculate_ms() -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of calculate() per golden question (parsing not timed), each
    question once, in file order (what a batch does: caches fill as it goes)."""
    from assistant.calculate import calculate
    from assistant.parse import parse
    from bench.golden_answers import load_golden
    from calculators.errors import CalculatorInputError

    walls, cpus = [], []
    for row in load_golden():
        try:
            query = parse(row["question"])
        except CalculatorInputError:  # a golden row that must be refused ("1e999 GPUs")
            continue
        started, cpu = time.perf_counter(), time.process_time()
        calculate(query)
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def main() -> int:
    """Print the first (cold) and the median of 5 further evaluations per scenario, then
    calculate() per golden question."""
    print(f"{'scenario':<40} {'verdict':<12} {'first ms':>9} {'median ms':>10} suggestions")
    for name, plan in SCENARIOS.items():
        started = time.perf_counter()
        result = evaluate(plan)
        first = (time.perf_counter() - started) * 1000
        times = []
        for _ in range(5):
            started = time.perf_counter()
            evaluate(plan)
            times.append((time.perf_counter() - started) * 1000)
        print(
            f"{name:<40} {result.verdict:<12} {first:>9.1f} {statistics.median(times):>10.1f} "
            f"{len(result.suggestions)}"
        )
    walls, cpus = golden_calculate_ms()
    for label, times in (("wall", walls), ("CPU", cpus)):
        print(
            f"calculate() over {len(times)} golden questions, {label}: median "
            f"{statistics.median(times):.1f} ms, p90 {sorted(times)[int(0.9 * len(times))]:.1f} "
            f"ms, mean {statistics.mean(times):.1f} ms, total {sum(times) / 1000:.2f} s"
        )
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
