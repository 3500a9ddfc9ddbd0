"""A conversation parsed turn by turn, as the chat app and `ask --continue` parse it."""

from __future__ import annotations

from assistant.parse import parse
from assistant.records import Query

__all__ = ["chain"]


def chain(*turns: str) -> Query:
    """The last turn's query, each turn parsed as a follow-up of the one before."""
    previous: Query | None = None
    for turn in turns:
        previous = parse(turn, previous=previous)
    assert previous is not None
    return previous
