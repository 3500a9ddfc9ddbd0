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
from assistant.records import Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome_record import Outcome

__all__ = ["daily_deadline", "daily_share", "in_calendar_time", "running_seconds"]

_DAY = 86_400.0


def daily_share(s: Scenario) -> float:
    """The share of each day the hardware is used: the stated hours ÷ 24, else 1 (round the
    clock). Validation has refused hours outside 0 < h ≤ 24 (`validate_hours_per_day`).

    >>> daily_share(Scenario(hours_per_day=6)), daily_share(Scenario())
    (0.25, 1.0)
    """
    return s.hours_per_day / 24.0 if s.hours_per_day else 1.0


def running_seconds(s: Scenario, span: float) -> float:
    """The time run within a span: the stated hours of each day of it ("一个月，每天只用6小时":
    30 × 6 h); a span under a day is run as stated."""
    return span if span < _DAY else span * daily_share(s)


def _share(query: Query, *, serving: bool = False) -> float | None:
    """The share of each day the job runs, when the question states its hours: a training
    job's, or with `serving`, a deployment's (its span is how long it serves)."""
    s = query.scenario
    if daily_share(s) == 1.0:
        return None
    training = s.task in ("pretrain", "finetune") or (s.task is None and bool(s.tokens))
    return daily_share(s) if training != serving else None


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
    compute = next((c for c in outcome.checks if c.kind == "compute"), None)
    seconds = compute.figures.get("seconds") if compute is not None else None
    checks = outcome.checks
    if share is not None and compute is not None and isinstance(seconds, (int, float)) and seconds:
        calendar = seconds / share
        told = Msg("answer.daily_calendar", hours=query.scenario.hours_per_day,
                   running=float(seconds), calendar=calendar)  # fmt: skip
        said.append(text(told, query.language))
        # the label judges the calendar time (`render.answer.is_impractical`)
        timed = replace(compute, figures={**compute.figures, "calendar_seconds": calendar})
        checks = tuple(timed if c is compute else c for c in checks)
    if len(said) == 1:
        return outcome
    return replace(outcome, lead=join_sentences(said, query.language), checks=checks)
