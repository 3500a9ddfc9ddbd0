"""Calculator formulas for display: math stays math, the prose around it is in the answer's
language.

The calculators write formulas in English with "x" for multiplication. For display the
multiplication sign is "×" in both languages, and in a Chinese answer the English prose inside
a formula ("all-reduces of … per layer per micro-batch", "on the most-loaded stage") is
rewritten as a whole Chinese phrase around the unchanged math, never word by word. A fragment
with no row keeps its English (see :func:`assistant.calculate.translate.to_chinese`).

Examples:
    >>> local_formula("E = n_gpus x (TDP x u + P_host_per_gpu) x t x PUE", "en")
    'E = n_gpus × (TDP × u + P_host_per_gpu) × t × PUE'
    >>> local_formula("t_pp = 2 x tokens x h x bytes / TP per stage boundary", "zh")
    't_pp = 每个流水线段边界 2 × tokens × h × 字节 / TP'
"""

from __future__ import annotations

import re

from assistant.calculate.translate import to_chinese
from assistant.records import Language

__all__ = ["local_formula"]

_TIMES = re.compile(r"(?<=[\w)\]²'])\s+x\s+(?=[\w(])|\(x(?=\d)")

_M = r"([^;:]+?)"  # a piece of math between two prose words

#: English prose around formula math → Chinese, applied in order (after "x" became "×").
_ZH: tuple[tuple[str, str], ...] = (
    (r"^per GPU = ", "每卡 = "),
    (
        r" with Ψ = params/\(t·p\) on the most-loaded stage, \+ activations \(layers × in-flight "
        r"micro-batches × ([^)]*)\)",
        r"（Ψ = params/(t·p)，取负载最重的流水线段）+ 激活值（层数 × 在途微批数 × \1）",
    ),
    (
        r"frozen base \(([\d.]+) bytes/param on linear layers, ([\d.]+) on the rest\)",
        r"冻结基座（线性层每参数 \1 字节，其余 \2 字节）",
    ),
    (r"LoRA params ", "LoRA 参数 "),
    (r"\+ activations \(Korthikanti et al\. (\d{4})\)", r"+ 激活值（Korthikanti 等 \1）"),
    (
        r"\+ workspace \(([\d,]+)-token prefill chunk × " + _M + r"\)$",
        r"+ 工作区（\1 token 预填充块 × \2）",
    ),
    (r"^prefill = ", "预填充 = "),
    (r"; decode step = ", "；解码每步 = "),
    (
        r"; deployment decode = concurrent sequences / step time of a replica holding "
        r"ceil\(sequences / replicas\)",
        "；整体解码速率 = 并发序列数 / 单个副本承载 ceil(并发序列数 / 副本数) 条序列时的每步时间",
    ),
    (
        r"t_dp = hierarchical ring all-reduce of S = " + _M + r" over the DP group: ",
        r"t_dp = 在数据并行组内对 S = \1 做分层环形 all-reduce：",
    ),
    (r"\(×([\d.]+) for ZeRO-3\)", r"（ZeRO-3 时 ×\1）"),
    (
        r"t_tp = (\d+) \((\d+) with full recompute\) all-reduces of "
        + _M
        + r" per layer per micro-batch",
        r"t_tp = 每层每个微批 \1 次（完全重计算时 \2 次）\3 的 all-reduce",
    ),
    (r"t_pp = " + _M + r" per stage boundary", r"t_pp = 每个流水线段边界 \1"),
    (
        r"t_moe = (\d+) all-to-alls of " + _M + r" per MoE layer",
        r"t_moe = 每个 MoE 层 \1 次 \2 的 all-to-all",
    ),
    (r"; serving: P = ", "；推理服务：P = "),
    (r", kWh per hour = ", "，每小时 kWh = "),
    (r", energy per token = P / deployment decode tokens/s", "，每 token 能耗 = P / 整体解码速率"),
    (r"^cost = GPU-hours × price per GPU-hour$", "费用 = GPU 小时数 × 每卡时价格"),
    (r"bytes\((\w+)\)", r"字节(\1)"),
    (r"(?<=[\s(])bytes(?=[\s/)])", "字节"),
)


def local_formula(formula: str, language: Language) -> str:
    """The formula as shown in an answer in `language` (see the module docstring)."""
    text = _TIMES.sub(lambda m: " × " if m.group(0).strip() == "x" else "(×", formula)
    if language != "zh":
        return text
    for pattern, template in _ZH:
        text = re.sub(pattern, template, text)
    text = to_chinese(text).replace("; ", "；")
    return re.sub(r"\s+（", "（", text)
