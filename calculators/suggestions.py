"""Candidate changes for a failing plan (the planner verifies each before offering it).

Bounded search: at most a few dozen candidates, each one evaluation. Rank (lower first):
1 one configuration change, 2 several at once, 3 a longer deadline, 4 a faster inter-node
fabric, 5 more GPUs of the same type, 6 another catalog GPU.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from calculators.hardware import GPUS, LINKS, Link
from calculators.plan import DAY, CheckKind, CheckResult, Plan
from calculators.plan_checks import network_check
from calculators.plan_compute import compute_facts, gpus_needed_for_deadline
from calculators.plan_memory import min_fit, trainable_params

__all__ = ["Candidate", "candidates"]


@dataclass(frozen=True)
class Candidate:
    """An unverified change."""

    kind: str
    description_en: str
    description_zh: str
    plan: Plan
    rank: int
    changes: int = 1
    hardware: bool = False


def candidates(
    plan: Plan, failing: set[CheckKind], checks: tuple[CheckResult, ...]
) -> Iterator[Candidate]:
    """All candidate changes worth verifying, cheapest kinds first."""
    if "memory" in failing:
        yield from _memory_savers(plan)
    if "compute" in failing and plan.task == "finetune" and plan.effective_method == "full":
        yield from _methods(plan)
    if "compute" in failing:
        yield from _deadline(plan)
    if "network" in failing:
        yield from _fabric(plan, checks)
    yield from _more_gpus(plan, failing)
    yield from _other_gpu(plan)


def _memory_savers(plan: Plan) -> Iterator[Candidate]:
    if plan.task == "inference":
        yield from _quantize(plan)
        yield from _tensor_parallel(plan)
        for split in _tensor_parallel(plan):
            for q in _quantize(plan):
                en = f"{q.description_en}, and {split.description_en.lower()}"
                zh = f"{q.description_zh}，并{split.description_zh}"
                new = split.plan.replace(weight_dtype=q.plan.weight_dtype)
                yield Candidate("combined", en, zh, new, 2, 2)
        return
    if plan.task == "finetune":
        yield from _methods(plan)
    for stage in range(plan.zero_stage + 1, 4):
        yield Candidate(
            "zero", f"Use ZeRO stage {stage} (shard model states over the data-parallel GPUs)",
            f"使用 ZeRO-{stage}（在数据并行的 GPU 间切分模型状态）",
            plan.replace(zero_stage=stage), 1)
    yield from _tensor_parallel(plan)
    if plan.recompute != "full":
        yield Candidate("recompute", "Recompute activations in the backward pass (full "
                        "checkpointing, ~33% more compute)",
                        "反向时重算激活（完全重算，约多 33% 计算）",
                        plan.replace(recompute="full"), 1)
    if not plan.offload:
        yield Candidate("offload", "Offload optimizer states to CPU memory (ZeRO-Offload)",
                        "把优化器状态卸载到 CPU 内存（ZeRO-Offload）",
                        plan.replace(offload=True), 1)
    yield from _combined(plan)


def _adapters(plan: Plan) -> bool:
    return plan.task == "finetune" and plan.effective_method != "full"


def _tensor_parallel(plan: Plan) -> Iterator[Candidate]:
    if _adapters(plan):  # LoRA/QLoRA memory is modelled data-parallel only
        return
    for tp in (2, 4, 8, 16):
        if tp <= plan.tensor_parallel or tp > min(plan.gpus, plan.gpus_per_node):
            continue
        if plan.gpus % (tp * plan.pipeline_parallel) or plan.model.heads % tp:
            continue
        yield Candidate(
            "tensor_parallel",
            f"Split each layer over {tp} GPUs of a node (tensor parallel = {tp})",
            f"在节点内用 {tp} 张 GPU 做张量并行（TP = {tp}）", plan.replace(tensor_parallel=tp), 1)


def _combined(plan: Plan) -> Iterator[Candidate]:
    tp = max((t for t in (1, 2, 4, 8) if t <= min(plan.gpus, plan.gpus_per_node)
              and plan.gpus % (t * plan.pipeline_parallel) == 0 and plan.model.heads % t == 0),
             default=1)
    if _adapters(plan):
        tp = 1
    changed = plan.replace(zero_stage=3, tensor_parallel=max(tp, plan.tensor_parallel),
                           recompute="full")
    if changed.tensor_parallel > 1:
        yield Candidate("combined", f"ZeRO-3 + tensor parallel {changed.tensor_parallel} + full "
                        "recompute", f"ZeRO-3 + 张量并行 {changed.tensor_parallel} + 完全重算",
                        changed, 2, 3)
    yield Candidate("combined", "ZeRO-3 + full recompute + optimizer offload to CPU",
                    "ZeRO-3 + 完全重算 + 优化器卸载到 CPU",
                    changed.replace(offload=True), 2, 4)


def _methods(plan: Plan) -> Iterator[Candidate]:
    order = ("lora", "qlora")
    start = 0 if plan.effective_method == "full" else order.index(plan.effective_method) + 1
    for method in order[start:]:
        label = "LoRA (16-bit frozen base)" if method == "lora" else "QLoRA (4-bit NF4 base)"
        label_zh = "LoRA（冻结 16 位底座）" if method == "lora" else "QLoRA（4 位 NF4 底座）"
        yield Candidate(method, f"Fine-tune with {label} instead", f"改用 {label_zh} 微调",
                        plan.replace(method=method), 1)
        yield Candidate(method, f"{label} with ZeRO-3/FSDP sharding of the base",
                        f"{label_zh} 并用 ZeRO-3/FSDP 切分底座",
                        plan.replace(method=method, zero_stage=3), 2, 2)


def _quantize(plan: Plan) -> Iterator[Candidate]:
    current = plan.weight_dtype or plan.precision
    for dtype, label in (("int8", "8-bit"), ("int4", "4-bit")):
        if current in ("int8", "int4") and dtype == "int8" or current == dtype:
            continue
        yield Candidate("quantization", f"Quantize weights to {dtype} ({label})",
                        f"把权重量化为 {dtype}（{label}）", plan.replace(weight_dtype=dtype), 1)


def _deadline(plan: Plan) -> Iterator[Candidate]:
    seconds = compute_facts(plan).seconds
    if seconds is None:
        return
    days = math.ceil(seconds / DAY)
    yield Candidate("deadline", f"Allow {days:,} days instead of {plan.deadline_seconds / DAY:g}",
                    f"把期限放宽到 {days:,} 天（原为 {plan.deadline_seconds / DAY:g} 天）",
                    plan.replace(deadline_seconds=days * DAY), 3)


def _fabrics() -> list[tuple[float, Link, int]]:
    options = [(link.bytes_per_s * n, link, n) for link in LINKS.values()
               if link.kind in ("infiniband", "ethernet") and link.rdma for n in (1, 2, 4, 8)]
    return sorted(options, key=lambda item: (item[0], item[2]))


def _fabric(plan: Plan, checks: tuple[CheckResult, ...]) -> Iterator[Candidate]:
    if plan.nodes < 2:
        return
    need = checks[2].figures.get("required_inter_node_bytes_per_second_for_90pct")
    target = float(need) if isinstance(need, (int, float)) else 0.0
    for bandwidth, link, nics in _fabrics():
        if bandwidth >= target:
            yield Candidate("inter_link", f"Connect nodes with {nics} x {link.name} per node "
                            f"({bandwidth / 1e9:g} GB/s per direction)",
                            f"节点间改用每节点 {nics} 条 {link.name}"
                            f"（单向 {bandwidth / 1e9:g} GB/s）",
                            plan.replace(inter_link=link, nics_per_node=nics), 4, hardware=True)
            return


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


def _nodes(n: int) -> str:
    return f"{n:,} node" + ("s" if n > 1 else "")


def _fit_layout(plan: Plan, failing: set[CheckKind]) -> tuple[Plan, int]:
    """The plan with the smallest fitting layout, and how many GPUs the job needs."""
    fit = min_fit(plan) if "memory" in failing else None
    need = max(fit.gpus if fit else 0, gpus_needed_for_deadline(plan) or 0)
    if fit is None:
        return plan, need
    return plan.replace(tensor_parallel=fit.tensor_parallel,
                        pipeline_parallel=fit.pipeline_parallel, zero_stage=fit.zero_stage), need


def _layout_text(plan: Plan) -> str:
    return f"TP={plan.tensor_parallel}, PP={plan.pipeline_parallel}, ZeRO-{plan.zero_stage}"


def _scaled(plan: Plan, need: int) -> Plan:
    unit = plan.tensor_parallel * plan.pipeline_parallel
    if need > plan.gpus_per_node:  # whole nodes
        unit = unit * plan.gpus_per_node // math.gcd(unit, plan.gpus_per_node)
    return plan.replace(gpus=_round_up(need, unit))


def _network_verdict(plan: Plan) -> str:
    facts = compute_facts(plan)
    return network_check(plan, peak_flops_per_s=facts.peak_flops_per_s, mfu=facts.mfu,
                         total_tokens=facts.tokens,
                         trainable_params=trainable_params(plan)).verdict


def _cheapest_fabric(plan: Plan) -> tuple[Link, int] | None:
    """The slowest catalog RDMA fabric (ports x link) with an "ok" network, else a "tight" one."""
    tight: tuple[Link, int] | None = None
    for _, link, nics in _fabrics():
        verdict = _network_verdict(plan.replace(inter_link=link, nics_per_node=nics))
        if verdict == "ok":
            return link, nics
        if verdict == "tight" and tight is None:
            tight = (link, nics)
    return tight


def _more_gpus(plan: Plan, failing: set[CheckKind]) -> Iterator[Candidate]:
    laid_out, need = _fit_layout(plan, failing)
    if need <= plan.gpus:
        if laid_out != plan:
            yield Candidate("layout", f"Shard as {_layout_text(laid_out)} on the same "
                            f"{plan.gpus} GPUs", f"在同样的 {plan.gpus} 张 GPU 上按 "
                            f"{_layout_text(laid_out)} 切分", laid_out, 2, 2)
        return
    changed = _scaled(laid_out, need)
    en = (f"Scale to {changed.gpus:,} x {plan.gpu.name} ({_nodes(changed.nodes)}; "
          f"{_layout_text(changed)})")
    zh = (f"扩展到 {changed.gpus:,} 张 {plan.gpu.name}（{changed.nodes:,} 个节点；"
          f"{_layout_text(changed)}）")
    if changed.nodes == 1 or changed.inter_link is not None:
        yield Candidate("gpus", en, zh, changed, 5, 2, hardware=True)
    if changed.nodes > 1 and plan.task != "inference":
        fabric = _cheapest_fabric(changed)
        if fabric is not None:
            link, nics = fabric
            yield Candidate(
                "gpus", f"{en}, nodes linked by {nics} x {link.name} each",
                f"{zh}，节点间每节点 {nics} 条 {link.name}",
                changed.replace(inter_link=link, nics_per_node=nics), 5, 3, hardware=True)


def _other_gpu(plan: Plan) -> Iterator[Candidate]:
    ranked = sorted(GPUS.values(), key=lambda g: (g.memory_bytes, g.bf16_flops_per_s or 0))
    for gpu in ranked:
        if gpu.name == plan.gpu.name or gpu.memory_bytes <= plan.gpu.memory_bytes:
            continue
        precision = plan.precision if gpu.supports(plan.precision) else (
            gpu.default_training_precision())
        yield Candidate("gpu", f"Use {plan.gpus} x {gpu.name} instead",
                        f"改用 {plan.gpus} 张 {gpu.name}",
                        plan.replace(gpu=gpu, precision=precision, intra_link=None), 6,
                        hardware=True)
