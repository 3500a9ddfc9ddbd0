"""Cards named in the plural with no count ("can we serve Llama-3.1-70B on H100s?"): the count
is open, so the question is answered on the fewest cards that do the job as asked (the search a
"how many" question uses, `sizing.sized`), never on one card told to quantize. A singular ("on
an H100", "一张H100") stays one card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.calculate.sizing import Evaluator, sized
from assistant.parse.plural import plural_cards
from assistant.records import Query

if TYPE_CHECKING:
    from assistant.calculate import Outcome

__all__ = ["at_plural_count"]


def at_plural_count(query: Query, outcome: Outcome, evaluate: Evaluator) -> Outcome:
    """`outcome` re-evaluated at the fewest cards that serve the question as asked, when the
    question names its card in the plural and states no count; `outcome` otherwise. The chosen
    count is said in the assumptions (`answer.plural_count`)."""
    if not plural_cards(query.question):
        return outcome
    return sized(query, outcome, evaluate, note="answer.plural_count")
