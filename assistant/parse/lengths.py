"""Prompt and output lengths of a serving request ("2k-token prompts and 256 output tokens",
"输入2k输出512", "prompt 4096, generate 512", "平均输入长度3000 token").

A length in thousands ("2k") is 2 × 1024 tokens, as context lengths are read
(`sizes.read_context_length`). The spans read here are masked out before the context length
is read, so "2k-token prompts" is a prompt length, not a context of 2048.

Examples:
    >>> read_lengths("2k-token prompts and 256 output tokens")[:2]
    (2048, 256)
    >>> read_lengths("输入2k输出512")[:2], read_lengths("prompt 4096, generate 512")[:2]
    ((2048, 512), (4096, 512))
    >>> read_lengths("平均输入长度3000 token")[:2], read_lengths("1000 tok/s")[:2]
    ((3000, None), (None, None))
    >>> read_lengths("1k input / 256 output")[:2], read_lengths("1k输入、256输出")[:2]
    ((1024, 256), (1024, 256))
    >>> read_lengths("prompts ~1500 tokens, ~500 out")[:2], read_lengths("回复200 token左右")[:2]
    ((1500, 500), (None, 200))
"""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, to_float

__all__ = ["read_lengths"]

_K = r"(?![\d.])\s*(k)?"
#: Not a length but a speed: "generate 50 tokens/s", "输出 20 token/s".
_NOT_SPEED = (
    r"(?!\s*(?:个)?\s*(?:tok(?:en)?s?\s*/|tokens? (?:per|a) sec|tokens?每秒|token/秒|词元每秒))"
)
_VERB = r"(?:\s*(?:of|=|:|is|are|为|是|约|平均|大约|up to|about|around|roughly|~|≈)){0,2}\s*"
#: "~500 out", "about 300 tokens": an approximate length is read as the number said.
_ABOUT = r"(?:(?:~|≈|about|around|roughly|approx(?:imately|\.)?)\s*)?"
#: What may follow "1.5k in" / "500 out" for it to be a length: a separator or the end.
_LIST_END = r"(?=\s*(?:/|,|，|;|；|&|\band\b|\)|$))"
#: "2k input tokens" is read by the "tokens" forms (and "2000 output tokens per second" is a rate).
_NO_TOKENS = r"(?!\s*(?:tokens?|toks?)\b)(?!\s*(?:per|a|an|each|every)\s)"
_PROMPT = (
    # "2k-token prompts", "2k token prompts", "3000 prompt tokens", "2k tokens of prompt"
    re.compile(
        NUMBER + _K + r"[\s-]*(?:tokens?|toks?)[\s-]*(?:long\s+)?(?:of\s+)?(?:prompts?|inputs?)\b"
    ),
    re.compile(NUMBER + _K + r"\s*(?:prompt|input)\s*tokens?\b"),
    # "the TTFT of a 32k prompt": a length with no "token" said; only with k ("8 prompts" is
    # a count) and not as a rate ("3k prompts per hour")
    re.compile(NUMBER + r"(?![\d.])\s*(k)[\s-]*prompts?\b(?!\s*(?:per|a|an|each|every|/)\b)"),
    # "prompt 4096", "prompts of 2k tokens", "input length 3000", "prompt length: 1k"
    re.compile(
        r"\b(?:prompts?|inputs?)(?:[ _-]?(?:length|len|size))?" + _VERB + NUMBER + _K + _NOT_SPEED
    ),
    # "8k输入", "4k token 的输入": a length before the word, only with k or token
    re.compile(NUMBER + r"(?![\d.])\s*(?:(k)\s*(?:tokens?)?|tokens?)\s*(?:的)?\s*(?:输入|提示词?)"),
    # "1k input / 256 output", "2k prompt, 512 output", "1k in / 256 out": the word alone (a
    # "tokens" after it is read above; "8 prompts" is a count, so singular only)
    re.compile(NUMBER + _K + r"[\s-]*(?:input|prompt)(?![a-z])" + _NO_TOKENS),
    # "1k in / 256 out", "1.5k in, 500 out", "~1500 tokens in, ~500 out"
    re.compile(NUMBER + _K + r"\s*(?:(?:tokens?|toks?)\s+)?in" + _LIST_END),
    # "输入2k", "平均输入长度3000 token", "提示词长度 1k"
    re.compile(r"(?:输入|提示词?|prompt)\s*(?:长度|长)?" + _VERB + NUMBER + _K + _NOT_SPEED),
)
_OUTPUT = (
    # "256 output tokens", "512 generated tokens", "256 new tokens"
    re.compile(
        NUMBER
        + _K
        + r"\s*(?:output|generated|new|completion)\s*tokens?\b"
        + r"(?!\s*(?:/\s*s|per\s+sec|a\s+sec|每秒))"  # "2000 output tokens per second": a rate
    ),
    # "512-token outputs", "256 tokens of output"
    re.compile(
        NUMBER + _K + r"[\s-]*(?:tokens?|toks?)[\s-]*(?:long\s+)?(?:of\s+)?"
        r"(?:outputs?|completions?|answers?|responses?|repl(?:y|ies)|generations?)\b"
    ),
    # "replies of ~200 tokens", "answers around 300 tokens", "responses of about 150 tokens":
    # the reply words only with "tokens" said ("answer 20 users" is no length)
    re.compile(
        r"\b(?:repl(?:y|ies)|answers?|responses?)"
        + _VERB
        + NUMBER
        + _K
        + r"\s*(?:tokens?|toks?)\b"
        + _NOT_SPEED
    ),
    # "generate 512", "output 256 tokens", "max output 1k", "output length 512"
    re.compile(
        r"\b(?:generat(?:e|es|ing|ion)|outputs?|completions?)(?:[ _-]?(?:length|len))?"
        + _VERB
        + NUMBER
        + _K
        + _NOT_SPEED
    ),
    # "256 output" after a prompt length ("1k input / 256 output"), "1k in / 256 out"
    re.compile(NUMBER + _K + r"[\s-]*output(?![a-z])" + _NO_TOKENS),
    # "1k in / 256 out", "prompts ~1500 tokens, ~500 out", "1.5k in and 500 out"
    re.compile(
        r"(?:(?<=[/,;，；&])|(?<=\band)|^)\s*"
        + _ABOUT
        + NUMBER
        + _K
        + r"\s*(?:(?:tokens?|toks?)\s+)?out(?![a-z])(?!\s*of\b)"
    ),
    # "1k输入、256输出", "512 token 的输出": after a separator ("每秒1000 token输出" is a rate);
    # "每条300 token左右的回复": right after 每条 / 每次 / 每个 (each request's own length)
    re.compile(
        r"(?:^|(?<=[，,、；;/:：])|(?<=每条)|(?<=每次)|(?<=每个))\s*"
        + NUMBER
        + r"(?![\d.])\s*(?:(k)\s*(?:tokens?)?|tokens?)?\s*(?:左右|上下)?\s*(?:的)?\s*"
        + r"(?:输出|生成|回复|回答)"
        + r"(?!\s*(?:速度|速率|tokens?|tok|词元))"
    ),
    # "输出512", "生成 256 token", "输出长度1k"
    re.compile(r"(?:输出|生成)\s*(?:长度|长)?" + _VERB + NUMBER + _K + _NOT_SPEED),
    # "回复200 token左右", "每次回答约300个token", "回复长度500": a reply's length with a length
    # word or a token unit ("回复3个问题" is no length)
    re.compile(r"(?:回复|回答|应答)\s*(?:长度|长)" + _VERB + NUMBER + _K + _NOT_SPEED),
    re.compile(
        r"(?:回复|回答|应答)"
        + _VERB
        + NUMBER
        + _K
        + r"\s*(?:个)?\s*(?:tokens?|toks?|词元)"
        + _NOT_SPEED
    ),
)
#: Fewer than this is not a request's length ("2 prompts", "output 1 answer").
_MIN_TOKENS = 8


def _read(patterns: tuple[re.Pattern[str], ...], text: str) -> tuple[int | None, str]:
    """The first length a pattern reads, and the text with that span blanked out."""
    found = [m for p in patterns for m in p.finditer(text)]
    for match in sorted(found, key=lambda m: m.start()):
        value = int(to_float(match.group(1)) * (1024 if match.group(2) else 1))
        if value >= _MIN_TOKENS:
            start, end = match.span()
            return value, text[:start] + " " * (end - start) + text[end:]
    return None, text


def read_lengths(text: str) -> tuple[int | None, int | None, str]:
    """(prompt tokens, output tokens, the text with both spans blanked) of a serving request.

    The blanked text is what the context-length reader reads, so a prompt length stated
    with a context word ("8k-token prompts") is not also read as the context.
    """
    prompt, rest = _read(_PROMPT, text)
    output, rest = _read(_OUTPUT, rest)
    return prompt, output, rest
