"""What a concept question asks, read for choosing the sentences that answer it (pure).

- its *parts*: "ZeRO-2 跟 ZeRO-3 有啥区别？显存能省多少" asks two things; a later part that names
  nothing of its own ("显存能省多少", "how much does it save") is searched with the names of
  the first ("ZeRO-2 ZeRO-3 显存能省多少");
- its *keywords*: the tokens that say what it is about, with their aliases ("TP" → tensor
  parallelism), without the words every passage shares ("训练", "model");
- for a comparison ("区别", "差在哪", "difference", "vs", "the same as"), the two *sides*:
  the names on either side of the conjunction ("ZeRO-2" and "ZeRO-3", "PCIe" and "SXM"),
  each with its aliases, so a passage or a sentence can be asked whether it names both.

Examples:
    >>> [p.text for p in question_parts("ZeRO-2 跟 ZeRO-3 到底有啥区别？显存能省多少")]
    ['ZeRO-2 跟 ZeRO-3 到底有啥区别', '显存能省多少']
    >>> question_parts("ZeRO-2 跟 ZeRO-3 到底有啥区别？显存能省多少")[1].search_text
    'ZeRO-2 ZeRO-3 显存能省多少'
    >>> [sorted(side)[0] for side in comparison_sides("What's the difference between TP and PP?")]
    ['tensor', 'pipeline']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Part",
    "asks_quantity",
    "comparison_sides",
    "key_terms",
    "mentions_side",
    "question_parts",
    "question_terms",
    "term_groups",
    "weighted_terms",
]


@dataclass(frozen=True)
class Part:
    """One question of a question that asks several."""

    text: str
    """The part as asked."""
    search_text: str
    """What to search and match for it: the part, after the names it leaves to the first part."""
    inherited: tuple[str, ...] = ()
    """The first part's names this part was given ("MFU" for "what's a realistic value"): what
    the figure it asks for is a figure of."""


#: Words every passage of the knowledge base shares: matching one of them alone picks a
#: sentence about anything ("4090能训练大模型吗" → "在大模型训练领域，选择合适的计算资源…").
GENERIC_TERMS = frozenset(
    {
        "训练",
        "模型",
        "大模型",
        "推理",
        "微调",
        "显卡",
        "gpu",
        "gpus",
        "model",
        "models",
        "train",
        "training",
        "inference",
        "serving",
        "fine-tuning",
    }
)
#: Words that ask for a comparison rather than name what is compared.
_FILLER = frozenset(
    "difference differences between differ different compare comparison versus vs same "
    "区别 差别 差异 不同 对比 比较 到底 一回事 一样 相同 有啥 什么".split()
)
_COMPARE = re.compile(
    r"区别|差别|差异|不同|差在哪|差哪|对比|比较|一回事|一样吗|相同|differen|differ\b|compar|"
    r"\bvs\b\.?|versus|same as|which (?:one )?(?:is|gives|works) better|哪个(?:更)?好|"
    # a bare choice between two names: "LoRA or QLoRA?", "ZeRO-2 还是 ZeRO-3？"
    r"^\s*[\w.+-]+\s*(?:\bor\b|还是)\s*[\w.+-]+\s*$",
    re.IGNORECASE,
)
_CONJUNCTION = re.compile(
    r"\s*(?:和|与|跟|同|及|还是|对比|\bvs\b\.?|\bversus\b|\b(?:the )?same as\b|\band\b|\bor\b|"
    r"\bfrom\b)\s*",
    re.IGNORECASE,
)
#: Where one question ends and the next begins: "？", "；", "，那…", ", and how …".
_PART_BREAK = re.compile(
    r"[？?；;]+|[，,]\s*(?=(?:那|还有|以及)?(?:什么时候|为什么|怎么|如何|多少|能不能|要不要|是否))|"
    r",?\s+and\s+(?=(?:what|how|why|when|which|where|does|do|is|can)\b)",
    re.IGNORECASE,
)
#: A later part that points back at the first ("它", "it", "比 ZeRO-2 多省多少": compared with
#: what the first part names) needs the first part's names.
_POINTER = re.compile(
    r"它|其|^(?:比|相比)|\b(?:it|they|them|this|that|these|those)\b", re.IGNORECASE
)
#: "什么是投机解码，能快多少" / "ZeRO-3 是什么，比 …": a definition asked before a comma, then
#: a second question.
_DEFINITION_LEAD = re.compile(r"^((?:什么是|啥是)[^，,]+|[^，,]+(?:是什么|是啥))[，,]\s*(?=\S)")
#: A part that asks for a figure: a sentence with a number answers it.
_QUANTITY = re.compile(
    r"多少|几倍|多大|多快|多高|多久|能到|做到|达到|一般|通常|"
    r"\bhow (?:much|many|big|large|fast|long|high)\b|\brealistic\b|\btypical\b|\breach\b",
    re.IGNORECASE,
)
#: Words the domain vocabulary lists that are too general to say what a part is about
#: ("large … runs" matched a power-and-cooling sentence to an MFU question).
_WEAK_KEYS = frozenset({"large", "big", "huge", "small", "fast", "high", "low"})
#: A name that sets a condition rather than says what is measured: a GPU ("H100", "4090",
#: "MI300X") or a precision ("FP8", "BF16").
_CONDITION = re.compile(r"(?:[a-z]{1,3}\d{1,4}[a-z]?|\d{3,4}[a-z]?)$")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9.+_-]*")


@lru_cache(maxsize=512)
def question_terms(text: str, *, aliases: bool = True) -> frozenset[str]:
    """The keywords of `text` (two characters or more, not a generic word) and, with
    `aliases`, what they abbreviate (a question's "TP"; a passage's own words are not expanded).

    Examples:
        >>> sorted(question_terms("What's the difference between TP and PP?"))[:4]
        ['between', 'difference', 'parallelism', 'pipeline']
    """
    from assistant.retrieval.aliases import alias_terms
    from assistant.retrieval.tokenize import tokenize

    tokens = tokenize(text)
    found = {w for w in [*tokens, *(alias_terms(tokens) if aliases else [])] if len(w) >= 2}
    return frozenset(found - GENERIC_TERMS)


@lru_cache(maxsize=512)
def weighted_terms(text: str) -> dict[str, float]:
    """The keywords of `text` at 1.0 and their synonyms in either language at their lower
    weight ("memory" → "显存" 0.6), so a question asked in one language finds its answer in
    the other's passages; generic and one-character words left out.

    Examples:
        >>> weighted_terms("显存能省多少")["memory"]
        0.6
    """
    from assistant.retrieval.aliases import alias_terms
    from assistant.retrieval.tokenize import expand_query, tokenize

    tokens = tokenize(text)
    expanded = expand_query([*tokens, *alias_terms(tokens)])
    return {w: weight for w, weight in expanded if len(w) >= 2 and w not in GENERIC_TERMS}


@lru_cache(maxsize=512)
def term_groups(text: str) -> tuple[dict[str, float], ...]:
    """:func:`weighted_terms` grouped by the word of `text` each came from: a word with its
    aliases and synonyms ("mfu" with "model", "flops", "utilization", "利用率"), so that a
    sentence naming one thing by several of its names counts it once. A form that is itself a
    word of `text` has its own group; one no single word reaches ("gpu memory") stands alone.
    Words that only ask for a comparison ("difference", "between") name nothing: "between
    stages" in a sentence does not answer "the difference between TP and PP".

    Examples:
        >>> len(term_groups("What is MFU?")), term_groups("What is MFU?")[0]["利用率"]
        (1, 1.0)
        >>> len(term_groups("MFU 和 FLOPs"))
        2
    """
    from assistant.retrieval.aliases import alias_terms
    from assistant.retrieval.tokenize import expand_query, tokenize

    weights = {t: w for t, w in weighted_terms(text).items() if t not in _FILLER}
    words = [t for t in dict.fromkeys(tokenize(text)) if t in weights]
    taken = set(words)
    groups: list[dict[str, float]] = []
    for word in words:
        group = {word: weights[word]}
        for form, _ in expand_query([word, *alias_terms([word])]):
            if form in weights and form not in taken:
                group[form] = weights[form]
                taken.add(form)
        groups.append(group)
    groups += [{form: weight} for form, weight in weights.items() if form not in taken]
    return tuple(groups)


def question_parts(question: str) -> list[Part]:
    """The questions `question` asks, at most three; one that names nothing of its own (or
    points back with "它", "it") is searched with the names of the first part. A later part
    with no keyword at all is kept when it asks for a figure ("能让推理快多少").

    Examples:
        >>> [p.text for p in question_parts("What is MFU?")]
        ['What is MFU?']
        >>> [p.search_text for p in question_parts("什么是 MFU，千卡训练一般能到多少")]
        ['什么是 MFU', 'MFU 千卡训练一般能到多少']
    """
    pieces = [p.strip(" ，,。.") for p in _pieces(question)]
    pieces = [p for p in pieces if p]
    pieces = [p for i, p in enumerate(pieces) if question_terms(p) or (i and asks_quantity(p))]
    pieces = pieces[:3]
    if len(pieces) < 2:
        return [Part(question.strip(), question.strip())]
    names = _names(pieces[0]) or _subject(pieces[0])
    parts = [Part(pieces[0], pieces[0])]
    for piece in pieces[1:]:
        own = _names(piece)
        # a figure asked with only its conditions named ("what's a realistic value for H100
        # training", "H100 上一般能到多少") is a figure of what the first part names
        measured = asks_quantity(piece) and all(_CONDITION.match(n.lower()) for n in own)
        inherit = names and (not own or _POINTER.search(piece) or measured)
        extra = [n for n in names if n.lower() not in piece.lower()] if inherit else []
        parts.append(Part(piece, " ".join([*extra, piece]), tuple(extra)))
    return parts


def _pieces(question: str) -> list[str]:
    """`question` cut at its part breaks, and a definition asked before a comma cut off."""
    out: list[str] = []
    for piece in _PART_BREAK.split(question):
        lead = _DEFINITION_LEAD.match(piece.strip())
        out += [lead.group(1), piece.strip()[lead.end() :]] if lead else [piece]
    return out


def asks_quantity(text: str) -> bool:
    """Whether `text` asks for a figure ("能省多少", "how big", "what's a realistic value")."""
    return bool(_QUANTITY.search(text))


@lru_cache(maxsize=512)
def key_terms(text: str) -> frozenset[str]:
    """The keywords of `text` that name what it is about: domain vocabulary (the no-answer
    gate's) or a name with a digit, not a word that asks ("difference") or only sizes
    ("large"). A sentence that answers `text` names one of them.

    Examples:
        >>> sorted(key_terms("what's a realistic value for large training runs"))
        []
        >>> "mfu" in key_terms("What is MFU")
        True
    """
    from assistant.retrieval.gate import domain_words

    vocabulary = domain_words()
    return frozenset(
        t
        for t in question_terms(text)
        if (t in vocabulary or any(c.isdigit() for c in t)) and t not in _WEAK_KEYS | _FILLER
    )


def _subject(text: str) -> list[str]:
    """A first part's keywords when it names nothing in Latin script ("什么是激活重计算" →
    激活, 重计算): what "代价是什么" after it asks about."""
    from assistant.retrieval.tokenize import tokenize

    terms = question_terms(text, aliases=False)
    return [t for t in dict.fromkeys(tokenize(text)) if t in terms and t not in _FILLER]


def _names(text: str) -> list[str]:
    """The Latin-script names in `text` that are key terms ("ZeRO-2", "GQA", "tensor"), as
    written; the other English words ("realistic", "runs") name nothing to inherit."""
    from assistant.retrieval.tokenize import normalize

    keys = key_terms(text)
    return [w for w in _LATIN_WORD.findall(text) if normalize(w) in keys]


def comparison_sides(question: str) -> tuple[frozenset[str], ...]:
    """For a comparison, the terms naming each compared side (the name nearest the
    conjunction on either side, with its aliases, less what both sides share); () otherwise.

    Examples:
        >>> comparison_sides("ZeRO-2 和 ZeRO-3 到底差在哪")
        (frozenset({'zero-2'}), frozenset({'zero-3'}))
        >>> comparison_sides("What is MFU?")
        ()
        >>> comparison_sides("LoRA or QLoRA?")
        (frozenset({'lora'}), frozenset({'qlora'}))
    """
    clause = next((p for p in _PART_BREAK.split(question) if p and _COMPARE.search(p)), "")
    halves = _CONJUNCTION.split(clause, maxsplit=1) if clause else []
    if len(halves) != 2:
        return ()
    left, right = (_side_tokens(h) for h in halves)
    left_head = next((t for t in reversed(left) if t not in right and not _part_of(t, left)), None)
    right_head = next((t for t in right if t not in left), None)
    if left_head is None or right_head is None:
        return ()
    sides = [_with_aliases(left_head), _with_aliases(right_head)]
    shared = sides[0] & sides[1]
    return tuple(frozenset(s - shared) for s in sides)


def _side_tokens(text: str) -> list[str]:
    from assistant.retrieval.tokenize import tokenize

    return [t for t in tokenize(text) if len(t) >= 2 and t not in _FILLER | GENERIC_TERMS]


def _part_of(token: str, tokens: list[str]) -> bool:
    """ "zero" after "zero-2": a piece of a compound the tokenizer also emitted."""
    return any(token != t and token in t for t in tokens)


def _with_aliases(token: str) -> frozenset[str]:
    """`token` and its aliases, less the pieces of a compound alias ("multi-head" of "MHA"
    names the side; its "head" names every attention sentence)."""
    from assistant.retrieval.aliases import alias_terms

    aliases = [a for a in alias_terms([token]) if len(a) >= 2]
    return frozenset({token, *(a for a in aliases if not _part_of(a, aliases))})


def mentions_side(text: str, side: frozenset[str]) -> bool:
    """Whether `text` names one of `side`'s terms ("SXM5" names "sxm"; "output" not "tp")."""
    from assistant.retrieval.tokenize import normalize

    low = normalize(text)
    for term in side:
        if term.isascii():
            if re.search(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z])", low):
                return True
        elif term in low:
            return True
    return False
