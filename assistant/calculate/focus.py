"""Questions that ask for a number ("需要几张", "how many GPUs", "要多久", "how long").

The verdict answers "can it be done"; these helpers add the direct answer to what was asked,
from the figures the calculators produced, and size the cluster when the count was the question.
"""

from __future__ import annotations

import re

from assistant.calculate.defaults import say
from assistant.records import Check, Figure, Language, Scenario
from assistant.render import fmt_seconds

__all__ = [
    "asks_count",
    "asks_duration",
    "focus_sentence",
    "needed_gpus",
    "topic_sentences",
]

_COUNT = re.compile(
    r"多少(?:张|块|台|个)(?:卡|gpu|显卡|h\d+|a\d+)?|多少(?:卡|gpu|显卡)|几张|几块|几台|"
    r"how many (?:gpus?|cards?|nodes?|servers?|h100s?|a100s?)|number of gpus",
    re.IGNORECASE,
)
_DURATION = re.compile(
    r"多久|多长时间|几天|几个月|how long|how many (?:days|weeks|months|hours)", re.IGNORECASE
)


def asks_count(question: str) -> bool:
    """True when the question asks how many GPUs are needed."""
    return bool(_COUNT.search(question)) and not asks_duration(question)


def asks_duration(question: str) -> bool:
    """True when the question asks how long the job takes."""
    return bool(_DURATION.search(question))


def _figure(checks: tuple[Check, ...], kind: str, key: str) -> float | None:
    for check in checks:
        if check.kind == kind:
            value: Figure = check.figures.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
    return None


def needed_gpus(checks: tuple[Check, ...], per_node: int) -> int | None:
    """GPUs that fit memory and (for training) meet the deadline, rounded up to whole nodes."""
    wanted = [
        v
        for v in (
            _figure(checks, "memory", "min_gpus"),
            _figure(checks, "compute", "gpus_for_deadline"),
        )
        if v
    ]
    if not wanted:
        return None
    count = int(max(wanted))
    if count > per_node:
        count = -(-count // per_node) * per_node
    return count


def focus_sentence(
    question: str, checks: tuple[Check, ...], scenario: Scenario, language: Language
) -> str:
    """The direct answer to a "how many" or "how long" question, or "" for other questions."""
    if asks_duration(question):
        seconds = _figure(checks, "compute", "seconds")
        if seconds is None:
            return ""
        return say(
            language,
            f"回答：在这套硬件上约需 {fmt_seconds(seconds, language)}。",
            f"Answer: about {fmt_seconds(seconds, language)} on this hardware.",
        )
    if asks_count(question):
        count = needed_gpus(checks, scenario.gpus_per_node or 8)
        if count is None:
            return ""
        return say(
            language,
            f"回答：至少需要 {count:,} 张 {scenario.gpu}。",
            f"Answer: at least {count:,} × {scenario.gpu}.",
        )
    return ""


def topic_sentences(
    topics: tuple[str, ...],
    checks: tuple[Check, ...],
    language: Language,
    kinds: tuple[str, ...] = ("power", "cost"),
) -> str:
    """The results of the checks the question asks about, up front ("要多少电", "那网络呢?").

    Only checks of `kinds`: power and cost are never in the verdict sentence; a follow-up that
    only names a topic ("那网络呢?") passes every kind.
    """
    from assistant.render import CHECK_LABELS

    out = []
    for check in checks:
        if check.kind in kinds and check.kind in topics and check.verdict != "n/a":
            label = CHECK_LABELS[check.kind][language]
            out.append(say(language, f"{label}：{check.summary}", f"{label}: {check.summary}"))
    return " ".join(out)
