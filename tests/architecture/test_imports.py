"""The import rules of the layout, read from the source (every `import` of every module).

- `calculators/` imports nothing from `assistant/` and only the standard library.
- No import cycle between packages (`assistant.parse`, `calculators.planner`, … and the
  top-level modules), counting imports inside functions but not `TYPE_CHECKING` ones. The
  two root `__init__` modules are the public facades: what they re-export is not an edge
  (`retrieval.manifest` reads `assistant.__version__`, `assistant` lazily re-exports `answer`);
  neither is a module's lazy `__getattr__` re-export (`gpu_memory.min_gpus_to_fit`, now in
  `layout_search`).
- The adapters never import each other: `tui` imports no `cli` module, and `cli` imports
  the TUI only in its launcher command (`cli/tui.py` → `make_app`).
- `calculate` (and `parse`) never import `render`: they produce facts; render words them.
- Evaluation tooling (`assistant/evaluation/`) is off the answering path: no stage, adapter
  display code or calculator imports it; `kb eval` does.
- Inside `calculators/` the layers point down: the catalog imports no formula or planner
  module, and formula modules import no planner module.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("assistant", "calculators")


@dataclass(frozen=True)
class Import:
    """One imported module name, where it is written and whether it is typing-only."""

    importer: str
    name: str
    line: int
    type_only: bool


def module_name(path: Path) -> str:
    """`assistant/parse/__init__.py` → `assistant.parse`."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the two packages, by dotted name."""
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _names(node: ast.stmt, importer: str, is_package: bool) -> list[str]:
    """The modules `node` imports: `from a import b` names `a.b` when that is a module."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    base = _absolute(node, importer, is_package)
    submodules = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules()]
    return submodules or [base]


@cache
def imports_of(name: str) -> tuple[Import, ...]:
    """Every import statement of module `name`, at any depth (functions included)."""
    path = modules()[name]
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt) and _is_type_checking(child):
                assert isinstance(child, ast.If)
                for stmt in child.body:
                    visit_one(stmt, True)
                for stmt in child.orelse:
                    visit_one(stmt, type_only)
            else:
                visit_one(child, type_only)

    def visit_one(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            return  # a module's lazy re-exports (PEP 562) are a facade, not a dependency
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for imported in _names(node, name, is_package):
                found.append(Import(name, imported, node.lineno, type_only))
        else:
            visit(node, type_only)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return tuple(found)


def _internal(name: str) -> str | None:
    """The project module `name` refers to (a module or the package holding it), or None."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


def unit(name: str) -> str:
    """The package a module belongs to for the cycle rule: its first two name parts."""
    return ".".join(name.split(".")[:2])


def _edges(prefix: str, target: str) -> list[str]:
    """`importer:line -> imported` for every import from under `prefix` into `target`."""
    return [
        f"{i.importer}:{i.line} -> {i.name}"
        for name in modules()
        if name == prefix or name.startswith(prefix + ".")
        for i in imports_of(name)
        if (_internal(i.name) or "").startswith(target) and not i.type_only
    ]


def test_the_walk_sees_every_kind_of_import() -> None:
    # The rules below are only as good as this walk: it must find eager, lazy, relative and
    # typing-only imports, or a forbidden import could hide in a function body.
    found = {(i.name, i.type_only) for i in imports_of("assistant.pipeline")}
    assert ("assistant.calculate", False) in found  # module level
    assert ("assistant.retrieval.engine", False) in found  # inside a function
    assert ("assistant.config", True) in found  # under TYPE_CHECKING
    assert ("calculators.messages", False) in {
        (i.name, i.type_only) for i in imports_of("calculators.planner.plan")
    }


def test_calculators_use_only_the_standard_library() -> None:
    bad = [
        f"{i.importer}:{i.line} imports {i.name}"
        for name in modules()
        if name.startswith("calculators")
        for i in imports_of(name)
        if not i.name.startswith("calculators")
        and i.name.split(".")[0] not in sys.stdlib_module_names
    ]
    assert not bad, "\n".join(bad)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def package_graph() -> dict[str, set[str]]:
    """Package → the packages it imports at run time (lazy imports included)."""
    graph: dict[str, set[str]] = {}
    for name in modules():
        if name in PACKAGES:
            continue  # the facades' re-export lists
        for i in imports_of(name):
            target = _internal(i.name)
            if target is not None and not i.type_only and unit(target) != unit(name):
                graph.setdefault(unit(name), set()).add(unit(target))
    return graph


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_packages() -> None:
    assert _cycles(package_graph()) == []


#: What answering a question loads: the stages, the adapters' display code and their records.
_RUNTIME = (
    "assistant.parse",
    "assistant.calculate",
    "assistant.retrieval",
    "assistant.compose",
    "assistant.render",
    "assistant.i18n",
    "assistant.pipeline",
    "assistant.tui",
    "assistant.cli.ask",
    "calculators",
)


@pytest.mark.parametrize(
    ("importer", "forbidden", "allowed"),
    [
        ("assistant.tui", "assistant.cli", ()),
        # The `tui` command is the launcher: it builds the app through its one factory.
        ("assistant.cli", "assistant.tui", ("assistant.cli.tui:19 -> assistant.tui.app",)),
        ("assistant.calculate", "assistant.render", ()),
        ("assistant.parse", "assistant.render", ()),
        ("assistant.calculate", "assistant.compose", ()),
        ("assistant.parse", "assistant.calculate", ()),
        ("calculators.catalog", "calculators.planner", ()),
        # evaluation tooling is off the answering path: only `kb eval` and tests use it
        *((stage, "assistant.evaluation", ()) for stage in _RUNTIME),
    ],
)
def test_forbidden_imports(importer: str, forbidden: str, allowed: tuple[str, ...]) -> None:
    assert [e for e in _edges(importer, forbidden) if e not in allowed] == []


_FORMULA_MODULES = (
    "calculators.collectives",
    "calculators.compute_time",
    "calculators.mfu",
    "calculators.roofline",
    "calculators.gpu_memory",
    "calculators.memory_breakdown",
    "calculators.stage_memory",
    "calculators.serving_memory",
    "calculators._memory_parts",
    "calculators.network",
    "calculators.power",
    "calculators.serving",
    "calculators.serving_layout",
    "calculators.serving_solvers",
    "calculators.serving_rate",
    "calculators.serving_target",
    "calculators.sizing",
)


@pytest.mark.parametrize("formulas", _FORMULA_MODULES)
def test_formula_modules_do_not_know_the_planner(formulas: str) -> None:
    assert formulas in modules(), f"{formulas} moved: update this list"
    assert _edges(formulas, "calculators.planner") == []


def test_the_catalog_imports_no_formula_module() -> None:
    bad = [e for f in _FORMULA_MODULES for e in _edges("calculators.catalog", f)]
    assert bad == []
