"""The sentence of a concept answer's passages that answers a question part: a complete
sentence sharing the most weighted keywords with the part (and, for a comparison, naming its
sides), never a lead-in cut before its formula or list. `concept` builds headlines from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.compose.asked import (
    WHY,
    asked_bonus,
    asks_definition,
    asks_quality,
    names_quality,
    points_at_reason,
    states_quality,
)
from assistant.compose.openings import (
    about_side,
    about_side_alone,
    asked_figures,
    clause_subjects,
    defined_term,
    defines,
    names_exactly,
    on_a_side,
    opens_with_side,
    says_what_it_is,
    states_difference,
    states_figure,
    without_parentheticals,
)
from assistant.compose.parts import (
    Part,
    comparison_sides,
    key_terms,
    mentions_side,
    question_terms,
    term_groups,
    weighted_terms,
)
from assistant.compose.quoting import quotable, with_context
from assistant.records import Citation, Passage
from assistant.render.excerpt import answer_sentences

if TYPE_CHECKING:
    pass

__all__ = [
    "answering_sentence",
    "best_of",
    "best_sentence",
    "compared_sides",
    "distinct",
    "shared_weight",
    "why_figures",
]


def why_figures(part: Part) -> tuple[str, ...]:
    """The figures a "why" part asks about ("why … 16 bytes per parameter")."""
    return asked_figures(part.text) if WHY.search(part.text) else ()


def compared_sides(part: Part) -> tuple[frozenset[str], ...]:
    """The compared sides of `part`, or of its search text when the part leaves one side to
    the first part ("跟流水线并行有什么区别" after "张量并行是啥")."""
    return comparison_sides(part.text) or comparison_sides(part.search_text)


def distinct(passages: Sequence[Citation] | Sequence[Passage]) -> list[Passage]:
    found = [c.passage if isinstance(c, Citation) else c for c in passages]
    return list({p.id: p for p in found}.values())


def answering_sentence(question: str, citations: Sequence[Citation]) -> tuple[str, int] | None:
    """The sentence of the first three cited passages that best answers the whole
    `question`, with its passage's number in the answer's source list (None: none does)."""
    passages = distinct(citations)[:3]
    found = best_sentence(Part(question, question), passages, set())
    if found is None:
        return None
    return found[0], [p.id for p in passages].index(found[1].id) + 1


def best_sentence(
    part: Part,
    passages: Sequence[Passage],
    used: set[str],
    *,
    opening: frozenset[str] | None = None,
    alone: frozenset[str] | None = None,
) -> tuple[str, Passage] | None:
    """The sentence sharing the most keywords with `part` (the first of equals), one naming
    both compared sides preferred; it is followed by the next sentence when that one names
    the side it leaves out, or preceded by the one it refers back to. A sentence that names
    none of the part's key terms (:func:`.parts.key_terms`) is off topic, whatever else it
    shares ("Large continuous training runs …" for "what MFU do large runs reach"). A
    sentence opening with an anaphor ("这些 all-reduce …") is quoted only after the sentence
    before it in its passage; with `opening`, only a sentence opening with one of those
    terms is read; with `alone` (the other compared side) too, only one that says nothing of
    that side or of the difference, quoted on its own. For a "why … 16 bytes" part, a section
    titled with that figure counts its title's words too."""
    sides = compared_sides(part)
    found = best_of(part, passages, used, opening, sides, alone=alone)
    if found is None and sides and opening is None:  # no sentence is about either side
        found = best_of(part, passages, used, opening, ())
    return found


