"""The language of a question: Chinese ("zh") or English ("en").

Names and units ("H100", "32GB", "QPS") are Latin in both languages, so English needs English
prose words; a follow-up with neither ("4-bit?") keeps the conversation's language.
"""

from __future__ import annotations

import re

from assistant.records import Language

__all__ = ["detect_language", "says_no_language"]


#: English words no Chinese question uses: without any, Latin words are names and units
#: ("Ascend 910 32GB训练7B" is Chinese: "Ascend" and "GB" are not English prose).
_ENGLISH_PROSE = re.compile(
    r"\b(?:the|a|an|can|could|how|what|which|is|are|do|does|on|with|for|to|of|in|and|or|"
    r"we|i|my|our|it|be|need|want|run|serve|train|fine-tune|much|many|long)\b",
    re.IGNORECASE,
)
#: The imperatives and comparatives of a short follow-up ("remove 2 GPUs", "use H200", "drop 1
#: server"): English too, though no function word above is in them.
_FOLLOW_UP_PROSE = re.compile(
    r"\b(?:use|using|switch|swap|replace|remove|drop|add|try|change|instead|more|fewer|less|"
    r"about|only|then|same|please|if|at|from|back|also|than|without|just)\b",
    re.IGNORECASE,
)


def _english_prose(text: str) -> bool:
    return bool(_ENGLISH_PROSE.search(text) or _FOLLOW_UP_PROSE.search(text))


def detect_language(text: str) -> Language:
    """ "zh" when the question is mainly Chinese, else "en".

    >>> detect_language("Ascend 910 32GB训练7B"), detect_language("What is 显存?")
    ('zh', 'en')
    >>> detect_language("QPS 5 呢"), detect_language("H100 PCIe 80GB 吗")
    ('zh', 'zh')
    """
    han = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin_words = len(re.findall(r"[A-Za-z]{2,}", text))
    if han and not _english_prose(text):
        return "zh"  # "QPS 5 呢": names and units around a Chinese word
    return "zh" if han and han >= 1.5 * latin_words else "en"


def says_no_language(text: str) -> bool:
    """True for a question with no Chinese and no English prose ("4-bit?", "H100?", "32k"):
    a follow-up like that keeps the conversation's language.

    >>> [says_no_language(q) for q in ("4-bit?", "what about 4-bit?", "那4bit呢", "use H200")]
    [True, False, False, False]
    """
    return not re.search(r"[\u4e00-\u9fff]", text) and not _english_prose(text)
