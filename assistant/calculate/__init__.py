"""Calculate stage: :class:`~assistant.records.Query` → :class:`Outcome` (verdict, checks,
suggestions, assumptions), by running the calculators' planner.

`outcome` is the entry point; `defaults` fills open slots with stated defaults; `layouts`
chooses the parallel layout; `summaries`, `headline`, `focus`, `concepts` and `formulas` turn
the planner's figures into the sentences of the answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome, calculate, to_plan

__all__ = ["Outcome", "calculate", "to_plan"]


def __getattr__(name: str) -> Any:
    """`outcome` (and with it the planner) is imported on first use (PEP 562): the chat app
    imports `formulas` to draw its first screen and does not need the planner for that."""
    if name not in __all__:
        msg = f"module 'assistant.calculate' has no attribute {name!r}"
        raise AttributeError(msg)
    from assistant.calculate import outcome

    value = getattr(outcome, name)
    globals()[name] = value
    return value
