"""Names that look like a GPU or a model but are not in the catalog, and catalog look-alikes.

A name the catalog does not hold is never replaced by a neighbour: it goes to
`Query.unknown_names`, with the closest catalog entries for the answer to offer. A catalog alias
that only matches because separators are optional ("Qwen2-57B" against "Qwen2.5-7B", key
``qwen257b``) is refused when the digit groups differ from every spelling of that entry.

Examples:
    >>> unknown_names("train llama-5-400b on 8 ⟨gpu⟩")
    ('llama-5-400b',)
    >>> unknown_names("serve ⟨model⟩ on 8 mi355x and a b300")
    ('mi355x', 'b300')
    >>> unknown_names("单卡3090能跑chatglm9-6b吗")
    ('chatglm9-6b',)
    >>> unknown_names("can 4 rtx 6000 ada serve ⟨model⟩"), unknown_names("一张32gb的mi50能推理")
    (('rtx 6000 ada',), ('mi50',))
    >>> unknown_names("8张910b4推理⟨model⟩")
    ('910b4',)
    >>> digit_groups_fit("qwen2-57b", ("Qwen2.5-7B", "qwen-7b"))
    False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = [
    "as_typed",
    "catalog_suggestions",
    "digit_groups_fit",
    "maker_spans",
    "unknown_gpu_spans",
    "unknown_names",
]

_FAMILIES = (
    r"llama|qwen|mistral|mixtral|deepseek|gemma|phi|falcon|baichuan|chatglm|glm|internlm|"
    r"yi|gpt|bloom|olmo|grok|command-r|minimax|kimi|ernie|hunyuan|codellama|starcoder"
)
_GPU_LINES = (
    r"rtx|gtx|titan|quadro|radeon|instinct|gaudi|mi|ascend|昇腾|tpu|"
    r"g[hb](?=\d{3})|"  # Grace superchips: "gh200", "gb200" (not an H200 or a B200)
    r"[abhlv](?=\d{2})|[bgh](?=\d{3})|(?=9[1-9]0[a-d]\d?(?![a-z0-9]))"  # bare Ascend "910b4"
)
# ASCII word characters only: "chatglm3-6b吗" is the name "chatglm3-6b" followed by 吗
_W = r"[a-z0-9_.]"
_MODEL_NAME = (
    r"(?:"
    + _FAMILIES
    + r")[-_. ]?(?:\d"
    + _W
    + r"*|[a-z]+[-_.]?\d"
    + _W
    + r"*)(?:[-_]"
    + _W
    + r"+)*"
)
# accelerator makers outside the catalog's lines: the maker's name alone is a card ("摩尔线程的卡");
# "天数" alone is "number of days", so Iluvatar needs its full name
_VENDORS = (
    r"moore[ ]?threads|摩尔线程|biren|壁仞|hygon|海光|cambricon|寒武纪|kunlun(?:xin)?|昆仑芯|"
    r"iluvatar(?:[ ]?corex)?|天数智芯|metax|沐曦|enflame|燧原|intel[ ]?gaudi|habana"
)
# product series that need a number after them ("mtt s4000", "br100", "mlu370-x8", "dcu k100")
_SERIES = r"mtt|br|mlu|dcu|bi(?=[- ]?v\d)|思元|天垓|智铠|曦云|邃思|云燧"
_PRODUCT = r"[a-z]{0,4}[- ]?\d{1,4}[a-z0-9]{0,4}(?:-[a-z0-9]+)?(?![a-z0-9])"
_MAKER_NAME = (
    r"(?:(?:" + _VENDORS + r")(?:[ ]?的?[ ]?(?:" + _SERIES + r"))?"
    r"(?:[- ]?的?[ ]?" + _PRODUCT + r")?"
    r"|(?:" + _SERIES + r")[- ]?" + _PRODUCT + r")"
)
# any letters+digits token right before a card word ("S4000显卡", "XPU300 cards"), except a number
# format or a lane count ("fp16 卡", "PCIe x16 card")
_CARD_WORD = r"\s*(?:显卡|加速卡|计算卡|卡|gpus?(?![a-z])|cards?(?![a-z])|accelerators?(?![a-z]))"
_NEXT_TO_CARD = (
    r"(?!(?:fp|bf|int|tf|x|e\d+m)\d)[a-z]{1,6}-?\d{2,5}[a-z0-9]{0,4}(?![a-z0-9])"
    r"(?=" + _CARD_WORD + ")"
)
# cards and chips typed without their line: a bare GeForce number ("a 3060 12GB", "4080 super";
# 3090/4090/5090 are catalog aliases, masked before this runs), a Radeon ("7900 XTX"), Apple
# silicon ("M3 Max", "MacBook"), Google TPUs ("TPU v5e"), AWS Trainium/Inferentia
_BARE_CARDS = (
    r"(?<![\d.,])(?![345]090)[2-5]0[5-9]0(?:[- ]?(?:ti|super)){0,2}(?![a-z0-9])"
    r"(?!\s*(?:tokens?|params?|b\b))"
    r"|(?:rx[- ]?)?[5-9]\d00[- ]?(?:xtx|xt|gre)(?![a-z0-9])"
    r"|(?:mac ?book(?: pro| air)?|mac (?:studio|mini|pro))(?:[- ]m[1-4](?:[- ](?:pro|max|ultra))?)?"
    r"|\bm[1-4][- ](?:pro|max|ultra)\b"
    r"|tpu[- ]?v\d[a-z]?(?![a-z0-9])|trainium\d?|inferentia\d?"
)
# the name ends where ASCII ends ("mi50能" is "mi50"; \b would not end it before a CJK letter)
_GPU_NAME = (
    r"(?:(?:" + _GPU_LINES + r")[- ]?\d{1,4}[a-z]{0,3}\d?(?![a-z0-9])"
    r"(?:[- ](?:pro|ultra|max|plus|ada|ti|super|blackwell)(?![a-z0-9]))?"
    r"|" + _BARE_CARDS + "|" + _MAKER_NAME + "|" + _NEXT_TO_CARD + ")"
)
_NAME = re.compile(r"(?<![a-z0-9⟩])(?:" + _MODEL_NAME + "|" + _GPU_NAME + ")")
_GPU_ONLY = re.compile(r"(?<![a-z0-9⟩])" + _GPU_NAME)
_MAKER_ONLY = re.compile(r"(?<![a-z0-9⟩])" + _MAKER_NAME)


def unknown_names(masked: str) -> tuple[str, ...]:
    """Product-like names left in `masked` text after catalog names were replaced by marks."""
    out: list[str] = []
    for match in _NAME.finditer(masked):
        name = match.group(0).strip(" -_.")
        if re.fullmatch(r"[abhlv]\d{2,4}", name) and _looks_like_size(masked, match.end()):
            continue
        if name and name not in out:
            out.append(name)
    return tuple(out)


def as_typed(name: str, question: str) -> str:
    """`name` (found in lower-cased text) spelled as the question typed it ("RTX 6000 Ada").

    >>> as_typed("rtx 6000 ada", "Can 4 RTX 6000 Ada serve it?")
    'RTX 6000 Ada'
    """
    match = re.search(re.escape(name), question, re.IGNORECASE)
    return match.group(0) if match else name


def unknown_gpu_spans(masked: str) -> list[tuple[int, int]]:
    """Spans of GPU-like unknown names, to be masked like catalog GPUs ("8 MI355X" is 8 GPUs)."""
    return [
        m.span()
        for m in _GPU_ONLY.finditer(masked)
        if not re.fullmatch(r"[abhlv]\d{2,4}", m.group(0)) or not _looks_like_size(masked, m.end())
    ]


def maker_spans(text: str) -> list[tuple[int, int]]:
    """Spans of names from makers outside the catalog, which win over a catalog alias inside them.

    >>> maker_spans("天数智芯 bi-v100 跑7b")
    [(0, 12)]
    """
    return [m.span() for m in _MAKER_ONLY.finditer(text)]


def _looks_like_size(text: str, end: int) -> bool:
    return bool(re.match(r"\s*(?:tokens?|params?|parameters?|参数)", text[end:]))


def digit_groups_fit(matched: str, spellings: Iterable[str]) -> bool:
    """True when each digit group typed in `matched` is a digit group of some spelling."""
    typed = re.findall(r"\d+", matched)
    known: set[str] = set()
    for spelling in spellings:
        known.update(re.findall(r"\d+", spelling))
    return all(group in known for group in typed)


#: A name that reads as a model ("Qwen2-7B", "GLM-4", "Yi-34B"), not a GPU.
_READS_AS_MODEL = re.compile(
    r"\d+(?:\.\d+)?\s*[bm]\b|llama|qwen|mistral|mixtral|deepseek|gpt|glm|baichuan|\byi\b|gemma|phi",
    re.IGNORECASE,
)


def catalog_suggestions(name: str) -> tuple[tuple[str, ...], str]:
    """Up to three catalog entries closest to the unknown `name`, and the table they are from
    ("gpu" or "model"; GPUs first unless the name reads as a model): the catalog lookup's own
    suggestions, so the answer's lead and the parse note offer the same entries."""
    from calculators.catalog.hardware import lookup_gpu
    from calculators.catalog.models import lookup_model
    from calculators.errors import CalculatorInputError, UnknownNameError

    tables: list[tuple[Callable[[str], object], str]] = [
        (lookup_gpu, "gpu"),
        (lookup_model, "model"),
    ]
    if _READS_AS_MODEL.search(name):
        tables.reverse()
    for lookup, table in tables:
        try:
            lookup(name)
        except UnknownNameError as exc:
            if exc.suggestions:
                return tuple(exc.suggestions[:3]), table
        except CalculatorInputError:
            continue
    return (), tables[0][1]  # the template to offer when nothing is close
