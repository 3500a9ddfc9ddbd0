"""Answers before/after a change: `ask --json` and the terminal text over the golden questions.

`record OUT` runs the golden questions (one stdin batch, `--independent`) through `ask --json`
and through the plain terminal `ask` (in a fresh GPU_ADVISOR_HOME unless `--home` is given),
and writes both outputs to OUT (JSON: question list, JSON lines, text). `compare A B` reports
every question whose JSON object or whose text differs between two recordings, and exits 1 if
any does. Used to show that a speed change leaves every answer identical.

With no command (as `make bench` runs it) it records twice and compares the two: answers are
deterministic, so any difference is a bug.

Usage:
    .venv/bin/python bench/ask_compare.py
    .venv/bin/python bench/ask_compare.py record /tmp/before.json [--limit N]
    .venv/bin/python bench/ask_compare.py compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _questions(limit: int | None) -> list[str]:
    from bench.golden_answers import golden_questions

    return golden_questions(limit)


def _run(args: list[str], questions: list[str], home: Path) -> str:
    env = dict(os.environ, GPU_ADVISOR_HOME=str(home))
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(os.pathsep)
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "ask", "--independent", *args],
        input="\n".join(questions) + "\n",
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if done.returncode not in (0, 2):
        sys.exit(f"ask failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done.stdout


def record(out: Path, limit: int | None, home: Path | None = None) -> None:
    """Record into `out`, in `home` (default: a fresh folder, so the index is built first and
    the user's own home and conversations are never touched)."""
    questions = _questions(limit)
    with tempfile.TemporaryDirectory() as scratch:
        where = home or Path(scratch)
        data = {
            "questions": questions,
            "json": _run(["--json"], questions, where).splitlines(),
            "text": _run([], questions, where),
        }
    out.write_text(json.dumps(data, ensure_ascii=False, indent=0), encoding="utf-8")
    print(f"recorded {len(questions)} questions, {len(data['json'])} JSON lines -> {out}")


def compare(before: Path, after: Path) -> int:
    one = json.loads(before.read_text(encoding="utf-8"))
    two = json.loads(after.read_text(encoding="utf-8"))
    if one["questions"] != two["questions"]:
        print("the recordings ask different questions")
        return 1
    differ = 0
    for index, (a, b) in enumerate(zip(one["json"], two["json"], strict=False)):
        if a != b:
            differ += 1
            print(f"JSON differs for line {index + 1}: {a[:160]!r}\n    vs {b[:160]!r}")
    if len(one["json"]) != len(two["json"]):
        differ += 1
        print(f"JSON line counts differ: {len(one['json'])} vs {len(two['json'])}")
    if one["text"] != two["text"]:
        differ += 1
        print("terminal text differs")
    print(f"{len(one['questions'])} questions: {'identical' if not differ else 'DIFFERENT'}")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--limit", type=int, default=None)
    rec.add_argument("--home", type=Path, default=None, help="GPU_ADVISOR_HOME (default: fresh)")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.limit, args.home)
    elif args.command == "compare":
        sys.exit(compare(args.before, args.after))
    else:  # as `make bench` runs it: two recordings must be identical (answers are deterministic)
        with tempfile.TemporaryDirectory() as scratch:
            first, second = Path(scratch) / "first.json", Path(scratch) / "second.json"
            record(first, None)
            record(second, None)
            sys.exit(compare(first, second))


if __name__ == "__main__":
    main()
