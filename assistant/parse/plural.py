"""Cards named in the plural with no count ("on H100s", "用A100们", "on a few L40S").

A plural leaves the count open, like a question naming no count at all: it is answered on the
fewest cards that do the job as asked (`calculate.plural`), not on one card. The catalog's name
matching reads "H100s" as "H100" (`hardware._alias_regex` allows a trailing "s"), so the plural
is read here from the matched span: the letters past the catalog key, a plural noun after the
name ("H100 GPUs", "A100们") or a word of several before it ("a few", "several", "几张").

Examples:
    >>> plural_cards("can we serve llama 3.1 70b on H100s?"), plural_cards("用A100们跑72B行吗")
    (True, True)
    >>> plural_cards("on a few L40S"), plural_cards("on several H100 GPUs")
    (True, True)
    >>> plural_cards("on an H100"), plural_cards("on a L40S"), plural_cards("一张H100能跑吗")
    (False, False, False)
    >>> plural_cards("用几张4090跑Qwen2.5-32B"), plural_cards("8张H100")
    (True, False)
"""

from __future__ import annotations

import re

from assistant.parse import hardware as hw

__all__ = ["plural_cards"]

#: Words of several before the card ("a few", "multiple", "多张", "若干块").
_SEVERAL_BEFORE = re.compile(
    r"(?:\b(?:a few|few|several|multiple|many|a couple of|a bunch of|a cluster of|some)"
    r"|几|多|若干|一些|一批|一堆)\s*(?:张|块|片|台|个)?\s*(?:of\s+)?(?:the\s+)?(?:nvidia\s+)?$"
)
#: A plural noun right after the card ("H100 GPUs", "A100 cards", "A100们", "H100集群").
_PLURAL_AFTER = re.compile(
    r"\s*(?:(?:sxm|pcie|nvl)\w*\s*)?(?:\d+\s*gb\s*)?(?:gpus\b|cards\b|们|集群|卡们|们的)"
)


def plural_cards(text: str) -> bool:
    """True when a catalog card is named in the plural ("H100s", "A100们", "a few L40S")."""
    from assistant.parse.mentions import gpu_index

    lowered = text.lower()
    for match in hw.find_aliases(lowered, gpu_index()):
        said = re.sub(r"[\s\-_./·]", "", lowered[match.start : match.end])
        if len(said) > len(match.alias) and said.endswith("s"):
            return True  # "h100s": the "s" is past the catalog key (an "l40s" key keeps its own)
        if _PLURAL_AFTER.match(lowered, match.end):
            return True
        if _SEVERAL_BEFORE.search(lowered, 0, match.start):
            return True
    return False
