"""Answers as JSON: the public `ask --json` object, and a lossless record for the store.

The public object has exactly the keys issue 5 lists; numbers are plain numbers in SI base
units (bytes, FLOPs, seconds, bytes/s). The record form keeps every field of every record so a
stored turn can be loaded back into an :class:`~assistant.records.Answer` (follow-ups need the
previous :class:`~assistant.records.Query`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from assistant.records import (
    Answer,
    Check,
    Citation,
    Option,
    Passage,
    Query,
    ScalePoint,
    Scaling,
    Scenario,
    Suggestion,
)

__all__ = ["SCENARIO_KEYS", "answer_from_record", "answer_to_json", "answer_to_record"]

#: The scenario keys of the public JSON, in order.
SCENARIO_KEYS = (
    "task",
    "method",
    "params",
    "active_params",
    "model",
    "gpu",
    "gpu_count",
    "nodes",
    "precision",
    "kv_dtype",
    "tokens",
    "deadline_seconds",
    "zero_stage",
    "context_length",
    "prompt_tokens",
    "output_tokens",
    "batch_size",
    "site_profile",
    "gpus_per_node",
    "gpu_memory_bytes",
    "intra_link",
    "inter_link",
    "nics_per_node",
    "tensor_parallel",
    "pipeline_parallel",
    "price_per_gpu_hour",
    "currency",
    "budget",
    "purchase_budget",
    "purchase_price",
    "purchase_unit",
    "price_per_kwh",
    "concurrency",
    "target_tokens_per_second",
    "target_qps",
    "target_first_token_seconds",
    "first_token_quantile",
    "target_seconds_per_token",
    "fastest_stream",
    "host_ram_bytes",
    "offload",
    "pue",
    "power_budget_watts",
    "hours_per_day",
    "mfu",
    "tokens_per_second_per_gpu",
    "gpu_hours",
    "recompute",
    "micro_batch",
    "pipeline_microbatches",
    "expert_parallel",
)


def _number(value: Any) -> Any:
    """JSON-safe plain values: NaN and infinities become None (JSON has no literal for them),
    and so does a refusal's exception (`Answer.refusal`: the answer's text already words it)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, BaseException):
        return None
    return value


def _scenario_json(scenario: Scenario) -> dict[str, Any]:
    return {key: _number(getattr(scenario, key)) for key in SCENARIO_KEYS}


def _check_json(check: Check) -> dict[str, Any]:
    return {
        "kind": check.kind,
        "verdict": check.verdict,
        "summary": check.summary,
        "figures": {k: _number(v) for k, v in check.figures.items()},
    }


def _citation_json(citation: Citation) -> dict[str, Any]:
    passage = citation.passage
    return {
        "id": passage.id,
        "source": passage.source,
        "title": passage.title,
        "text": passage.text,
        "score": _number(passage.score),
    }


def _unique_citations(answer: Answer) -> list[Citation]:
    unique: dict[str, Citation] = {}
    for citation in answer.citations:
        unique.setdefault(citation.passage.id, citation)
    return list(unique.values())


def answer_to_json(answer: Answer) -> dict[str, Any]:
    """The public JSON object of one answer (what `gpu-advisor ask --json` prints).

    Examples:
        >>> from assistant.records import Answer, Query, Scenario
        >>> q = Query(question="hi", language="en", scenario=Scenario(), in_domain=False)
        >>> a = Answer(question="hi", language="en", verdict="unknown", binding_constraint=None,
        ...            text="…", query=q)
        >>> sorted(answer_to_json(a))[:4]
        ['answer', 'assumptions', 'binding_constraint', 'checks']
    """
    scenario = answer.scenario or answer.query.scenario
    return {
        "question": answer.question,
        "language": answer.language,
        "verdict": answer.verdict,
        "binding_constraint": answer.binding_constraint,
        "answer": answer.text,
        "assumptions": list(answer.assumptions),
        "scenario": _scenario_json(scenario),
        "checks": [_check_json(c) for c in answer.checks],
        "citations": [_citation_json(c) for c in _unique_citations(answer)],
        "suggestions": [{"change": s.change, "effect": s.effect} for s in answer.suggestions],
        "options": [_option_json(o) for o in answer.options],
        "scaling": _scaling_json(answer.scaling),
    }


