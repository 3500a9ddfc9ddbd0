"""What one part of a concept question asks, and whether a sentence says it (pure).

A part asks for a kind of answer, and the sentence that answers it has that kind's mark:

- "why / 为什么": a reason ("… because …", "…, so …", "due to", "因为", "所以", "因此");
  a sentence that only says that something *shows* why ("it shows why bandwidth, not TFLOPS,
  decides …", "说明了为什么") points at a reason given elsewhere and is not one;
- "how much / 多少 / a realistic value": a figure, best a figure *of what the part is about*
  (a number next to one of its terms: "38–55 % MFU", "PUE 1.58"), and for "typical /
  realistic / 一般 / 通常" a typical value (a range, or "typically", "average", "通常");
- "when / 什么时候": advice ("should", "适合"); a comparison: a difference; "what is": a
  sentence that opens with the term it defines;
- "does it hurt quality / 效果差多少 / 精度损失大吗": a published finding on quality ("matches
  16-bit full fine-tuning", "on par with", "性能没有下降"); a sentence on memory or speed
  does not answer it, whatever figures it states.

Examples:
    >>> gives_reason("Decode is memory-bound because every token reads all weights.")
    True
    >>> gives_reason("It shows why bandwidth, not TFLOPS, decides chat speed.")
    False
    >>> figure_near("Large runs reach about 38–55 % MFU.", frozenset({"mfu"}))
    True
    >>> asks_quality(Part("全参效果好多少", "全参效果好多少"))
    True
    >>> states_quality("The frozen bf16 base still takes 137.95e9 bytes.")
    False
    >>> figure_near("At equal MFU the H100 is cheaper whenever its price is below 3.2 times.",
    ...             frozenset({"mfu"}))
    False
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.compose.openings import CONTRAST, defined_term, defines_in_clause
from assistant.compose.parts import Part, asks_quantity, key_terms

__all__ = [
    "DEFINITION",
    "WHY",
    "asked_bonus",
    "asks_definition",
    "asks_quality",
    "figure_near",
    "gives_reason",
    "names_quality",
    "points_at_reason",
    "says_what_is_asked",
    "states_quality",
]

#: A question that asks what something is.
DEFINITION = re.compile(r"是什么|什么是|啥是|定义|what(?: i|')s\b|what are\b|define", re.IGNORECASE)
#: A question that asks why.
WHY = re.compile(r"为什么|为啥|为何|\bwhy\b", re.IGNORECASE)
#: A sentence that gives a cause ("because", "因为"), or a consequence of one ("…, so …",
#: "所以", "因此"): either answers "why" when it is about what the part asks about.
_CAUSE = re.compile(
    r"因为|由于|之所以|\bbecause\b|\bsince\b|\bdue to\b|\bowing to\b", re.IGNORECASE
)
_CONSEQUENCE = re.compile(
    r"所以|因此|因而|从而|导致|以致|\bhence\b|\btherefore\b|\bthus\b|,\s*so\b|\band so\b|"
    r"\bwhich is why\b",
    re.IGNORECASE,
)
#: A sentence that says something explains the why without saying the reason itself.
_POINTS_AT_REASON = re.compile(
    r"\b(?:shows?|explains?|illustrates?|is|are) why\b|说明了?为什么|解释了?为什么|这就是",
    re.IGNORECASE,
)
#: A question that asks when to do something, and a sentence that recommends.
_WHEN = re.compile(r"什么时候|何时|什么情况下|\bwhen\b", re.IGNORECASE)
_ADVICE = re.compile(
    r"\bshould\b|\bbelongs?\b|\bbest\b|\bworth\b|应该|应当|适合|适用|值得", re.IGNORECASE
)
#: A figure a sentence states: a percentage, a ratio, a size, a decimal or a range (not a
#: year, a section "§2.1" or a table number).
_FIGURE = re.compile(
    r"\d(?:[\d.,]*\d)?\s*(?:%|×|倍|x\b|times\b|GB|GiB|TB)|"
    r"(?<![§\w.])\d+\.\d+(?![\w.])|\d+(?:\.\d+)?\s*[–~]\s*\d+|\d(?:\.\d+)?e\d+",
    re.IGNORECASE,
)
#: A part that asks for a typical value, and a sentence that gives one.
_ASKS_TYPICAL = re.compile(
    r"\brealistic\b|\btypical\b|\busual\b|\bnormal\b|\bin practice\b|一般|通常|现实|实际中|平时",
    re.IGNORECASE,
)
_TYPICAL = re.compile(
    r"\btypical(?:ly)?\b|\busual(?:ly)?\b|\baverage\b|\bplanning\b|\bin practice\b|"
    r"通常|一般|平均|常见|规划|\d+(?:\.\d+)?\s*[–~]\s*\d+",
    re.IGNORECASE,
)
#: A part that asks about quality ("does QLoRA hurt quality", "全参效果好多少", "精度损失大吗"),
#: and a sentence that states a finding on it ("matches 16-bit full fine-tuning", "持平").
_ASKS_QUALITY = re.compile(
    r"效果|质量|精度(?:损失|下降|差)|掉点|准确率|困惑度|\bquality\b|\baccuracy\b|\bhurts?\b|"
    r"\bdegrad|\bperplexity\b|\bworse\b|\bwhich (?:one )?(?:is|gives|works) better\b",
    re.IGNORECASE,
)
_QUALITY = re.compile(
    r"持平|相当|没有下降|可以忽略|精度损失|损失很小|接近多头|\bon par\b|\bmatch(?:es)?\b|"
    r"\bwithout (?:any )?(?:performance )?degradation\b|\bnegligible\b|\bclose to\b|\brecovers?\b",
    re.IGNORECASE,
)
#: How many characters a figure may stand from the term it is a figure of.
_NEAR = 24


def gives_reason(sentence: str) -> bool:
    """Whether `sentence` states a reason, rather than only pointing at one."""
    said = _CAUSE.search(sentence) or _CONSEQUENCE.search(sentence)
    return bool(said) and not points_at_reason(sentence)


def points_at_reason(sentence: str) -> bool:
    """Whether `sentence` says that something shows why ("it shows why …", "这就是…的原因"):
    the reason is elsewhere, so it does not answer a "why" by itself."""
    return bool(_POINTS_AT_REASON.search(sentence))


def figure_near(sentence: str, terms: frozenset[str]) -> bool:
    """Whether `sentence` states a figure within a few words of one of `terms` ("38–55 % MFU",
    "PUE 1.58", "MFU 通常在 38–55%"): a figure of that thing, not of something beside it."""
    from assistant.retrieval.tokenize import normalize

    low = normalize(sentence)
    places = [
        m.start()
        for term in terms
        for m in re.finditer(
            rf"(?<![a-z0-9]){re.escape(term)}(?![a-z])" if term.isascii() else re.escape(term),
            low,
        )
    ]
    return any(
        abs(place - figure.start()) <= _NEAR or abs(place - figure.end()) <= _NEAR
        for figure in _FIGURE.finditer(low)
        for place in places
    )


def asks_quality(part: Part) -> bool:
    """Whether `part` asks how good the result is ("does QLoRA hurt quality", "效果好多少")."""
    return bool(_ASKS_QUALITY.search(part.text))


def names_quality(word: str) -> bool:
    """Whether `word` is one a quality question asks with ("quality", "效果"): what is asked,
    not what it is asked about."""
    return bool(_ASKS_QUALITY.search(word))


def states_quality(sentence: str) -> bool:
    """Whether `sentence` says something of quality ("… matches 16-bit full fine-tuning")."""
    return bool(_QUALITY.search(sentence))


def says_what_is_asked(part: Part, sentence: str) -> bool:
    """Whether `sentence` has the mark of what `part` asks: a finding on quality for "does it
    hurt quality" (its "多少" asks for no figure), a figure for "how much", a reason for "why"
    (a definition of MFU does not say what MFU large runs reach)."""
    if asks_quality(part):
        return states_quality(sentence)
    if asks_quantity(part.text) and not _FIGURE.search(sentence):
        return False
    return not (WHY.search(part.text) and not gives_reason(sentence))


def asks_definition(part: Part) -> bool:
    """Whether `part` asks what something is ("what's a realistic value" asks a figure)."""
    return bool(DEFINITION.search(part.text)) and not asks_quantity(part.text)


#: A trend, asked ("为什么微批次越多气泡越小", "why does it shrink with more …") or stated
#: ("m 越大气泡越小", "a larger m shrinks the bubble").
_TREND = re.compile(
    r"越(?:多|大|长|小|少|短|高|低)[^，。；,;]*越(?:多|大|长|小|少|短|高|低)|"
    r"\b(?:shrinks?|grows?|decreases?|increases?|falls?|rises?)\b[^,.;?]*"
    r"\b(?:with|as) (?:more|fewer|larger|smaller)\b|"
    r"\b(?:a )?(?:larger|smaller|bigger|more|fewer)\b[^,.;?]*"
    r"\b(?:shrinks?|grows?|reduces?|cuts?)\b|"
    r"\bthe (?:more|larger|bigger|smaller|fewer)\b[^,.;?]*"
    r"\bthe (?:more|less|smaller|larger|fewer)\b",
    re.IGNORECASE,
)


def asked_bonus(
    part: Part, sentence: str, sides: Sequence[frozenset[str]], keys: frozenset[str]
) -> float:
    """What `sentence` gains for saying what `part` asks: +0.5 for a difference asked by a
    comparison or advice asked by "when"; +1.5 for a reason asked by "why" (-1 for only a
    consequence of something else); for a figure asked: +0.5 for any, +1 more for one of
    what the part is about, +0.5 for a typical value asked as one (a part asking about
    quality: +1.5 for a finding on quality instead); +1.5 for "what is"
    answered by a sentence (or a clause of one) that opens with the term it defines (+1 when
    it only opens with a key term)."""
    bonus = 0.0
    why = bool(WHY.search(part.text))
    if sides and CONTRAST.search(sentence):
        bonus += 0.5  # "…的区别只在参数"
    if why and gives_reason(sentence):
        # "The KV cache takes so much memory because …" for "why does the KV cache grow":
        # a reason about what the part asks about; a cause of something beside it counts
        # less, a consequence beside it ("…, so pipeline parallelism tolerates slow links"
        # for "why does it have a bubble", "vLLM 的 fp8 … 因而能支持更长的上下文" for "why does the
        # KV cache double with the context") counts against it
        if _opens_with(sentence, _subject(part)):
            bonus += 1.5
        elif _CAUSE.search(sentence):
            bonus += 0.5
        else:  # a consequence of something else answers another "why"
            bonus -= 1.0
    if why and _TREND.search(part.text) and _TREND.search(sentence):
        bonus += 1.0  # "为什么微批次越多气泡越小": "…，m 越大气泡越小", a trend for a trend asked
    if _WHEN.search(part.text) and not why and _ADVICE.search(sentence):
        bonus += 0.5  # "when should I use it": "… belongs inside a node"; not "why … when …"
    if asks_quality(part):
        bonus += 1.5 if states_quality(sentence) else 0.0
    elif asks_quantity(part.text):
        bonus += _figure_bonus(part, sentence, keys)
    term = defined_term(part.text) if asks_definition(part) else None
    if term and defines_in_clause(sentence, term):
        bonus += (
            1.5  # "张量（层内）并行把每个权重矩阵切分…", "…, and ZeRO-3 shards …": X as the subject
        )
    elif asks_definition(part) and keys & set(_opening(sentence)):
        bonus += 1.0  # "Tensor (intra-layer) parallelism splits …"
    return bonus


def _figure_bonus(part: Part, sentence: str, keys: frozenset[str]) -> float:
    """For a part that asks a figure: what `sentence`'s figures say of what it is about (the
    names it inherited from the first part, else its own key terms)."""
    if not _FIGURE.search(sentence):
        return 0.0
    about = _subject_terms(part) or keys
    bonus = 0.5 + (1.0 if about and figure_near(sentence, about) else 0.0)
    if _ASKS_TYPICAL.search(part.text) and _TYPICAL.search(sentence):
        bonus += 0.5  # "what's a realistic value": "Planning values: 35–45 %", "通常在 38–55%"
    return bonus


def _subject_terms(part: Part) -> frozenset[str]:
    """The key terms of the names `part` inherited, with their aliases' forms."""
    if not part.inherited:
        return frozenset()
    named = " ".join(part.inherited)
    return key_terms(named) | {n.lower() for n in part.inherited}


