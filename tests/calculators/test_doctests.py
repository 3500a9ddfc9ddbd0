"""Run the docstring examples of the calculator modules owned here."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "calculators.catalog.names",
    "calculators.units",
    "calculators.catalog.hardware",
    "calculators.catalog.models",
    "calculators.catalog.extend",
    "calculators.catalog.hf_config",
    "calculators.catalog.fabrics",
    "calculators._memory_parts",
    "calculators.gpu_memory",
    "calculators.serving_memory",
    "calculators.stage_memory",
    "calculators.layout_search",
    "calculators.compute_time",
    "calculators.mfu",
    "calculators.roofline",
    "calculators.planner.suggestions",
    "calculators.planner.fabrics",
    "calculators.planner.compare",
    "calculators.planner.energy",
    "calculators.serving",
    "calculators.planner.serving",
    "calculators.serving_layout",
    "calculators.serving_solvers",
    "calculators.serving_rate",
    "calculators.serving_target",
    "calculators.serving_streams",
    "calculators.serving_loop",
    "calculators.sizing",
    "calculators.purchase",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def _all_calculator_modules() -> list[str]:
    """Every module of the calculators package (what `pytest --doctest-modules calculators`
    collects), so that an example added anywhere in it is run, not only in MODULES."""
    import pkgutil

    import calculators

    found = pkgutil.walk_packages(calculators.__path__, prefix="calculators.")
    return sorted(["calculators", *(info.name for info in found)])


@pytest.mark.parametrize("name", _all_calculator_modules())
def test_every_calculator_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module)  # as --doctest-modules runs them: no option flags
    assert result.failed == 0
