"""Workload slots read from normalised question text: task, method, precision, sizes, time.

Each reader takes the normalised text (see :func:`assistant.parse.numbers.normalize_numbers`)
and returns a value or None. Tables, not branches, hold the vocabulary. Sizes, context lengths
and batch sizes (`sizes`), deadlines and periods (`durations`) and prices (`prices`) have their
own modules; their readers are re-exported here.
"""

from __future__ import annotations

import re

from assistant.parse.durations import read_deadline, read_period
from assistant.parse.prices import PRICE, read_node_price, read_price
from assistant.parse.sizes import (
    SizeMention,
    read_batch_size,
    read_context_length,
    read_epochs,
    read_micro_batch,
    read_pipeline_microbatches,
    read_sizes,
)

__all__ = [
    "PRICE",
    "SizeMention",
    "read_batch_size",
    "read_context_length",
    "read_deadline",
    "read_epochs",
    "read_expert_parallel",
    "read_micro_batch",
    "read_pipeline_microbatches",
    "read_method",
    "read_parallelism",
    "read_recompute",
    "read_period",
    "read_node_price",
    "read_precision",
    "read_price",
    "read_sizes",
    "read_task",
    "read_topics",
    "read_full_precision",
    "read_unquantized",
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
        r"tokens?/s|吞吐|跑|\brun\b|\brunning\b|load the model|加载|chat|generate|"
        # what a deployment is for, with no training word: "做智能客服", "聊天机器人", "日活1万"
        r"客服|机器人|聊天|问答系统|对话服务|日活|\bdau\b",
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
_NOT_QUARTER = r"(?!\s*(?:'?\d{2}\b|20\d\d|fy|revenue|earnings|results|sales|report))"
_PRECISION_WORDS: tuple[tuple[str, str], ...] = (
    (r"\bfp8\b|\bfloat8\b|8位浮点", "fp8"),
    (r"\bbf16\b|bfloat16", "bf16"),
    (r"\bfp16\b|float16|半精度|\bhalf precision", "fp16"),
    # "full precision" is the released precision (read_full_precision), not fp32
    (r"\bfp32\b|float32|单精度", "fp32"),
    # llama.cpp GGUF types: q8_0 is 8-bit; q4_0 / q4_k_m (and the smaller q3_k, q2_k, kept at
    # 4 bits as an upper bound) are 4-bit
    # ("q8", "q4": the bare llama.cpp / Ollama tags people write, "qwen3 30b at q4"; never a
    # quarter, "Q4 2025", "q4 revenue")
    (r"\bint8\b|8[- ]?bit|8比特|8位量化|\bw8a8\b|\bq8(?:_0)?\b" + _NOT_QUARTER, "int8"),
    (
        r"\bint4\b|4[- ]?bit|4比特|4位量化|\bnf4\b|\bgptq\b|\bawq\b|\bw4a16\b|"
        r"\bq4(?:_(?:0|1|k(?:_[sm])?))?\b" + _NOT_QUARTER + r"|\bq[23]_k\w*",
        "int4",
    ),
)
#: "不量化", "原精度", "without quantization": the weights stay in the model's own 16-bit
#: format; a stated precision, so quantizing is a change of what was asked, not a condition.
_UNQUANTIZED = (
    # "要不要量化", "用不用量化" ask whether to quantize: not a statement
    r"(?<![要用做])(?:不|不用|不要|不做|不进行|不经过|没有|没|未|无|非)\s*(?:做|进行|经过)?\s*量化|"
    r"原(?:始|生)?精度|"
    r"\bunquanti[sz]ed\b|\bnon-quanti[sz]ed\b|\bnot quanti[sz]ed\b|"
    r"(?:\bwithout|\bno|w/o)\s+(?:any\s+)?quanti[sz](?:ation|ing|e)\b"
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


def read_task(text: str) -> str | None:
    """pretrain, finetune or inference: the first vocabulary that matches (most specific first)."""
    for pattern, task in _TASK_WORDS:
        if re.search(pattern, text, re.ASCII):
            return task
    return None


#: A method ruled out: "不用LoRA", "不要 QLoRA", "without LoRA", "no LoRA, full fine-tune",
#: "not QLoRA" name what the job is NOT (the method then comes from the rest of the text).
_NOT_METHOD = re.compile(
    r"(?:不想|不打算|不愿意?|不希望|不用|不要|不是|不做|不采用|不使用|别用|无需|不需要|非)"
    r"\s*(?:用|做|采用|使用)?\s*"
    r"(?:q?lora|量化lora|低秩)(?:\s*微调)?|"
    r"(?:\bwithout|\bno|\bnot|w/o|\brather than|\binstead of|\bdon'?t\s+(?:want\s+)?(?:to\s+)?use)"
    r"\s+(?:any\s+|a\s+|using\s+|"
    r"with\s+)?(?:q?lora|4[- ]?bit lora)\b",
    re.ASCII,
)


def read_method(text: str) -> str | None:
    """full, lora or qlora when the question names one (a negated one is not named).

    >>> read_method("必须全参数微调，不用lora"), read_method("no lora, full fine-tune")
    ('full', 'full')
    >>> read_method("fine-tune it without lora"), read_method("lora, not qlora")
    (None, 'lora')
    >>> read_method("全参微调行不行？不想用lora"), read_method("i don't want to use lora")
    ('full', None)
    """
    text = _NOT_METHOD.sub(" ", text)
    for pattern, method in _METHOD_WORDS:
        if re.search(pattern, text, re.ASCII):
            return method
    return None


def methods_named(text: str) -> tuple[str, ...]:
    """Every fine-tuning method the text names, as full, lora, qlora (a negated one is not).

    >>> methods_named("full fine-tune vs lora vs qlora for 14b"), methods_named("lora, not qlora")
    (('full', 'lora', 'qlora'), ('lora',))
    """
    text = _NOT_METHOD.sub(" ", text)
    named = {method for pattern, method in _METHOD_WORDS if re.search(pattern, text, re.ASCII)}
    return tuple(m for m in ("full", "lora", "qlora") if m in named)


_DTYPE_WORD = r"(?:bf16|bfloat16|fp16|float16|fp8|float8|fp32|float32|int8|int4|nf4|[48][- ]?bit)\b"
#: A precision ruled out: "no bf16 on volta so fp16", "int4, not fp8", "doesn't support bf16",
#: "不支持bf16", "不用fp8": they name what the job is NOT (its precision comes from the rest).
_NOT_PRECISION = re.compile(
    # (never the question "能不能用bf16", "用不用fp8", "是不是fp16", "有没有fp8", "支不支持bf16")
    r"(?<![能用要是有支])(?:不支持|不用|不要|不是|没有|别用|不能用|无)\s*" + _DTYPE_WORD + r"|"
    r"(?:\bwithout|\bno|\bnot|w/o|\brather than|\binstead of|"
    r"\b(?:doesn'?t|does not|don'?t|can'?t|cannot|won'?t|lacks?)\s+(?:support|have|do|run|use)"
    r"(?:\s+any)?)\s+(?:any\s+|native\s+)?" + _DTYPE_WORD,
    re.ASCII,
)


def read_precision(text: str) -> str | None:
    """fp32, bf16, fp16, fp8, int8 or int4 (4-bit) when the question names one (a negated one
    is not named).

    >>> read_precision("no bf16 on volta so fp16 mixed precision"), read_precision("int4, not fp8")
    ('fp16', 'int4')
    >>> read_precision("the v100 doesn't support bf16"), read_precision("不支持bf16，用fp16")
    (None, 'fp16')
    >>> read_precision("8张V100能不能用bf16预训练"), read_precision("有没有fp8")
    ('bf16', 'fp8')
    """
    text = _NOT_PRECISION.sub(" ", text)
    for pattern, precision in _PRECISION_WORDS:
        if re.search(pattern, text, re.ASCII):
            return precision
    return None


def read_unquantized(text: str) -> bool:
    """True when the question rules quantization out ("不量化", "without quantization").

    Examples:
        >>> [read_unquantized(t) for t in ("单卡能部署吗，不量化", "no quantization", "要不要量化")]
        [True, True, False]
    """
    return re.search(_UNQUANTIZED, text, re.ASCII) is not None


#: "满血版DeepSeek-R1", "原版 Qwen", "full-precision R1", "unquantized": the model as released,
#: a stated precision. The Chinese words often sit inside a catalog alias ("满血版R1"), so they
#: are looked for in the unmasked text; beside a card they describe the card ("满血4090" is the
#: full RTX 4090, not a 4090D; "原版4090" is not a modded one).
_FULL_PRECISION_ZH = re.compile(r"满血|原版")
_FULL_PRECISION_EN = re.compile(r"\bfull[- ]precision\b|\bfull[- ]weight\b", re.ASCII)
_FULL_CARD = re.compile(r"(?:满血|原版)\s*(?:版|的)?\s*⟨gpu⟩|⟨gpu⟩\s*(?:的)?\s*(?:满血|原版)")


def read_full_precision(text: str, plain: str) -> str | None:
    """The words stating the released precision ("满血", "原版", "full-precision"), or None;
    `text` is the masked question, `plain` the unmasked one.

    Examples:
        >>> read_full_precision(" ⟨model⟩ 8卡能跑吗", "满血版r1 8卡能跑吗")
        '满血'
        >>> read_full_precision("满血 ⟨gpu⟩ 跑 ⟨model⟩", "满血4090跑qwen2.5-7b") is None
        True
        >>> read_full_precision("serve the full-precision ⟨model⟩", "")
        'full-precision'
    """
    english = _FULL_PRECISION_EN.search(text)
    if english:
        return english.group(0)
    chinese = _FULL_PRECISION_ZH.search(plain)
    if chinese is None or _FULL_CARD.search(text):
        return None
    return chinese.group(0)


def read_topics(text: str) -> tuple[str, ...]:
    """Topics the question mentions explicitly (power, cost, network, memory, compute, storage)."""
    return tuple(topic for pattern, topic in _TOPIC_WORDS if re.search(pattern, text, re.ASCII))


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


_RECOMPUTE_WORD = (
    r"(?:activation |gradient )?(?:re-?comput(?:e|ation|ing)?|checkpointing)|"
    r"(?:激活)?重计算|梯度检查点|激活检查点"
)
_RECOMPUTE = (
    (
        "none",
        r"(?:\bno|without|w/o|disabl\w*|turn(?:ed)? off|不开|不用|关闭|关掉|不做|没有|无|不)\s*"
        r"(?:any\s+)?(?:" + _RECOMPUTE_WORD + ")|"
        # "recompute off", "activation checkpointing disabled", "重计算关闭"
        r"(?:" + _RECOMPUTE_WORD + r")\s*(?:off\b|disabled\b|关闭|关掉|不开)",
    ),
    ("selective", r"selective\s*(?:activation\s*)?re-?comput|选择性\s*(?:激活)?重计算"),
    (
        "full",
        r"full\s*(?:activation\s*)?re-?comput|(?:activation|gradient)\s*checkpointing|"
        r"完全重计算|全量重计算|全重计算|(?:开启?|打开|用|使用|加上?)\s*(?:激活)?重计算|梯度检查点|"
        r"激活检查点|with\s+(?:activation\s+)?re-?comput|"
        # "activation recomputation on", "recompute enabled", "enable recompute", "重计算开启"
        r"(?:" + _RECOMPUTE_WORD + r")\s*(?:on\b|enabled\b|turned on\b|开启|打开|开着)|"
        r"(?:enabl\w*|turn(?:ed|ing)? on|us(?:e|ing))\s+(?:activation\s+)?re-?comput",
    ),
)


def read_recompute(text: str) -> str | None:
    """Activation recomputation as stated: "none", "selective" or "full" (None: not said).

    >>> [read_recompute(t) for t in ("no recompute", "with gradient checkpointing", "不开重计算")]
    ['none', 'full', 'none']
    >>> [read_recompute(t) for t in ("activation recomputation on", "recompute off", "重计算开启")]
    ['full', 'none', 'full']
    >>> read_recompute("selective recomputation"), read_recompute("zero-3 on 8 gpus")
    ('selective', None)
    """
    for mode, pattern in _RECOMPUTE:
        if re.search(pattern, text):
            return mode
    return None


#: A training run said to be data-parallel only: "DDP", "plain data parallelism", "纯数据并行",
#: "a data-parallel fine-tune" (every GPU a whole replica of the model: TP 1, PP 1; ZeRO, itself
#: data parallelism, stays open unless stated). Not the serving "data-parallel attention", and
#: not a data-parallel degree or a question that names model parallelism too.
_DATA_PARALLEL_ONLY = re.compile(
    r"\bddp\b(?!\s*(?:\+|with|and|plus|加|配合)\s*(?:tp|pp|tensor|pipeline|张量|流水线))|"
    r"(?:\b(?:pure|plain|only)\s+)?\bdata[- ]parallel(?:ism)?\b"
    r"(?!\s*(?:attention|degree|size|=|:|\d))|"
    r"(?:纯|只用|只做)?数据并行(?!\s*(?:注意力|度|=|:|\d))",
    re.ASCII,
)
_MODEL_PARALLEL_WORD = re.compile(
    r"(?<![a-z])(?:tp|pp)(?![a-z])|tensor[- ]parallel|pipeline|model[- ]parallel|张量并行|流水线|"
    r"模型并行|dp[- ]attention|megatron|3d parallel",
    re.ASCII,
)


def reads_data_parallel_only(text: str) -> bool:
    """True when a training question says data parallelism alone ("DDP", "数据并行") and
    names no model parallelism: each GPU holds the whole model (TP 1, PP 1).

    >>> reads_data_parallel_only("ddp full fine-tune"), reads_data_parallel_only("纯数据并行训练")
    (True, True)
    >>> reads_data_parallel_only("data parallel 4 with tp 2")
    False
    """
    return bool(_DATA_PARALLEL_ONLY.search(text)) and not _MODEL_PARALLEL_WORD.search(text)


def read_expert_parallel(text: str) -> int | None:
    """The expert-parallel degree when given ("ep=64", "EP64", "专家并行64", "64-way expert
    parallelism"); "deepseek" or "epochs" are no EP.

    >>> read_expert_parallel("pp16, ep64"), read_expert_parallel("专家并行 8")
    (64, 8)
    >>> read_expert_parallel("64-way expert parallelism"), read_expert_parallel("deepseek ep")
    (64, None)
    >>> read_expert_parallel("3 epochs"), read_expert_parallel("tp4pp2ep8")
    (None, 8)
    """
    found = re.search(
        r"(?:(?<![a-z])ep|expert[ -]parallel(?:ism)?|专家并行)"
        r"\s*(?:=|:|size|degree|度)?\s*(\d+)|"
        r"(\d+)\s*(?:-way|路)\s*(?:expert[ -]parallel|专家并行)",
        text,
        re.ASCII,
    )
    if not found:
        return None
    return int(next(g for g in found.groups() if g))


def read_parallelism(text: str) -> tuple[int | None, int | None]:
    """(tensor parallel, pipeline parallel) degrees when given ("tp=8", "张量并行4", "pp 2");
    written together as in a Megatron run name, "TP4PP2" is TP 4 and PP 2.

    >>> read_parallelism("tp4pp2 dp=16"), read_parallelism("tp=8, pp 2"), read_parallelism("app2")
    ((4, 2), (8, 2), (None, None))
    >>> read_parallelism("8 pipeline stages"), read_parallelism("流水线分16段,每步128个微批次")
    ((None, 8), (None, 16))
    >>> read_parallelism("bubble with 8 stages"), read_parallelism("8个stage时流水线气泡多大")
    ((None, 8), (None, 8))
    >>> read_parallelism("zero 的 3 个阶段")  # no pipeline named: no PP
    (None, None)
    """
    tp = re.search(
        r"(?:(?<![a-z])tp|tensor[ -]parallel(?:ism)?|张量并行)"
        r"\s*(?:=|:|size|degree|度)?\s*(\d+)",
        text,
        re.ASCII,
    )
    pp = re.search(
        r"(?:(?<![a-z])pp|pipeline[ -]parallel(?:ism)?|流水线并行)"
        r"\s*(?:=|:|size|degree|度)?\s*(\d+)",
        text,
        re.ASCII,
    )
    # "8 pipeline stages", "a 4-stage pipeline", "16段流水线", "流水线分8段": the stages are PP
    stages = pp or re.search(
        r"(\d+)\s*[- ]?(?:pipeline stages|stages? pipeline|stage pipeline|段流水线|级流水线)|"
        r"流水线\s*(?:分|切|切成|分成)?\s*(\d+)\s*(?:段|级)",
        text,
    )
    found = next((g for g in stages.groups() if g), None) if stages else None
    if found is None and _PIPELINE_WORDS.search(text):  # "bubble with 8 stages", "8个stage的气泡"
        bare = _BARE_STAGES.search(text)
        found = bare.group(1) if bare else None
    return (int(tp.group(1)) if tp else None, int(found) if found else None)


#: Words that make a bare count of stages ("8 stages", "8个stage", "8个阶段") pipeline stages.
_PIPELINE_WORDS = re.compile(r"pipeline|bubble|流水线|气泡", re.IGNORECASE)
_BARE_STAGES = re.compile(
    r"(?<![\d.])(\d+)\s*(?:个)?\s*(?:stages?(?![a-z])|阶段|段|级)(?!\s*(?:of\s+)?zero)",
    re.IGNORECASE,
)
