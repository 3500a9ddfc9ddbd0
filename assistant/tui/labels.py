"""What people see instead of raw names in the side panel: slots, calculator inputs, figures
and check verdicts, in the interface language.

Figure labels come from `assistant.render.labels` (shared with `gpu-advisor calc`); a key
without a label is shown in a readable form of itself ("micro_batch_size" → "micro batch size").
"""

from __future__ import annotations

from assistant.render.labels import FIGURE_LABELS, TASKS, VERDICTS

#: Scenario slot -> (Chinese, English).
SLOT_LABELS: dict[str, tuple[str, str]] = {
    "task": ("任务", "task"),
    "method": ("方法", "method"),
    "params": ("参数量", "parameters"),
    "active_params": ("激活参数", "active params"),
    "model": ("模型", "model"),
    "gpu": ("GPU", "GPU"),
    "gpu_count": ("GPU 数", "GPU count"),
    "nodes": ("节点", "nodes"),
    "gpus_per_node": ("每节点 GPU", "GPUs per node"),
    "gpu_memory_bytes": ("显存", "GPU memory"),
    "intra_link": ("机内互联", "intra-node link"),
    "inter_link": ("机间网络", "inter-node fabric"),
    "precision": ("精度", "precision"),
    "tokens": ("训练 token", "tokens"),
    "deadline_seconds": ("期限", "deadline"),
    "zero_stage": ("ZeRO", "ZeRO"),
    "tensor_parallel": ("TP", "TP"),
    "pipeline_parallel": ("PP", "PP"),
    "context_length": ("上下文", "context"),
    "batch_size": ("批大小", "batch"),
    "site_profile": ("站点", "site"),
    "price_per_gpu_hour": ("每卡时价格", "price per GPU-hour"),
    "currency": ("币种", "currency"),
    "concurrency": ("并发数", "concurrency"),
    "target_tokens_per_second": ("目标吞吐", "target throughput"),
    "target_qps": ("目标 QPS", "target QPS"),
    "target_first_token_seconds": ("首 token 延迟上限", "time-to-first-token target"),
    "target_seconds_per_token": ("每路每 token 时间上限", "time-per-token target"),
    "budget": ("预算", "budget"),
    "price_per_kwh": ("电价（每千瓦时）", "price per kWh"),
    "host_ram_bytes": ("每节点主机内存", "host RAM per node"),
}

#: Calculator input names that are not scenario slots -> (Chinese, English).
INPUT_LABELS: dict[str, tuple[str, str]] = {
    "gpus": ("GPU 数", "GPUs"),
    "gpus_per_replica": ("每副本 GPU", "GPUs per replica"),
    "micro_batch_size": ("微批大小", "micro-batch"),
    "sequence_length": ("序列长度", "sequence length"),
    "optimizer": ("优化器", "optimizer"),
    "recompute": ("激活重计算", "recompute"),
    "flash_attention": ("FlashAttention", "FlashAttention"),
    "offload_optimizer": ("优化器卸载", "optimizer offload"),
    "nics_per_node": ("每节点网卡", "NICs per node"),
    "global_batch_tokens": ("全局批 token", "global batch tokens"),
    "tdp_watts": ("TDP", "TDP"),
    "pue": ("PUE", "PUE"),
    "host_watts_per_gpu": ("每卡主机功耗", "host power per GPU"),
    "utilization": ("利用率", "utilisation"),
    "weight_dtype": ("权重精度", "weight dtype"),
    "kv_dtype": ("KV 精度", "KV dtype"),
    "runtime_overhead_fraction": ("运行时开销比例", "runtime overhead"),
}

#: Check verdict -> one-cell icon shown before its label.
VERDICT_ICONS = {"ok": "✔", "tight": "!", "fail": "✘", "n/a": "–"}

METHODS = {"full": ("全参", "full"), "lora": ("LoRA", "LoRA"), "qlora": ("QLoRA", "QLoRA")}


def _pick(pair: tuple[str, str], language: str) -> str:
    return pair[0] if language == "zh" else pair[1]


def readable(key: str) -> str:
    """A raw key in a readable form, for names nothing else labels.

    Examples:
        >>> readable("micro_batch_size")
        'micro batch size'
    """
    return key.replace("_", " ").strip()


def slot_label(slot: str, language: str) -> str:
    """The label of scenario slot `slot`.

    Examples:
        >>> slot_label("gpus_per_node", "zh"), slot_label("gpus_per_node", "en")
        ('每节点 GPU', 'GPUs per node')
    """
    pair = SLOT_LABELS.get(slot)
    return _pick(pair, language) if pair else readable(slot)


def input_label(key: str, language: str) -> str:
    """The label of a calculator input (a slot, another known input, or a figure name)."""
    pair = SLOT_LABELS.get(key) or INPUT_LABELS.get(key) or _figure_pair(key)
    return _pick(pair, language) if pair else readable(key)


def figure_label(key: str, language: str) -> str:
    """The label of a calculator figure (from `assistant.render.labels`, else a readable key).

    Examples:
        >>> figure_label("required_bytes_per_gpu", "zh"), figure_label("odd_new_figure", "zh")
        ('每卡所需显存', 'odd new figure')
    """
    pair = _figure_pair(key) or INPUT_LABELS.get(key) or SLOT_LABELS.get(key)
    return _pick(pair, language) if pair else readable(key)


def _figure_pair(key: str) -> tuple[str, str] | None:
    english_chinese = FIGURE_LABELS.get(key)
    return (english_chinese[1], english_chinese[0]) if english_chinese else None


def verdict_label(verdict: str, language: str) -> str:
    """A check verdict (ok, tight, fail, n/a) in the interface language.

    Examples:
        >>> verdict_label("fail", "zh"), verdict_label("fail", "en")
        ('不满足', 'fail')
    """
    return VERDICTS.get(verdict, verdict) if language == "zh" else verdict


def slot_value(slot: str, value: str, language: str) -> str:
    """A word-valued slot (task, method) in the interface language; other values unchanged."""
    tasks = {name: (pair[1], pair[0]) for name, pair in TASKS.items()}  # TASKS is (en, zh)
    table = {"task": tasks, "method": METHODS}.get(slot)
    pair = table.get(value) if table else None
    return _pick(pair, language) if pair else value
