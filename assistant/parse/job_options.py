"""Job-side options compared in one question: two or three values of one job setting on the
same hardware ("ZeRO-2 vs ZeRO-3", "LoRA和全参微调", "FP8 vs BF16").

An option holds only the setting it names (`zero_stage`, `method` or `precision`); the rest
of the job and the hardware are the question's. The values must be joined by a word that
sets them against each other ("vs", "or", "还是", "和", "对比"): "LoRA with ZeRO-3" names two
settings of one job, not two options, and "BF16 weights and an FP8 KV cache" are two parts.

Examples:
    >>> job_options("zero-2 vs zero-3 for 13b on 8x ⟨gpu⟩")
    ({'zero_stage': 2}, {'zero_stage': 3})
    >>> job_options("lora和全参微调显存差多少"), job_options("qlora or lora for 70b?")
    (({'method': 'lora'}, {'method': 'full'}), ({'method': 'qlora'}, {'method': 'lora'}))
    >>> job_options("fp8 vs bf16 training speed"), job_options("bf16权重和fp8 kv cache")
    (({'precision': 'fp8'}, {'precision': 'bf16'}), ())
    >>> job_options("lora with zero-3 on 8 cards"), job_options("fp8训练比bf16快多少")
    ((), ({'precision': 'fp8'}, {'precision': 'bf16'}))
"""

from __future__ import annotations

import re

__all__ = ["JOB_SLOTS", "job_options"]

#: The job settings an option may set, each with its spellings (most specific first) and the
#: value each spelling means.
_VALUES: dict[str, tuple[tuple[str, object], ...]] = {
    "zero_stage": (
        (r"zero[- ]?(?:stage[- ]?)?1\b", 1),
        (r"zero[- ]?(?:stage[- ]?)?2\b", 2),
        (r"zero[- ]?(?:stage[- ]?)?3\b", 3),
    ),
    "method": (
        (r"\bqlora\b", "qlora"),
        (r"\blora\b", "lora"),
        (
            r"\bfull(?:[- ]parameter)?(?:[- ]?fine[- ]?tun\w*|[- ]ft\b|[- ]?finetun\w*)"
            r"|\bfull\b(?=\s*(?:fine|ft|training|memory|$|[?,.]))"
            r"|全参(?:数)?(?:微调|训练)?|全量(?:微调|训练)",
            "full",
        ),
    ),
    "precision": (
        (r"\bfp8\b", "fp8"),
        (r"\bbf16\b", "bf16"),
        (r"\bfp16\b", "fp16"),
        (r"\bint8\b|\b8[- ]?bit\b", "int8"),
        (r"\bint4\b|\b4[- ]?bit\b", "int4"),
    ),
}
JOB_SLOTS = tuple(_VALUES)
#: Between two values set against each other ("ZeRO-2 vs ZeRO-3", "LoRA和全参", "FP8训练比BF16"):
#: the job's own word may follow the first value.
_AGAINST = (
    r"\s*(?:训练|微调|推理|部署|training|fine-tuning|serving|inference)?"
    r"\s*(?:vs\.?|versus|(?:,\s*)?(?:or|and)|还是|和|与|跟|及|以及|对比|相比|比|/|、|,|，)\s*"
)
#: After a precision, a part of the model that is not the job's format ("FP8 KV cache").
_NOT_JOB = re.compile(r"\s*(?:kv|cache|缓存|激活|activation)")
_MAX = 3


def _spelling(slot: str) -> str:
    return "|".join(f"(?:{pattern})" for pattern, _ in _VALUES[slot])


def _value(slot: str, word: str) -> object:
    return next(v for pattern, v in _VALUES[slot] if re.fullmatch(pattern, word, re.ASCII))


def job_options(text: str) -> tuple[dict[str, object], ...]:
    """2–3 values of one job setting set against each other in `text` (masked, lower-case),
    one option each, or () when the text sets none against another."""
    for slot in JOB_SLOTS:
        one = _spelling(slot)
        listed = re.search(f"({one})(?:{_AGAINST}({one}))(?:{_AGAINST}({one}))?", text, re.ASCII)
        if listed is None or _NOT_JOB.match(text, listed.end()):
            continue
        words = [w for w in listed.groups() if w]
        values = list(dict.fromkeys(_value(slot, w) for w in words))
        if len(values) >= 2:
            return tuple({slot: v} for v in values[:_MAX])
    return ()
