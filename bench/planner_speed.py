"""Planner speed: evaluate (with suggestions) on the founding scenarios (target < 50 ms), and
calculate() per question over the golden set (target: median < 5 ms).

Run: .venv/bin/python bench/planner_speed.py
"""

from __future__ import annotations

import statistics
import sys
import time

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


def golden_calculate_ms() -> list[float]:
    """Milliseconds of calculate() per golden question (parsing not timed), warm caches off."""
    from assistant.calculate import calculate
    from assistant.parse import parse
    from bench.golden_answers import load_golden

    times = []
    for row in load_golden():
        query = parse(row["question"])
        started = time.perf_counter()
        calculate(query)
        times.append((time.perf_counter() - started) * 1000)
    return times


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
    times = golden_calculate_ms()
    print(
        f"calculate() over {len(times)} golden questions: median "
        f"{statistics.median(times):.1f} ms, p90 {sorted(times)[int(0.9 * len(times))]:.1f} ms,"
        f" total {sum(times) / 1000:.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