#: Key terms that only say what kind of thing the subject is ("why is LLM decode …" asks
#: about decode, not about LLMs): every question here is about a model on GPUs.
_QUALIFIERS = frozenset({"llm", "llms", "model", "models", "模型", "gpu", "gpus"})


def _subject(part: Part) -> frozenset[str]:
    """What `part` asks about: its first key term ("kv" of "why does the KV cache grow",
    "gqa" of "为什么 GQA 能让 KV 缓存变小", "decode" of "why is LLM decode …"), with its
    synonyms' forms."""
    from assistant.compose.parts import weighted_terms
    from assistant.retrieval.tokenize import tokenize

    keys = key_terms(part.search_text) - _QUALIFIERS
    first = next((t for t in tokenize(part.search_text) if t in keys), None)
    return frozenset({first, *weighted_terms(first)}) if first else frozenset()


def _opens_with(sentence: str, terms: frozenset[str]) -> bool:
    """Whether one of `terms` is among the first three keywords of `sentence` (its subject),
    inline code left out ("vLLM's `kv_cache_dtype` …" is about vLLM, not the KV cache)."""
    from assistant.retrieval.tokenize import tokenize

    prose = re.sub(r"`[^`]*`", " ", sentence)
    opening = [t for t in tokenize(prose) if len(t) >= 2][:3]
    return bool(terms & set(opening))


def _opening(sentence: str) -> list[str]:
    """The first two keywords of `sentence`: what it is about when it defines a term."""
    from assistant.retrieval.tokenize import tokenize

    return [t for t in tokenize(sentence) if len(t) >= 2][:2]
