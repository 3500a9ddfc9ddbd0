"""The unverified change the planner's candidate generators produce."""

from __future__ import annotations

from dataclasses import dataclass

from calculators.messages import Msg
from calculators.planner.plan import Plan

__all__ = ["Candidate"]


@dataclass(frozen=True)
class Candidate:
    """An unverified change."""

    kind: str
    description: Msg
    """What to change, as a catalog message (``suggest.…``)."""
    plan: Plan
    rank: int
    changes: int = 1
    hardware: bool = False
    size: float = 0.0
    """How big the change is within its rank (see `.suggestions`); smaller first."""
