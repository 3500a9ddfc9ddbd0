"""The per-GPU memory record every memory calculator returns, and how much of a GPU's memory a
job may plan to use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from calculators.messages import Msg

__all__ = ["USABLE_FRACTION", "MemoryBreakdown", "input_pairs", "make_breakdown"]

#: Share of a GPU's datasheet memory a job may plan to use: the rest goes to the CUDA context,
#: allocator fragmentation and library workspaces (vLLM's default gpu_memory_utilization is 0.9).
USABLE_FRACTION = 0.9


@dataclass(frozen=True)
class MemoryBreakdown:
    """Bytes needed on the most-loaded GPU, by component.

    Attributes:
        kind: "training", "finetune" or "inference".
        gpus: total GPUs of the layout (t x p x d).
        offloaded_bytes: gradients and optimizer states moved to host memory by ZeRO-Offload
            (not counted in total_bytes).
        inputs: (name, value) pairs of the inputs, for display.
    """

    kind: str
    gpus: int
    weights_bytes: float
    gradients_bytes: float
    optimizer_bytes: float
    activations_bytes: float
    kv_cache_bytes: float
    overhead_bytes: float
    total_bytes: float
    offloaded_bytes: float = 0.0
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    data_parallel: int = 1
    zero_stage: int = 0
    formula: Msg | None = None
    inputs: tuple[tuple[str, str], ...] = ()
    assumptions: tuple[Msg, ...] = ()
    sources: tuple[str, ...] = ()

    @property
    def model_state_bytes(self) -> float:
        """Weights + gradients + optimizer states (what ZeRO partitions)."""
        return self.weights_bytes + self.gradients_bytes + self.optimizer_bytes

    def fits(self, *, memory_bytes: float, usable_fraction: float = USABLE_FRACTION) -> bool:
        """True when total_bytes <= usable_fraction x memory_bytes."""
        return self.total_bytes <= usable_fraction * memory_bytes


def make_breakdown(
    kind: str,
    *,
    gpus: int,
    weights_bytes: float = 0.0,
    gradients_bytes: float = 0.0,
    optimizer_bytes: float = 0.0,
    activations_bytes: float = 0.0,
    kv_cache_bytes: float = 0.0,
    overhead_bytes: float = 0.0,
    **layout: Any,
) -> MemoryBreakdown:
    total = (
        weights_bytes
        + gradients_bytes
        + optimizer_bytes
        + activations_bytes
        + kv_cache_bytes
        + overhead_bytes
    )
    return MemoryBreakdown(
        kind=kind,
        gpus=gpus,
        weights_bytes=weights_bytes,
        gradients_bytes=gradients_bytes,
        optimizer_bytes=optimizer_bytes,
        activations_bytes=activations_bytes,
        kv_cache_bytes=kv_cache_bytes,
        overhead_bytes=overhead_bytes,
        total_bytes=total,
        **layout,
    )


def input_pairs(**values: object) -> tuple[tuple[str, str], ...]:
    return tuple((key, str(value)) for key, value in values.items())
