"""A number format the question asks about rather than states ("can the T4 do bf16?",
"910B能用FP8训练吗"): whether the card has it is part of the answer, not a requirement of the job.

"Can 16 V100 pretrain Llama-2-7B in bf16?" states BF16 as the job's format (as asked it needs
another card); "can the V100 do bf16?" asks whether the card has it, so the job itself is
judged in the format the card runs and the answer says that it lacks the one asked about.
"""

from __future__ import annotations

import re

__all__ = ["asks_format_support"]

_FORMAT = r"(?:bf16|bfloat16|fp8|float8|fp16|float16)"
_QUESTION_EN = re.compile(
    # "can the T4 do bf16", "does the 910B support fp8", "is bf16 supported on the V100"
    r"\b(?:can|could|does|do|will)\b[^.?!,;]{0,30}?\b(?:do|use|run|support|handle|train in)\s+"
    r"(?:native\s+)?" + _FORMAT + r"\b(?:\s+(?:training|tensor cores?|at all|natively))?\s*\?"
    r"|\bis\s+" + _FORMAT + r"\s+supported\b|\bsupports?\s+" + _FORMAT + r"\s*\?",
    re.ASCII,
)
_QUESTION_ZH = re.compile(
    # "能用FP8训练吗", "支持bf16吗", "能不能跑FP8", "是否支持FP8"
    r"(?:能不能|可不可以|支不支持|是否支持|能否|能|可以|支持)\s*(?:用|跑|做|使用|上)?\s*"
    + _FORMAT
    + r"\s*(?:训练|精度|计算|混合精度)?\s*(?:吗|么|嘛|？|\?)"
    # "能不能跑FP8，…" ends its clause on the format; "能不能用bf16预训练一个1B模型" states the
    # job's format (as "can 16 V100 pretrain … in bf16?" does)
    r"|(?:能不能|可不可以|支不支持|是否支持|能否)\s*(?:用|跑|做|使用|上)?\s*"
    + _FORMAT
    + r"\s*(?:训练|精度|计算)?\s*(?:[，,。；;]|$)",
    re.ASCII,
)


def asks_format_support(question: str) -> bool:
    """True when the question asks whether a card has a number format, not states one.

    Examples:
        >>> [asks_format_support(q) for q in (
        ...     "QLoRA on 4 T4s - does it fit, and can the T4 do bf16?",
        ...     "910B能用FP8训练吗？64张910B预训练要多久？",
        ...     "V100支持bf16吗",
        ... )]
        [True, True, True]
        >>> [asks_format_support(q) for q in (
        ...     "Can 16 V100 32GB GPUs pretrain Llama-2-7B in bf16 on 100B tokens?",
        ...     "用A100做FP8训练Llama-3-8B要多久",
        ...     "T4训练bf16能行吗",
        ... )]
        [False, False, False]
    """
    lowered = question.lower()
    return bool(_QUESTION_EN.search(lowered) or _QUESTION_ZH.search(lowered))
