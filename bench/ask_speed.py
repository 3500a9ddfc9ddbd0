"""`ask` speed: one question in a fresh process (cold), and each further question of a batch.

- cold: `gpu-advisor ask QUESTION` in a fresh Python process, the index already built (as after
  the first start), median and best of `--runs`; target <= 1.5 s;
- batch: `ask --independent` with the golden questions on stdin, against the same with only
  the first of them: (time of N - time of 1) / (N - 1) per further question; target <= 15 ms;
  each answer is saved to the conversation store, as in real use;
- per stage, in one process: parse + calculate + retrieval + compose (`pipeline.answer`),
  and the rendering of the terminal text, per golden question (median, p90).

Child processes write bytecode to a private folder (`PYTHONPYCACHEPREFIX`), warmed by a first
run, as an installed package has its `.pyc` files: this repository's environment sets
PYTHONDONTWRITEBYTECODE, which would otherwise add ~0.4 s of compiling to every start. Wall
and CPU (user + system) times are both printed, and the load average: the machine is shared,
and under load wall times stretch while CPU times stay close to what the work costs.

Usage: `.venv/bin/python bench/ask_speed.py [--runs 5] [--batch 175]`
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUESTION = "8张A100能训练70B模型吗"


def _env(home: Path, pycache: Path) -> dict[str, str]:
    env = dict(os.environ, GPU_ADVISOR_HOME=str(home), PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(os.pathsep)
    return env


def _ask(env: dict[str, str], args: list[str], stdin: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `ask` process."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "ask", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    wall = time.perf_counter() - started
    after = os.times()
    # Exit code 2: a batch line refused as bad input (the golden set has such rows).
    if done.returncode not in (0, 2):
        sys.exit(f"ask failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def _questions(limit: int | None) -> list[str]:
    from bench.golden_answers import golden_questions

    return golden_questions(limit)


def _target(value: float, target: float, unit: str) -> str:
    return f"target <= {target:g} {unit} (wall): {'met' if value <= target else 'NOT met'}"


def cold(env: dict[str, str], runs: int) -> None:
    """One question per fresh process: wall and CPU (user + system, all threads) seconds."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = _ask(env, [QUESTION])
        walls.append(wall)
        cpus.append(cpu)
    wall = statistics.median(walls)
    print(
        f"{'ask cold, one question':<34} wall median {wall:6.2f} s  best {min(walls):6.2f} s"
        f"   cpu median {statistics.median(cpus):6.2f} s   {_target(wall, 1.5, 's')}"
    )


def batch(env: dict[str, str], questions: list[str], runs: int) -> None:
    """Per further question of a stdin batch: the difference of a long and a one-line batch,
    in wall and in CPU milliseconds; at least 3 samples, so the median is one of several (a
    shared machine moves a single sample by up to 2x)."""
    walls, cpus = [], []
    for _ in range(max(3, runs // 2)):
        one_wall, one_cpu = _ask(env, ["--independent"], questions[0] + "\n")
        many_wall, many_cpu = _ask(env, ["--independent"], "\n".join(questions) + "\n")
        walls.append((many_wall - one_wall) / (len(questions) - 1) * 1000)
        cpus.append((many_cpu - one_cpu) / (len(questions) - 1) * 1000)
    wall = statistics.median(walls)
    print(
        f"{'ask batch, each further question':<34} wall median {wall:6.1f} ms  best "
        f"{min(walls):6.1f} ms   cpu median {statistics.median(cpus):6.1f} ms   "
        f"{_target(wall, 15, 'ms')}  ({len(questions)} questions)"
    )


def stages(home: Path, questions: list[str]) -> None:
    """pipeline.answer and rendering per question, in this process (retriever warm)."""
    os.environ["GPU_ADVISOR_HOME"] = str(home)
    from assistant.config import Settings
    from assistant.pipeline import answer, default_retriever
    from assistant.render.brief import brief_markdown
    from calculators.errors import CalculatorInputError

    settings = Settings()
    retriever = default_retriever(settings)
    answer(questions[0], settings=settings, retriever=retriever)
    answering, rendering = [], []
    for question in questions:
        started = time.perf_counter()
        try:
            result = answer(question, settings=settings, retriever=retriever)
        except CalculatorInputError:  # a golden row refused as bad input
            continue
        middle = time.perf_counter()
        brief_markdown(result.text)
        answering.append((middle - started) * 1000)
        rendering.append((time.perf_counter() - middle) * 1000)
    for label, times in (("pipeline.answer", answering), ("brief rendering", rendering)):
        ordered = sorted(times)
        print(
            f"{label:<34} median {statistics.median(ordered):6.1f} ms  p90 "
            f"{ordered[int(0.9 * len(ordered))]:6.1f} ms  max {ordered[-1]:6.1f} ms"
        )


def main() -> int:
    """Print the cold, batch and per-stage figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=175)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        home, pycache = Path(scratch) / "home", Path(scratch) / "pycache"
        env = _env(home, pycache)
        print("building the index and warming the bytecode cache…", flush=True)
        _ask(env, [QUESTION])
        _ask(env, [QUESTION])
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        cold(env, args.runs)
        questions = _questions(args.batch)
        batch(env, questions, args.runs)
        stages(home, questions)
        print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