def _scaling_json(scaling: Scaling | None) -> dict[str, Any] | None:
    """Duration or throughput against GPU count (None when not computed)."""
    if scaling is None:
        return None
    record: dict[str, Any] = _json_safe(dataclasses.asdict(scaling))
    return record


def _option_json(option: Option) -> dict[str, Any]:
    """One option of a comparison: its scenario, verdict, key figures and what it wins on."""
    return {
        "scenario": _scenario_json(option.scenario),
        "verdict": option.verdict,
        "figures": {k: _number(v) for k, v in option.figures.items()},
        "wins": list(option.wins),
    }


def answer_to_record(answer: Answer) -> dict[str, Any]:
    """Every field of the answer, nested records included, as JSON-ready data.

    The same data as `_json_safe(dataclasses.asdict(answer))` in one pass: `asdict`
    deep-copies every leaf, which took 1-2 ms of each answer saved in an `ask` batch.
    """
    record: dict[str, Any] = _record(answer)
    return record


def _record(value: Any) -> Any:
    names = _field_names(type(value))
    if names is not None:
        return {name: _record(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        return {str(k): _record(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_record(v) for v in value]
    return _number(value)


_FIELD_NAMES: dict[type[Any], tuple[str, ...] | None] = {}


def _field_names(cls: type[Any]) -> tuple[str, ...] | None:
    """The field names of a dataclass type (None for any other type), kept per type."""
    if cls not in _FIELD_NAMES:
        fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else None
        _FIELD_NAMES[cls] = None if fields is None else tuple(f.name for f in fields)
    return _FIELD_NAMES[cls]


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return _number(value)


def _build(cls: type[Any], data: Mapping[str, Any], **overrides: Any) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k in names}
    for name, value in kwargs.items():
        if isinstance(value, list):
            kwargs[name] = tuple(value)
    kwargs.update(overrides)
    return cls(**kwargs)


def _query_from(data: Mapping[str, Any]) -> Query:
    """A query record, with its comparison's options (scenarios, which a follow-up carries) and
    the in-domain turn an off-topic one keeps (`Query.thread`)."""
    thread = data.get("thread")
    query: Query = _build(
        Query,
        data,
        scenario=_build(Scenario, data.get("scenario") or {}),
        options=tuple(_build(Scenario, o) for o in data.get("options") or ()),
        thread=_query_from(thread) if thread else None,
    )
    return query


def _scaling_from(data: Mapping[str, Any] | None) -> Scaling | None:
    if not data:
        return None
    points = tuple(_build(ScalePoint, p) for p in data.get("points") or ())
    scaling: Scaling = _build(Scaling, data, points=points)
    return scaling


def answer_from_record(record: Mapping[str, Any]) -> Answer:
    """Rebuild an :class:`Answer` from :func:`answer_to_record` output (unknown keys ignored)."""
    query = _query_from(record["query"])
    scenario = record.get("scenario")
    answer: Answer = _build(
        Answer,
        record,
        query=query,
        scenario=_build(Scenario, scenario) if scenario else None,
        checks=tuple(
            _build(
                Check, c, figures=dict(c.get("figures") or {}), inputs=dict(c.get("inputs") or {})
            )
            for c in record.get("checks") or ()
        ),
        suggestions=tuple(_build(Suggestion, s) for s in record.get("suggestions") or ()),
        options=tuple(
            _build(
                Option,
                o,
                scenario=_build(Scenario, o.get("scenario") or {}),
                figures=dict(o.get("figures") or {}),
            )
            for o in record.get("options") or ()
        ),
        citations=tuple(
            _build(Citation, c, passage=_build(Passage, c["passage"]))
            for c in record.get("citations") or ()
        ),
        scaling=_scaling_from(record.get("scaling")),
    )
    return answer
