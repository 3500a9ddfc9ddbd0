"""Workload slots read from normalised question text: task, method, precision, sizes, time.

Each reader takes the normalised text (see :func:`assistant.parse.numbers.normalize_numbers`)
and returns a value or None. Tables, not branches, hold the vocabulary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.parse.numbers import CURRENCY, MAGNITUDES, NUMBER, SET_TO, to_float
from assistant.parse.spending import is_money
from calculators.defaults import DEFAULT_CONTEXT_TOKENS

__all__ = [
    "PRICE",
    "SizeMention",
    "read_batch_size",
    "read_context_length",
    "read_deadline",
    "read_epochs",
    "read_method",
    "read_parallelism",
    "read_period",
    "read_node_price",
    "read_precision",
    "read_price",
    "read_sizes",
    "read_task",
    "read_topics",
    "read_zero_stage",
]

_TASK_WORDS: tuple[tuple[str, str], ...] = (
    (
        r"微调|精调|fine[- ]?tun|finetun|\bsft\b|lora|qlora|指令调优|instruction[- ]tun|adapter|"
        # preference tuning and RLHF update a trained model's weights: fine-tuning compute
        r"\b(?:dpo|rlhf|ppo|orpo|kto|grpo|simpo)\b|preference (?:tuning|optimi[sz]ation)|"
        r"post-?train|偏好(?:对齐|优化|训练)|对齐训练|人类反馈强化学习|强化学习微调",
        "finetune",
    ),
    (
        r"预训练|从头训练|pre[- ]?train|from scratch|继续训练|增量预训练|continued (?:pre)?train|"
        r"训练|训完|\btrain|(?<!培)训(?!练营)",  # "能训多少token的7B": 训 alone is training
        "pretrain",
    ),
    (
        r"推理|部署|服务化|上线|serving|serve(?!rs?\b)|inference|infer|deploy|host(?:ing)?\b|"
        r"tokens?/s|吞吐|跑|\brun\b|\brunning\b|load the model|加载|chat|generate",
        "inference",
    ),
)
_METHOD_WORDS: tuple[tuple[str, str], ...] = (
    (r"qlora|4[- ]?bit lora|量化lora", "qlora"),
    (r"\blora\b|lora微调|低秩", "lora"),
    (
        r"全参|全量|full[- ](?:parameter|fine|ft)|full finetun|full-param|\bfully[- ](?:fine|ft\b)|"
        r"fine[- ]?tun\w*(?:\s+\S+){0,3}?\s+fully\b(?![- ]shard)",  # "fine-tune 72B fully"
        "full",
    ),
)
_PRECISION_WORDS: tuple[tuple[str, str], ...] = (
    (r"\bfp8\b|\bfloat8\b|8位浮点", "fp8"),
    (r"\bbf16\b|bfloat16", "bf16"),
    (r"\bfp16\b|float16|半精度|\bhalf precision", "fp16"),
    (r"\bfp32\b|float32|单精度|full precision", "fp32"),
    # llama.cpp GGUF types: q8_0 is 8-bit; q4_0 / q4_k_m (and the smaller q3_k, q2_k, kept at
    # 4 bits as an upper bound) are 4-bit
    (r"\bint8\b|8[- ]?bit|8比特|8位量化|\bw8a8\b|\bq8_0\b", "int8"),
    (
        r"\bint4\b|4[- ]?bit|4比特|4位量化|\bnf4\b|\bgptq\b|\bawq\b|\bw4a16\b|"
        r"\bq4_(?:0|1|k(?:_[sm])?)\b|\bq[23]_k\w*",
        "int4",
    ),
)
_TOPIC_WORDS: tuple[tuple[str, str], ...] = (
    (r"电|功耗|功率|散热|制冷|pue|power|energy|electric|cooling|watt|kwh", "power"),
    (r"成本|费用|预算|多少钱|价格|租|cost|price|budget|\$|¥|元|美元|dollar|spend", "cost"),
    (
        r"网络|带宽|通信|互联|nvlink|infiniband|\bib\b|roce|以太网|ethernet|network|bandwidth|"
        r"interconnect|all-?reduce",
        "network",
    ),
    (r"显存|内存|放得下|装得下|memory|vram|oom|fit\b|fits\b", "memory"),
    (
        r"多久|多长时间|天|时间|算力|flops|how long|time|days|weeks|months|deadline|"
        r"吞吐|throughput",
        "compute",
    ),
    (r"存储|数据加载|storage|dataload|data load|i/o|\bio\b", "storage"),
)


@dataclass(frozen=True)
class SizeMention:
    """A magnitude found in the text: a model size or a token budget."""

    value: float
    kind: str
    """`params` or `tokens`."""
    start: int


_SIZE_SUFFIX = re.compile(
    NUMBER + r"\s*(trillion|billion|million|thousand|bn|tn|mn|[kmbt])(?![a-z])(?!\s*(?:/s|b/s))"
)
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
    r"(?:(?:requests?|sequences?|prompts?|conversations?|users?)\s+of\s+"
    r"|每(?:路|个请求|条序列|个序列)\s*)"
)
_PER_SEQUENCE_BEFORE = re.compile(_PER_SEQUENCE + "$")
_PARAM_AFTER = re.compile(
    r"\s*(?:个|的)?\s*(?:参数|模型|级|量级|规模|大模型|-?param|parameters?|params?|model|llm|"
    r"dense|moe|-?class|sized?)",
    re.ASCII,
)

_BATCH_BEFORE = re.compile(r"batch(?:[ _-]?size)?\s*(?:of|=|:|is)?\s*(?:about\s*|~\s*)?$", re.ASCII)
#: A data noun just before a size makes it a token budget: "数据改成1T", "语料2T", "data to 2T".
_DATA_BEFORE = re.compile(r"(?:数据量?|语料|\bdata\w*)\s*(?:[改换变][成为]|[是为=:]|to|is|of)?\s*$")


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
        if match.group(2) in ("k", "thousand") and kind == "params":
            continue  # "32k" is a context length, never a model size
        if is_money(text, match.start(), end):
            continue  # "$2M", "2M CNY": an amount of money, not a model size
        found.append(SizeMention(value, kind, match.start()))
        taken.add(match.start())
    for match in _BIG_BARE.finditer(text):
        if match.start() in taken:
            continue
        value = to_float(match.group(1)) * {"亿": 1e8, "万": 1e4, None: 1.0}[match.group(2)]
        # a negative size keeps its sign ("负一万亿token"), to be refused, never replaced
        if _TOKEN_AFTER.match(text, match.end()) and abs(value) >= 1e6:
            found.append(SizeMention(value, "tokens", match.start()))
        elif _PARAM_AFTER.match(text, match.end()) and abs(value) >= 1e6:
            found.append(SizeMention(value, "params", match.start()))
    return sorted(found, key=lambda m: m.start)


_EPOCHS = re.compile(
    NUMBER
    + r"\s*(?:个\s*)?(?:epochs?|轮(?!次?对话))|(?:训练|跑)\s*"
    + NUMBER
    + r"\s*(?:轮|遍|个epoch)",
    re.ASCII,
)


def read_epochs(text: str) -> float | None:
    """Passes over the data ("3 epochs", "训练3轮"); the token budget counts every pass.

    >>> read_epochs("sft for 3 epochs of 200m tokens"), read_epochs("训练3轮"), read_epochs("7b")
    (3.0, 3.0, None)
    """
    match = _EPOCHS.search(text)
    if match is None:
        return None
    return to_float(match.group(1) or match.group(2))


_PERIODS = (
    (r"\bmonthly\b|(?:per|a|each|every) month\b|/\s*month\b|每(?:个)?月|一个月", 30 * 86400.0),
    (r"\bdaily\b|(?:per|a|each|every) day\b|/\s*day\b|每天|每日|一天", 86400.0),
    (
        r"\b(?:yearly|annual(?:ly)?)\b|(?:per|a|each|every) year\b|/\s*year\b|每年|一年",
        365 * 86400.0,
    ),
    (r"\bweekly\b|(?:per|a|each|every) week\b|每周|每星期", 7 * 86400.0),
)


def read_period(text: str) -> float | None:
    """How long a deployment or the hardware runs for a rate asked per period ("monthly
    electricity cost", "cost per month", "每月电费"), in seconds; a job's deadline is
    `read_deadline`.

    >>> read_period("monthly electricity cost"), read_period("每天电费"), read_period("70b")
    (2592000.0, 86400.0, None)
    """
    # "1M requests per day" is a load (read_qps), not how long the deployment runs
    text = re.sub(
        r"(?:requests?|queries|calls|users|tokens?)\s*(?:per|a|an|each|every|/)\s*\w+"
        r"|每(?:天|日|小时)\s*[\d.]+\s*(?:万|百万)?\s*(?:次|个)?(?:请求|调用|查询|token)",
        "",
        text,
    )
    for pattern, seconds in _PERIODS:
        if re.search(pattern, text, re.ASCII):
            return seconds
    return None


def read_task(text: str) -> str | None:
    """pretrain, finetune or inference: the first vocabulary that matches (most specific first)."""
    for pattern, task in _TASK_WORDS:
        if re.search(pattern, text, re.ASCII):
            return task
    return None


def read_method(text: str) -> str | None:
    """full, lora or qlora when the question names one."""
    for pattern, method in _METHOD_WORDS:
        if re.search(pattern, text, re.ASCII):
            return method
    return None


def read_precision(text: str) -> str | None:
    """fp32, bf16, fp16, fp8, int8 or int4 (4-bit) when the question names one."""
    for pattern, precision in _PRECISION_WORDS:
        if re.search(pattern, text, re.ASCII):
            return precision
    return None


def read_topics(text: str) -> tuple[str, ...]:
    """Topics the question mentions explicitly (power, cost, network, memory, compute, storage)."""
    return tuple(topic for pattern, topic in _TOPIC_WORDS if re.search(pattern, text, re.ASCII))


_DURATION_UNITS: tuple[tuple[str, float], ...] = (
    (r"个?月|months?|mo\b", 30 * 86400.0),
    (r"周|星期|weeks?|wks?\b", 7 * 86400.0),
    (r"天|日|days?\b", 86400.0),
    (r"小时|个小时|hours?|hrs?\b|h\b", 3600.0),
    (r"年|years?|yrs?\b", 365 * 86400.0),
    (r"个?季度|quarters?\b", 90 * 86400.0),
)
_NAMED_SPANS: tuple[tuple[str, float], ...] = (
    (r"\bfortnight\b", 14.0),
    (r"\b(?:this|next|the|end of (?:the )?)\s*quarter\b|本季度", 90.0),
    (r"\b(?:over|during|in|by) the weekend\b|周末", 2.0),
    (r"\bovernight\b|一晚上|一夜", 0.5),
)
_NOT_DEADLINE = re.compile(r"(?:每|\bper|/|\ba)\s*$", re.ASCII)


def read_deadline(text: str) -> float | None:
    """A time limit in seconds: "3个月内", "within 30 days", "两周", "half a year"."""
    if re.search(r"半年|half a year", text):
        return 182.5 * 86400.0
    # "within a fortnight", "by end of quarter", "over the weekend", "一个季度": named spans
    for pattern, days in _NAMED_SPANS:
        if re.search(pattern, text, re.ASCII):
            return days * 86400.0
    # "in a month", "within a week": the article is the number
    text = re.sub(r"(?<![a-z])an? (month|week|day|year|quarter)\b", r"1 \1", text)
    # "1t token30天内": a number glued to a word before a Chinese time unit is still a number
    # (not after "int", whose digit is part of "int4")
    text = re.sub(
        r"(?<=[a-z]{3})(?<!int)(?=\d+(?:\.\d+)?\s*(?:个?月|周|星期|天|日|小时|年))", " ", text
    )
    for unit_pattern, seconds in _DURATION_UNITS:
        for match in re.finditer(NUMBER + r"\s*(?:" + unit_pattern + ")", text, re.ASCII):
            if _NOT_DEADLINE.search(text[max(0, match.start() - 5) : match.start()]):
                continue
            value = to_float(match.group(1))
            if seconds >= 365 * 86400.0 and value > 50:
                continue  # "2024年" is a date, not a deadline
            return value * seconds
    return None


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


#: A follow-up that is only a length in thousands: "32k呢？", "what about 16k?"
_BARE_THOUSANDS = re.compile(
    r"\s*(?:那|那么|如果|换成|改成|and|what about|how about)?\s*(\d+(?:\.\d+)?)\s*k\s*"
    r"(?:tokens?)?\s*(?:的)?\s*(?:呢|吗|\?|？|。|!|！)*\s*"
)


def read_context_length(text: str) -> int | None:
    """Context length in tokens; "32k" means 32 × 1024.

    Examples:
        >>> [read_context_length(t) for t in ("16k-token sequences", "context of 16k",
        ...     "128k的上下文", "32k tokens each", "上下文16k", "16k tokens per request")]
        [16384, 16384, 131072, 32768, 16384, 16384]
        >>> [read_context_length(t) for t in ("seq 8k", "seqlen 4k", "序列8k", "序列并行4")]
        [8192, 4096, 8192, None]
        >>> [read_context_length(t) for t in ("1000 tok/s", "2t tokens", "500m tokens")]
        [None, None, None]
        >>> [read_context_length(t) for t in ("32k呢？", "那128k呢", "what about 16k?", "8 呢")]
        [32768, 131072, 16384, None]
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
_BATCH = (
    re.compile(
        r"(?:batch(?:[ _-]?size)?|批大小|批量大小|并发数?|并发量|\bbs|concurrency)\s*"
        r"(?:of|=|:|：|为|是|达到|要|有|" + SET_TO + r")?\s*" + NUMBER + _NOT_A_BATCH,
        re.ASCII,
    ),
    re.compile(NUMBER + r"\s*(?:的)?\s*(?:batch|并发|路并发|concurrent|users|requests)", re.ASCII),
)


def read_batch_size(text: str) -> int | None:
    """Batch size (or concurrent requests for serving): the first one stated in the text; a
    batch given in tokens ("global batch 4M tokens") is that many sequences of the context
    length (4,096 unless stated).

    Examples:
        >>> read_batch_size("32并发 8k上下文"), read_batch_size("batch size 16, 4k context")
        (32, 16)
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


def read_zero_stage(text: str) -> int | None:
    """ZeRO stage 0-3; FSDP (full shard) counts as 3."""
    match = re.search(r"zero[- _]?(?:stage[- _]?)?([0-3])\b", text, re.ASCII)
    if match:
        return int(match.group(1))
    # "without ZeRO", "plain DDP": every data-parallel rank keeps the whole model state
    if re.search(
        r"(?:without|no|w/o|不用|不开|没有)\s*(?:deepspeed\s*)?zero\b|\bddp\b(?!\s*\+)|"
        r"pure data[- ]parallel|plain data[- ]parallel",
        text,
        re.ASCII,
    ):
        return 0
    if re.search(r"\bfsdp\b|full[_ ]shard", text, re.ASCII):
        return 3
    return None


def read_parallelism(text: str) -> tuple[int | None, int | None]:
    """(tensor parallel, pipeline parallel) degrees when given ("tp=8", "张量并行4", "pp 2")."""
    tp = re.search(
        r"(?:\btp|tensor[ -]parallel(?:ism)?|张量并行)\s*(?:=|:|size|degree|度)?\s*(\d+)",
        text,
        re.ASCII,
    )
    pp = re.search(
        r"(?:\bpp|pipeline[ -]parallel(?:ism)?|流水线并行)\s*(?:=|:|size|degree|度)?\s*(\d+)",
        text,
        re.ASCII,
    )
    return (int(tp.group(1)) if tp else None, int(pp.group(1)) if pp else None)


# Signed, so that "$-2 per GPU-hour" is refused by name rather than silently dropped.
_SIGNED = r"([-−]?\d+(?:\.\d+)?)"
_PER_GPU_HOUR = r"\s*(?:/|per|每)\s*(?:gpu|卡|⟨gpu⟩)?\s*[ -]?(?:hour|hr|h|小时)"
PRICE = re.compile(
    r"(\$|¥|￥|€|£|usd|rmb|cny|eur|gbp)\s*" + _SIGNED + _PER_GPU_HOUR + r"|" + _SIGNED
    + r"\s*(元|美元|块钱|块|dollars?|usd|rmb|cny|yuan|euros?|eur|gbp)\s*(?:/|per|每)\s*"
    r"(?:张|gpu|卡)?[ -]?(?:卡)?\s*"
    # "15元每卡时", but not the budget of "预算20万元每卡时15元" (an amount follows: the price)
    r"(?:hour|hr|h|小时|卡时|时)(?!\s*[-−]?\d+(?:\.\d+)?\s*(?:元|美元|块))"
    # "每卡时15元", "每张卡每小时的费用是12元", "每卡时租金 8 元"
    r"|每(?:张)?卡(?:每)?(?:小)?时\s*(?:的)?\s*(?:费用|价格|租金|单价|成本|租价)?\s*"
    r"(?:是|为|:|约|大约)?\s*" + _SIGNED + r"\s*(元|美元|块钱|块)"
)  # fmt: skip


_NODE_WORD = r"(?:nodes?|servers?|machines?|boxes|instances?|dgx|hgx)"
_SYMBOL = r"(\$|¥|￥|€|£|usd|rmb|cny|eur|gbp)"
#: A price per server-hour: "8xH100 node at $25/hour", "$98 per node-hour", "$25/node/hr"
NODE_PRICE = re.compile(
    _NODE_WORD + r"\s*(?:at|for|costs?|is|@|=|rents? for|rented at)?\s*(?:about\s*)?"
    + _SYMBOL + r"\s*" + _SIGNED + r"\s*(?:/|per|an|a)\s*(?:hour|hr|h)\b"
    r"|" + _SYMBOL + r"\s*" + _SIGNED + r"\s*(?:/|per)\s*" + _NODE_WORD
    + r"\s*(?:[- /]|per\s*)?(?:hour|hr|h)\b",
    re.ASCII,
)  # fmt: skip


def read_node_price(text: str) -> tuple[float | None, str | None]:
    """A price per node-hour (a whole server rented by the hour), with its currency.

    >>> read_node_price("8x⟨gpu⟩ node at $25/hour"), read_node_price("$98 per node-hour")
    ((25.0, 'USD'), (98.0, 'USD'))
    >>> read_node_price("⟨gpu⟩ at $2/hour")
    (None, None)
    """
    match = NODE_PRICE.search(text)
    if match is None:
        return None, None
    symbol, value = (match.group(1), match.group(2)) if match.group(2) else match.group(3, 4)
    return to_float(value), CURRENCY.get(symbol, "USD")


#: "how many GPU-hours does $30k buy at $2.5": a bare rate after "at" in a question about
#: GPU-hours is the price of one (never an amount in thousands, never per kWh).
_PRICE_AT = re.compile(
    r"(?:\bat|@)\s*(\$|¥|￥)\s*" + _SIGNED + r"(?![\d.]|\s*(?:k|m|万|w)\b|\s*(?:/|per)\s*kwh)"
)
_GPU_HOURS = re.compile(r"gpu[- ]?h(?:ou)?rs?|卡时|gpu 小时")


def read_price(text: str) -> tuple[float | None, str | None]:
    """A price per GPU-hour the user gives, with its currency; never invented."""
    match = PRICE.search(text)
    if match is None and _GPU_HOURS.search(text):
        bare = _PRICE_AT.search(text)
        if bare is not None:
            return to_float(bare.group(2)), CURRENCY.get(bare.group(1), "USD")
    if match is None:
        return None, None
    if match.group(2):
        return to_float(match.group(2)), CURRENCY.get(match.group(1), "USD")
    if match.group(3):
        return to_float(match.group(3)), CURRENCY.get(match.group(4), "USD")
    return to_float(match.group(5)), CURRENCY.get(match.group(6), "CNY")
