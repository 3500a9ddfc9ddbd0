"""A fine-tuning data set said as samples and their length ("数据50万条，每条1k token",
"50k examples of 1,500 tokens", "10万条对话数据，平均长度512").

The token budget is samples × tokens per sample (epochs multiply it later, as for any budget);
the length of a sample is also the sequence length the run trains at. A length in thousands
("1k") is 1,024 tokens, as context lengths are read (`sizes.read_context_length`). The spans
read here are blanked before the model sizes and budgets are read, so "每条1k token" is not a
budget of 1,000 tokens.

Examples:
    >>> read_dataset("数据500000条,每条1k token,3个epoch")[:2]
    (500000.0, 1024)
    >>> read_dataset("50k examples of 1500 tokens")[:2], read_dataset("100000条对话数据")[:2]
    ((50000.0, 1500), (100000.0, None))
    >>> read_dataset("a 50k-sample dataset with 1k tokens per sample")[:2]
    (50000.0, 1024)
    >>> read_dataset("8 gpus, 2k tokens each")[:2]
    (None, None)
    >>> read_dataset("200k samples, ~2k tokens each")[:2]
    (200000.0, 2048)
    >>> read_dataset("100000 samples x 512 tokens, 3 epochs")[:2]
    (100000.0, 512)
    >>> read_dataset("数据30000000条,每条大概1000个token")[:2]
    (30000000.0, 1000)
"""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, to_float

__all__ = ["read_dataset"]

_SCALE = {None: 1.0, "k": 1e3, "m": 1e6, "万": 1e4}
_SAMPLES = (
    # "500000条", "100000条对话数据", "50000个样本", "20万条指令数据"
    re.compile(
        # (not "全局批大小1024条序列", "64个请求": sequences of a batch, requests of a load)
        NUMBER + r"\s*(万)?\s*(?:条|个)(?!\s*(?:序列|请求|并发|用户))"
        r"\s*(?:对话|样本|指令|问答|训练|sft)?\s*(?:数据|样本|语料)?"
        r"(?<=[条本据料话令答练])"
    ),
    # "50k examples", "10000 samples", "1m conversations", "100k training examples", "a
    # 50k-sample dataset"
    re.compile(
        NUMBER + r"\s*(k|m)?[\s-]*(?:training\s+|sft\s+|chat\s+|instruction\s+)?"
        r"(?:examples?|samples?|conversations?|dialogues?|instructions?|records?)\b"
    ),
)
_K = r"(?![\d.])\s*(k)?"
_ABOUT = r"\s*(?:约|大约|大概|平均|为|是|about|around|roughly|approximately|~|≈)?\s*"
_PER_SAMPLE = (
    # "每条1k token", "每个样本约2k token", "每条数据平均 800 token", "每条512"
    re.compile(
        r"(?:每条|每个样本|每个对话|每段对话)\s*(?:数据|样本|对话)?\s*(?:长度|token数)?"
        + _ABOUT
        + NUMBER
        + _K
        # "每条1000个token" is a length ("个" counts the tokens); "每条3个" counts something else
        + r"(?!\s*(?:元|块|美元|\$|条|张|%|个(?!\s*(?:tokens?|词元))))"
    ),
    # "平均长度512", "平均每条2k token", "平均 1.5k token"
    re.compile(r"平均\s*(?:每条)?\s*(?:长度|token数)" + _ABOUT + NUMBER + _K),
    re.compile(r"平均\s*(?:每条)?" + _ABOUT + NUMBER + _K + r"\s*(?:tokens?|词元)"),
    # "each sample ~2k tokens", "averaging 800 tokens", "avg length 512 tokens"
    re.compile(
        r"(?:each(?:\s+(?:sample|example|conversation|one))?|per\s+(?:sample|example|conversation)"
        r"|averaging|average(?:\s+length)?(?:\s+of)?|avg(?:\s+length)?)\s*(?:is|of|:)?"
        + _ABOUT
        + NUMBER
        + _K
        + r"\s*tokens?\b"
    ),
    # "1k tokens per sample", "1000 tokens each example", "800 tokens/sample"
    re.compile(
        NUMBER
        + _K
        + r"\s*tokens?\s*(?:per|each|a|/)\s*(?:sample|example|conversation|dialogue|record)s?\b"
    ),
    # "200k samples, ~2k tokens each", "2k token一条" (一 is read as 1): after a sample count,
    # "each" is a sample
    re.compile(
        NUMBER + _K + r"\s*(?:tokens?\s*(?:each|apiece)\b|(?:tokens?|词元)\s*(?:一条|1条|每条))"
    ),
    # "50k examples of 1500 tokens", "samples with ~2k tokens"
    re.compile(
        r"(?:examples?|samples?|conversations?|dialogues?|records?|条)\s*(?:of|with|at|x|×|\*)"
        + _ABOUT
        + NUMBER
        + _K
        + r"\s*tokens?\b"
    ),
)
#: Fewer samples than this is no data set ("3条建议"); shorter is no sample ("每条3").
_MIN_SAMPLES = 100
_MIN_TOKENS = 8


def _blank(text: str, match: re.Match[str]) -> str:
    start, end = match.span()
    return text[:start] + " " * (end - start) + text[end:]


def _samples(text: str) -> tuple[float | None, str]:
    for pattern in _SAMPLES:
        for match in pattern.finditer(text):
            value = to_float(match.group(1)) * _SCALE[match.group(2)]
            if value >= _MIN_SAMPLES:
                return value, _blank(text, match)
    return None, text


def _per_sample(text: str) -> tuple[int | None, str]:
    for pattern in _PER_SAMPLE:
        for match in pattern.finditer(text):
            value = int(to_float(match.group(1)) * (1024 if match.group(2) else 1))
            if value >= _MIN_TOKENS:
                return value, _blank(text, match)
    return None, text


def read_dataset(text: str) -> tuple[float | None, int | None, str]:
    """(samples, tokens per sample, the text with both spans blanked); a length with no
    sample count ("2k tokens each") is left to the context reader: (None, None, text)."""
    samples, rest = _samples(text)
    if samples is None:
        return None, None, text
    per_sample, span = _per_sample(text)  # "examples of 1500 tokens" shares the noun
    if per_sample is not None:
        rest = "".join(" " if b == " " and a != " " else a for a, b in zip(rest, span))
    return samples, per_sample, rest
