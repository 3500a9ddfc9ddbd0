"""The record the calculate stage returns for one question (:class:`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assistant.records import (
    Check,
    CheckKind,
    Language,
    Option,
    Scaling,
    Scenario,
    SiteProfile,
    Suggestion,
    Verdict,
)

if TYPE_CHECKING:
    from calculators.errors import CalculatorInputError
    from calculators.planner.plan import Evaluation

__all__ = ["Outcome", "refused"]


@dataclass(frozen=True)
class Outcome:
    """What the calculators concluded about one question."""

    verdict: Verdict
    lead: str
    """The sentence that follows the verdict (what was evaluated, or what to ask instead)."""
    scenario: Scenario | None = None
    binding: CheckKind | None = None
    checks: tuple[Check, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    assumptions: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    site: SiteProfile | None = None
    mode: str = "verdict"
    """"verdict" (a job was evaluated), "concept" (in the domain, nothing to compute: cite the
    best passages for the question), "offtopic" or "invalid" (nothing is cited)."""
    facts: tuple[str, ...] = ()
    """Catalog facts shown with a concept answer (datasheet figures of the GPUs named)."""
    ask: str = ""
    """What to add to the question for a computed verdict (concept answers)."""
    remarks: tuple[str, ...] = ()
    """The planner's notes on its suggestions ("a longer deadline is impractical: 54 years")."""
    focus: str = ""
    """The direct answer to what was asked, when sizing already wrote it (else derived)."""
    options: tuple[Option, ...] = ()
    """For a comparison: each option's verdict, key figures and wins."""
    scaling: Scaling | None = None
    """Duration or throughput at a few GPU counts around the evaluated one (for the chart)."""
    evaluation: Evaluation | None = field(default=None, repr=False, compare=False)
    """The planner's evaluation behind `checks`; `scaling` is derived from the final one only."""
    refusal: CalculatorInputError | None = field(default=None, repr=False, compare=False)
    """The input error refused ("-5张A100"): `pipeline.answer` raises it (exit 2 in `ask`)."""


def refused(exc: CalculatorInputError, lang: Language, s: Scenario) -> Outcome:
    """A refused input, said in the question's language and naming its slot."""
    from assistant.i18n import input_error, text
    from calculators.messages import Msg

    lead = text(Msg("answer.invalid_input", error=input_error(exc, lang)), lang)
    return Outcome(verdict="unknown", lead=lead, scenario=s, mode="invalid", refusal=exc)
