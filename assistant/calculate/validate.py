"""Refuse impossible values before defaults could paper over them."""

from __future__ import annotations

import math

from assistant.records import Scenario
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = ["validate", "validate_hours_per_day"]

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
        "prompt_tokens",
        "output_tokens",
    ):
        value = getattr(s, name)
        if value is not None and (value < 1 or not float(value).is_integer()):
            raise CalculatorInputError(name, value, Msg("invalid.whole_at_least_1"))
        if value is not None and value > _MAX_COUNT:
            reason = Msg("invalid.at_most", maximum=f"{_MAX_COUNT:,}")
            raise CalculatorInputError(name, value, reason)
    for name in _POSITIVE:
        value = getattr(s, name)
        if value is not None and not 0 < value < math.inf:
            raise CalculatorInputError(name, value, Msg("invalid.positive_finite"))
    validate_hours_per_day(s)
    # "in 1e-19 days" is no deadline but a typo; "1秒内训练完GPT-3" is an absurd one, answered
    if s.deadline_seconds is not None and s.deadline_seconds < 1.0:
        field = "deadline_seconds"
        raise CalculatorInputError(field, s.deadline_seconds, Msg("invalid.deadline_second"))


def validate_hours_per_day(s: Scenario) -> None:
    """Refuse hours of use a day outside 0 < h ≤ 24 ("每天用30小时", "一天用0小时"): checked
    before a rent-or-buy answer too, which never reaches the job's validation."""
    hours = s.hours_per_day
    if hours is not None and not 0 < hours <= 24:
        field = "hours_per_day"
        raise CalculatorInputError(field, hours, Msg("invalid.hours_per_day"))
