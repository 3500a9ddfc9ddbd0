"""Display for `gpu-advisor calc`: rich tables for people, plain SI numbers for `--json`.

The only place calculator numbers are formatted for this command. Byte figures show both GB
(10^9 bytes) and GiB (2^30 bytes), each labelled.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from calculators.hardware import GPU, Link
from calculators.models import ModelSpec
from calculators.plan import CheckResult, Evaluation, Figure, Plan
from calculators.units import format_bytes, format_flops, format_rate, format_seconds

_VERDICT_STYLE = {
    "ok": "green", "tight": "yellow", "fail": "bold red", "n/a": "dim",
    "feasible": "bold green", "conditional": "bold yellow", "infeasible": "bold red",
}


def figure_text(key: str, value: Figure) -> str:
    """A figure with its unit, chosen from the key's suffix (SI base units in, labels out).

    Examples:
        >>> figure_text("weights_bytes", 140e9)
        '140.0 GB (130.4 GiB)'
        >>> figure_text("seconds", 86400 * 3)
        '3.0 days'
    """
    if value is None:
        return "-"
    if isinstance(value, bool) or isinstance(value, str):
        return str(value)
    number = float(value)
    if key.endswith(("_bytes_per_s", "_bytes_per_second", "_bytes_per_second_for_90pct")):
        return f"{format_rate(number)} ({format_rate(number * 8, unit='b/s')})"
    if key.endswith("bytes") or "_bytes_" in key and not key.endswith("per_s"):
        return f"{format_bytes(number)} ({format_bytes(number, binary=True)})"
    if key.endswith("flops_per_s"):
        return format_rate(number, unit="FLOP/s")
    if key.endswith("flops"):
        return format_flops(number)
    if key.endswith(("seconds", "_seconds_per_step", "seconds_per_token")):
        return format_seconds(number)
    if key.endswith("tokens_per_s"):
        return format_rate(number, unit="tokens/s")
    if key in {"mfu", "scaling_efficiency", "scaling_efficiency_overlap"}:
        return f"{number:.1%}"
    for suffix, unit in _UNITS:
        if key.endswith(suffix):
            return f"{_plain(number)} {unit}"
    return _plain(number)


_UNITS = (("_joules", "J"), ("kwh", "kWh"), ("_watts", "W"), ("days", "days"),
          ("gpu_hours", "GPU-hours"), ("tokens", "tokens"))


def _plain(number: float) -> str:
    if math.isinf(number) or math.isnan(number):
        return str(number)
    if abs(number) >= 1e7:
        return f"{number:.3e}"
    if number.is_integer():
        return f"{int(number):,}"
    return f"{number:,.4g}" if abs(number) < 1e4 else f"{number:,.0f}"


def jsonable(value: Any) -> Any:
    """Turn records into JSON-ready values: SI numbers, inf/NaN as null, records as dicts."""
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return None
    if isinstance(value, (GPU, Link)):
        return value.name
    if isinstance(value, ModelSpec):
        return {"name": value.name, "params": value.params, "active_params": value.active_params}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def record_json(record: Any) -> dict[str, Any]:
    """A catalog record with all its fields (nested records by name)."""
    data = {f.name: jsonable(getattr(record, f.name)) for f in dataclasses.fields(record)}
    if isinstance(record, ModelSpec):
        data.update(params=record.params, active_params=record.active_params)
    return data


def evaluation_json(evaluation: Evaluation) -> dict[str, Any]:
    """The evaluation as a JSON object (suggestions carry their outcome, not the full plan)."""
    return {
        "plan": jsonable(evaluation.plan),
        "verdict": evaluation.verdict,
        "binding": evaluation.binding,
        "checks": [jsonable(c) for c in evaluation.checks],
        "suggestions": [
            {
                "kind": s.kind,
                "description_en": s.description_en,
                "description_zh": s.description_zh,
                "hardware": s.hardware,
                "evaluation_after": jsonable(s.evaluation_after),
            }
            for s in evaluation.suggestions
        ],
        "assumptions": list(evaluation.assumptions),
    }


def render_evaluation(console: Console, evaluation: Evaluation, language: str) -> None:
    """Print the verdict, each check as a table with its formula and sources, and suggestions."""
    plan = evaluation.plan
    style = _VERDICT_STYLE.get(evaluation.verdict, "")
    console.print(
        f"[bold]{plan.task}[/] {plan.model.name} on {plan.gpus} x {plan.gpu.name}: "
        f"[{style}]{evaluation.verdict}[/]"
        + (f" (binding: {evaluation.binding})" if evaluation.binding else "")
    )
    for check in evaluation.checks:
        _render_check(console, check)
    _render_suggestions(console, evaluation, language)
    for line in evaluation.assumptions:
        console.print(f"  [dim]assumption: {line}[/]")


def _render_check(console: Console, check: CheckResult) -> None:
    style = _VERDICT_STYLE.get(check.verdict, "")
    table = Table(title=f"{check.kind}: [{style}]{check.verdict}[/]", title_justify="left")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in check.figures.items():
        table.add_row(key, figure_text(key, value))
    console.print(table)
    if check.limiting:
        console.print(f"  limiting: {check.limiting}")
    if check.flags:
        console.print(f"  flags: {', '.join(check.flags)}")
    console.print(f"  formula: {check.formula}", soft_wrap=True)
    if check.inputs:
        inputs = ", ".join(f"{k}={figure_text(k, v)}" for k, v in check.inputs.items())
        console.print(f"  inputs: {inputs}", soft_wrap=True)
    for line in check.assumptions:
        console.print(f"  [dim]assumption: {line}[/]", soft_wrap=True)
    for line in check.sources:
        console.print(f"  [dim]source: {line}[/]", soft_wrap=True)


def _render_suggestions(console: Console, evaluation: Evaluation, language: str) -> None:
    if not evaluation.suggestions:
        return
    console.print("[bold]What would it take[/]" if language != "zh" else "[bold]怎样才能做到[/]")
    for rank, change in enumerate(evaluation.suggestions, 1):
        text = change.description_zh if language == "zh" else change.description_en
        after = change.evaluation_after
        if language == "zh":
            status = "可行" if after.works else "仍不满足：" + "、".join(after.failing)
        else:
            status = "works" if after.works else "still fails: " + ", ".join(after.failing)
        console.print(f"  {rank}. {text} -> {status}", soft_wrap=True)


def catalog_table(title: str, columns: list[str], rows: list[list[str]]) -> Table:
    """A plain table for the catalog listings."""
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    return table


def gpu_row(gpu: GPU) -> list[str]:
    """One catalog GPU as table cells (GB and GiB both shown)."""
    bf16 = gpu.bf16_flops_per_s or gpu.fp16_flops_per_s
    return [
        gpu.name,
        figure_text("memory_bytes", gpu.memory_bytes),
        format_rate(gpu.memory_bandwidth_bytes_per_s),
        format_rate(bf16, unit="FLOP/s") if bf16 else "-",
        format_rate(gpu.fp8_flops_per_s, unit="FLOP/s") if gpu.fp8_flops_per_s else "-",
        f"{gpu.intra_link} ({format_rate(gpu.intra_link_bytes_per_s)}/dir)",
        f"{gpu.tdp_watts:.0f} W",
    ]


def plan_summary(plan: Plan) -> dict[str, Figure]:
    """The plan's main inputs as figures (for the human header and tests)."""
    return {
        "task": plan.task, "model": plan.model.name, "gpu": plan.gpu.name, "gpus": plan.gpus,
        "gpus_per_node": plan.gpus_per_node, "zero_stage": plan.zero_stage,
        "tensor_parallel": plan.tensor_parallel, "pipeline_parallel": plan.pipeline_parallel,
    }
