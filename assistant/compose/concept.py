"""Answers to a question with nothing to compute ("ZeRO-2 和 ZeRO-3 差在哪?", "What is MFU?").

The passages are the retrieval hits for the question, re-ranked for what such a question asks:
a passage whose section title names the question's terms, and for a comparison ("区别", "vs",
"difference") one that mentions both compared sides, comes first. The headline is the
sentence (or two) of those passages that answers: a complete sentence sharing the most
keywords with the question, never a lead-in cut before its formula or list ("…最少 GPU 数为"),
with the formula it introduces kept whole. A question of two parts ("有啥区别？显存能省多少")
gets one sentence per part, each from that part's own best passage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.compose.asked import (
    DEFINITION,
    WHY,
    asks_quality,
    names_quality,
    says_what_is_asked,
)
from assistant.compose.best_sentence import (
    answering_sentence,
    best_of,
    best_sentence,
    compared_sides,
    distinct,
    why_figures,
)
from assistant.compose.citing import lead_in
from assistant.compose.openings import (
    clause_subjects,
    describes_each,
    states_figure,
)
from assistant.compose.parts import (
    Part,
    comparison_sides,
    key_terms,
    mentions_side,
    question_parts,
    question_terms,
)
from assistant.records import Citation, Language, Passage, Query
from assistant.sanitize import clean

if TYPE_CHECKING:
    from assistant.retrieval import Retriever

__all__ = ["answering_sentence", "concept_citations", "concept_headline"]

#: Documents whose passages may support a sentence about each topic (shared with compose).
TopicDocuments = dict[str, frozenset[str]]


def concept_citations(
    query: Query, retriever: Retriever, claim: str, topics: TopicDocuments
) -> list[Citation]:
    """The best passages for a question with nothing to compute, searched in its language.

    Site profiles and the profile template answer "which machine is this", not a concept:
    they are left out unless the question names the site. A passage that only introduces a
    table is followed by the table itself. At most three passages, each within half the top
    score after re-ranking (:func:`_rerank`).
    """
    hits = _rerank(
        query.question, _usable(query, retriever, _concept_hits(query, retriever, topics))
    )
    if not hits:
        return []
    floor = hits[0][1] * 0.5
    chosen: list[Passage] = []
    for passage, score in hits:
        if len(chosen) >= 3 or score < floor:
            break
        if passage.id in {p.id for p in chosen}:
            continue
        chosen.append(passage)
        if lead_in(passage):
            chosen.append(_next_passage(retriever, passage, query.language) or passage)
    if DEFINITION.search(query.question):  # "ZeRO-3 是什么?": the definition first
        chosen.sort(key=lambda p: (p.anchor or "intro") != "intro")
    return [Citation(passage=p, claim=claim) for p in dict.fromkeys(chosen)]


def _usable(query: Query, retriever: Retriever, hits: list[Passage]) -> list[Passage]:
    named = query.scenario.site_profile
    sites = {s.id for s in retriever.site_profiles()} | {"site-template"}
    return [p for p in hits if p.doc_id not in sites or p.doc_id == named]


def _rerank(question: str, hits: Sequence[Passage]) -> list[tuple[Passage, float]]:
    """Hits with their score raised by what makes a passage answer a concept question: its
    section title names the question's keywords (up to +25%, by the share it names), and for a
    comparison it names both compared sides (+50%)."""
    terms = question_terms(question)
    sides = comparison_sides(question)
    scored = []
    for rank, passage in enumerate(hits):
        heading = question_terms(passage.heading, aliases=False) if passage.heading else set()
        boost = 0.25 * len(terms & heading) / len(terms) if terms else 0.0
        if sides and all(mentions_side(passage.text, side) for side in sides):
            boost += 0.5
        scored.append((rank, passage, passage.score * (1.0 + boost)))
    scored.sort(key=lambda item: (-item[2], item[0]))
    return [(passage, score) for _, passage, score in scored]


def _concept_hits(query: Query, retriever: Retriever, topics: TopicDocuments) -> list[Passage]:
    """Retrieval hits for a conceptual question; a follow-up is searched in its context.

    "ZeRO-3 是什么?" then "那网络呢?": the search text joins both, and the hits must come from
    documents on the new topic (network); when the context pulls only the old topic's
    documents, the new topic is searched on its own. A question that names a topic (network,
    power …) puts the passages of that topic's documents first.
    """
    named = [t for t in query.topics if t in topics]
    wanted = frozenset().union(*(topics[t] for t in named))
    if not (query.followup and query.context):
        hits = retriever.search(query.question, k=12, lang=query.language)
        # a question that names its topic ("千卡集群用什么网络") reads that topic's documents first
        on_topic = [p for p in hits if p.doc_id in wanted]
        return on_topic + [p for p in hits if p.doc_id not in wanted] if on_topic else hits
    hits = retriever.search(f"{query.context} {query.question}", k=12, lang=query.language)
    if not named:
        return hits
    on_topic = [p for p in hits if p.doc_id in wanted]
    if len(on_topic) < 2:  # the context says little about the new topic: search it on its own
        alone = " ".join(_CONCEPT_TOPICS[t][query.language] for t in named)
        seen = {p.id for p in on_topic}
        on_topic += [
            p
            for p in retriever.search(alone, k=12, lang=query.language)
            if p.doc_id in wanted and p.id not in seen
        ]
    return on_topic


#: What a bare topic follow-up ("那网络呢?") asks about, as a search text.
_CONCEPT_TOPICS: dict[str, dict[str, str]] = {
    "memory": {
        "zh": "GPU 显存：权重、优化器状态、激活值",
        "en": "GPU memory: weights, optimizer states, activations",
    },
    "compute": {"zh": "训练算力 6ND、MFU 与训练时间", "en": "training compute 6ND, MFU and time"},
    "network": {
        "zh": "GPU 网络：NVLink、InfiniBand、RoCE 与 all-reduce 通信",
        "en": "GPU networking: NVLink, InfiniBand, RoCE and all-reduce communication",
    },
    "power": {"zh": "GPU 功耗、PUE 与散热", "en": "GPU power draw, PUE and cooling"},
    "cost": {"zh": "GPU 小时价格与成本", "en": "GPU-hour prices and cost"},
}


def _next_passage(retriever: Retriever, passage: Passage, language: Language) -> Passage | None:
    passages = retriever.document_passages(passage.doc_id, language) or (
        retriever.document_passages(passage.doc_id)
    )
    ids = [p.id for p in passages]
    if passage.id in ids and ids.index(passage.id) + 1 < len(passages):
        return passages[ids.index(passage.id) + 1]
    return None


def concept_headline(
    query: Query, retriever: Retriever, citations: Sequence[Citation], claim: str
) -> tuple[str, list[Citation]]:
    """The headline that answers a concept question, and the citations with the passages it
    quotes added: one sentence (with its source number) per part of the question, each part
    from its own best sections; "" when no passage has a sentence that answers.

    Retrieval returns one passage per section; the sentence may be in another passage of that
    section ("三个阶段" holds its table and its prose in separate passages), so every passage of
    the best five sections is read."""
    cited = list(citations)
    parts = question_parts(query.question)
    topics = [t for t in query.topics if t in _CONCEPT_TOPICS]
    if query.followup and query.context and topics and len(parts) == 1:
        # "那网络呢?" asks about its topic: its words alone name almost nothing
        about = " ".join(_CONCEPT_TOPICS[t][query.language] for t in topics)
        parts = [Part(query.question, f"{about} {query.question}")]
    said: list[str] = []
    used: set[str] = set()
    for part in parts:
        hits = distinct(cited)
        if len(parts) > 1 or not query.followup:  # a follow-up's own words say little alone
            searched = _part_passages(query, retriever, part)
            # a part its own words find nothing for ("用 GQA 能省多少") reads the question's hits
            hits = (searched or hits) if len(parts) > 1 else distinct([*hits, *searched])
        pool = _sections(retriever, hits[:_SECTIONS_READ], query.language)
        found = best_sentence(part, pool, used)
        if found is None or _answered(part, pool, used):
            continue
        quoted = _compared(query, retriever, part, found[0], pool, used) or [
            found,
            *_other_side(query, retriever, part, found[0], pool),
            *_other_finding(part, pool, found[0]),
        ]
        for sentence, passage in quoted:
            used.add(sentence)
            cited = _quoting(cited, Citation(passage=passage, claim=claim, quote=sentence))
            number = [c.passage.id for c in _distinct_citations(cited)].index(passage.id) + 1
            shown = _titled(part, sentence, passage)
            said.append(f"{clean(shown)} [{number}]")  # a document's control bytes stay inert
    return " ".join(said), cited


def _answered(part: Part, pool: Sequence[Passage], used: set[str]) -> bool:
    """Whether a sentence quoted for an earlier part is this part's best answer too ("… the
    cache is 8 times smaller" for "What is GQA and how much smaller does it make the KV
    cache?"): the part is answered, and the next best sentence would only be worse."""
    best = best_sentence(part, pool, set()) if used else None
    return best is not None and best[0] in used and says_what_is_asked(part, best[0])


