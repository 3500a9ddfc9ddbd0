"""The unverified change the planner's candidate generators produce."""

from __future__ import annotations

from dataclasses import dataclass

from calculators.planner.plan import Plan

__all__ = ["Candidate"]


@dataclass(frozen=True)
class Candidate:
    """An unverified change."""

    kind: str
    description_en: str
    description_zh: str
    plan: Plan
    rank: int
    changes: int = 1
    hardware: bool = False
    size: float = 0.0
    """How big the change is within its rank (see `.suggestions`); smaller first."""
