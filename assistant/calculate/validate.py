"""Refuse impossible values before defaults could paper over them."""

from __future__ import annotations

import math

from assistant.records import Scenario
from calculators.errors import CalculatorInputError

__all__ = ["validate"]

#: Quantities that must be positive and finite ("$-2 per GPU-hour", 1e999 parameters).
_POSITIVE = (
    "params",
    "tokens",
    "deadline_seconds",
    "price_per_gpu_hour",
    "price_per_kwh",
    "budget",
    "target_tokens_per_second",
    "target_qps",
    "target_first_token_seconds",
    "target_seconds_per_token",
    "host_ram_bytes",
)

#: The largest count (GPUs, nodes, batch, context tokens) worth evaluating; larger is a typo.
_MAX_COUNT = 10_000_000


def validate(s: Scenario) -> None:
    """Refuse impossible counts before defaults could paper over them."""
    for name in (
        "gpu_count",
        "nodes",
        "gpus_per_node",
        "tensor_parallel",
        "pipeline_parallel",
        "batch_size",
        "context_length",
    ):
        value = getattr(s, name)
        if value is not None and value < 1:
            raise CalculatorInputError(
                name, value, "must be a whole number >= 1", reason_zh="必须是大于等于 1 的整数"
            )
        if value is not None and value > _MAX_COUNT:
            raise CalculatorInputError(
                name, value, f"must be at most {_MAX_COUNT:,}", reason_zh=f"最多为 {_MAX_COUNT:,}"
            )
    for name in _POSITIVE:
        value = getattr(s, name)
        if value is not None and not 0 < value < math.inf:
            raise CalculatorInputError(
                name, value, "must be a positive finite number", reason_zh="必须为有限的正数"
            )
    if s.deadline_seconds is not None and s.deadline_seconds < 60:
        field = "deadline_seconds"
        raise CalculatorInputError(
            field,
            s.deadline_seconds,
            "must be at least one minute",
            reason_zh="至少为 1 分钟",
        )