def _other_side(
    query: Query, retriever: Retriever, part: Part, sentence: str, pool: Sequence[Passage]
) -> list[tuple[str, Passage]]:
    """For a comparison answered by a sentence about one side only ("RoCE v2 … carries
    InfiniBand transport packets …" is about RoCE), the best sentence about the other side
    ("InfiniBand is a lossless …"), searched for by that side's names too; [] otherwise."""
    sides = compared_sides(part)
    about = clause_subjects(sentence, sides)
    if len(sides) != 2 or len(about) != 1:
        return []
    other = next(s for s in sides if s not in about)
    searched = _part_passages(query, retriever, Part(part.text, " ".join(sorted(other))))
    more = _sections(retriever, searched[:2], query.language)
    found = best_sentence(part, [*pool, *more], {sentence}, opening=other)
    return [found] if found else []


def _compared(
    query: Query,
    retriever: Retriever,
    part: Part,
    found: str,
    pool: Sequence[Passage],
    used: set[str],
) -> list[tuple[str, Passage]]:
    """For "X 和 Y 有什么区别" / "X vs Y": one sentence about each side, in the question's
    order, then the sentence that states their difference when the knowledge base has one
    ("Full fine-tuning, LoRA and QLoRA differ in what is trained …"). A side's sentence
    says what it is or does and is neither about the other side nor their difference. []
    when a side has no such sentence, when the best sentence `found` already gives each side
    a clause of its own, or when the part asks why or about quality (a finding answers that)."""
    sides = compared_sides(part)
    if len(sides) != 2 or WHY.search(part.text) or asks_quality(part):
        return []
    if describes_each(found, sides):
        return []  # "张量并行（TP）把每一层…，流水线并行（PP）则…": one clause a side already
    said: list[tuple[str, Passage]] = []
    read = list(pool)
    for side, other in (sides, sides[::-1]):
        searched = _part_passages(query, retriever, Part(part.text, " ".join(sorted(side))))
        read += _sections(retriever, searched[:2], query.language)
        taken = used | {s for s, _ in said}
        quote = best_sentence(part, read, taken, opening=side, alone=other)
        if quote is None:
            return []
        said.append(quote)
    taken = used | {s for s, _ in said}
    difference = best_of(part, read, taken, None, sides, differs=True)
    return said + ([difference] if difference else [])


