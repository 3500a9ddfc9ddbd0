"""Elliptical follow-ups of a concept question: "What is FSDP?" then "and how much memory does
it save?" is still about FSDP, not a new question outside the domain.

A turn continues a concept thread when the turn before explained a concept (no job named) and
this one names no job of its own and either points back at it ("it", "this", "它", "这个") or
says nothing about the domain on its own while still asking something ("what's a good value?").
A question with its own concept ("What is the KV cache and how does it grow?") or its own job
stands alone, and chit-chat with nothing asked ("hello there") is not a follow-up.

Examples:
    >>> refers_back("and how much memory does it save?"), refers_back("那它能省多少显存")
    (True, True)
    >>> refers_back("What is MFU?"), refers_back("itself matters")
    (False, False)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import fields, replace

from assistant.parse.language import detect_language
from assistant.records import Query, Scenario

__all__ = ["continues_concept", "job_behind", "keep_thread", "quoted_context", "refers_back"]

#: Pronouns that name the thing the previous turn explained ("would it save", "那它能省多少").
_POINTER = (
    r"\b(?:it|its|it's|this|that|these|those|they|them|one)\b|"
    r"它|其|这个|那个|这种|这样|该(?:方法|技术|指标|策略)"
)
#: A leading "ok, and" / "and" / "so" / "那" continues the turn before; so does a pronoun.
_OPENING = (
    r"^(?:(?:ok(?:ay)?|right|great|thanks),?\s+)?(?:and|also|so|then)\b|"
    r"^(?:那|那么|还有|另外|以及)"
)
_BACK = re.compile(f"{_OPENING}|{_POINTER}")
_POINTS = re.compile(_POINTER)


def refers_back(question: str) -> bool:
    """True when the wording points back at what the turn before was about."""
    return bool(_BACK.search(question.lower().strip()))


def _applies_concept(base: Query, previous: Query) -> bool:
    """ "ok, and how much memory would it save for a 7B model on 8 GPUs?" after "What is ZeRO
    stage 2?": a pronoun names the concept, whose stated slot (the ZeRO stage) the new job
    keeps; a job with no pronoun ("and what does a 7B model need?") is a question of its own."""
    stated = previous.scenario.zero_stage is not None
    return stated and bool(_POINTS.search(base.question.lower())) and "concept" not in base.asks


def continues_concept(
    base: Query, found: Mapping[str, object], previous: Query, *, offtopic: bool
) -> bool:
    """True when `base` is an elliptical follow-up of the concept question `previous`."""
    if offtopic or not previous.in_domain:
        return False
    prev = previous.scenario
    if prev.model is not None or prev.params is not None:
        return False  # a job thread: assistant.parse.followup decides
    if "concept" not in previous.asks and not (previous.followup and previous.context):
        return False
    if {"model", "params"} & found.keys():
        return _applies_concept(base, previous)  # the concept applied to a job of its own
    if refers_back(base.question) and "concept" not in base.asks:
        return True  # "它能省多少显存?", "is it faster?"
    return not base.in_domain and bool(base.asks or base.topics)  # "what's a good value?"


def quoted_context(query: Query) -> str:
    """The question a follow-up answer says it follows, as typed (at most 80 characters); ""
    when that question is in another language than the answer ("What is MFU?" quoted inside
    a Chinese answer), which then says "the previous question" in its own words."""
    context = query.context.strip()[:80]
    return context if context and detect_language(context) == query.language else ""


def _has_job(scenario: Scenario) -> bool:
    return scenario.model is not None or scenario.params is not None


def _is_concept_turn(query: Query) -> bool:
    """A turn that explains a concept and names no job: "ZeRO-3是什么?", or one continuing it."""
    if not query.in_domain or _has_job(query.scenario):
        return False
    return "concept" in query.asks or (query.followup and bool(query.context))


def keep_thread(query: Query, previous: object) -> Query:
    """`query`, keeping the job thread a concept turn interrupts (`Query.thread`): after
    "吉林GPU服务器能训练千亿模型吗" → "那用H100呢", "ZeRO-3是什么?" is answered as a concept but
    the turn after it ("如果有16台呢") still follows the H100 question (`job_behind`)."""
    if not isinstance(previous, Query) or not _is_concept_turn(query):
        return query
    job = previous if _has_job(previous.scenario) else previous.thread
    if job is None or not _has_job(job.scenario):
        return query
    return replace(query, thread=job)


def job_behind(previous: Query, base: Query, found: Mapping[str, object], *, counts: bool) -> Query:
    """The turn a follow-up builds on: `previous`, or the job thread a concept turn kept when
    the follow-up changes what the concept did not state (hardware, a count: `counts` when it
    names a bare or added count) or asks a quantity of a job ("需要几张?"). "那ZeRO-2呢?" still
    swaps the concept's own stage and "它能省多少显存?" still asks about the concept; "如果有16台呢"
    goes back to the job."""
    thread = previous.thread
    if thread is None or not _is_concept_turn(previous) or "concept" in base.asks:
        return previous
    if {"model", "params"} & found.keys():
        return previous  # the concept applied to a job of its own (`_applies_concept`)
    concept = previous.scenario
    stated = {f.name for f in fields(concept) if getattr(concept, f.name) is not None}
    if (found.keys() - stated) or counts:
        return thread
    if _POINTS.search(base.question.lower()):
        return previous  # "它能省多少显存?": the concept, pointed at
    return thread if base.asks else previous
