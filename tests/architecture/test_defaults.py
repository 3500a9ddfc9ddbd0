"""Defaults have one home, `calculators/defaults.py`: no stage writes its own copy.

A planning default written as a literal somewhere else drifts: the answer states "4,096
tokens" from one place while a solver uses another. Checked on the source: a parameter or
field that takes a default (GPUs per node, context and sequence lengths, prompt and output
tokens) never defaults to a number literal, and no code fills one in with `x or <number>`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The slots whose defaults live in calculators/defaults.py.
DEFAULTED = frozenset(
    {"gpus_per_node", "context_length", "sequence_length", "prompt_tokens", "output_tokens"}
)
#: A model's own context (a catalog record field, not a planning default); and the direct-call
#: default of `training_memory` / `finetune_memory`, 2,048 (GPT-3's context) where the rest use
#: DEFAULT_CONTEXT_TOKENS (4,096): the planner always passes a length, but `calc` users and the
#: calculator tests rely on 2,048, so changing it is the calculators' decision, not this test's.
ALLOWED = frozenset(
    {"calculators/catalog/models.py:context_length", "calculators/gpu_memory.py:sequence_length"}
)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_number(node: ast.expr | None) -> bool:
    """A number literal other than 0 (which means "none", not a default: no attention term)."""
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value != 0


def literal_defaults(source: str, where: str) -> list[str]:
    """`where:line name` for each defaulted slot given a number literal in `source`.

    Examples:
        >>> literal_defaults("def f(*, gpus_per_node=8): return s.context_length or 4096", "x")
        ['x:1 gpus_per_node = 8', 'x:1 s.context_length or 4096']
        >>> literal_defaults("def f(*, gpus_per_node=DEFAULT_GPUS_PER_NODE): pass", "x")
        []
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            pairs = list(zip(args.args[::-1], args.defaults[::-1])) + list(
                zip(args.kwonlyargs, args.kw_defaults)
            )
            for arg, default in pairs:
                if arg.arg in DEFAULTED and _is_number(default):
                    found.append((node.lineno, f"{arg.arg} = {ast.unparse(default)}"))
        elif isinstance(node, ast.AnnAssign) and _name(node.target) in DEFAULTED:
            if _is_number(node.value):
                found.append((node.lineno, f"{_name(node.target)} = {ast.unparse(node.value)}"))
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            first, *rest = node.values
            if _name(first) in DEFAULTED and any(map(_is_number, rest)):
                found.append((node.lineno, ast.unparse(node)))
    return [
        f"{where}:{line} {what}"
        for line, what in sorted(found)
        if f"{where}:{what.split()[0]}" not in ALLOWED
    ]


def test_the_finder_finds_each_form() -> None:
    found = literal_defaults(
        "def f(a, prompt_tokens=1024, *, gpus_per_node: int = 8): pass\n"
        "class P:\n    sequence_length: int = 2048\n"
        "x = plan.context_length or 4096\ny = plan.context_length or 0\n",
        "m.py",
    )
    assert found == [
        "m.py:1 gpus_per_node = 8",
        "m.py:1 prompt_tokens = 1024",
        "m.py:3 sequence_length = 2048",
        "m.py:4 plan.context_length or 4096",
    ]


def test_no_stage_writes_its_own_default() -> None:
    found = [
        hit
        for package in ("assistant", "calculators")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.name != "defaults.py" or path.parent.name != "calculators"
        for hit in literal_defaults(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []
