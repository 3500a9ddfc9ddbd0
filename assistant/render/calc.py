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

from assistant.i18n import numbers, t, text
from assistant.records import Language
from assistant.render.labels import (
    CHECK_TITLES,
    TASKS,
    VERDICTS,
    catalog_word,
    figure_label,
    value_text,
    word,
)
from assistant.sanitize import markup
from calculators.catalog.hardware import GPU, Link
from calculators.catalog.models import ModelSpec
from calculators.messages import Msg
from calculators.planner.plan import CheckResult, Evaluation, Figure, Plan
from calculators.power import JOULES_PER_KWH
from calculators.units import (
    format_bytes,
    format_count,
    format_flops,
    format_rate,
)

_VERDICT_STYLE = {
    "ok": "green",
    "tight": "yellow",
    "fail": "bold red",
    "n/a": "dim",
    "feasible": "bold green",
    "conditional": "bold yellow",
    "infeasible": "bold red",
}


def figure_text(key: str, value: Figure, language: str = "en") -> str:
    """A figure with its unit, chosen from the key's suffix (SI base units in, labels out).

    Examples:
        >>> figure_text("weights_bytes", 140e9)
        '140.0 GB (130.4 GiB)'
        >>> figure_text("memory_bandwidth_bytes_per_s", 3.35e12)
        '3.4 TB/s'
        >>> figure_text("seconds", 86400 * 3)
        '3 days'
        >>> figure_text("tokens", 1.998e12), figure_text("tokens", 1.998e12, "zh")
        ('2.0 T tokens (2.0e12)', '2.0 T token (2.0e12)')
        >>> figure_text("energy_joules", 1.18e13), figure_text("flash_attention", "True")
        ('11.8 TJ', 'yes')
        >>> figure_text("seconds", 55 * 365.25 * 86400, "zh")
        '55 年'
        >>> figure_text("price_per_kwh", 0.6), figure_text("gpu_kwh", 0.6)
        ('0.6', '0.6 kWh')
    """
    lang = zh_or_en(language)
    if value is None:
        return "-"
    if isinstance(value, bool) or value in ("True", "False"):
        return word("yes" if value in (True, "True") else "no", language)
    if isinstance(value, str):
        return format_count(int(value)) if value.isdigit() else value_text(value, language)
    number = float(value)
    if key.endswith(("_bytes_per_s", "_bytes_per_second", "_bytes_per_second_for_90pct")):
        # One unit, bytes per second as datasheets quote HBM and NVLink ("3.35 TB/s"); a
        # second figure in bits ("26.8 Tb/s") beside it read as a different bandwidth.
        return format_rate(number)
    if key.endswith("bytes") or "_bytes_" in key and not key.endswith("per_s"):
        return f"{format_bytes(number)} ({format_bytes(number, binary=True)})"
    if key.endswith("flops_per_s"):
        return format_rate(number, unit="FLOP/s")
    if key.endswith("ops_per_s"):
        return format_rate(number, unit="OP/s")
    if key.endswith("flops"):
        return format_flops(number)
    if key.endswith(("seconds", "_seconds_per_step", "seconds_per_token")):
        return numbers.duration_text(number, lang)
    if "tokens_per_s" in key:
        return format_rate(number, unit=t("unit.tokens_per_s", lang))
    if key in PERCENT_FIGURES:
        return f"{number:.1%}"
    if key in _RATES:
        return format_count(number, unit=t(f"unit.{key}", lang))
    if key.startswith("price_per_"):  # money per unit ("0.6"), not an amount of that unit
        return format_count(number)
    if key.endswith("_joules"):
        return format_rate(number, unit="J")
    if key.endswith("_watts"):
        return format_rate(number, unit="W")
    for suffix, unit in _COUNTS:
        if key.endswith(suffix):
            return format_count(number, unit=t(f"unit.{unit}", lang))
    return format_count(number)


#: Fractions shown as percentages (the TUI's side panel uses the same set).
PERCENT_FIGURES = frozenset(
    {
        "mfu",
        "scaling_efficiency",
        "scaling_efficiency_overlap",
        "comm_compute_ratio",
        "utilization",
        "runtime_overhead_fraction",
        "comm_share_of_token_time",
        "prefill_share",
        "hfu",
        "pipeline_bubble",
        "schedule_bubble",
        "network_efficiency",
    }
)
#: Figures counted per something; their unit words are `unit.<key>` in the catalog.
_RATES = frozenset({"kwh_per_hour", "kwh_per_million_tokens", "joules_per_token"})
#: Key suffix → the catalog's `unit.<name>` for counts.
_COUNTS = (
    ("kwh", "kwh"),
    ("days", "days"),
    ("gpu_hours", "gpu_hours"),
    ("tokens", "tokens"),
    ("_params", "params"),
    ("params_published", "params"),
    ("steps", "steps"),
)


def jsonable(value: Any) -> Any:
    """Turn records into JSON-ready values: SI numbers, inf/NaN as null, records as dicts."""
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return None
    if isinstance(value, (GPU, Link)):
        return value.name
    if isinstance(value, Msg):  # machine-readable output keeps the calculators' English
        return text(value, "en")
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


def message_json(message: Msg) -> dict[str, Any]:
    """A catalog message as ``{"key": …, "params": {…}}``: numbers in SI units, nested
    messages in the same shape, lists as lists (the stable, language-free form)."""
    return {"key": message.key, "params": {k: _param_json(v) for k, v in message.items()}}


def _param_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return message_json(value)
    if isinstance(value, tuple):
        return [_param_json(v) for v in value]
    return jsonable(value)


def evaluation_json(evaluation: Evaluation, language: Language = "en") -> dict[str, Any]:
    """The evaluation as a JSON object (suggestions carry their outcome, not the full plan);
    each suggestion's ``description`` in `language`, its ``message`` as key and parameters."""
    return {
        "plan": jsonable(evaluation.plan),
        "verdict": evaluation.verdict,
        "binding": evaluation.binding,
        "checks": [jsonable(c) for c in evaluation.checks],
        "suggestions": [
            {
                "kind": s.kind,
                "description": text(s.description, language),
                "message": message_json(s.description),
                "hardware": s.hardware,
                "evaluation_after": jsonable(s.evaluation_after),
            }
            for s in evaluation.suggestions
        ],
        "assumptions": jsonable(evaluation.assumptions),
        "remarks": [
            {"text": text(r, language), "message": message_json(r)} for r in evaluation.remarks
        ],
    }


def _verdict(verdict: str, language: str) -> str:
    style = _VERDICT_STYLE.get(verdict, "")
    text = VERDICTS.get(verdict, verdict) if language == "zh" else verdict
    return f"[{style}]{text}[/]"


def render_evaluation(console: Console, evaluation: Evaluation, language: str = "en") -> None:
    """Print the verdict, each check as a table with its formula and sources, and suggestions."""
    plan, zh = evaluation.plan, language == "zh"
    task = TASKS[plan.task][1 if zh else 0]
    binding = ""
    if evaluation.binding:
        kind = CHECK_TITLES[evaluation.binding][1 if zh else 0]
        binding = f"（{word('binding', language)}：{kind}）" if zh else f" (binding: {kind})"
    where = f"{plan.gpus} 张 {plan.gpu.name}" if zh else f"{plan.gpus} x {plan.gpu.name}"
    console.print(
        f"[bold]{task}[/] {markup(plan.model.name)}"
        + ("，" if zh else " on ")
        + markup(where)
        + ("：" if zh else ": ")
        + _verdict(evaluation.verdict, language)
        + binding
    )
    for check in evaluation.checks:
        _render_check(console, check, language)
    _render_suggestions(console, evaluation, language)
    for remark in evaluation.remarks:
        console.print(
            f"  {_colon('note', language)}{markup(text(remark, zh_or_en(language)))}",
            soft_wrap=True,
        )
    for line in _plan_assumptions(evaluation, language):
        console.print(f"  [dim]{_colon('assumption', language)}{markup(line)}[/]", soft_wrap=True)


def zh_or_en(language: str) -> Language:
    """The language as the pipeline's Language literal."""
    return "zh" if language == "zh" else "en"


def _colon(text: str, language: str) -> str:
    return word(text, language) + ("：" if language == "zh" else ": ")


def _plan_assumptions(evaluation: Evaluation, language: str) -> tuple[str, ...]:
    return tuple(text(a, zh_or_en(language)) for a in evaluation.assumptions)


#: Memory components left out of the table when they are zero (e.g. gradients for inference);
#: the one list, for `calc` and the TUI's Calculations tab alike.
HIDE_WHEN_ZERO = frozenset(
    {
        "gradients_bytes",
        "optimizer_bytes",
        "activations_bytes",
        "kv_cache_bytes",
        "kv_cache_bytes_per_gpu",
        "overhead_bytes",
        "offloaded_bytes",
    }
)


def _cell(check: CheckResult, key: str, value: Figure, language: str) -> str:
    if value is None and "inter_node" in key and check.figures.get("nodes") == 1:
        return word("n/a (single node)", language)
    return markup(figure_text(key, value, language))


