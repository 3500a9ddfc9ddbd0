"""A ranking prior for definitional questions ("What is the KV cache?", "ZeRO-3 是什么?",
"什么是张量并行").

Documents here define a term at the start of the section named after it and then work
through examples; both lanes, seeing the term everywhere, often rank a worked example
first. For a definitional question, the *first passage of a section whose heading names the
asked term* (the document title stands for the heading of its `intro`) gets a bonus of
``DEFINITION_PRIOR × coverage`` on its fused score, where coverage is the share of the
term's units found in that heading: a unit is a word of the term, or a zh↔en synonym group
(`synonyms.tsv`) one of whose members the term contains, so "张量并行" also matches the
heading "Tensor parallelism". Only the best match among the candidates gets the bonus
(highest coverage, a section heading before a document title): "什么是选择性重计算" lifts
the section "选择性重计算与完全重计算", not the intro of the recomputation guide whose title
only says "重计算". Only passages the lanes already returned are re-ranked, and
the relevance threshold is decided before, so the prior can never make a find-nothing
question cite something.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assistant.records import Passage

__all__ = ["DEFINITION_PRIOR", "MIN_COVERAGE", "DefinitionPrior", "defined_term"]

#: Bonus added to the fused score of the best heading match, times its coverage. The
#: heading acts as a third vote worth one lane's top rank at full confidence (each lane
#: adds at most 1.0, see :mod:`assistant.retrieval.fusion`). Measured with `kb eval` on the
#: golden set's 18 answerable definitional questions (2026-11-29, 580 passages): prior 0 →
#: 1.0 gave section recall@3 0.78 → 0.89, recall@1 0.89 → 0.94, MRR 0.92 → 0.96 (0.5
#: already gave the section recall but not "What is the KV cache?" at rank 1); over all
#: 215 questions recall@1 0.902 → 0.908, MRR 0.941 → 0.945, no-passage accuracy 1.0 in both.
DEFINITION_PRIOR = 1.0
#: Least share of the term's units the heading must contain to get any bonus.
MIN_COVERAGE = 0.5

_END = r"[\s?？.。!！呢吗啊]*$"
_PATTERNS = (
    re.compile(
        r"^\s*(?:what\s+(?:is|are)|what's|whats|define|explain)\s+(?:an?\s+|the\s+)?"
        r"(?P<term>.+?)" + _END,
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(?P<term>.+?)\s+mean" + _END, re.IGNORECASE
    ),
    re.compile(r"^\s*(?:什么是|什么叫|何为|何谓|请解释一下|请解释|解释一下)(?P<term>.+?)" + _END),
    re.compile(
        r"^\s*(?P<term>.+?)\s*(?:到底)?(?:是什么意思|是什么|是啥|指什么|是指什么|"
        r"的定义是什么|的含义是什么)" + _END
    ),
)


def defined_term(query: str) -> str | None:
    """The term a definitional question asks about, else None.

    Examples:
        >>> defined_term("What is the KV cache?")
        'KV cache'
        >>> defined_term("ZeRO-3 是什么?")
        'ZeRO-3'
        >>> defined_term("训练 70B 模型需要多少显存") is None
        True
    """
    for pattern in _PATTERNS:
        match = pattern.match(query)
        if match and match.group("term").strip():
            return match.group("term").strip()
    return None


def _slug(term: str) -> str:
    """The anchor a section named after `term` has: "KV cache" → "kv-cache"."""
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def _contains(tokens: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return n > 0 and any(tuple(tokens[i : i + n]) == tuple(phrase) for i in range(len(tokens)))


def coverage(term_tokens: Sequence[str], field_tokens: Sequence[str]) -> float:
    """Share of the term's units (words, or synonym groups it uses) found in a heading."""
    from assistant.retrieval.tokenize import synonym_groups

    units: list[bool] = []
    rest = list(term_tokens)
    for group in synonym_groups():
        used = [member for member in group if _contains(term_tokens, member)]
        if not used:
            continue
        units.append(any(_contains(field_tokens, member) for member in group))
        for member in used:
            rest = [t for t in rest if t not in member]
    units += [token in field_tokens for token in dict.fromkeys(rest)]
    return sum(units) / len(units) if units else 0.0


class _ListHeadings:
    """Section heads and heading tokens of an in-memory passage list, computed on first use
    (an index on disk stores them: :class:`assistant.retrieval.passage_table.PassageTable`)."""

    def __init__(self, passages: Sequence[Passage]) -> None:
        self.passages = passages
        self._heads: list[int] | None = None
        self._tokens: dict[int, list[str]] = {}

    def head(self, row: int) -> int:
        if self._heads is None:
            from assistant.retrieval.segments import section_heads

            self._heads = section_heads(list(self.passages))
        return self._heads[row]

    def heading_tokens(self, row: int) -> list[str]:
        head = self.head(row)
        if head not in self._tokens:
            from assistant.retrieval.tokenize import tokenize

            p = self.passages[head]
            self._tokens[head] = tokenize(p.heading if p.heading else p.title)
        return self._tokens[head]


@dataclass
class DefinitionPrior:
    """The prior over one list of passages (rows of the index)."""

    passages: Sequence[Passage]
    prior: float = DEFINITION_PRIOR
    _headings: Any = None

    def _heads(self) -> Any:
        if self._headings is None:
            stored = hasattr(self.passages, "head") and hasattr(self.passages, "heading_tokens")
            self._headings = self.passages if stored else _ListHeadings(self.passages)
        return self._headings

    def _section_fields(self, hits: list[tuple[int, float]]) -> dict[int, list[str]]:
        """Heading tokens of the hits that stand for a section: its first passage, or the
        one passage search kept of it (search returns one passage per section)."""
        headings = self._heads()
        rows = {row for row, _ in hits}
        found: dict[int, list[str]] = {}
        for row in rows:
            head = headings.head(row)
            if head == row or head not in rows:
                found[row] = headings.heading_tokens(row)
        return found

    def _match(
        self,
        term_tokens: list[str],
        row: int,
        fields: dict[int, list[str]],
        term: str = "",
    ) -> tuple[float, bool, bool]:
        """(coverage if at least `MIN_COVERAGE` else 0, whether the section's anchor is the
        term itself, whether a section heading matched rather than the document title):
        ordered, so the best match wins. The anchor breaks a tie between full matches: of
        "KV cache sizing with GQA {#kv-cache}" and "KV-cache quantization
        {#kv-cache-quantization}", the section named after the term defines it."""
        share = coverage(term_tokens, fields[row])
        if share < MIN_COVERAGE:
            return (0.0, False, False)
        passage = self.passages[row]
        named = bool(term) and getattr(passage, "anchor", "") == _slug(term)
        return (share, named, bool(passage.heading))

    def rerank(self, query: str, hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """`hits` (row, fused score) with the bonus added, best first; unchanged unless the
        query is definitional."""
        term = defined_term(query)
        if term is None or not hits or self.prior <= 0.0:
            return hits
        from assistant.retrieval.tokenize import tokenize

        term_tokens = tokenize(term)
        if not term_tokens:
            return hits
        fields = self._section_fields(hits)
        matches = {
            row: self._match(term_tokens, row, fields, term) for row, _ in hits if row in fields
        }
        best = max(matches.values(), default=(0.0, False, False))
        boosted = []
        for order, (row, score) in enumerate(hits):
            bonus = self.prior * best[0] if best[0] and matches.get(row) == best else 0.0
            if bonus:
                row = self._heads().head(row)  # the definition opens the section
            boosted.append((round(score + bonus, 6), -order, row))
        boosted.sort(reverse=True)
        return [(row, score) for score, _, row in boosted]
