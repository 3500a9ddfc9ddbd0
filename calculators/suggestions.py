"""Candidate changes for a failing plan (the planner verifies each before offering it).

Bounded search: at most a few dozen candidates, each one evaluation. Rank (lower first):
1 one configuration change, 2 several at once, 3 a longer deadline, 4 a faster inter-node
fabric, 5 more GPUs of the same type, 6 another catalog GPU. Within a rank, ``size`` orders
by how big the change is: a lossless layout change (ZeRO, tensor parallel) before one that
costs speed (recompute, offload) before one that changes the model (8-bit, LoRA, then 4-bit,
QLoRA); for more GPUs or a longer deadline, the factor of the change.

A longer deadline is only suggested up to MAX_DEADLINE_DAYS (two years): past that the run
is a research programme, not a schedule, and `deadline_remark` says so instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from calculators._memory_parts import valid_tensor_parallel
from calculators.hardware import GPUS, LINKS, Link
from calculators.plan import DAY, CheckKind, CheckResult, Plan, Remark
from calculators.plan_checks import network_check
from calculators.plan_compute import compute_facts, gpus_needed_for_deadline
from calculators.plan_memory import min_fit_with, recompute_options, trainable_params

__all__ = ["MAX_DEADLINE_DAYS", "Candidate", "candidates", "deadline_remark"]

#: Longest deadline the planner suggests (two years); beyond it the deadline route is impractical.
MAX_DEADLINE_DAYS = 730


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
    size: float = 0.0
    """How big the change is within its rank (see the module docstring); smaller first."""


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
                lead = split.description_en
                en = f"{q.description_en}, and {lead[:1].lower()}{lead[1:]}"
                zh = f"{q.description_zh}，并{split.description_zh}"
                new = split.plan.replace(weight_dtype=q.plan.weight_dtype)
                yield Candidate("combined", en, zh, new, 2, 2, size=q.size)
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
                        plan.replace(recompute="full"), 1, size=0.5)
    if not plan.offload:
        yield Candidate("offload", "Offload gradients and optimizer states to CPU memory "
                        "(ZeRO-Offload)", "把梯度和优化器状态卸载到 CPU 内存（ZeRO-Offload）",
                        plan.replace(offload=True), 1, size=0.5)
    yield from _combined(plan)


def _tensor_parallel(plan: Plan) -> Iterator[Candidate]:
    for tp in range(plan.tensor_parallel + 1, min(plan.gpus, plan.gpus_per_node) + 1):
        if plan.gpus_per_node % tp or plan.gpus % (tp * plan.pipeline_parallel):
            continue
        if not valid_tensor_parallel(plan.model, tp):
            continue
        yield Candidate(
            "tensor_parallel",
            f"Split each layer over {tp} GPUs of a node (tensor parallel = {tp})",
            f"在节点内用 {tp} 张 GPU 做张量并行（TP = {tp}）", plan.replace(tensor_parallel=tp), 1)


def _combined(plan: Plan) -> Iterator[Candidate]:
    tp = max((t for t in range(1, min(plan.gpus, plan.gpus_per_node) + 1)
              if plan.gpus_per_node % t == 0 and plan.gpus % (t * plan.pipeline_parallel) == 0
              and valid_tensor_parallel(plan.model, t)), default=1)
    changed = plan.replace(zero_stage=3, tensor_parallel=max(tp, plan.tensor_parallel),
                           recompute="full")
    if changed.tensor_parallel > 1:
        yield Candidate("combined", f"ZeRO-3 + tensor parallel {changed.tensor_parallel} + full "
                        "recompute", f"ZeRO-3 + 张量并行 {changed.tensor_parallel} + 完全重算",
                        changed, 2, 3)
    yield Candidate("combined", "ZeRO-3 + full recompute + ZeRO-Offload to CPU",
                    "ZeRO-3 + 完全重算 + ZeRO-Offload 卸载到 CPU",
                    changed.replace(offload=True), 2, 4)


def _methods(plan: Plan) -> Iterator[Candidate]:
    """Full -> LoRA -> QLoRA, each as a small change (rank 1): alone, with gradient
    checkpointing (part of the QLoRA recipe, Dettmers et al. 2023 arXiv:2305.14314 §4, and
    the PEFT default) when the plan does not recompute yet, and with ZeRO-3/FSDP sharding of
    the frozen base (rank 2)."""
    order = ("lora", "qlora")
    start = 0 if plan.effective_method == "full" else order.index(plan.effective_method) + 1
    for method in order[start:]:
        label = "LoRA (16-bit frozen base)" if method == "lora" else "QLoRA (4-bit NF4 base)"
        label_zh = "LoRA（冻结 16 位底座）" if method == "lora" else "QLoRA（4 位 NF4 底座）"
        size = 1.0 if method == "lora" else 2.0
        yield Candidate(method, f"Fine-tune with {label} instead", f"改用 {label_zh} 微调",
                        plan.replace(method=method), 1, size=size)
        if plan.recompute != "full":
            yield Candidate(
                method, f"Fine-tune with {label} and gradient checkpointing instead",
                f"改用 {label_zh} 并开启梯度检查点（完全重算）微调",
                plan.replace(method=method, recompute="full"), 1, 2, size=size + 0.25)
        yield Candidate(method, f"{label} with ZeRO-3/FSDP sharding of the base",
                        f"{label_zh} 并用 ZeRO-3/FSDP 切分底座",
                        plan.replace(method=method, zero_stage=3, recompute="full"), 2, 3,
                        size=size)


def _quantize(plan: Plan) -> Iterator[Candidate]:
    current = plan.weight_dtype or plan.precision
    for dtype, label in (("int8", "8-bit"), ("int4", "4-bit")):
        if current in ("int8", "int4") and dtype == "int8" or current == dtype:
            continue
        yield Candidate("quantization", f"Quantize weights to {dtype} ({label})",
                        f"把权重量化为 {dtype}（{label}）", plan.replace(weight_dtype=dtype), 1,
                        size=1.0 if dtype == "int8" else 2.0)


def _days_needed(plan: Plan) -> int | None:
    seconds = compute_facts(plan).seconds
    return None if seconds is None else math.ceil(seconds / DAY)


def _deadline(plan: Plan) -> Iterator[Candidate]:
    days = _days_needed(plan)
    if days is None or days > MAX_DEADLINE_DAYS:
        return
    yield Candidate("deadline", f"Allow {days:,} days instead of {plan.deadline_seconds / DAY:g}",
                    f"把期限放宽到 {days:,} 天（原为 {plan.deadline_seconds / DAY:g} 天）",
                    plan.replace(deadline_seconds=days * DAY), 3,
                    size=days * DAY / plan.deadline_seconds)


def deadline_remark(plan: Plan) -> Remark | None:
    """Why no longer deadline is suggested, when the run would need more than two years.

    Examples:
        >>> from calculators.hardware import lookup_gpu
        >>> from calculators.models import generic_model
        >>> plan = Plan(task="pretrain", model=generic_model(params=100e9),
        ...             gpu=lookup_gpu("A100 80GB PCIe"), gpus=8)
        >>> deadline_remark(plan).en[:60]
        'A longer deadline is impractical: this run needs about 54 ye'
    """
    days = _days_needed(plan)
    if days is None or days <= MAX_DEADLINE_DAYS:
        return None
    years = days / 365.25
    return Remark(
        en=(f"A longer deadline is impractical: this run needs about {years:,.0f} years "
            f"({days:,} days) on {plan.gpus:,} x {plan.gpu.name}, beyond the two-year "
            f"bound ({MAX_DEADLINE_DAYS} days) within which the planner suggests one."),
        zh=(f"放宽期限不现实：在 {plan.gpus:,} 张 {plan.gpu.name} 上需要约 {years:,.0f} 年"
            f"（{days:,} 天），超过规划器建议期限的两年上限（{MAX_DEADLINE_DAYS} 天）。"),
    )


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
    """The plan with the smallest fitting layout, and how many GPUs the job needs.

    Full recomputation is tried too (it shrinks activations but costs 33% more compute, so
    the deadline may then need more GPUs): the option needing fewer GPUs overall wins.
    """
    if "memory" not in failing:
        return plan, gpus_needed_for_deadline(plan) or 0
    best: tuple[Plan, int] | None = None
    for recompute in recompute_options(plan):
        fit = min_fit_with(plan, recompute)
        if fit is None:
            continue
        laid_out = plan.replace(tensor_parallel=fit.tensor_parallel,
                                pipeline_parallel=fit.pipeline_parallel,
                                zero_stage=fit.zero_stage, recompute=recompute)
        need = max(fit.gpus, gpus_needed_for_deadline(laid_out) or 0)
        if best is None or need < best[1]:
            best = (laid_out, need)
    return best if best is not None else (plan, gpus_needed_for_deadline(plan) or 0)


def _layout_text(plan: Plan) -> str:
    text = f"TP={plan.tensor_parallel}, PP={plan.pipeline_parallel}"
    if plan.task == "inference":
        return text
    text = f"{text}, ZeRO-{plan.zero_stage}"
    return f"{text}, full recompute" if plan.recompute == "full" else text


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
    factor = changed.gpus / plan.gpus
    # Serving has no gradient traffic (the network check is n/a): more nodes need no fabric.
    if changed.nodes == 1 or changed.inter_link is not None or plan.task == "inference":
        yield Candidate("gpus", en, zh, changed, 5, 2, hardware=True, size=factor)
    if changed.nodes > 1 and plan.task != "inference":
        fabric = _cheapest_fabric(changed)
        if fabric is not None:
            link, nics = fabric
            yield Candidate(
                "gpus", f"{en}, nodes linked by {nics} x {link.name} each",
                f"{zh}，节点间每节点 {nics} 条 {link.name}",
                changed.replace(inter_link=link, nics_per_node=nics), 5, 3, hardware=True,
                size=factor)


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
