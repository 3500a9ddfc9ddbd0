"""The words that state a slot's value, masked before a follow-up's own asks are read.

Some asks are read from a noun alone ("KV cache", "tok/s", "TTFT", "MFU", "费用", "训完"), and
the same noun is part of the words that set a slot: "那KV cache用FP8呢" sets the KV format,
"what about 2000 tok/s?" a throughput target, "如果MFU只有30%呢" the MFU, "要是一个月训完呢" a
deadline. Such a follow-up asks nothing of its own, so the previous turn's kind (the maximum
concurrency, how many GPUs, how long) carries over with the slot changed; an ask still read
once these words are masked ("KV cache用FP8的话每路占多少显存") is the follow-up's own.

Examples:
    >>> without_stated("那kv cache用fp8呢"), without_stated("what about 2000 tok/s?")
    ('那 呢', 'what about  ?')
    >>> without_stated("那吞吐要10000tok/s呢")
    '那 呢'
    >>> without_stated("那kv cache用fp8的话每路占多少显存")
    '那 的话每路占多少显存'
    >>> without_stated("要是1个月内训完呢"), without_stated("如果mfu只有30%呢")
    ('要是 呢', '如果 呢')
"""

from __future__ import annotations

import re

from assistant.parse.kv import KV_FORMAT
from assistant.parse.load import STATED
from assistant.parse.prices import PRICE

__all__ = ["without_stated"]

#: "1个月内训完", "两周跑完" (normalised "2周跑完"): a deadline said with the verb of finishing.
_FINISHED_BY = re.compile(
    r"\d+(?:\.\d+)?\s*(?:个?月|周|星期|天|日|小时|年)\s*(?:内|以内|之内)?\s*(?:训完|跑完|完成|搞定)"
)
_PATTERNS: tuple[re.Pattern[str], ...] = (*KV_FORMAT, *STATED, PRICE, _FINISHED_BY)


def without_stated(text: str) -> str:
    """`text` (normalised, lower-cased, names masked) with every slot-stating phrase blanked."""
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # "$50,000" as the readers see it
    # every phrase is found on the same text ("吞吐要10000tok/s" is both "10000tok/s" and
    # "吞吐要10000"), then blanked
    spans = sorted(m.span() for pattern in _PATTERNS for m in pattern.finditer(text) if m.group())
    kept, end = [], 0
    for start, stop in spans:
        if start > end:
            kept.append(text[end:start])
        end = max(end, stop)
    return " ".join((*kept, text[end:]))
