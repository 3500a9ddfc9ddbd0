"""The KV cache's format when the question states one ("fp8 KV cache", "KV缓存用INT8").

A serving engine keeps the KV cache in the model's 16-bit activation dtype whatever the weights'
format, unless it is set on its own (vLLM `--kv-cache-dtype fp8`, docs "Quantized KV Cache";
TensorRT-LLM's FP8/INT8 KV cache option), so "in int8" alone says nothing about the cache. A KV
format read here is masked out of the text before the weights' precision is read, so "bf16 with
an fp8 KV cache" is bf16 weights; "weights and KV cache in FP8" states both and is left in.

Examples:
    >>> read_kv_format("llama-3.1-70b with an fp8 kv cache")
    ('fp8', 'llama-3.1-70b with an  ')
    >>> read_kv_format("kv缓存用int8")[0], read_kv_format("kv_cache_dtype=fp8")[0]
    ('int8', 'fp8')
    >>> read_kv_format("再把kv cache换成fp8呢")[0], read_kv_format("kv cache switched to int8")[0]
    ('fp8', 'int8')
    >>> read_kv_format("serve it in int8")
    (None, 'serve it in int8')
    >>> read_kv_format("kv cache per request in fp8?")[0], read_kv_format("kv缓存每路用int8")[0]
    ('fp8', 'int8')
    >>> read_kv_format("weights and kv cache in fp8")
    ('fp8', 'weights and kv cache in fp8')
"""

from __future__ import annotations

import re

from assistant.parse.numbers import SET_TO

__all__ = ["KV_FORMAT", "read_kv_format"]

#: KV formats by the words that name them; an 8-bit cache without a type is INT8-sized either
#: way (1 byte per element), read as FP8, which vLLM's `kv_cache_dtype` offers.
_DTYPES: tuple[tuple[str, str], ...] = (
    (r"fp8(?:[_-]?e[45]m[23])?|float8|8位浮点", "fp8"),
    (r"int8", "int8"),
    (r"8[- ]?bits?|8比特|8位", "fp8"),
    (r"bf16|bfloat16", "bf16"),
    # a 16-bit cache without a type: 2 bytes either way, and every card runs fp16
    (r"fp16|float16|16[- ]?bits?|16比特|16位", "fp16"),
)
_DTYPE = "(" + "|".join(p for p, _ in _DTYPES) + ")"
_KV = r"(?:kv|key[- ]value|键值)[ _-]?(?:cache|缓存)?(?:[ _-]?dtype)?"
#: Between the cache and its format: "KV用int8", and a follow-up's verbs ("KV cache换成fp8",
#: "kv cache 改成 8bit", "switched to int8").
_LINK = (
    r"\s*(?:也|都)?\s*(?:in|as|at|=|:|：|to|用|为|是|采用|使用|改用|换用|换为|切到|切换到|切换成|"
    r"量化(?:到|成|为)?|" + SET_TO + r"|(?:switched|switch|changed|change|set|moved|move|going|"
    r"goes|go|went|dropped|drop)\s+(?:to|into))?\s*"
)
#: Both stated at once: the weights' precision is read from the same words.
_BOTH = (
    re.compile(r"(?:weights?|权重)\s*(?:and|&|和|与|及|、)\s*" + _KV + _LINK + _DTYPE),
    re.compile(_DTYPE + r"\s*(?:weights?|权重)\s*(?:and|&|和|与|及|、)\s*" + _KV),
)
#: A per-unit qualifier between the cache and its format ("KV cache per request in fp8",
#: "KV缓存每路用int8"): still the cache's format.
_EACH = (
    r"(?:\s*(?:per|for each|of each|each)\s+(?:request|sequence|seq|user|token|stream)s?"
    r"|\s*每(?:路|个请求|条|个用户|token))?"
)
_ALONE = (
    re.compile(r"(?<![a-z0-9])" + _DTYPE + r"\s*(?:的\s*)?" + _KV),
    re.compile(r"(?<![a-z])" + _KV + _EACH + _LINK + _DTYPE + r"(?![a-z0-9])"),
)

#: Every wording that states the KV cache's format ("KV cache用FP8", "with an fp8 KV cache").
KV_FORMAT = (*_BOTH, *_ALONE)


def _name(word: str) -> str:
    return next(dtype for pattern, dtype in _DTYPES if re.fullmatch(pattern, word))


def read_kv_format(text: str) -> tuple[str | None, str]:
    """(the stated KV format, the text with an only-KV mention masked), or (None, text)."""
    for pattern in _BOTH:
        found = pattern.search(text)
        if found:
            return _name(found.group(1)), text
    for pattern in _ALONE:
        found = pattern.search(text)
        if found:
            return _name(found.group(1)), text[: found.start()] + " " + text[found.end() :]
    return None, text
