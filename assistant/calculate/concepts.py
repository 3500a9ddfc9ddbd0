"""In-domain questions with nothing to compute ("ZeRO-3 是什么?", "What is the KV cache?").

The answer cannot be a verdict, but it should not be empty either: composition cites the best
passages for the question itself, and this module adds the catalog facts of any GPU the question
names and says what to add for a computed verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.calculate.defaults import say
from assistant.i18n.numbers import count_text as fmt_count
from assistant.i18n.numbers import rate_text as fmt_rate
from assistant.records import Language, Query

__all__ = ["concept_lead", "gpu_facts", "what_to_ask"]


def gpu_facts(names: Sequence[str], language: Language) -> tuple[str, ...]:
    """One line of datasheet figures per named GPU (from the calculators' catalog)."""
    from calculators.catalog.hardware import lookup_gpu

    lines = []
    for name in dict.fromkeys(names):
        gpu = lookup_gpu(name)
        bf16 = gpu.dense_flops_per_s("bf16") if gpu.supports("bf16") else None
        peak = (
            say(
                language,
                f"bf16 稠密 {fmt_rate(bf16, 'FLOP/s')}",
                f"{fmt_rate(bf16, 'FLOP/s')} dense bf16",
            )
            if bf16
            else say(language, "不支持 bf16", "no bf16")
        )
        link = gpu.intra_link or "PCIe"
        # weights only, in the usable 90% of the card (the memory calculator's fraction)
        fp16, int4 = (0.9 * gpu.memory_bytes / b for b in (2.0, 0.5))
        lines.append(
            say(
                language,
                f"{gpu.name}：显存 {gpu.memory_bytes / 1e9:.0f} GB，{peak}，"
                f"显存带宽 {fmt_rate(gpu.memory_bandwidth_bytes_per_s)}，"
                f"TDP {gpu.tdp_watts:.0f} W，卡间互联 {link}；单卡仅放权重约可容纳 16 位 "
                f"{fmt_count(fp16, 'zh')}、4 位 {fmt_count(int4, 'zh')} 参数"
                "（可用显存 90% ÷ 每参数 2 或 0.5 字节，未计 KV cache）。",
                f"{gpu.name}: {gpu.memory_bytes / 1e9:.0f} GB, {peak}, "
                f"{fmt_rate(gpu.memory_bandwidth_bytes_per_s)} memory bandwidth, "
                f"TDP {gpu.tdp_watts:.0f} W, {link} between GPUs; one card holds the weights of "
                f"about {fmt_count(fp16)} parameters in 16 bits or {fmt_count(int4)} in 4 bits "
                "(90% usable memory ÷ 2 or 0.5 bytes per parameter, before the KV cache).",
            )
        )
    return tuple(lines)


def concept_lead(query: Query) -> str:
    """The sentence after the verdict label for a question with no job to evaluate."""
    if query.followup and query.context:
        context = query.context.strip()[:80]
        return say(
            query.language,
            f"接着上一问“{context}”：下面是知识库中最相关的说明。"
            "问题没有给出可计算的任务，所以不给可行性结论。",
            f'Following on from "{context}": below is what the knowledge base says. '
            "There is no job to compute, so there is no feasibility verdict.",
        )
    return say(
        query.language,
        "这个问题没有给出可计算的任务（模型规模、任务与硬件），所以不给可行性结论；"
        "下面是知识库中最相关的说明。",
        "The question names no job to compute (model size, task and hardware), so there is no "
        "feasibility verdict; below is what the knowledge base says.",
    )


def what_to_ask(query: Query) -> str:
    """What to add to the question to get a computed verdict, given what it already names."""
    s = query.scenario
    missing_zh = ["模型或参数量（如 Llama-2-70B、700 亿）"]
    missing_en = ["the model or its size (e.g. Llama-2-70B, 70B)"]
    if s.task is None:
        missing_zh.append("任务（预训练、微调或推理）")
        missing_en.append("the job (pre-training, fine-tuning or inference)")
    if s.gpu is None and s.site_profile is None:
        missing_zh.append("硬件（GPU 型号与数量）")
        missing_en.append("the hardware (GPU model and count)")
    return say(
        query.language,
        "请补充：" + "、".join(missing_zh) + "。例如：“8 张 H100 能在 30 天内训练 70B 模型吗？”",
        "Add "
        + ", ".join(missing_en)
        + '. For example: "Can 8x H100 train a 70B model within 30 days?"',
    )
