"""Deployment totals beside a memory check's per-GPU figures (what the JSON and focus read).

Examples:
    >>> from calculators.catalog.hardware import lookup_gpu
    >>> from calculators.catalog.models import lookup_model
    >>> from calculators.planner.plan import Plan
    >>> plan = Plan(task="inference", model=lookup_model("Llama-3.1-70B"),
    ...             gpu=lookup_gpu("A100"), gpus=8, pipeline_parallel=4, tensor_parallel=2)
    >>> round(one_copy(plan, 20e9) / 1e9, 1)  # one copy, whatever the heaviest stage holds
    141.1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calculators.catalog.hardware import DTYPE_BYTES
from calculators.errors import CalculatorInputError
from calculators.planner.memory import memory_breakdown

if TYPE_CHECKING:
    from assistant.records import Figure
    from calculators.planner.plan import Evaluation, Plan

__all__ = ["deployment_totals", "one_copy"]


def deployment_totals(evaluation: Evaluation, figures: dict[str, Figure]) -> dict[str, Figure]:
    """Deployment totals beside the per-GPU memory figures: `kv_cache_bytes` becomes the total
    for every concurrent sequence (`kv_cache_bytes_per_gpu` keeps the most-loaded GPU's share),
    `weights_bytes_total` is one full copy of the weights as stored (quantization scales and
    16-bit embeddings included) and, for serving, `weights_bytes_plain` the parameters × the
    bytes of the weight format (69.0B × 0.5 B = 34.5 GB beside 36.3 GB stored at int4)."""
    plan = evaluation.plan
    split = plan.tensor_parallel * plan.pipeline_parallel
    kv = figures.get("kv_cache_bytes")
    if (
        plan.task == "inference"
        and isinstance(kv, (int, float))
        and "kv_cache_bytes_per_gpu" not in figures  # the planner gives both already
    ):
        per_replica = plan.batch_per_replica or 1
        figures["kv_cache_bytes_per_gpu"] = kv
        figures["kv_cache_bytes"] = kv * split * plan.batch_size / per_replica
    weights = figures.get("weights_bytes")
    if isinstance(weights, (int, float)):
        figures["weights_bytes_total"] = one_copy(plan, weights)
        if plan.task == "inference":  # what an expert computes: parameters × bytes per weight
            dtype = plan.weight_dtype or plan.precision
            figures["weights_bytes_plain"] = plan.model.params * DTYPE_BYTES.get(dtype, 2.0)
    return figures


def one_copy(plan: Plan, weights_per_gpu: float) -> float:
    """One full copy of the weights from the most-loaded GPU's share. The share times the
    shards is the copy only on one pipeline stage: stages differ (the first holds the input
    embedding, DeepSeek-V3's first three layers are dense), so 16 H100 at PP=2 counted the
    heavier stage twice (694 GB for FP8 DeepSeek-V3's 673 GB). With pipeline stages the same
    plan on one stage gives the copy; an offloaded plan (a LoRA/QLoRA base in host RAM) the
    same plan without the offload."""
    if plan.offload:  # a frozen base offloaded under FSDP: the GPU holds only gathered layers
        try:
            weights_per_gpu = memory_breakdown(plan.replace(offload=False)).weights_bytes
        except CalculatorInputError:
            pass
        else:
            plan = plan.replace(offload=False)
    if plan.pipeline_parallel > 1:
        try:
            weights_per_gpu = memory_breakdown(plan.replace(pipeline_parallel=1)).weights_bytes
        except CalculatorInputError:
            pass  # a layout the one-stage calculator refuses: the per-stage product stands
        else:
            plan = plan.replace(pipeline_parallel=1)
    split = plan.tensor_parallel * plan.pipeline_parallel
    zero3 = plan.task != "inference" and plan.zero_stage == 3
    return weights_per_gpu * split * (plan.gpus // split if zero3 else 1)
