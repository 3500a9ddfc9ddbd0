"""Hours of use a day for a training job ("每天只能用12小时", "we get the cluster 8 hours a day"):
the run pauses for the rest of each day, so a stated deadline holds h/24 of its length in
training time, and a run's length is said in calendar time too.

Examples:
    >>> from assistant.parse import parse
    >>> question = "8张A800微调Qwen2.5-14B，10亿token，一个月内，每天用12小时"
    >>> query, note = daily_deadline(parse(question))
    >>> query.scenario.deadline_seconds / 86400, note
    (15.0, '按每天 12 小时计，30 天的期限相当于连续训练 15 天。')
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import join_sentences, text
from assistant.records import Query
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome_record import Outcome

__all__ = ["daily_deadline", "in_calendar_time"]

_DAY = 86_400.0


def _share(query: Query) -> float | None:
    """The share of each day a training job runs, when the question states its hours."""
    s = query.scenario
    if s.hours_per_day is None or s.hours_per_day >= 24 or s.task == "inference":
        return None
    if s.task is None and not (s.tokens or s.deadline_seconds):
        return None  # no training named: serving, whose hours a day are its rent's
    return s.hours_per_day / 24.0


def daily_deadline(query: Query) -> tuple[Query, str | None]:
    """`query` with its deadline in training time (deadline × h/24), and the sentence saying so;
    unchanged (None) without both a deadline of a day or more and the hours a day."""
    share, s = _share(query), query.scenario
    if share is None or not s.deadline_seconds or s.deadline_seconds < _DAY:
        return query, None
    running = s.deadline_seconds * share
    note = Msg("answer.daily_deadline", hours=s.hours_per_day, span=s.deadline_seconds,
               running=running)  # fmt: skip
    shorter = replace(s, deadline_seconds=running)
    return replace(query, scenario=shorter), text(note, query.language)


def in_calendar_time(query: Query, outcome: Outcome, note: str | None) -> Outcome:
    """`outcome` with the training time also in calendar days at the stated hours a day, and the
    deadline's note; unchanged for a job that is not training or states no hours a day."""
    share = _share(query)
    if share is None:
        return outcome
    said = [outcome.lead]
    if note:
        said.append(note)
    seconds = next((c.figures.get("seconds") for c in outcome.checks if c.kind == "compute"), None)
    if isinstance(seconds, (int, float)) and seconds > 0:
        calendar = Msg("answer.daily_calendar", hours=query.scenario.hours_per_day,
                       running=float(seconds), calendar=seconds / share)  # fmt: skip
        said.append(text(calendar, query.language))
    if len(said) == 1:
        return outcome
    return replace(outcome, lead=join_sentences(said, query.language))
