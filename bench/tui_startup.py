"""Time to first paint and to first answer of the chat app, cold and warm.

Each run is a fresh Python process (so imports count) driving the real app headless through
Textual's Pilot, with the real encoder, index and jieba:

- cold: an empty GPU_ADVISOR_HOME, so the first start builds the index;
- warm: the same home again (index on disk, OS file cache warm).

"first paint" is the first refresh after the chat screen mounted; "first key shown" is how long
a key pressed right after the first paint takes to appear in the input (input accepted at
once); "knowledge ready" is when the loader worker finished (encoder, index, jieba, a warm-up
search); "first answer" is when the founding question, typed right after the first paint, has
its answer on screen. Each figure is given as wall time and as CPU time (user + system, all
threads) since the process started: the machine is shared, and under load wall times stretch
while CPU times stay close to what the work costs. Targets (issue 13): first paint <= 0.5 s,
input accepted at once (here: a key shown within 0.1 s), knowledge ready <= 2 s warm.

Usage: `.venv/bin/python bench/tui_startup.py [--runs N] [--question "..."]`
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import os, time
start = time.perf_counter()
def cpu():
    t = os.times()
    return t.user + t.system
import asyncio, json, sys
from textual import events
from assistant.config import Settings
from assistant.tui.app import AssistantApp
imported, imported_cpu = time.perf_counter() - start, cpu()
marks = {}

class Timed(AssistantApp):
    # The first refresh after mount is when the first frame has been composed and painted.
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(
            lambda: marks.setdefault("paint", (time.perf_counter() - start, cpu()))
        )

async def main():
    app = Timed(Settings(ui_language="zh"))
    async with app.run_test(size=(120, 40)) as pilot:
        while "paint" not in marks:
            await pilot.pause(0.01)
        # Input accepted: a key sent right after the first paint, while the knowledge base
        # loads, is in the input box. (Pilot.press would also wait for every animation, such
        # as the loading indicator's, which is not what a typist waits for.)
        prompt = app.chat.query_one("#prompt-input")
        typed = time.perf_counter()
        app.post_message(events.Key("x", "x"))
        while prompt.value != "x":
            await asyncio.sleep(0.001)
        key_s = time.perf_counter() - typed
        prompt.value = sys.argv[1]
        await pilot.press("enter")
        while app.load_state == "loading":
            await pilot.pause(0.01)
        ready, ready_cpu = time.perf_counter() - start, cpu()
        while app.chat.pending_turn is not None:
            await pilot.pause(0.01)
        answered, answered_cpu = time.perf_counter() - start, cpu()
        shown = app.chat.last_answer
        verdict = shown.verdict if shown is not None else "none (" + app.load_state + ")"
    print(json.dumps({"import": imported, "import_cpu": imported_cpu,
                      "paint": marks["paint"][0], "paint_cpu": marks["paint"][1],
                      "key": key_s, "ready": ready, "ready_cpu": ready_cpu,
                      "answer": answered, "answer_cpu": answered_cpu, "verdict": verdict}))

asyncio.run(main())
"""


#: Child processes keep their bytecode here (as an installed package has its .pyc files);
#: this repository's environment sets PYTHONDONTWRITEBYTECODE, which would add ~0.4 s of
#: compiling to every start.
PYCACHE = Path(tempfile.gettempdir()) / "gpu-advisor-bench-pycache"


def run_once(home: Path, question: str) -> dict[str, float | str]:
    """One app start in a fresh process; seconds since the process began its imports."""
    env = dict(os.environ, GPU_ADVISOR_HOME=str(home), PYTHONPYCACHEPREFIX=str(PYCACHE))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, question],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent.parent,
    )
    if done.returncode != 0:
        sys.exit(f"run failed:\n{done.stderr[-2000:]}")
    figures: dict[str, float | str] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["process"] = time.perf_counter() - began
    return figures


#: (figure, target in seconds or None, label) in the order printed.
FIGURES = (
    ("import", None, "import"),
    ("paint", 0.5, "first paint"),
    ("key", 0.1, "first key shown"),
    ("ready", 2.0, "knowledge ready"),
    ("answer", None, "first answer"),
)


def show(label: str, runs: list[dict[str, float | str]]) -> None:
    """Print the median of each figure over `runs`: wall seconds from process start, CPU
    seconds (user + system, all threads) used by then, and the target where there is one."""

    def median(key: str) -> float:
        return statistics.median(float(r[key]) for r in runs)

    print(f"{label} ({len(runs)} run(s), verdict {runs[-1]['verdict']}):")
    for key, target, name in FIGURES:
        cpu = f"cpu {median(key + '_cpu'):5.2f} s" if key + "_cpu" in runs[0] else " " * 12
        aim = ""
        if target is not None:
            aim = f"target <= {target:g} s: {'met' if median(key) <= target else 'NOT met'}"
        print(f"  {name:<16} wall {median(key):5.2f} s   {cpu}   {aim}".rstrip())


def _load_average() -> None:
    """The machine is shared: wall times stretch with the load, CPU times much less."""
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} CPUs")


def main() -> None:
    """Run the cold and warm measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="runs of each kind (median shown)")
    parser.add_argument("--question", default="吉林GPU服务器能训练千亿模型吗?")
    parser.add_argument(
        "--warm-only", action="store_true", help="build the index once, time warm starts only"
    )
    args = parser.parse_args()
    cold: list[dict[str, float | str]] = []
    warm: list[dict[str, float | str]] = []
    if args.warm_only:
        home = Path(tempfile.mkdtemp(prefix="gpu-advisor-bench-"))
        try:
            run_once(home, args.question)  # builds the index, fills the bytecode cache
            warm = [run_once(home, args.question) for _ in range(args.runs)]
        finally:
            shutil.rmtree(home, ignore_errors=True)
        print(f"gpu-advisor TUI start-up, seconds from process start (median of {args.runs})")
        show("warm", warm)
        _load_average()
        return
    for _ in range(args.runs):
        home = Path(tempfile.mkdtemp(prefix="gpu-advisor-bench-"))
        try:
            cold.append(run_once(home, args.question))
            warm.append(run_once(home, args.question))
        finally:
            shutil.rmtree(home, ignore_errors=True)
    print(f"gpu-advisor TUI start-up, seconds from process start (median of {args.runs})")
    show("cold", cold)
    show("warm", warm)
    _load_average()


if __name__ == "__main__":
    main()
