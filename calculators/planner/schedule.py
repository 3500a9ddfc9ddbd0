"""Pipeline schedules of a training plan: Megatron's 1F1B, or DeepSeek's DualPipe.

DualPipe (DeepSeek-AI 2024, DeepSeek-V3, arXiv:2412.19437 §3.2.1, Table 2) feeds micro-batches
from both ends of the pipeline and pairs a forward chunk with a backward chunk, so the expert
all-to-all and the pipeline sends of one run while the other computes ("full overlap of forward
and backward computation-communication phases"). Its bubble is (PP/2 − 1)(F&B + B − 3W) chunk
times against 1F1B's (PP − 1)(F + B), with F the forward, B the backward for inputs and W the
backward for weights of one micro-batch on one stage, and F&B a paired chunk (its compute is
F + B: only communication hides). It needs an even number of stages and at least two
micro-batches per stage (`DUALPIPE_MICROBATCHES_PER_STAGE`).
"""

from __future__ import annotations

from calculators.planner.checks import batch_tokens
from calculators.planner.plan import Plan
from calculators.validate import check_count

__all__ = [
    "DUALPIPE_MICROBATCHES_PER_STAGE",
    "MIN_MICROBATCHES_PER_STAGE",
    "dualpipe_bubble_fraction",
    "pipeline_microbatches",
    "uses_dualpipe",
]

#: Chunk times of one micro-batch on one stage, in units of its forward: the backward splits
#: evenly into input and weight gradients (T_F ≈ T_B ≈ T_W, as Qi et al. 2023, Zero Bubble
#: Pipeline Parallelism, arXiv:2401.10241 §2, take them); full recompute adds a forward to B.
_FORWARD, _BACKWARD_INPUT, _BACKWARD_WEIGHT = 1.0, 1.0, 1.0


#: Smallest default micro-batch count per pipeline stage: m >= 4p keeps the 1F1B bubble
#: (p-1)/(m+p-1) under 20%. Large runs grow the global batch with the cluster to get there
#: (Llama 3 trained 405B with 16M-token batches on 16K GPUs, arXiv:2407.21783 §3.4.1;
#: Narayanan et al. 2021, arXiv:2104.04473 §3.3, want m >> p).
MIN_MICROBATCHES_PER_STAGE = 4


def pipeline_microbatches(plan: Plan) -> int:
    """Micro-batches per 1F1B pipeline step: the plan's; else global batch sequences /
    (data-parallel degree x micro-batch size), and, when the global batch is the default, at
    least MIN_MICROBATCHES_PER_STAGE x p (the batch grows with the cluster)."""
    if plan.pp_microbatches:
        return plan.pp_microbatches
    data_parallel = max(1, plan.gpus // (plan.tensor_parallel * plan.pipeline_parallel))
    sequences = batch_tokens(plan) / plan.sequence_length
    derived = max(1, round(sequences / (data_parallel * plan.micro_batch_size)))
    if plan.global_batch_tokens or plan.pipeline_parallel == 1:
        return derived
    return max(derived, MIN_MICROBATCHES_PER_STAGE * plan.pipeline_parallel)


#: DualPipe runs at least two micro-batches per stage: DeepSeek's implementation asserts
#: ``num_chunks >= num_ranks * 2`` (and both even) before a step (deepseek-ai/DualPipe,
#: dualpipe/dualpipe.py, ``DualPipe.step``): half of them enter from each end, and Table 2's
#: bubble is that of a pipeline filled from both ends. Fewer micro-batches run 1F1B.
DUALPIPE_MICROBATCHES_PER_STAGE = 2


def uses_dualpipe(plan: Plan) -> bool:
    """True for a training plan of a model whose published run used DualPipe, with an even
    number (>= 2) of pipeline stages and at least DUALPIPE_MICROBATCHES_PER_STAGE x p
    micro-batches per step: the schedule the planner then assumes."""
    p = plan.pipeline_parallel
    return (
        plan.task != "inference"
        and plan.model.pipeline_schedule == "dualpipe"
        and p >= 2
        and p % 2 == 0
        and pipeline_microbatches(plan) >= DUALPIPE_MICROBATCHES_PER_STAGE * p
    )


def dualpipe_bubble_fraction(
    *, pipeline_parallel: int, micro_batches: int, full_recompute: bool = False
) -> float:
    """Idle share of a DualPipe step: bubble / (m (F + B + W) + bubble), with the bubble
    (p/2 − 1)(F&B + B − 3W) of DeepSeek-V3 Table 2 and F&B = F + B.

    Examples:
        >>> dualpipe_bubble_fraction(pipeline_parallel=16, micro_batches=64)  # F = B = W
        0.0
        >>> round(dualpipe_bubble_fraction(pipeline_parallel=16, micro_batches=64,
        ...                                full_recompute=True), 4)  # B = 2F: 14 / (256 + 14)
        0.0519
    """
    p = check_count("pipeline_parallel", pipeline_parallel, maximum=10**6)
    m = check_count("micro_batches", micro_batches, maximum=10**9)
    backward = _BACKWARD_INPUT + (_FORWARD if full_recompute else 0.0)
    paired = _FORWARD + backward
    bubble = max(0.0, (p / 2 - 1) * (paired + backward - 3 * _BACKWARD_WEIGHT))
    return bubble / (m * (_FORWARD + backward + _BACKWARD_WEIGHT) + bubble)
