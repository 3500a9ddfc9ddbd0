"""The one call both adapters use: question → :class:`~assistant.records.Answer`.

parse → calculate → retrieve (per topic) → compose (render builds the text).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from assistant.calculate import calculate
from assistant.calculate.followup import settled
from assistant.compose import compose
from assistant.errors import UsageError
from assistant.parse import parse
from assistant.parse.numbers import clean_text
from assistant.records import Answer, Language, Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from collections.abc import Callable

    from assistant.config import Settings
    from assistant.retrieval import Retriever

__all__ = ["answer", "default_retriever"]

_RETRIEVERS: dict[tuple[str, str, str], Retriever] = {}
_LOCK = threading.Lock()


def default_retriever(
    settings: Settings,
    *,
    notify: Callable[[str], None] | None = None,
    language: Language | None = None,
) -> Retriever:
    """The retriever for `settings`, opened once per process (opening loads the encoder).

    `notify` receives a one-line message when the index is built or rebuilt first, in
    `language` (default: the settings').
    """
    from assistant.retrieval.engine import open_retriever

    key = (settings.encoder, str(settings.knowledge_dir), str(settings.home))
    with _LOCK:
        if key not in _RETRIEVERS:
            _RETRIEVERS[key] = open_retriever(settings, notify=notify, language=language)
        return _RETRIEVERS[key]


def _language(settings: Settings, language: str | None) -> Language | None:
    chosen = language or (settings.language if settings.language != "auto" else None)
    if chosen in ("zh", "en"):
        return chosen  # type: ignore[return-value]
    return None


def answer(
    question: str,
    *,
    settings: Settings,
    retriever: Retriever | None = None,
    previous: Scenario | Query | None = None,
    language: str | None = None,
) -> Answer:
    """Answer one question with a verdict, computed figures and cited passages.

    Args:
        question: The user's question in Chinese or English.
        settings: The configuration (answer language, retrieval depth, paths).
        retriever: The knowledge-base retriever; None opens the default one (loads the encoder
            and, on first use, builds the index).
        previous: The previous turn's query (or scenario): a follow-up such as "那用H100呢?"
            changes only the slots it names.
        language: "zh" or "en" to force the answer language; None follows the question.

    Returns:
        The :class:`Answer`: verdict, binding constraint, checks with figures in SI units,
        suggestions, assumptions, citations and the rendered Markdown text.

    Raises:
        UsageError: The question is empty once control characters and escapes are removed.
        CalculatorInputError: A number no question can mean ("1e999张H100", "$-2 per
            GPU-hour"). A value the calculators refuse ("-5张A100") is answered instead, as
            `unknown` with `Answer.refusal` set (the CLI then exits 2).

    Examples:
        >>> from assistant.config import Settings
        >>> a = answer("吉林GPU服务器能训练千亿模型吗?", settings=Settings())  # doctest: +SKIP
        >>> a.verdict, a.binding_constraint  # doctest: +SKIP
        ('infeasible', 'memory')
        >>> answer("那用H100呢?", settings=Settings(), previous=a.query).query.changed_slots
        ... # doctest: +SKIP
        ('gpu',)
    """
    if not clean_text(question):
        raise UsageError(Msg("errors.ask.question_empty"))
    if retriever is None:
        retriever = default_retriever(settings)
    from assistant.retrieval.cards import load_user_cards

    load_user_cards(settings.home / "documents")  # the user's GPU and model cards, once
    sites = retriever.site_profiles()
    query = parse(question, sites=sites, previous=previous, language=_language(settings, language))
    query = settled(query, previous, sites)  # "用bf16呢" after a BF16 answer changed nothing
    outcome = calculate(query, sites=sites)
    return compose(query, outcome, retriever, top_k=settings.top_k)
