"""`ask --json` identity: the JSON answers to a fixed sample of golden questions, saved or
compared byte for byte, to show a speed-up changed no answer.

- `--save FILE`: write the `ask --json --independent` output of the sample to FILE;
- `--against FILE`: answer the same sample and compare with FILE line by line, printing the
  questions whose JSON differs (exit 1 when any does);
- neither: print the sample's size and the SHA-256 of its output.

The sample is every k-th distinct golden question (`--sample 50` of them, spread over every
file), answered in one `ask` process on stdin, as a batch is in real use, against a fresh
home folder (the conversation store starts empty, so nothing carries over between runs).

Usage: `.venv/bin/python bench/json_identity.py [--sample 50] [--save F | --against F]`
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def sample(size: int) -> list[str]:
    """`size` distinct golden questions spread evenly over the golden files, in file order."""
    from bench.golden_answers import golden_questions

    questions = golden_questions()
    step = max(1, len(questions) // max(1, size))
    return questions[::step][:size]


def answers(questions: list[str]) -> list[str]:
    """One `ask --json --independent` line per question answered, from one process, then the
    exit code and the messages on stderr (a refused question's)."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, GPU_ADVISOR_HOME=home)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(
            os.pathsep
        )
        done = subprocess.run(
            [sys.executable, "-m", "assistant", "ask", "--json", "--independent"],
            input="\n".join(questions) + "\n",
            env=env,
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )
    if done.returncode not in (0, 2):  # 2: a line refused as bad input (golden rows have some)
        sys.exit(f"ask failed ({done.returncode}):\n{done.stderr[-2000:]}")
    # a refused line prints its message on stderr: part of what must not change
    return [
        *done.stdout.splitlines(),
        f"-- exit {done.returncode}, stderr:",
        *done.stderr.splitlines(),
    ]


def compare(got: list[str], saved: list[str]) -> int:
    """Print each output line that differs (the start of the new one); how many differ."""
    differ = [i for i in range(max(len(got), len(saved))) if got[i : i + 1] != saved[i : i + 1]]
    for i in differ:
        print(f"DIFFERS  line {i + 1}: {(got[i : i + 1] or saved[i : i + 1])[0][:120]}")
    return len(differ)


def main() -> int:
    """Save, compare or digest the sample's JSON answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    questions = sample(args.sample)
    got = answers(questions)
    if args.save:
        args.save.write_text("\n".join(got) + "\n", encoding="utf-8")
    if args.against:
        saved = args.against.read_text(encoding="utf-8").splitlines()
        differ = compare(got, saved)
        print(f"{len(questions)} questions, {differ} output lines differ")
        return 1 if differ else 0
    digest = hashlib.sha256("\n".join(got).encode("utf-8")).hexdigest()
    print(f"{len(questions)} questions, {len(got)} JSON lines, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
