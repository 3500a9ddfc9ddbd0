"""Calculate stage: :class:`~assistant.records.Query` → :class:`Outcome` (verdict, checks,
suggestions, assumptions), by running the calculators' planner.

`outcome` is the entry point; `defaults` fills open slots with stated defaults; `layouts`
chooses the parallel layout; `summaries`, `headline`, `focus`, `concepts` and `formulas` turn
the planner's figures into the sentences of the answer.
"""

from __future__ import annotations

from assistant.calculate.outcome import Outcome, calculate, to_plan

__all__ = ["Outcome", "calculate", "to_plan"]
