"""Calculate stage: :class:`~assistant.records.Query` → :class:`Outcome` (verdict, checks,
suggestions, assumptions), by running the calculators' planner.

Owns everything between a parsed question and the planner's results: `outcome` is the entry
point; `validate` refuses impossible values; `defaults` fills open slots with stated defaults
(the values themselves live in `calculators.defaults`); `layouts` chooses the parallel layout;
`verdict` applies the verdict rule; `sizing`, `solvers`, `largest` and `compare` answer the
inverse and side-by-side questions; `summaries`, `headline`, `focus`, `followup`, `names` and
`concepts` say the figures in the answer's language. Calculator assumptions and formulas arrive
as :class:`~calculators.messages.Msg` keys and are put into words once, through `assistant.i18n`.
"""

from __future__ import annotations

from assistant.calculate.outcome import Outcome, calculate, to_plan

__all__ = ["Outcome", "calculate", "to_plan"]