def _other_finding(part: Part, pool: Sequence[Passage], sentence: str) -> list[tuple[str, Passage]]:
    """For a quality question about two things ("int8 和 int4 推理质量差多少") answered by a
    finding that names one of them ("LLM.int8() … 性能没有下降"), the best finding on what it
    leaves out ("GPTQ … 4 bit …"); [] otherwise."""
    if not asks_quality(part):
        return []
    left = [
        k
        for k in key_terms(part.search_text)
        if not mentions_side(sentence, frozenset({k})) and not names_quality(k)
    ]
    if not left:
        return []
    found = best_of(part, pool, {sentence}, None, (), naming=frozenset(left))
    return [found] if found else []


def _titled(part: Part, sentence: str, passage: Passage) -> str:
    """`sentence`, after its section's title when that title states the figure a "why"
    question asks about and the sentence does not ("Adam: 2 + 2 + 4 + 4 + 4 = 16 bytes per
    parameter" before "Adam keeps two running statistics …")."""
    figures = why_figures(part)
    heading = passage.heading.strip()
    if not (figures and heading and states_figure(heading, figures)):
        return sentence
    if states_figure(sentence, figures):
        return sentence
    stop = "。" if re.search(r"[\u4e00-\u9fff]", heading) else ". "
    return f"{heading}{stop}{sentence}"


def _quoting(cited: list[Citation], quoted: Citation) -> list[Citation]:
    """`cited` with the passage of `quoted` carrying its quote (added at the end when not yet
    cited; a passage quoted twice keeps its first sentence)."""
    if quoted.passage.id not in {c.passage.id for c in cited}:
        return [*cited, quoted]
    return [
        replace(c, quote=quoted.quote) if c.passage.id == quoted.passage.id and not c.quote else c
        for c in cited
    ]


#: How many of the best sections a headline sentence is looked for in.
_SECTIONS_READ = 5


def _sections(retriever: Retriever, hits: Sequence[Passage], language: Language) -> list[Passage]:
    """Every passage of each hit's section, the hit's own first, in the hits' order."""
    out: list[Passage] = []
    for hit in hits:
        passages = retriever.document_passages(hit.doc_id, language) or []
        section = [p for p in passages if p.anchor == hit.anchor and p.id != hit.id]
        out += [hit, *section]
    return list({p.id: p for p in out}.values())


def _part_passages(query: Query, retriever: Retriever, part: Part) -> list[Passage]:
    hits = retriever.search(part.search_text, k=8, lang=query.language)
    return [p for p, _ in _rerank(part.search_text, _usable(query, retriever, hits))]


def _distinct_citations(citations: Sequence[Citation]) -> list[Citation]:
    return list({c.passage.id: c for c in citations}.values())
