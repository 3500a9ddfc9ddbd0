"""Registry of the public calculators: name -> (function, typed input dataclass, docstring).

The input dataclass of each calculator is derived from its keyword-only signature, so the
registry never drifts from the code. `Calculator.run(**inputs)` checks the names first and
raises CalculatorInputError naming an unknown or missing input.

Examples:
    >>> REGISTRY["cost"].run(gpu_hours=10, price_per_gpu_hour=2.0)
    20.0
    >>> sorted(f.name for f in dataclasses.fields(REGISTRY["cost"].inputs))
    ['gpu_hours', 'price_per_gpu_hour']
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from calculators import (
    compute_time,
    gpu_memory,
    layout_search,
    network,
    planner,
    power,
    power_budget,
    serving,
    serving_layout,
    serving_solvers,
    serving_target,
    sizing,
)
from calculators.catalog.hardware import GPU, Link
from calculators.catalog.models import ModelSpec
from calculators.messages import Msg
from calculators.planner import compare
from calculators.planner.plan import Plan
from calculators.validate import fail

__all__ = ["REGISTRY", "Calculator", "calculator_names"]

#: Names that annotations may refer to under TYPE_CHECKING only.
_TYPES: dict[str, Any] = {"GPU": GPU, "Link": Link, "ModelSpec": ModelSpec, "Plan": Plan}


@dataclass(frozen=True)
class Calculator:
    """One registered calculator."""

    name: str
    function: Callable[..., Any]
    inputs: type
    """A frozen dataclass with one field per parameter (defaults as in the signature)."""
    doc: str
    """The docstring's first paragraph."""
    accepts_extra: bool = False
    """True when the function takes **options (passed through unchecked)."""

    def run(self, **kwargs: Any) -> Any:
        """Call the calculator with keyword inputs, checking the names against its signature."""
        names = {f.name for f in dataclasses.fields(self.inputs)}
        extra = {k: v for k, v in kwargs.items() if k not in names}
        if extra and not self.accepts_extra:
            field = sorted(extra)[0]
            fail(
                field,
                extra[field],
                Msg("invalid.not_an_input", function=self.name, inputs=", ".join(sorted(names))),
            )
        known = {k: v for k, v in kwargs.items() if k in names}
        missing = [
            f.name
            for f in dataclasses.fields(self.inputs)
            if f.name not in known and f.default is dataclasses.MISSING
        ]
        if missing:
            fail(missing[0], None, Msg("invalid.required_by", function=self.name))
        values = self.inputs(**known)
        arguments = {f.name: getattr(values, f.name) for f in dataclasses.fields(values)}
        return self.function(**arguments, **extra)


def _inputs_dataclass(name: str, function: Callable[..., Any]) -> tuple[type, bool]:
    hints = typing.get_type_hints(function, localns=_TYPES)
    fields: list[tuple[str, Any, Any]] = []
    extra = False
    for param in inspect.signature(function).parameters.values():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            extra = True
            continue
        kind = hints.get(param.name, Any)
        if param.default is inspect.Parameter.empty:
            fields.append((param.name, kind, dataclasses.field()))
        else:
            fields.append((param.name, kind, dataclasses.field(default=param.default)))
    fields.sort(key=lambda f: f[2].default is not dataclasses.MISSING)  # required first
    title = "".join(part.title() for part in name.split("_")) + "Inputs"
    return dataclasses.make_dataclass(title, fields, frozen=True, kw_only=False), extra


def _register(*functions: Callable[..., Any]) -> Mapping[str, Calculator]:
    table: dict[str, Calculator] = {}
    for function in functions:
        name = function.__name__
        inputs, extra = _inputs_dataclass(name, function)
        doc = inspect.getdoc(function) or ""
        table[name] = Calculator(name, function, inputs, doc.split("\n\n")[0], extra)
    return MappingProxyType(dict(sorted(table.items())))


REGISTRY: Mapping[str, Calculator] = _register(
    gpu_memory.training_memory,
    gpu_memory.finetune_memory,
    gpu_memory.inference_memory,
    layout_search.min_gpus_to_fit,
    compute_time.training_flops,
    compute_time.chinchilla_tokens,
    compute_time.training_time,
    compute_time.gpus_for_deadline,
    compute_time.inference_speed,
    network.transfer_time,
    network.allreduce_time,
    network.training_step_network,
    power.energy,
    power.cost,
    power.energy_cost,
    power_budget.gpus_within_power,
    compare.compare_gpus,
    planner.evaluate,
    serving.serving_speed,
    serving_layout.serving_layout,
    serving_solvers.max_concurrency,
    serving_target.gpus_for_target,
    sizing.largest_model,
    sizing.budget_compute,
    sizing.job_energy_cost,
)


def calculator_names() -> tuple[str, ...]:
    """Registered names, sorted."""
    return tuple(REGISTRY)