def _render_check(console: Console, check: CheckResult, language: str = "en") -> None:
    zh = language == "zh"
    title = CHECK_TITLES[check.kind][1 if zh else 0]
    rows = [(k, v) for k, v in check.figures.items() if not (k in HIDE_WHEN_ZERO and v == 0)]
    if all(value is None for _, value in rows):  # n/a check: no table, just the reason
        console.print(f"[bold]{_colon(title, language)}[/]{_verdict(check.verdict, language)}")
    else:
        table = Table(
            title=_colon(title, language) + _verdict(check.verdict, language), title_justify="left"
        )
        table.add_column(word("figure", language))
        table.add_column(word("value", language), justify="right")
        for key, value in rows:
            table.add_row(figure_label(key, language), _cell(check, key, value, language))
        console.print(table)

    def prefix(text: str) -> str:
        return "  " + _colon(text, language)

    if check.limiting:
        console.print(prefix("limiting") + figure_label(check.limiting, language))
    if check.flags:
        console.print(prefix("flags") + markup(", ".join(check.flags)))
    if check.formula is not None:
        formula = text(check.formula, zh_or_en(language))
        console.print(prefix("formula") + markup(formula), soft_wrap=True)
    if check.inputs:
        inputs = ", ".join(f"{k}={figure_text(k, v, language)}" for k, v in check.inputs.items())
        console.print(prefix("inputs") + markup(inputs), soft_wrap=True)
    for line in check.assumptions:
        said = text(line, zh_or_en(language))
        console.print(f"[dim]{prefix('assumption')}{markup(said)}[/]", soft_wrap=True)
    for source in check.sources:
        console.print(f"[dim]{prefix('source')}{markup(source)}[/]", soft_wrap=True)


#: `calc power` shows its energies in kWh, the unit electricity is billed in (--json keeps J).
_SHOWN_IN_KWH = {
    "gpu_energy_joules": "gpu_kwh",
    "host_energy_joules": "host_kwh",
    "facility_overhead_joules": "facility_overhead_kwh",
    "energy_joules": "facility_kwh",
}


def render_power(console: Console, check: CheckResult, headline: Msg, language: str = "en") -> None:
    """`calc power`: the run in one sentence, then its check with the energies in kWh."""
    console.print(markup(text(headline, zh_or_en(language))), soft_wrap=True)
    figures = {
        _SHOWN_IN_KWH.get(key, key): (
            value / JOULES_PER_KWH
            if key in _SHOWN_IN_KWH and isinstance(value, (int, float))
            else value
        )
        for key, value in check.figures.items()
    }
    _render_check(console, dataclasses.replace(check, figures=figures), language)


def power_json(check: CheckResult, headline: Msg, language: str = "en") -> dict[str, Any]:
    """`calc power --json`: the inputs and figures in SI units (plus the total in kWh), the
    formula, assumptions and message in `language`, and the sources."""
    lang = zh_or_en(language)
    energy_joules = check.figures["energy_joules"]
    return {
        **jsonable(check.inputs),
        **jsonable(check.figures),
        "kwh": float(energy_joules or 0.0) / JOULES_PER_KWH,
        "formula": text(check.formula, lang) if check.formula is not None else None,
        "assumptions": [text(said, lang) for said in check.assumptions],
        "sources": list(check.sources),
        "message": text(headline, lang),
    }


def _render_suggestions(console: Console, evaluation: Evaluation, language: str) -> None:
    if not evaluation.suggestions:
        return
    zh = language == "zh"
    console.print(f"[bold]{word('what would it take', language).capitalize()}[/]")
    for rank, change in enumerate(evaluation.suggestions, 1):
        said = text(change.description, zh_or_en(language))
        after = change.evaluation_after
        failing = ("、" if zh else ", ").join(
            CHECK_TITLES[k][1 if zh else 0] for k in after.failing
        )
        status = (
            word("works", language)
            if after.works
            else word("still fails", language) + ("：" if zh else ": ") + failing
        )
        console.print(f"  {rank}. {markup(said)} -> {status}", soft_wrap=True)


def catalog_table(
    title: str, columns: list[str], rows: list[list[str]], language: str = "en"
) -> Table:
    """A plain table for the catalog listings (titles and headings in ``language``)."""
    table = Table(title=markup(catalog_word(title, language)), title_justify="left")
    for column in columns:
        table.add_column(catalog_word(column, language))
    for row in rows:
        table.add_row(*(markup(cell) for cell in row))
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
        "task": plan.task,
        "model": plan.model.name,
        "gpu": plan.gpu.name,
        "gpus": plan.gpus,
        "gpus_per_node": plan.gpus_per_node,
        "zero_stage": plan.zero_stage,
        "tensor_parallel": plan.tensor_parallel,
        "pipeline_parallel": plan.pipeline_parallel,
    }
