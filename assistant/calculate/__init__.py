"""Calculate stage: :class:`~assistant.records.Query` → :class:`Outcome` (verdict, checks,
suggestions, assumptions), by running the calculators' planner.

Owns everything between a parsed question and the planner's results: `outcome` is the entry
point (`findings` turns the planner's checks and fixes into the answer's records);
`validate` refuses impossible values; `defaults` fills open slots with stated defaults
(the values themselves live in `calculators.defaults`; `default_formats` the open precision and
fabric); `layouts` chooses the parallel layout;
`verdict` applies the verdict rule; `sizing`, `solvers`, `largest` and `compare` (with
`compare_basis` and `criterion`: the common basis and what is asked to be decided) answer the
inverse and side-by-side questions; `recommend` answers "which model and how many GPUs?"
with no model named on a stated ladder of catalog models; `summaries`, `headline`, `focus`,
`followup`, `names` and `concepts` say the figures in the answer's language. Calculator
assumptions and formulas arrive as :class:`~calculators.messages.Msg` keys and are put into
words once, through `assistant.i18n`.
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
