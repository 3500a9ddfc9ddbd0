"""The bill of a rental period stated beside a job: "We'll rent a DGX H100 for ~2 weeks at
$3/GPU-hr to fine-tune Llama-3.1-8B. What's the rental bill?" pays for the two weeks rented
(8 x 336 h x $3), not only for the hours the fine-tune runs. The job is still judged against
that period (the parser reads it as the deadline), and the part of the rent it uses is said.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from assistant.calculate.energy import hardware_rental
from assistant.calculate.focus import main_ask
from assistant.calculate.outcome_record import Outcome
from assistant.calculate.summaries import currency_words
from assistant.i18n import join_sentences, text
from assistant.parse.spending import rents_for_period
from assistant.records import Query
from calculators.messages import Msg

__all__ = ["rental_bill"]


def rental_bill(query: Query, found: Outcome, run: Callable[[Query], Outcome]) -> Outcome:
    """`found` (the job's answer) led by the rent of the stated period when the question asks
    what renting the stated GPUs for that period costs at a price per GPU-hour; `found`
    otherwise. `run` answers the job again, asked for its duration."""
    if main_ask(query) != "cost" or not rents_for_period(query.question):
        return found
    rental = hardware_rental(query)
    job_cost = next((c for c in found.checks if c.kind == "cost"), None)
    if rental is None or job_cost is None or job_cost.figures.get("cost") is None:
        return found
    check = rental[0]
    # the job's own time after the bill; its own cost is the share said here, not a topic
    topics = tuple(t for t in query.topics if t != "cost")
    timed = run(replace(query, asks=("duration",), topics=topics))
    share = Msg(
        "answer.rental_job_share",
        hours=job_cost.figures["gpu_hours"],
        cost=job_cost.figures["cost"],
        currency=currency_words(str(check.figures["currency"])),
    )
    lang = query.language
    lead = join_sentences((check.summary, text(share, lang), timed.lead), lang)
    checks = tuple(check if c.kind == "cost" else c for c in timed.checks)
    return replace(timed, lead=lead, checks=checks)
