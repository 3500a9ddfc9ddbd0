"""Whether a knowledge-base sentence can be quoted as an answer, and with what context (pure).

A sentence is quotable when it is not a paragraph, a pointer to another guide or mostly a
command line; one that refers back ("这些…", "those states") is quoted after the sentence
it refers to, and one that leaves out a compared side before the next sentence that names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.compose.openings import opens_with_anaphor
from assistant.compose.parts import mentions_side

__all__ = ["SENTENCE_LIMIT", "quotable", "with_context"]

#: A quoted sentence longer than this is a paragraph, not an answer's first sentence.
SENTENCE_LIMIT = 260
#: "…，见《ZeRO 与 FSDP》（zero-fsdp）", "see the `zero-fsdp` guide", "This guide lists…": a
#: pointer or a guide's description of itself, not an answer.
_CROSS_REFERENCE = re.compile(r"见《|^见 ?`|\b[Ss]ee (?:the )?`|^(?:本文|This guide|This document)")


def quotable(sentence: str) -> bool:
    """Not a paragraph, not a pointer, not the lower-case tail of a formula ("with training
    FLOPs ≈ …")."""
    return (
        len(sentence) <= SENTENCE_LIMIT
        and not _CROSS_REFERENCE.search(sentence)
        and not re.match(r"[a-z]+\b", sentence)  # "bf16 …", "vLLM …" start a sentence
        and sum(len(c) for c in _CODE.findall(sentence)) <= 0.4 * len(sentence)
    )


#: Inline code: a sentence that is mostly a command line is an instruction, not an answer.
_CODE = re.compile(r"`[^`]*`")


#: "… remove that redundancy by giving each rank one slice of those states": the sentence
#: points back at the one before it.
_ANAPHOR = re.compile(r"\b(?:those|these|such|the same)\b|这些|这种|上述|同样的")


def with_context(sentences: Sequence[str], i: int, sides: Sequence[frozenset[str]]) -> str | None:
    """`sentences[i]`, after the sentence it refers back to, or before the next one when that
    one names the compared side it leaves out; only while the two stay short. None when it
    opens with an anaphor ("这些…", "It …") and that sentence cannot be quoted with it."""
    sentence = sentences[i]
    joined = sentence
    if i and (_ANAPHOR.search(sentence) or opens_with_anaphor(sentence)):
        joined = _join(sentences[i - 1], sentence)
    elif sides and i + 1 < len(sentences):
        missing = [s for s in sides if not mentions_side(sentence, s)]
        after = sentences[i + 1]
        if missing and quotable(after) and all(mentions_side(after, s) for s in missing):
            joined = _join(sentence, after)
    if len(joined) > SENTENCE_LIMIT:
        joined = sentence
    return None if opens_with_anaphor(joined) else joined


def _join(first: str, second: str) -> str:
    return f"{first}{'' if first[-1] in '。！？' else ' '}{second}"
