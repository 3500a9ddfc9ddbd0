"""The fewest GPUs whose most-loaded one fits a job, and how to shard them: the inverse of
`calculators.gpu_memory`, searched over tensor/pipeline/ZeRO layouts with the data-parallel
degree in closed form (see `_FitSearch`), never by trying every GPU count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from calculators import _memory_parts as parts
from calculators.catalog.hardware import GPU
from calculators.catalog.models import ModelSpec
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.errors import CalculatorInputError
from calculators.gpu_memory import (
    USABLE_FRACTION,
    MemoryBreakdown,
    finetune_memory,
    inference_memory,
    training_memory,
)
from calculators.messages import Msg
from calculators.stage_memory import AdapterStage, adapter_stages, stage_totals
from calculators.validate import check_choice, check_count, check_fraction

__all__ = ["FitPlan", "min_gpus_to_fit"]


@dataclass(frozen=True)
class FitPlan:
    """The smallest layout of ``gpus`` GPUs whose most-loaded GPU fits its usable memory."""

    kind: str
    gpu: str
    gpus: int
    tensor_parallel: int
    pipeline_parallel: int
    data_parallel: int
    zero_stage: int
    usable_bytes_per_gpu: float
    breakdown: MemoryBreakdown
    assumptions: tuple[Msg, ...] = ()
    recompute: str | None = None
    """Activation recomputation of the layout (None: not searched, the caller's own)."""


_MEMORY_FUNCTIONS = {
    "training": training_memory,
    "finetune": finetune_memory,
    "inference": inference_memory,
}


def min_gpus_to_fit(
    *,
    gpu: GPU,
    model: ModelSpec,
    kind: str = "training",
    usable_fraction: float = USABLE_FRACTION,
    max_gpus: int = 100_000,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    **options: Any,
) -> FitPlan | None:
    """Fewest GPUs of type ``gpu`` (and how to shard) so the most-loaded one fits; None if none.

    ``kind`` picks training_memory, finetune_memory or inference_memory; ``options`` go to it.
    Layout options you pass (tensor_parallel, pipeline_parallel, zero_stage) are kept fixed;
    the others are searched: tensor parallel within a node (degrees that divide gpus_per_node
    and split the attention heads, see _memory_parts.valid_tensor_parallel; also for
    fine-tuning), pipeline depths that split the layers, not only powers of two
    (`_memory_parts.pipeline_degrees`; also for fine-tuning, whose stages hold their layers of
    the base as a pre-training stage does), ZeRO stages 0-3, and the data-parallel degree.
    Ties go to fewer pipeline stages, then less tensor parallelism, then the lower ZeRO stage.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> plan = min_gpus_to_fit(gpu=lookup_gpu("A100 80GB"), model=lookup_model("llama2-70b"),
        ...                        kind="inference")
        >>> plan.gpus, plan.tensor_parallel  # 69 GB of weights per GPU + cache < 72 GB usable
        (2, 2)
    """
    kind = check_choice("kind", kind, _MEMORY_FUNCTIONS)
    check_fraction("usable_fraction", usable_fraction)
    check_count("max_gpus", max_gpus, maximum=10**7)
    check_count("gpus_per_node", gpus_per_node, maximum=1024)
    if "gpus" in options:
        reason = Msg("invalid.computed_by_search")
        field = "gpus"
        raise CalculatorInputError(field, options["gpus"], reason)
    budget = usable_fraction * gpu.memory_bytes
    search = _FitSearch(kind, model, budget, max_gpus, options)
    best: tuple[int, int, int, int] | None = None  # (GPUs, p, t, ZeRO): fewest first
    best_d = 1
    layouts = parts.fit_layouts(kind, model, gpus_per_node, options)
    if layouts:  # validate the options once (the closed form skips the checks)
        search.evaluate(*layouts[0], int(options.get("expert_parallel", 1)))
    # Layouts in the order of the least rank each can reach (d = 1): once that floor is past
    # the best found, no later layout can beat it. Ranks of distinct layouts differ (they end
    # in p, t, ZeRO), so the best is the same in any order; this one finds it soonest.
    for tp, pp, zero in sorted(layouts, key=lambda layout: _rank_floor(*layout)):
        if best is not None and _rank_floor(tp, pp, zero) > best:
            break  # even d = 1 cannot beat the best layout found, nor can any later one
        d = search.data_parallel(tp, pp, zero)
        if d is None:
            continue
        rank = (tp * pp * (1 if kind == "inference" else d), pp, tp, zero)
        if best is None or rank < best:
            best, best_d = rank, d
    if best is None:
        return None
    _, pp, tp, zero = best
    found = search.evaluate(tp, pp, zero, best_d)
    return FitPlan(
        kind=kind,
        gpu=gpu.name,
        gpus=found.gpus,
        tensor_parallel=tp,
        pipeline_parallel=pp,
        data_parallel=found.data_parallel,
        zero_stage=zero,
        usable_bytes_per_gpu=budget,
        breakdown=found,
        assumptions=(
            Msg(
                "assume.memory.usable_per_gpu",
                fraction=usable_fraction,
                capacity=gpu.memory_bytes,
            ),
        ),
    )


def _rank_floor(tp: int, pp: int, zero: int) -> tuple[int, int, int, int]:
    return tp * pp, pp, tp, zero


class _FitSearch:
    """The smallest data-parallel degree d of one (t, p, ZeRO) layout, in closed form.

    ZeRO divides only the weights, gradients and optimizer states by d (Rajbhandari et al.
    2020, arXiv:1910.02054 §5); activations, logits and workspaces do not depend on d. So each
    pipeline stage needs fixed + sharded / d bytes, and the smallest d that fits is
    d_min = max over stages of ceil(sharded / (budget − fixed)), none when fixed ≥ budget.
    fixed and sharded come from two evaluations of each stage, at d = 1 and d = 2.
    """

    def __init__(
        self, kind: str, model: ModelSpec, budget: float, max_gpus: int, options: dict[str, Any]
    ) -> None:
        self.kind, self.model, self.budget, self.max_gpus = kind, model, budget, max_gpus
        self.options = {
            k: v
            for k, v in options.items()
            if k not in {"tensor_parallel", "pipeline_parallel", "zero_stage"}
        }

    def evaluate(self, tp: int, pp: int, zero: int, d: int) -> MemoryBreakdown:
        if self.kind == "inference":
            return inference_memory(
                model=self.model, tensor_parallel=tp, pipeline_parallel=pp, **self.options
            )
        if self.kind == "finetune":
            return finetune_memory(
                model=self.model,
                gpus=tp * pp * d,
                zero_stage=zero,
                tensor_parallel=tp,
                pipeline_parallel=pp,
                **self.options,
            )
        return training_memory(
            model=self.model,
            gpus=tp * pp * d,
            zero_stage=zero,
            tensor_parallel=tp,
            pipeline_parallel=pp,
            **self.options,
        )

    def _stage_totals(self, tp: int, pp: int, zero: int, d: int) -> list[float]:
        """Bytes of each distinct pipeline stage's GPU (serving: of the most-loaded one)."""
        if self.kind == "inference":
            return [self.evaluate(tp, pp, zero, d).total_bytes]
        if self.kind == "finetune" and self.options.get("method", "lora") != "full":
            return [b.total_bytes for b in self._adapter_stages(tp, pp, zero, d)]
        # pre-training, and full fine-tuning (the same states; its recompute defaults to full)
        opts = {
            "micro_batch_size": 1,
            "sequence_length": 2048,
            "precision": "bf16",
            "optimizer": "adam",
            "recompute": "full" if self.kind == "finetune" else "selective",
            "flash_attention": True,
            **{k: v for k, v in self.options.items() if k != "method"},
        }
        offload = bool(opts.pop("offload_optimizer", False))
        return stage_totals(
            offload,
            model=self.model,
            d=d,
            zero=zero,
            tensor_parallel=tp,
            pipeline_parallel=pp,
            **opts,
        )

    def _adapter_stages(self, tp: int, pp: int, zero: int, d: int) -> list[AdapterStage]:
        """The LoRA/QLoRA stages, with finetune_memory's defaults for what was not given."""
        opts = {
            "lora_rank": 16,
            "micro_batch_size": 1,
            "sequence_length": 2048,
            "precision": "bf16",
            "optimizer": "adam",
            "recompute": "full",
            "flash_attention": True,
            **self.options,
        }
        offload = bool(opts.pop("offload_optimizer", False))
        return adapter_stages(
            model=self.model,
            d=d,
            zero=zero,
            tensor_parallel=tp,
            pipeline_parallel=pp,
            offload=offload,
            **opts,
        )

    def d_min(self, tp: int, pp: int, zero: int) -> int | None:
        """max over stages of ceil(sharded / (budget − fixed)); None when fixed ≥ budget."""
        need = 1
        for one, two in zip(
            self._stage_totals(tp, pp, zero, 1), self._stage_totals(tp, pp, zero, 2), strict=True
        ):
            sharded = 2.0 * (one - two)  # S(d) = fixed + sharded / d
            fixed = one - sharded
            if one <= self.budget:
                continue
            if fixed >= self.budget:
                return None
            need = max(need, math.ceil(sharded / (self.budget - fixed) * (1 - 1e-12)))
        return need

    def _capped(self, zero: int) -> bool:
        return (
            self.kind == "finetune"
            and zero == 3
            and self.options.get("method") != "full"
            and bool(self.options.get("offload_optimizer"))
        )

    def smallest(self, tp: int, pp: int, zero: int) -> MemoryBreakdown | None:
        """The memory of the layout at its smallest data-parallel degree; None: no fit."""
        d = self.data_parallel(tp, pp, zero)
        return None if d is None else self.evaluate(tp, pp, zero, d)

    def _fits(self, tp: int, pp: int, zero: int, d: int) -> bool:
        return max(self._stage_totals(tp, pp, zero, d)) <= self.budget

    def data_parallel(self, tp: int, pp: int, zero: int) -> int | None:
        """The smallest data-parallel degree at which the layout fits; None: none does."""
        if tp * pp > self.max_gpus:
            return None
        # Only ZeRO shards over data parallelism; inference replicas do not share memory.
        # Expert parallelism needs at least e data-parallel ranks, in multiples of e.
        ep = int(self.options.get("expert_parallel", 1))
        if self.kind == "inference" or zero == 0:
            return ep if self._fits(tp, pp, zero, ep) else None
        top = self.max_gpus // (tp * pp)
        if self._capped(zero):
            # Not of the form fixed + sharded / d: LoRA with ZeRO-3 and CPU offload caps the
            # gathered base at two layers (parts.frozen_base_on_gpu). Bisect that one case.
            return parts.smallest_passing(lambda n: self._fits(tp, pp, zero, n), top)
        d = self.d_min(tp, pp, zero)
        if d is None:
            return None
        d = -(-d // ep) * ep
        if d > top:
            return None
        for n in range(d, min(d + ep, top) + 1, ep):  # d + e only if rounding left d short
            if self._fits(tp, pp, zero, n):
                return n
        return None
