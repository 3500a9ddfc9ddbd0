"""Passage scores with the memoised mention tests: the same scores as the plain tests."""

from __future__ import annotations

import re

import pytest

from assistant.compose.citing import lead_in, passage_score
from assistant.records import Passage

_TEXT = "| GPU | Memory |\n|---|---|\n| A100 SXM | 80 GB |\n| H100 | 80 GB |\nLlama-2 70B fits."


def _reference(passage: Passage, sections, rank, terms) -> float:  # type: ignore[no-untyped-def]
    """passage_score as written before its mention tests were kept."""

    def mentions(text: str, term: str) -> bool:
        pattern = rf"(?<![A-Za-z0-9]){re.escape(term)}(?![0-9])"
        return re.search(pattern, text, re.IGNORECASE) is not None

    gpu_terms, model_terms = terms
    key = (passage.doc_id, passage.anchor or "")
    score = 3.0 - 0.5 * sections.index(key) if key in sections else 0.0
    if rank is not None:
        score += 1.0 - rank / 12
    if gpu_terms and mentions(passage.text, gpu_terms[0]):
        score += 1.5 + 0.5 * all(t.lower() in passage.text.lower() for t in gpu_terms[1:])
        row = rf"^\|[^|\n]*(?<![A-Za-z0-9]){re.escape(gpu_terms[0])}(?![0-9])"
        score += 1.0 if re.search(row, passage.text, re.MULTILINE) else 0.0
    if any(mentions(passage.text, t) for t in model_terms):
        score += 0.5
    return score - (4.0 if lead_in(passage) else 0.0)


@pytest.mark.parametrize(
    "terms",
    [
        (("A100", "SXM"), ("70B",)),  # the chip, its form and the model: all named, a row
        (("A100", "PCIe"), ()),  # the chip named, its form not
        (("H100",), ("Llama-2",)),
        (("A10",), ()),  # not inside "A100"
        ((), ("405B",)),  # nothing named
    ],
)
@pytest.mark.parametrize("rank", [None, 0, 5, 11])
def test_scores_equal_the_plain_tests(terms, rank) -> None:  # type: ignore[no-untyped-def]
    passage = Passage("p", "gpu-specs", "s", "t", "h", _TEXT, "en", anchor="memory")
    sections = (("other", "x"), ("gpu-specs", "memory"))
    for _ in range(2):  # the second time from the kept tests
        assert passage_score(passage, sections, rank, terms) == _reference(
            passage, sections, rank, terms
        )
