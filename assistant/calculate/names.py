"""Names the question gives that are not in the catalog: said, never silently replaced.

Examples:
    >>> unknown_names_lead(("RTX 5090",), "en").split(".")[0]
    'RTX 5090 is not in the catalog'
"""

from __future__ import annotations

from assistant.i18n import join_sentences, text
from assistant.records import Language, Query, Scenario
from calculators.messages import Msg

__all__ = ["generic_model_notes", "unknown_names_lead"]


def unknown_names_lead(names: tuple[str, ...], lang: Language) -> str:
    """ "<name> is not in the catalog": never replaced; the closest entries and how to add one."""
    from assistant.parse.names import closed_model, closest_entries, name_in, not_decoder_llm
    from assistant.parse.sized_names import size_of

    sentences = []
    for name in names:
        if closed_model(name):  # "GPT-4": no card to add, its weights are not published
            sentences.append(text(Msg("answer.closed_model", name=name_in(name, lang)), lang))
            continue
        kind, closest = closest_entries(name)
        listed: Msg | tuple[str, ...] = closest or Msg("answer.no_close_entry")
        message = Msg("answer.unknown_name", name=name_in(name, lang), closest=listed, kind=kind)
        size = size_of(name) if not_decoder_llm(name) and closest else None
        if size is not None:  # "BERT-large (340M)": the decoder LLMs nearest its size
            message = Msg("answer.unknown_name_by_size", name=name_in(name, lang), size=size,
                          closest=listed, kind=kind)  # fmt: skip
        sentences.append(text(message, lang))
        if kind == "model" and not not_decoder_llm(name):  # its size gives a generic estimate
            sentences.append(text(Msg("answer.unknown_model_size", name=name_in(name, lang)), lang))
        if not_decoder_llm(name):  # "ResNet-50": outside what the calculators model
            sentences.append(text(Msg("answer.not_decoder_llm", name=name_in(name, lang)), lang))
    return join_sentences(sentences, lang)


def generic_model_notes(query: Query) -> tuple[str, str] | None:
    """(lead sentence, assumption) when the only names the catalog lacks are model names and
    the question gives the size ("FalconX-Ultra-70B", "Llama-5-70B"): that size is evaluated
    as a generic model, and the answer says so. None otherwise (a card the catalog lacks, or a
    model with no size, gets no verdict: `unknown_names_lead`)."""
    from assistant.parse.names import closest_entries, name_in, not_decoder_llm

    s, lang = query.scenario, query.language
    if not query.unknown_names or s.model is not None or s.params is None:
        return None
    found = [(name, *closest_entries(name)) for name in query.unknown_names]
    if any(kind != "model" for _, kind, _ in found):
        return None
    leads, notes = [], []
    for name, _, closest in found:
        shown = name_in(name, lang)
        listed: Msg | tuple[str, ...] = closest or Msg("answer.no_close_entry")
        lead = Msg("answer.unknown_model_generic", name=shown, closest=listed, params=s.params)
        leads.append(text(lead, lang))
        if not_decoder_llm(name):  # "T5-11B": a decoder LLM's figures are a rough guide only
            leads.append(text(Msg("answer.not_decoder_generic", name=shown), lang))
        note = Msg("answer.unknown_model_generic_assumption", name=shown, params=s.params)
        notes.append(text(note, lang))
        mha = _multi_head_kv(s)
        if mha is not None:  # the KV cache of a full-attention shape decides a serving answer
            leads.append(text(Msg("answer.generic_kv_mha", name=shown, **mha), lang))
    return join_sentences(leads, lang), " ".join(notes)


#: KV heads of the grouped-query attention most current models use (Llama 3, Qwen2.5, Mistral).
_GQA_KV_HEADS = 8


def _multi_head_kv(s: Scenario) -> dict[str, float] | None:
    """The KV heads and the GQA ratio when the generic shape for a serving question's size has
    full multi-head attention (below 30B, as Llama 2): its KV cache is then several times what
    a GQA model of the name's size would hold (InternLM2.5-20B: 8 KV heads, not 48); None for
    training, or a shape already GQA."""
    from calculators.catalog.models import generic_model
    from calculators.errors import CalculatorInputError

    if s.task not in (None, "inference") or s.params is None:
        return None
    try:
        shape = generic_model(params=s.params)
    except CalculatorInputError:
        return None
    if shape.kv_heads <= _GQA_KV_HEADS:
        return None
    return {"heads": float(shape.kv_heads), "ratio": shape.kv_heads / _GQA_KV_HEADS}
