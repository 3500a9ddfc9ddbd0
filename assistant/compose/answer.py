"""Query + calculator outcome + retrieved passages → :class:`~assistant.records.Answer`.

Deterministic: no generative model. Each check's sentence cites passages chosen for that kind
of claim (:mod:`.citing`): retrieval hits for a topic query, restricted to documents on
the topic, plus the sections that back the claim, ranked by section fit and by whether they
name the scenario's GPU or model; a passage that only introduces a table is never cited. When
none qualifies the answer says "no passage found" instead of citing noise. A question in the
domain with nothing to compute ("ZeRO-3 是什么?") is answered with the best passages for the
question itself, quoted; an off-topic question cites nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.compose.citing import SECTIONS, claim_kind, lead_in, mention_terms, passage_score
from assistant.compose.concept import concept_citations, concept_headline
from assistant.compose.why_part import why_sentence
from assistant.i18n import join_sentences, t
from assistant.parse.thread import quoted_context
from assistant.records import Answer, Check, Citation, Language, Passage, Query, Scenario
from assistant.render import fmt_count, render_markdown

if TYPE_CHECKING:
    from assistant.calculate import Outcome
    from assistant.retrieval import Retriever

__all__ = [
    "TOPIC_DOCUMENTS",
    "cite_check",
    "claim_kind",
    "compose",
    "concept_citations",
    "lead_in",
    "mention_terms",
    "topic_query",
]

#: Documents whose passages may support a sentence about each topic.
TOPIC_DOCUMENTS: dict[str, frozenset[str]] = {
    "memory": frozenset(
        {
            "gpu-memory",
            "zero-fsdp",
            "mixed-precision-optimizer",
            "activation-recompute",
            "inference-serving",
            "feasibility-checklist",
        }
    ),
    "compute": frozenset(
        {
            "scaling-laws-compute",
            "gpu-generations",
            "feasibility-checklist",
            "parallelism-3d",
            "inference-serving",
        }
    ),
    "network": frozenset({"networking", "parallelism-3d", "zero-fsdp"}),
    "power": frozenset({"power-cooling-reliability"}),
    "cost": frozenset({"cost-sourcing"}),
}
#: Passages of a site's founding or profile document may support any topic about that site.
SITE_TOPIC_ANCHORS: dict[str, tuple[str, ...]] = {
    "memory": ("compute-scale",),
    "compute": ("compute-scale",),
    "network": ("network",),
    "power": ("power-cooling",),
    "cost": ("cost",),
}

_TASK_WORDS = {
    "zh": {"pretrain": "预训练", "finetune": "微调", "inference": "推理"},
    "en": {"pretrain": "training", "finetune": "fine-tuning", "inference": "inference serving"},
}
_TOPIC_QUERIES = {
    "memory": {
        "zh": "{task} {size} 参数模型的显存需求：权重、梯度、优化器状态，ZeRO 切分",
        "en": "GPU memory needed for {task} a {size} parameter model: weights, gradients, "
        "optimizer states, ZeRO sharding",
    },
    "memory-inference": {
        "zh": "推理显存：权重 {precision} 与 KV cache",
        "en": "inference GPU memory: weights in {precision} and the KV cache",
    },
    "memory-finetune": {
        "zh": "{method} 微调的显存：LoRA QLoRA 全参数微调",
        "en": "memory for {method} fine-tuning: full, LoRA and QLoRA",
    },
    "compute": {
        "zh": "训练算力 6ND，Chinchilla token 数，MFU 与训练时间",
        "en": "training compute 6ND, Chinchilla tokens, MFU and training time",
    },
    "compute-inference": {
        "zh": "推理吞吐：prefill 与 decode，显存带宽限制",
        "en": "inference throughput: prefill and decode, memory bandwidth bound",
    },
    "network": {
        "zh": "多机训练的梯度同步 all-reduce 与机间网络带宽 InfiniBand RoCE",
        "en": "gradient all-reduce across nodes and inter-node bandwidth InfiniBand RoCE",
    },
    "power": {"zh": "GPU 功耗 TDP、PUE 与电力散热", "en": "GPU power TDP, PUE, power and cooling"},
    "cost": {"zh": "GPU 小时与成本", "en": "GPU-hours and cost at a price per GPU-hour"},
}


def topic_query(topic: str, scenario: Scenario, language: Language) -> str:
    """The retrieval query for one topic, built from the scenario in the answer's language.

    Examples:
        >>> topic_query("memory", Scenario(task="pretrain", params=1e11), "zh")
        '预训练 1000亿 参数模型的显存需求：权重、梯度、优化器状态，ZeRO 切分'
    """
    key = topic
    if topic in ("memory", "compute") and scenario.task == "inference":
        key = f"{topic}-inference"
    elif topic == "memory" and scenario.task == "finetune":
        key = "memory-finetune"
    template = _TOPIC_QUERIES[key][language]
    size = fmt_count(scenario.params, language) if scenario.params else ""
    return template.format(
        task=_TASK_WORDS[language].get(scenario.task or "pretrain", ""),
        size=size,
        precision=scenario.precision or "bf16",
        method=(scenario.method or "full").upper()
        if language == "en"
        else (scenario.method or "全参数"),
    )


def _acceptable(passage: Passage, topic: str, site_docs: frozenset[str]) -> bool:
    if passage.doc_id in TOPIC_DOCUMENTS.get(topic, frozenset()):
        return True
    return passage.doc_id in site_docs and (passage.anchor or "") in SITE_TOPIC_ANCHORS.get(
        topic, ()
    )


def cite_check(
    check: Check,
    scenario: Scenario,
    language: Language,
    retriever: Retriever,
    site_docs: frozenset[str] = frozenset(),
    *,
    kv_fix: bool = False,
) -> list[Citation]:
    """At most two passages that support `check`'s sentence, from different sections
    (`kv_fix`: the first fix offered changes the KV cache's format, see `claim_kind`).

    Candidates are the retrieval hits for the topic query (restricted to documents on the
    topic) plus the passages of the sections that back this kind of claim; they are ranked by
    section fit, retrieval rank and whether they name the scenario's GPU or model.
    """
    kind = claim_kind(check.kind, scenario, kv_bound=_kv_bound(check), kv_fix=kv_fix)
    if check.kind == "compute" and "total_flops" not in check.figures:
        kind = "compute-bubble" if "schedule_bubble" in check.figures else kind
    sections = SECTIONS.get(kind, ())
    hits = retriever.search(topic_query(check.kind, scenario, language), k=12, lang=language)
    ranks = {p.id: i for i, p in enumerate(hits) if _acceptable(p, check.kind, site_docs)}
    candidates = {p.id: p for p in hits if p.id in ranks}
    for doc_id, anchor in sections:
        for passage in _document(retriever, doc_id, language):
            if passage.anchor == anchor:
                candidates.setdefault(passage.id, passage)
    terms = mention_terms(scenario)
    ranked = sorted(
        candidates.values(), key=lambda p: -passage_score(p, sections, ranks.get(p.id), terms)
    )
    usable = [p for p in ranked if not lead_in(p)]
    if sections:  # a second passage only from the sections that back this claim
        first = usable[:1]
        rest = [p for p in usable[1:] if (p.doc_id, p.anchor or "") in sections]
        other = [p for p in rest if (p.doc_id, p.anchor) != (first[0].doc_id, first[0].anchor)]
        usable = first + (other or rest)
    return [Citation(passage=p, claim=check.summary) for p in usable[:2]]


def _kv_format_fix(outcome: Outcome) -> bool:
    """True when the first change offered keeps the hardware and changes the KV cache's
    format (an 8-bit cache, alone or beside smaller weights): its passage backs the fix."""
    evaluation = outcome.evaluation
    if evaluation is None or not evaluation.suggestions:
        return False
    first = evaluation.suggestions[0]
    return not first.hardware and first.new_plan.kv_dtype != evaluation.plan.kv_dtype


def _kv_bound(check: Check) -> bool:
    """A serving memory check that fails with the KV cache a large share of each GPU's need
    (the planner's threshold for offering an 8-bit KV cache)."""
    from calculators.planner.suggestions import KV_BOUND_SHARE

    kv, need = (check.figures.get(k) for k in ("kv_cache_bytes_per_gpu", "required_bytes_per_gpu"))
    if check.kind != "memory" or check.verdict != "fail":
        return False
    if not isinstance(kv, (int, float)) or not isinstance(need, (int, float)) or need <= 0:
        return False
    return kv / need >= KV_BOUND_SHARE


def _document(retriever: Retriever, doc_id: str, language: Language) -> list[Passage]:
    return retriever.document_passages(doc_id, language) or retriever.document_passages(doc_id)


def _site_citations(
    outcome: Outcome, language: Language, retriever: Retriever, claim: str
) -> tuple[list[Citation], frozenset[str]]:
    """The site profile's own passage, and the founding documents that talk about the site.

    A document counts as being about the site when a passage of it names one of the site's
    aliases; its section on the overall suitability (anchor `compute-scale`) supports the lead.
    """
    site = outcome.site
    if site is None:
        return [], frozenset()
    citations: list[Citation] = []
    profile = retriever.document_passages(site.id, language) or retriever.document_passages(site.id)
    if profile:
        citations.append(Citation(passage=profile[0], claim=claim))
    docs = {site.id}
    aliases = [a.lower() for a in site.aliases if len(a) >= 2]
    probe = (
        f"{site.aliases[0] if site.aliases else site.title} GPU {_TASK_WORDS[language]['pretrain']}"
    )
    for passage in retriever.search(probe, k=8, lang=language):
        if passage.doc_id != site.id and any(a in passage.text.lower() for a in aliases):
            docs.add(passage.doc_id)
            break
    for doc_id in sorted(docs - {site.id}):
        passages = retriever.document_passages(doc_id, language) or retriever.document_passages(
            doc_id
        )
        lead = next((p for p in passages if p.anchor in SITE_TOPIC_ANCHORS["memory"]), None)
        if lead is not None:
            citations.append(Citation(passage=lead, claim=claim))
    return citations, frozenset(docs)


def _site_check_citations(
    check: Check, language: Language, retriever: Retriever, site_docs: frozenset[str], site_id: str
) -> list[Citation]:
    """For a failing or tight check, the site document's section on that topic."""
    if check.verdict not in ("fail", "tight"):
        return []
    anchors = SITE_TOPIC_ANCHORS.get(check.kind, ())
    out = []
    for doc_id in sorted(site_docs - {site_id}):
        passages = retriever.document_passages(doc_id, language) or retriever.document_passages(
            doc_id
        )
        match = next((p for p in passages if p.anchor in anchors), None)
        if match is not None:
            out.append(Citation(passage=match, claim=check.summary))
    return out


def _spec_citations(
    facts: tuple[str, ...], retriever: Retriever, language: Language
) -> list[Citation]:
    """The GPU-generations passage whose table rows name the GPUs of the facts shown."""
    if not facts:
        return []
    chips = [mention_terms(Scenario(gpu=f.split("：")[0].split(":")[0]))[0] for f in facts]
    sections = (("gpu-generations", "spec-table"),)
    best = max(
        _document(retriever, "gpu-generations", language),
        key=lambda p: sum(passage_score(p, sections, None, (c, ())) for c in chips),
        default=None,
    )
    return [Citation(passage=best, claim=facts[0])] if best is not None else []


def _dedupe(citations: Sequence[Citation]) -> tuple[Citation, ...]:
    seen: set[tuple[str, str]] = set()
    unique: list[Citation] = []
    for citation in citations:
        key = (citation.passage.id, citation.claim)
        if key not in seen:
            seen.add(key)
            unique.append(citation)
    return tuple(unique)


def compose(
    query: Query, outcome: Outcome, retriever: Retriever | None, *, top_k: int = 5
) -> Answer:
    """Build the answer: verdict, checks, suggestions, assumptions, citations and its text."""
    language = query.language
    citations: list[Citation] = []
    if retriever is not None and outcome.mode == "concept":
        citations = concept_citations(query, retriever, query.question, TOPIC_DOCUMENTS)
        citations += _spec_citations(outcome.facts, retriever, language)
    elif retriever is not None and outcome.checks and outcome.scenario is not None:
        site_citations, site_docs = _site_citations(outcome, language, retriever, outcome.lead)
        citations += site_citations
        kv_fix = _kv_format_fix(outcome)
        for check in outcome.checks:
            if check.verdict != "n/a":
                citations += cite_check(
                    check, outcome.scenario, language, retriever, site_docs, kv_fix=kv_fix
                )
                if outcome.site is not None:
                    citations += _site_check_citations(
                        check, language, retriever, site_docs, outcome.site.id
                    )
    answer = Answer(
        question=query.question,
        language=language,
        verdict=outcome.verdict,
        binding_constraint=outcome.binding,
        text="",
        query=query,
        checks=outcome.checks,
        suggestions=outcome.suggestions,
        assumptions=outcome.assumptions,
        citations=_dedupe(citations),
        scenario=outcome.scenario,
        warnings=tuple(query.warnings) + tuple(outcome.warnings),
        options=outcome.options,
        scaling=outcome.scaling,
        refusal=outcome.refusal,
    )
    lead, cited = _concept_lead(query, outcome, answer.citations, retriever)
    # "为啥…？…要占多少": the figure, then the knowledge base's sentence on the why
    why, cited = why_sentence(query, outcome, _dedupe(cited), retriever, TOPIC_DOCUMENTS)
    lead = join_sentences((lead, why), language) if why else lead
    answer = replace(answer, citations=_dedupe(cited))
    text = render_markdown(
        answer, lead=lead, facts=outcome.facts, ask=outcome.ask, remarks=outcome.remarks
    )
    return replace(answer, text=text)


def _concept_lead(
    query: Query, outcome: Outcome, citations: Sequence[Citation], retriever: Retriever | None
) -> tuple[str, list[Citation]]:
    """A question with nothing to compute is answered first by the sentences of the cited
    passages that answer it, each with its source number (:func:`.concept.concept_headline`);
    a follow-up still says what it follows. With no such sentence, and for any other answer,
    the lead is the outcome's."""
    if outcome.mode == "concept" and outcome.focus:  # a figure from the catalog answers it
        return outcome.focus, list(citations)
    if outcome.mode != "concept" or not citations or retriever is None:
        return outcome.lead, list(citations)
    said, cited = concept_headline(query, retriever, citations, query.question)
    if not said:
        return outcome.lead, list(citations)
    if query.followup and query.context:  # "Following on from …" still says what it follows
        context = quoted_context(query)
        note = "concept.followup_note" if context else "concept.followup_note_unquoted"
        said = f"{said} {t(note, query.language, context=context)}"
    return said, cited
