"""Input checks on a Plan: every bad value raises CalculatorInputError naming its field."""

from __future__ import annotations

import math

from calculators._memory_parts import valid_tensor_parallel, valid_tensor_parallel_degrees
from calculators.messages import Msg
from calculators.planner.plan import Plan
from calculators.validate import check_choice, check_count, check_fraction, check_positive, fail

__all__ = ["MAX_GPUS", "MAX_TOKENS", "validate_plan"]

#: Largest cluster the planner accepts (ten million GPUs).
MAX_GPUS = 10**7
#: Largest token budget accepted (1e16 tokens, ~1000x the largest public runs).
MAX_TOKENS = 1e16


def validate_plan(plan: Plan) -> None:
    """Raise CalculatorInputError for the first out-of-range field of `plan`.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> from calculators.errors import CalculatorInputError
        >>> try:
        ...     validate_plan(Plan(task="pretrain", model=lookup_model("Llama-2-7B"),
        ...                        gpu=lookup_gpu("H100"), gpus=0))
        ... except CalculatorInputError as bad:  # the reason: a key the catalog words
        ...     bad.field, bad.value, bad.reason
        ('gpus', 0, Msg('invalid.at_least', minimum=1))
    """
    check_choice("task", plan.task, ("pretrain", "finetune", "inference"))
    check_count("gpus", plan.gpus, maximum=MAX_GPUS)
    check_count("gpus_per_node", plan.gpus_per_node, maximum=1024)
    check_count("nics_per_node", plan.nics_per_node, maximum=64)
    check_count("tensor_parallel", plan.tensor_parallel, maximum=plan.model.heads)
    check_count("pipeline_parallel", plan.pipeline_parallel, maximum=plan.model.layers)
    check_count("zero_stage", plan.zero_stage, minimum=0, maximum=3)
    check_count("micro_batch_size", plan.micro_batch_size, maximum=10**6)
    check_count("sequence_length", plan.sequence_length, maximum=10**8)
    check_count("batch_size", plan.batch_size, maximum=10**7)
    if plan.pp_microbatches is not None:
        check_count("pp_microbatches", plan.pp_microbatches, maximum=10**6)
    check_count("expert_parallel", plan.expert_parallel, maximum=max(1, plan.model.experts))
    _check_layout(plan)
    _check_amounts(plan)
    if plan.method is not None:
        check_choice("method", plan.method, ("full", "lora", "qlora"))
    if plan.recompute is not None:
        check_choice("recompute", plan.recompute, ("none", "selective", "full"))
    plan.gpu.dense_flops_per_s(plan.precision)  # raises when the GPU has no such mode


def _check_layout(plan: Plan) -> None:
    model = plan.model
    if not valid_tensor_parallel(model, plan.tensor_parallel):
        fail(
            "tensor_parallel",
            plan.tensor_parallel,
            Msg(
                "invalid.tensor_parallel_heads",
                model=model.name,
                heads=model.heads,
                kv_heads=model.kv_heads,
                degrees=tuple(valid_tensor_parallel_degrees(model)),
            ),
        )
    model_parallel = plan.tensor_parallel * plan.pipeline_parallel
    if plan.gpus % model_parallel:
        fail(
            "gpus",
            plan.gpus,
            Msg("invalid.tp_pp_multiple", product=model_parallel),
        )
    data_parallel = plan.gpus // model_parallel
    if plan.expert_parallel > 1 and (
        data_parallel % plan.expert_parallel or plan.model.experts % plan.expert_parallel
    ):
        fail(
            "expert_parallel",
            plan.expert_parallel,
            Msg("invalid.expert_divides", data_parallel=data_parallel, experts=plan.model.experts),
        )


def _check_amounts(plan: Plan) -> None:
    if not (plan.deadline_seconds > 0 and math.isfinite(plan.deadline_seconds)):
        fail("deadline", plan.deadline_seconds, Msg("invalid.deadline_days"))
    if plan.tokens is not None:
        check_positive("tokens", plan.tokens, maximum=MAX_TOKENS)
    if plan.global_batch_tokens is not None:
        check_positive("global_batch_tokens", plan.global_batch_tokens, maximum=1e10)
    if plan.mfu is not None:
        check_fraction("mfu", plan.mfu)
    if plan.host_ram_bytes is not None:
        check_positive("host_ram_bytes", plan.host_ram_bytes, maximum=1e15)
    if plan.price_per_gpu_hour is not None:
        check_positive("price_per_gpu_hour", plan.price_per_gpu_hour, maximum=1e6)
    if plan.pue is not None and not 1.0 <= plan.pue <= 5.0:
        fail("pue", plan.pue, Msg("invalid.pue"))
