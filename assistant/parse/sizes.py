"""Magnitudes read from normalised question text: model sizes and token budgets, epochs,
context lengths and batch sizes.

"70b" is a model size, "2T tokens" a training budget, "16k tokens of context" a context length
and "global batch 4M tokens" a batch size: the words around a number decide which it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.parse.numbers import MAGNITUDES, NUMBER, SET_TO, to_float
from assistant.parse.spending import is_money
from calculators.defaults import DEFAULT_CONTEXT_TOKENS

__all__ = [
    "SizeMention",
    "read_batch_size",
    "read_context_length",
    "read_epochs",
    "read_micro_batch",
    "read_pipeline_microbatches",
    "read_sizes",
]


@dataclass(frozen=True)
class SizeMention:
    """A magnitude found in the text: a model size or a token budget."""

    value: float
    kind: str
    """`params` or `tokens`."""
    start: int


_SIZE_SUFFIX = re.compile(
    NUMBER
    + r"\s*(quadrillion|trillion|billion|million|thousand|bn|tn|mn|[kmbt])(?![a-z])"
    + r"(?!\s*(?:/s|b/s))"
)
#: A card after a magnitude ("3 million H100s", "2 million GPUs"): a count, not a size.
_CARDS_AFTER = re.compile(r"\s+(?:⟨gpu⟩|gpus?\b|cards?\b|accelerators?\b)")
_BIG_BARE = re.compile(NUMBER + r"\s*(亿|万)?")
_TOKEN_AFTER = re.compile(
    r"\s*(?:个|的)?\s*(?:training\s+|训练\s*)?(?:tokens?|词元|token数|toks?\b)", re.ASCII
)
#: What follows a number that makes it a context length: a context word ("16k context",
#: "16k tokens of context", "128k的上下文", "16K长度"), a per-sequence count ("16K tokens per
#: request", "32k tokens each") or a "-token" adjective on sequences ("16k-token sequences").
#: A budget ("2T tokens", "500M tokens") or a rate ("1000 tok/s") has none of these.
_CONTEXT_TAIL = re.compile(
    r"(?:[\s-]*(?:tokens?|toks?))?[\s-]*(?:of\s+(?:the\s+)?)?的?\s*"
    r"(?:context|ctx|上下文|长度|序列|window|length\b)"
    r"|[\s-]*(?:tokens?|toks?)(?:\s+long)?\s*(?:each\b|apiece\b|"
    r"(?:per|a|for each|/)\s*(?:request|sequence|prompt|conversation|query|session|chat)s?\b)"
    r"|-(?:tokens?|toks?)\s+(?:long\s+)?(?:sequences?|requests?|prompts?|conversations?|"
    r"contexts?|inputs?|chats?|windows?|sessions?|dialogues?|documents?|threads?)\b"
)
#: "64 requests of 8k tokens", "每路 8k token": the length of each sequence, a context length.
_PER_SEQUENCE = (
    r"(?:(?:requests?|sequences?|prompts?|conversations?|users?)\s+of\s+(?:up to\s+)?"
    # "every request up to 16k tokens", "each prompt is ~8k tokens", "每个请求最长16k token"
    r"|\b(?:every|each)\s+(?:request|sequence|prompt|conversation|query)\s+"
    r"(?:is\s+|has\s+|of\s+|takes\s+)?(?:up to\s+|at most\s+|about\s+|~\s*)?"
    r"|每(?:路|个请求|条请求|条序列|个序列)\s*(?:最长|最多|不超过|约|大约)?\s*)"
)
_PER_SEQUENCE_BEFORE = re.compile(_PER_SEQUENCE + "$")
_PARAM_AFTER = re.compile(
    r"\s*(?:个|的)?\s*(?:参数|模型|级|量级|规模|大模型|-?param|parameters?|params?|model|llm|"
    r"dense|moe|-?class|sized?)",
    re.ASCII,
)

_BATCH_BEFORE = re.compile(
    r"(?:batch(?:[ _-]?size)?|全局批(?:大小|量)?|批大小|批量|批次大小)\s*(?:of|=|:|is|为|是)?\s*"
    r"(?:about\s*|~\s*|约)?$",
    re.ASCII,
)
#: A data noun just before a size makes it a token budget: "数据改成1T", "语料2T", "data to 2T".
_DATA_BEFORE = re.compile(r"(?:数据量?|语料|\bdata\w*)\s*(?:[改换变][成为]|[是为=:]|to|is|of)?\s*$")

#: A host-memory word just before or after an amount makes it RAM, not a model size: "内存换成2T",
#: "内存2T", "RAM to 2T", "2T内存", "2T of RAM" (GPU memory words stay out: "7B显存要多少").
_MEMORY_BEFORE = re.compile(
    r"(?:内存|\bram|(?:host|system|cpu) memory)\s*(?:[改换变加升扩增][成为到]|升级到|扩容到|"
    r"增加到|[是为有=:]|to|is|of)?\s*$"
)
_MEMORY_AFTER = re.compile(r"\s*(?:的|of\s+)?\s*(?:主机|系统|cpu\s*|host\s+)?(?:内存|ram\b)")


#: A number right before "token" that is no budget: a rate ("50 token/s", "20 tokens per
#: second"), a length of each request or sample ("输出256 token", "每条1000 token", "prompt 2000
#: tokens"), a context length ("8192 token的上下文").
_RATE_AFTER = re.compile(r"\s*(?:个\s*)?(?:tokens?|词元|toks?)\s*(?:/|per\b|每|一秒|每秒)")
_LENGTH_BEFORE = re.compile(
    r"(?:每\S{0,3}|per\s+\w+\s*|输出|输入|生成|提示词?|prompts?|outputs?|inputs?|"
    r"generate[sd]?|max(?:imum)?|最多|最长|长度|上下文|context|length|第|top)\s*(?:of\s*)?$"
)
_DIRECT_TOKEN = re.compile(r"\s*(?:个\s*)?(?:tokens?|词元)(?![a-z])")


def _small_budget(text: str, start: int, end: int) -> bool:
    """A count under a million read as a token budget only when "token" follows it directly
    ("10万token的数据", "50000 tokens") and nothing makes it a rate or a per-item length."""
    if not _DIRECT_TOKEN.match(text, end) or _RATE_AFTER.match(text, end):
        return False
    if _CONTEXT_TAIL.match(text, end) or _LENGTH_BEFORE.search(text[max(0, start - 16) : start]):
        return False
    return not _PER_SEQUENCE_BEFORE.search(text[:start])


def read_sizes(text: str) -> list[SizeMention]:
    """Model sizes and token budgets ("70b", "1.5t", "175 billion", "300b tokens").

    Normalised Chinese sizes arrive as bare numbers before a unit word ("100000000000模型").
    """
    found: list[SizeMention] = []
    taken: set[int] = set()
    for match in _SIZE_SUFFIX.finditer(text):
        value = to_float(match.group(1)) * MAGNITUDES[match.group(2)]
        end = match.end()
        data = _DATA_BEFORE.search(text, 0, match.start()) and not _PARAM_AFTER.match(text, end)
        kind = "tokens" if data or _TOKEN_AFTER.match(text, end) else "params"
        if kind == "tokens" and _CONTEXT_TAIL.match(text, match.end()):
            continue  # "16k tokens of context" is a context length, not a training budget
        if kind == "tokens" and _PER_SEQUENCE_BEFORE.search(text[: match.start()]):
            continue  # "64 requests of 8k tokens": each request's length, not a budget
        if kind == "tokens" and _BATCH_BEFORE.search(text[: match.start()]):
            continue  # "global batch 4M tokens" is a batch size (read_batch_size)
        if kind == "tokens" and re.search(r"(?:\bper|/|每)\s*$", text[: match.start()]):
            continue  # "cost per 1M tokens" is a unit of a rate, not a training budget
        if kind == "tokens" and _RATE_AFTER.match(text, end):
            continue  # "2.9k tok/s/GPU" is a rate (parse.training_rate), not a training budget
        if match.group(2) in ("k", "thousand") and kind == "params":
            continue  # "32k" is a context length, never a model size
        if is_money(text, match.start(), end):
            continue  # "$2M", "2M CNY": an amount of money, not a model size
        if _CARDS_AFTER.match(text, end):
            continue  # "3 million H100s": a GPU count (parse.counts), not a 3M model
        if kind == "params" and (
            _MEMORY_BEFORE.search(text[: match.start()]) or _MEMORY_AFTER.match(text, end)
        ):
            continue  # "内存换成2T", "2T内存": host RAM (parse.host_ram), not a 2T model
        found.append(SizeMention(value, kind, match.start()))
        taken.add(match.start())
    for match in _BIG_BARE.finditer(text):
        if match.start() in taken:
            continue
        value = to_float(match.group(1)) * {"亿": 1e8, "万": 1e4, None: 1.0}[match.group(2)]
        # a negative size keeps its sign ("负一万亿token"), to be refused, never replaced
        if _TOKEN_AFTER.match(text, match.end()) and (
            abs(value) >= 1e6 or _small_budget(text, match.start(), match.end())
        ):
            found.append(SizeMention(value, "tokens", match.start()))
        elif _PARAM_AFTER.match(text, match.end()) and abs(value) >= 1e6:
            found.append(SizeMention(value, "params", match.start()))
    return sorted(found, key=lambda m: m.start)


_EPOCHS = re.compile(
    NUMBER
    + r"(?:\s*|\s*-\s*)(?:个\s*)?(?:epochs?|轮(?!次?对话))|(?:训练|跑)\s*"
    + NUMBER
    + r"\s*(?:轮|遍|个epoch)",
    re.ASCII,
)


def read_epochs(text: str) -> float | None:
    """Passes over the data ("3 epochs", "训练3轮"); the token budget counts every pass.

    >>> read_epochs("sft for 3 epochs of 200m tokens"), read_epochs("训练3轮"), read_epochs("7b")
    (3.0, 3.0, None)
    >>> read_epochs("a 3-epoch LoRA")
    3.0
    """
    match = _EPOCHS.search(text)
    if match is None:
        return None
    return to_float(match.group(1) or match.group(2))


_CONTEXT_LEAD = re.compile(
    r"(?:context|ctx|上下文|序列长度|seq(?:uence)?[ _-]?len(?:gth)?|窗口)\D{0,12}?"
    + NUMBER
    + r"\s*(k)?"
)
_CONTEXT_NUMBER = re.compile(NUMBER + r"\s*(k)?")
#: "seq 8k", "seq=4096", "序列8k": a bare sequence word right before its length (not "序列并行4",
#: a parallelism degree, nor "sequence parallel 2"); a length of at least 128 tokens.
_SEQ_LEAD = re.compile(
    r"(?:\bseq(?:uence)?s?\b|序列)\s*(?:=|:|：|为|是|of|长度)?\s*" + NUMBER + r"\s*(k)?(?![a-z])"
)
#: "8k seq", "4k seqlen": the length before the word
_SEQ_AFTER = re.compile(r"(?<![\d.])" + NUMBER + r"\s*(k)[\s-]*(?:seq(?:uence)?|seqlen)\b")
#: "64 requests of 8k tokens", "每路 8k token": each sequence's length
_PER_SEQUENCE_LENGTH = re.compile(_PER_SEQUENCE + NUMBER + r"\s*(k)?\s*tokens?")
#: "concurrent 8k sequences": a length in thousands on the sequences in flight (elsewhere
#: "50k sequences" is a count of training examples)
_CONCURRENT_LENGTH = re.compile(
    r"concurrent\s+"
    + NUMBER
    + r"\s*(k)\s+(?:sequences?|requests?|prompts?|conversations?|chats?)\b"
)
#: Output words before a per-request count: "generate 256 tokens per request" is the output.
_OUTPUT_BEFORE = re.compile(r"(?:output|generat\w*|输出|生成)\W{0,3}$")
#: Shorter "contexts" are counts of something else ("30 tokens per session").
_MIN_CONTEXT = 128


#: A follow-up that is only a length in thousands: "32k呢？", "what about 16k?", "and at 32k?"
#: "max concurrent sequences at 8k?", "@ 32k": thousands of tokens after "at" are a context
#: (never a rate, a sum of money or a data set: "at 8k tok/s", "at 8k USD").
_AT_THOUSANDS = re.compile(
    r"(?:\bat|@)\s*(\d+(?:\.\d+)?)\s*(k)\b"
    r"(?!\s*(?:tok\w*\s*/|tokens?\s*(?:/|per|of|a\b)|tps|qps|rps|/|per\b|usd|rmb|cny|元|美元|"
    r"dollars?|steps?|samples?|examples?|iterations?|gpus?|cards?))"
)
_BARE_THOUSANDS = re.compile(
    r"\s*(?:那|那么|如果|换成|改成|and|what about|how about)?\s*(?:at|for|with|用)?\s*"
    r"(\d+(?:\.\d+)?)\s*k\s*"
    r"(?:tokens?)?\s*(?:的)?\s*(?:呢|吗|\?|？|。|!|！)*\s*"
)


def read_context_length(text: str) -> int | None:
    """Context length in tokens; "32k" means 32 × 1024.

    Examples:
        >>> [read_context_length(t) for t in ("16k-token sequences", "context of 16k",
        ...     "128k的上下文", "32k tokens each", "上下文16k", "16k tokens per request")]
        [16384, 16384, 131072, 32768, 16384, 16384]
        >>> [read_context_length(t) for t in ("every request up to 16k tokens",
        ...     "each prompt is ~8k tokens", "每个请求最长16k token")]
        [16384, 8192, 16384]
        >>> [read_context_length(t) for t in ("seq 8k", "seqlen 4k", "序列8k", "序列并行4")]
        [8192, 4096, 8192, None]
        >>> [read_context_length(t) for t in ("1000 tok/s", "2t tokens", "500m tokens")]
        [None, None, None]
        >>> [read_context_length(t) for t in ("32k呢？", "那128k呢", "what about 16k?", "8 呢")]
        [32768, 131072, 16384, None]
        >>> read_context_length("and at 32k?"), read_context_length("what about at 8k?")
        (32768, 8192)
        >>> read_context_length("max concurrent sequences at 8k?")
        8192
        >>> read_context_length("at 8k tok/s"), read_context_length("at 8k usd")
        (None, None)
    """
    bare = _BARE_THOUSANDS.fullmatch(text)
    if bare:  # "32k呢？" alone: a length in thousands of tokens is a context, never a model size
        return int(to_float(bare.group(1)) * 1024)
    lead = _CONTEXT_LEAD.search(text)
    tail = next(
        (
            m
            for m in _CONTEXT_NUMBER.finditer(text)
            if _CONTEXT_TAIL.match(text, m.end()) and not _OUTPUT_BEFORE.search(text[: m.start()])
        ),
        None,
    )
    candidates = (
        lead,
        tail,
        _CONCURRENT_LENGTH.search(text),
        _PER_SEQUENCE_LENGTH.search(text),
        _SEQ_LEAD.search(text),
        _SEQ_AFTER.search(text),
        _AT_THOUSANDS.search(text),
    )
    found = [m for m in candidates if m is not None]
    if not found:
        return None
    match = min(found, key=lambda m: m.start())
    value = int(to_float(match.group(1)) * (1024 if match.group(2) else 1))
    return value if match is lead or value >= _MIN_CONTEXT else None


#: A number with a thousands suffix or "tokens" after it is a length, not a batch: in
#: "32并发 8k上下文" the batch is 32, and "8k" is the context.
_NOT_A_BATCH = r"(?![\d.]|\s*(?:k(?![a-z])|千|tokens?\b))"
#: "20 requests/sec", "20 requests per second", "5 requests a minute": a rate (QPS), not 20
#: sequences in a batch (`load.read_qps` reads it).
_NOT_A_RATE = (
    r"(?!\s*(?:/|per\b|an?\b|each\b|every\b)\s*(?:s\b|sec|second|min|minute|h\b|hr|hour|day))"
)
_BATCH = (
    re.compile(
        r"(?:batch(?:[ _-]?size)?|批大小|批量大小|全局批(?!大小)|并发数?|并发量|\bg?bs|"
        r"concurrency)\s*"
        r"(?:of|=|:|：|为|是|达到|要|有|" + SET_TO + r")?\s*" + NUMBER + _NOT_A_BATCH,
        re.ASCII,
    ),
    re.compile(
        NUMBER + r"\s*(?:的)?\s*(?:batch|并发|路并发|concurrent|users|requests)" + _NOT_A_RATE,
        re.ASCII,
    ),
)


_MICRO_BATCH = re.compile(
    r"(?:micro[- _]?batch(?:[- _]?size)?|\bmbs|微批(?:大小|量|次)?|每卡批大小)\s*"
    r"(?:of|=|:|：|为|是|per gpu)?\s*(\d+)(?![\d.])"
)


#: Micro-batches per pipeline step: "64个微批次", "32 micro-batches", "m=16 micro-batches",
#: "num_microbatches 64" (a count of micro-batches, not the sequences in one).
_PIPELINE_MICROBATCHES = re.compile(
    r"(?<![\d.])(\d+)\s*(?:个)?\s*(?:微批次|微批|micro[- _]?batches)(?![a-z])|"
    r"(?<![\d.])(\d+)\s*个\s*micro[- _]?batch(?![a-z])|"
    r"(?:num[- _]?micro[- _]?batches|micro[- _]?batches|微批次数|微批数)\s*(?:=|:|：|为|是|of)?\s*"
    r"(\d+)(?![\d.])"
)


def read_pipeline_microbatches(text: str) -> tuple[int | None, str]:
    """(the micro-batches per pipeline step stated, the text without them).

    >>> read_pipeline_microbatches("pp8、64个微批次,bubble占多少")
    (64, 'pp8、 ,bubble占多少')
    >>> read_pipeline_microbatches("pp=4 with 32 micro-batches")[0]
    32
    >>> read_pipeline_microbatches("micro-batch 2, pp 4")[0] is None
    True
    >>> read_pipeline_microbatches("32个微批次时气泡多大")[0]  # no word break after 微批次
    32
    >>> read_pipeline_microbatches("32个micro-batch")[0]
    32
    """
    match = _PIPELINE_MICROBATCHES.search(text)
    if match is None:
        return None, text
    count = int(next(g for g in match.groups() if g))
    return count, text[: match.start()] + " " + text[match.end() :]


def read_micro_batch(text: str) -> tuple[int | None, str]:
    """(the micro-batch stated, the text without it): "micro-batch 2" is no global batch.

    >>> read_micro_batch("seq 4096, micro-batch 2, no recompute")
    (2, 'seq 4096,  , no recompute')
    """
    match = _MICRO_BATCH.search(text)
    if match is None:
        return None, text
    return int(match.group(1)), text[: match.start()] + " " + text[match.end() :]


def read_batch_size(text: str) -> int | None:
    """Batch size (or concurrent requests for serving): the first one stated in the text; a
    batch given in tokens ("global batch 4M tokens") is that many sequences of the context
    length (4,096 unless stated).

    Examples:
        >>> read_batch_size("32并发 8k上下文"), read_batch_size("batch size 16, 4k context")
        (32, 16)
        >>> read_batch_size("gbs 2048 mbs 1 seq 8k")  # Megatron's global batch size
        2048
        >>> read_batch_size("全局批64"), read_batch_size("全局批为256,序列长度4096")
        (64, 256)
        >>> read_batch_size("global batch 4m tokens")
        977
        >>> read_batch_size("batch 4m tokens, 8k context")
        488
    """
    found = [(p, m) for p in _BATCH if (m := p.search(text)) is not None]
    if not found:
        return None
    pattern, match = min(found, key=lambda found_one: found_one[1].start())
    tokens = _SIZE_SUFFIX.match(text, match.start(1))
    if pattern is _BATCH[0] and tokens and _TOKEN_AFTER.match(text, tokens.end()):
        value = to_float(tokens.group(1)) * MAGNITUDES[tokens.group(2)]
        context = read_context_length(text) or DEFAULT_CONTEXT_TOKENS
        return max(1, round(value / context))
    return int(to_float(match.group(1)))
