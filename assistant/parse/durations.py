"""Time spans read from normalised question text: a job's deadline ("3个月内", "within 30
days") and the period a rate is asked for ("monthly electricity cost"), in seconds.
"""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, to_float

__all__ = ["asked_duration_unit", "read_deadline", "read_hours_per_day", "read_period"]


_PERIODS = (
    (
        r"\bmonthly\b|(?:per|a|each|every) month\b|/\s*(?:month|mo)\b|每(?:个)?月|一整?个月|整月",
        30 * 86400.0,
    ),
    (r"\bdaily\b|(?:per|a|each|every) day\b|/\s*day\b|每天|每日|一整?天|全天", 86400.0),
    (
        r"\b(?:yearly|annual(?:ly)?)\b|(?:per|a|each|every) year\b|/\s*year\b"
        r"|每年|一整?年|全年|整年",
        365 * 86400.0,
    ),
    (r"\bweekly\b|(?:per|a|each|every) week\b|每周|每星期", 7 * 86400.0),
)


def read_period(text: str) -> float | None:
    """How long a deployment or the hardware runs for a rate asked per period ("monthly
    electricity cost", "cost per month", "每月电费"), in seconds; a job's deadline is
    `read_deadline`.

    >>> read_period("monthly electricity cost"), read_period("每天电费"), read_period("70b")
    (2592000.0, 86400.0, None)
    >>> read_period("日活10000,每人每天问10个问题"), read_period("10 hours a day")
    (None, None)
    """
    text = _without_hours_per_day(text)  # "10 hours a day": the use of each day, not a span
    # "1M requests per day" is a load (read_qps), not how long the deployment runs
    text = re.sub(
        r"\bdaily (?:active )?(?:users|people|visitors)|\bdau\b|日活|"
        r"(?:requests?|queries|calls|users|tokens?)\s*(?:per|a|an|each|every|/)\s*\w+"
        # "每天100万次请求", "每人每天问10个问题": a rate of requests, not a span of running
        r"|每(?:天|日|小时)\s*(?:问|发|提|聊|调用)?\s*[\d.]+\s*(?:万|百万)?\s*(?:次|个|条|轮)?"
        r"(?:请求|调用|查询|token|问题|提问|对话|消息)",
        "",
        text,
    )
    for pattern, seconds in _PERIODS:
        if re.search(pattern, text, re.ASCII):
            return seconds
    return None


#: Hours of use a day ("一天用10小时", "每天开12个小时", "每天10h", "10小时/天", "10 hours a
#: day", "10h/day"): how much of each day the hardware runs, never a deadline or a period.
_HOURS = r"(?:个\s*)?(?:小时|钟头|h\b|hours?\b|hrs?\b)"
_DAY = r"(?:[1一]\s*天|每\s*天|每日|[1一]日|日均|平均每天)"
_HOURS_PER_DAY = (
    re.compile(_DAY + r"\s*(?:大概|大约|约|只|就|最多|顶多)?\s*(?:能|可以|可)?\s*"
               r"(?:用|使用|跑|开|开机|运行|工作|训练|推理|占用|租)?\s*"
               r"(?:大概|大约|约)?\s*" + NUMBER + r"\s*" + _HOURS),
    re.compile(NUMBER + r"\s*" + _HOURS + r"\s*(?:/|每)\s*(?:天|日|day\b)"),
    re.compile(NUMBER + r"\s*" + _HOURS + r"\s*(?:of (?:use|gpu time|compute|access)\s+)?"
               r"(?:(?:a|per|each|every)\s+day\b|daily\b|a night\b|per night\b)"),
)  # fmt: skip


def read_hours_per_day(text: str) -> float | None:
    """Hours the hardware is used each day, when the question says so; a value outside
    0 < h ≤ 24 is returned as said, for validation to refuse ("每天用30小时" is a typo).

    >>> read_hours_per_day("每卡时2.5元,1天用10小时,多久回本"), read_hours_per_day("每天开12个小时")
    (10.0, 12.0)
    >>> read_hours_per_day("using them 10 hours a day"), read_hours_per_day("8h/day")
    (10.0, 8.0)
    >>> read_hours_per_day("for 8 hrs daily"), read_hours_per_day("10 hours of gpu time per day")
    (8.0, 10.0)
    >>> read_hours_per_day("每天只能用12小时"), read_hours_per_day("每天最多可以跑8个小时")
    (12.0, 8.0)
    >>> read_hours_per_day("训练10小时"), read_hours_per_day("每天用30小时")
    (None, 30.0)
    """
    for pattern in _HOURS_PER_DAY:
        match = pattern.search(text)
        if match is not None:
            return to_float(match.group(1))
    return None


def _without_hours_per_day(text: str) -> str:
    """`text` without its hours of use a day: "1天用10小时" is neither a deadline nor a span."""
    for pattern in _HOURS_PER_DAY:
        text = pattern.sub(" ", text)
    return text


_DURATION_UNITS: tuple[tuple[str, float], ...] = (
    (r"个?月|months?|mo\b", 30 * 86400.0),
    (r"周|星期|weeks?|wks?\b", 7 * 86400.0),
    (r"天|日|days?\b", 86400.0),
    (r"小时|个小时|hours?|hrs?\b|h\b", 3600.0),
    (r"年|years?|yrs?\b", 365 * 86400.0),
    (r"个?季度|quarters?\b", 90 * 86400.0),
)
_NAMED_SPANS: tuple[tuple[str, float], ...] = (
    (r"\bfortnight\b", 14.0),
    (r"\b(?:this|next|the|end of (?:the )?)\s*quarter\b|本季度", 90.0),
    (r"\b(?:over|during|in|by) the weekend\b|周末", 2.0),
    (r"\bovernight\b|一晚上|一夜", 0.5),
)
_NOT_DEADLINE = re.compile(r"(?:每|\bper|/|\ba)\s*$", re.ASCII)


