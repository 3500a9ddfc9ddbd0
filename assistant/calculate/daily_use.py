"""Hours of use a day for a job ("每天只能用12小时", "we get the cluster 8 hours a day"): a
training run pauses for the rest of each day, so a stated deadline holds h/24 of its length in
training time, and a run's length is said in calendar time too; a deployment serves (and is
rented, and draws power) those hours of each day of its span.

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


def _share(query: Query, *, serving: bool = False) -> float | None:
    """The share of each day the job runs, when the question states its hours: a training
    job's, or with `serving`, a deployment's (its span is how long it serves)."""
    s = query.scenario
    if s.hours_per_day is None or s.hours_per_day >= 24:
        return None
    training = s.task in ("pretrain", "finetune") or (s.task is None and bool(s.tokens))
    return s.hours_per_day / 24.0 if training != serving else None


def daily_deadline(query: Query) -> tuple[Query, str | None]:
    """`query` with its span in running time (span × h/24), and the sentence saying so: a
    training deadline holds that much training, a deployment that long serves that many hours
    ("租8张A100跑推理，每天只用8小时，一个月租金": 30 × 8 h of rent); unchanged (None)
    without both a span of a day or more and the hours a day."""
    s = query.scenario
    training = _share(query)
    share = training or _share(query, serving=True)
    if share is None or not s.deadline_seconds or s.deadline_seconds < _DAY:
        return query, None
    running = s.deadline_seconds * share
    key = "answer.daily_deadline" if training else "answer.hours_a_day"
    note = Msg(key, hours=s.hours_per_day, span=s.deadline_seconds, running=running)
    shorter = replace(s, deadline_seconds=running)
    return replace(query, scenario=shorter), text(note, query.language)


def in_calendar_time(query: Query, outcome: Outcome, note: str | None) -> Outcome:
    """`outcome` with `note` (from `daily_deadline`), and a training time also in calendar days
    at the stated hours a day; unchanged with no note for a job that states no hours a day."""
    share = _share(query)
    said = [outcome.lead]
    if note:  # a deployment's span in hours served, or a deadline in training time
        said.append(note)
    seconds = next((c.figures.get("seconds") for c in outcome.checks if c.kind == "compute"), None)
    if share is not None and isinstance(seconds, (int, float)) and seconds > 0:
        calendar = Msg("answer.daily_calendar", hours=query.scenario.hours_per_day,
                       running=float(seconds), calendar=seconds / share)  # fmt: skip
        said.append(text(calendar, query.language))
    if len(said) == 1:
        return outcome
    return replace(outcome, lead=join_sentences(said, query.language))
