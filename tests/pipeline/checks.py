"""A question's one check of a kind, calculated as the pipeline calculates it."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.parse import parse

__all__ = ["lead_and_figures"]


def lead_and_figures(question: str, kind: str = "cost") -> tuple[str, dict[str, float]]:
    """The answer's first sentence and the figures of its `kind` check (the first one)."""
    outcome = calculate(parse(question))
    check = next(c for c in outcome.checks if c.kind == kind)
    return outcome.lead, dict(check.figures)  # type: ignore[arg-type]