def read_deadline(text: str) -> float | None:
    """A time limit in seconds: "3个月内", "within 30 days", "两周", "half a year".

    >>> read_deadline("部署70b1年,每卡时10元"), read_deadline("训练7b3个月"), read_deadline("70b")
    (31536000.0, 7776000.0, None)
    >>> read_deadline("开1整年"), read_period("开一整年电费多少")
    (31536000.0, 31536000.0)
    >>> read_deadline("for a 6-month project"), read_deadline("$2 a 3 months")
    (15552000.0, None)
    >>> read_deadline("租的话1天用10小时,多久能回本"), read_deadline("10 hours a day for 3 months")
    (None, 7776000.0)"""
    text = _without_hours_per_day(text)
    if re.search(r"半年|half a year", text):
        return 182.5 * 86400.0
    # "within a fortnight", "by end of quarter", "over the weekend", "一个季度": named spans
    for pattern, days in _NAMED_SPANS:
        if re.search(pattern, text, re.ASCII):
            return days * 86400.0
    # "in a month", "within a week": the article is the number
    text = re.sub(r"(?<![a-z])an? (month|week|day|year|quarter)\b", r"1 \1", text)
    # "1t token30天内": a number glued to a word before a Chinese time unit is still a number
    # (not after "int", whose digit is part of "int4")
    text = re.sub(
        r"(?<=[a-z]{3})(?<!int)(?=\d+(?:\.\d+)?\s*(?:个?月|周|星期|天|日|小时|年))", " ", text
    )
    # "部署70B一年" is "70b1年": a span right after a model size is a span of its own
    text = re.sub(r"(?<=\d[bm])(?=\d+(?:\.\d+)?\s*(?:个?月|周|星期|天|日|小时|年))", " ", text)
    for unit_pattern, seconds in _DURATION_UNITS:
        # "一整年", "两整天": "整" (whole) between the number and its unit
        # "a 6-month project": a hyphen between the number and its unit
        span = NUMBER + r"\s*-?\s*整?\s*(?:" + unit_pattern + ")"
        for match in re.finditer(span, text, re.ASCII):
            before = text[max(0, match.start() - 5) : match.start()]
            if _NOT_DEADLINE.search(before) and "-" not in match.group():  # not "a 6-month job"
                continue
            value = to_float(match.group(1))
            if seconds >= 365 * 86400.0 and value > 50:
                continue  # "2024年" is a date, not a deadline
            return value * seconds
    return _short_deadline(text)


#: Spans under an hour ("1秒内", "in 10 minutes"): a deadline only for a training run, and
#: only with a word of time limit beside it, never a serving latency ("first token under 1 s",
#: "首token 1秒内", "10分钟的音频").
_SHORT_UNITS = ((r"分钟|minutes?|mins?\b", 60.0), (r"秒钟?|seconds?|secs?\b", 1.0))
_TRAINING = re.compile(r"训练|微调|预训练|\btrain|\bfine-?tun|\bpre-?train")
_LATENCY = re.compile(
    r"首\s*(?:个\s*)?(?:token|字)|延迟|时延|响应|latency|first token|ttft|per token|每个?token"
)


def _short_deadline(text: str) -> float | None:
    """ "一张H100能在1秒内训练完GPT-3吗", "train 7B in 10 minutes": a deadline under an hour,
    said with 内 / within / in, in a training question with no latency words."""
    if not _TRAINING.search(text) or _LATENCY.search(text):
        return None
    for unit_pattern, seconds in _SHORT_UNITS:
        within = (
            NUMBER + r"\s*(?:" + unit_pattern + r")\s*(?:之内|以内|内)"
            r"|(?:within|in|under)\s+" + NUMBER + r"\s*(?:" + unit_pattern + ")"
        )
        match = re.search(within, text, re.ASCII)
        if match is not None:
            return to_float(next(g for g in match.groups() if g is not None)) * seconds
    return None


#: The unit a how-long question asks its answer in ("Days to train", "要多少天", "几个小时"),
#: the unit names of `assistant.i18n.numbers` ("h", "days", "weeks", "months").
_ASKED_UNITS = (
    (
        "h",
        r"(?:how many|number of|in) hours\b|(?<!gpu.)(?<!gpu )(?<!card.)(?<!card )\bhours\s+"
        r"(?:needed\s+|required\s+)?to\b|(?:多少|几个?)\s*(?:个)?小时|按小时",
    ),
    (
        "days",
        r"(?:how many|number of|in) days\b|\bdays\s+(?:needed\s+|required\s+)?to\b|"
        r"(?:多少|几)\s*天|按天",
    ),
    (
        "weeks",
        r"(?:how many|number of|in) weeks\b|\bweeks\s+(?:needed\s+|required\s+)?to\b|"
        r"(?:多少|几)\s*(?:个)?(?:周|星期)|按周",
    ),
    (
        "months",
        r"(?:how many|number of|in) months\b|\bmonths\s+(?:needed\s+|required\s+)?to\b|"
        r"(?:多少|几)\s*(?:个)?月|按月",
    ),
)


def asked_duration_unit(text: str) -> str | None:
    """The unit a how-long question wants ("Days to train…" → "days", "要几个小时" → "h"), or
    None when it names none ("how long", "多久").

    >>> asked_duration_unit("days to train a 7b model?"), asked_duration_unit("要多少天训完")
    ('days', 'days')
    >>> asked_duration_unit("gpu-hours to train it?"), asked_duration_unit("how long?")
    (None, None)
    """
    lowered = text.lower()
    for unit, pattern in _ASKED_UNITS:
        if re.search(pattern, lowered):
            return unit
    return None