def best_of(
    part: Part,
    passages: Sequence[Passage],
    used: set[str],
    opening: frozenset[str] | None,
    sides: Sequence[frozenset[str]],
    *,
    alone: frozenset[str] | None = None,
    differs: bool = False,
    naming: frozenset[str] | None = None,
) -> tuple[str, Passage] | None:
    """:func:`best_sentence` for the compared `sides` (none: any sentence); with `differs`,
    only a sentence that states their difference; with `naming`, one naming those terms."""
    figures = why_figures(part)
    term = defined_term(part.text) if asks_definition(part) else None
    best: tuple[float, str, Passage] | None = None
    for passage in passages:
        titled = bool(figures and passage.heading and states_figure(passage.heading, figures))
        # "What is PUE" read under "PUE and energy": the section's words are its sentences' too
        named = bool(
            term and passage.heading and opens_with_side(passage.heading, frozenset({term}))
        )
        title = question_terms(passage.heading, aliases=False) if titled or named else frozenset()
        sentences = answer_sentences(passage.text)
        for i, sentence in enumerate(sentences):
            if sentence in used or not quotable(sentence):
                continue
            if opening is not None and not about_side(sentence, passage.heading, opening):
                continue
            if sides and not on_a_side(sentence, passage.heading, sides):
                continue
            if alone is not None and not about_side_alone(sentence, opening, alone, sides):
                continue
            if differs and not states_difference(sentence, sides):
                continue
            if naming is not None and not mentions_side(sentence, naming):
                continue
            score = _score(part, sentence, sides, title)
            if score is None:
                continue
            if term and defines(sentence, term) and names_exactly(passage.heading, term):
                score += 0.5  # the section titled X is where X is defined
            elif named and i == 0 and says_what_it_is(sentence):
                score += 1.5  # the section titled X opens by saying what X is, by its long name
            if figures:  # the section titled with the asked figure, or a sentence stating it
                score += 2.0 if titled else 0.5 if states_figure(sentence, figures) else 0.0
            quoted = with_context(sentences, i, () if alone is not None else sides)
            if quoted is not None and (best is None or score > best[0]):
                best = (score, quoted, passage)
    return (best[1], best[2]) if best else None


def _score(
    part: Part, sentence: str, sides: Sequence[frozenset[str]], title: frozenset[str]
) -> float | None:
    """How well `sentence` (read under its section's `title` words) answers `part`: the
    weight of the keywords it shares, +1 for naming every compared side, plus what it says
    of what is asked (:func:`.asked.asked_bonus`); None when it is off topic."""
    groups = term_groups(part.search_text)
    keys = _key_forms(part.search_text)
    if asks_quality(part):  # "does QLoRA hurt quality" is about QLoRA, not any quality
        groups = tuple(g for g in groups if not any(names_quality(t) for t in g))
        keys = frozenset(k for k in keys if not names_quality(k))
    bare = without_parentheticals(sentence)  # "张量（层内）并行" names "张量并行"
    words = question_terms(sentence, aliases=False) | question_terms(bare, aliases=False) | title
    shared = shared_weight(groups, words)
    if not shared or (keys and not keys & words):
        return None
    if WHY.search(part.text) and points_at_reason(sentence):
        return None  # "… it shows why bandwidth decides …": the reason is elsewhere
    if asks_quality(part) and not states_quality(sentence):
        return None  # "效果好多少": "the frozen base still takes 137.95e9 bytes" says no quality
    covered = [s for s in sides if mentions_side(sentence, s)]
    # naming both sides counts when it says something about one ("DeepSeek-V3 … 数据并行，没有
    # 使用张量并行" only lists them)
    compares = sides and len(covered) == len(sides) and clause_subjects(sentence, tuple(sides))
    score = shared + (1.0 if compares else 0.0)
    return score + asked_bonus(part, sentence, sides, keys)


def shared_weight(groups: Sequence[dict[str, float]], words: frozenset[str]) -> float:
    """The weight of the part's keywords `words` names, each keyword once with its synonyms
    (:func:`.parts.term_groups`: "MFU（模型 FLOPs 利用率）" names MFU once, not four times), at
    the best weight it is named by; a synonym of another keyword it names in full counts
    nothing ("tensor-parallel" beside "tensor parallelism" is one mention, not 1.6)."""
    best = [
        max((w, t) for t, w in group.items() if t in words)
        for group in groups
        if words & group.keys()
    ]
    full = [t for w, t in best if w >= 1.0]
    return sum(w for w, t in best if w >= 1.0 or not any(f[:6] == t[:6] for f in full))


def _key_forms(text: str) -> frozenset[str]:
    """The key terms of `text` with their synonyms in either language (the forms a passage
    may name them by)."""
    keys = key_terms(text)
    if not keys:
        return keys
    return frozenset(keys | set(weighted_terms(" ".join(sorted(keys)))))
