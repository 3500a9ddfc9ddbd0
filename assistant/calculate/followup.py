"""What a follow-up changed: "在上一问的基础上改了：GPU 型号。", only slots that really moved."""

from __future__ import annotations

from assistant.calculate.defaults import say
from assistant.records import Query

__all__ = ["changed_note"]

_SLOT_NAMES = {
    "gpu": ("GPU 型号", "GPU model"),
    "gpu_count": ("GPU 数量", "GPU count"),
    "nodes": ("节点数", "node count"),
    "model": ("模型", "model"),
    "params": ("模型规模", "model size"),
    "precision": ("精度/量化", "precision"),
    "method": ("微调方式", "fine-tuning method"),
    "task": ("任务", "task"),
    "inter_link": ("机间网络", "inter-node network"),
    "intra_link": ("机内互联", "intra-node link"),
    "deadline_seconds": ("期限", "deadline"),
    "tokens": ("数据量", "token budget"),
    "context_length": ("上下文长度", "context length"),
    "batch_size": ("批大小/并发", "batch size"),
    "concurrency": ("并发", "concurrency"),
    "budget": ("预算", "budget"),
    "price_per_kwh": ("电价", "electricity price"),
    "price_per_gpu_hour": ("每卡时单价", "price per GPU-hour"),
}


def changed_note(query: Query) -> str:
    """ "在上一问的基础上改了：GPU 型号。" for a follow-up, so the user sees what moved."""
    changed = query.changed_slots
    if "concurrency" in changed:  # the batch follows the concurrency: one change, said once
        changed = tuple(k for k in changed if k != "batch_size")
    names = [_SLOT_NAMES[k] for k in changed if k in _SLOT_NAMES]
    if not query.followup or not names:
        return ""
    lang = query.language
    listed = say(lang, "、", ", ").join(say(lang, zh, en) for zh, en in names)
    return say(
        lang, f"在上一问的基础上改了：{listed}。", f"Changed from the previous question: {listed}."
    )
