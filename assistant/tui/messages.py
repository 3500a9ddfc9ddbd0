"""App-wide messages. Messages that belong to one widget are nested in that widget's class."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from assistant.records import Answer


@dataclass
class RetrieverLoading(Message):
    """The knowledge base started loading, or reported progress."""

    detail: str = ""


@dataclass
class RetrieverLoaded(Message):
    """The knowledge base is loaded; questions can be answered."""

    retriever: Any
    seconds: float


@dataclass
class RetrieverFailed(Message):
    """The knowledge base could not be loaded; `title` and `message` say what to do."""

    title: str
    message: str


@dataclass
class AnswerReady(Message):
    """The pipeline answered the question of turn `turn`."""

    turn: int
    answer: Answer
    seconds: float


@dataclass
class AnswerFailed(Message):
    """The pipeline could not answer the question of turn `turn`."""

    turn: int
    title: str
    message: str


@dataclass
class AnswerSelected(Message):
    """The user selected an answer in the transcript; the side panel follows it."""

    answer: Answer
