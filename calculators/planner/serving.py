"""Serving checks of a plan: the replica's speed over its real links, and its network traffic.

A serving replica is TP x PP GPUs; its tensor-parallel all-reduces run over the intra-node link
(NVLink or PCIe) or, when TP spans nodes, over the inter-node fabric; pipeline stages hand
activations over the intra-node link or across nodes (see `calculators.serving`).
"""

from __future__ import annotations

from calculators.defaults import DEFAULT_PROMPT_TOKENS
from calculators.messages import Msg
from calculators.planner.checks import NETWORK_OK_RATIO, intra_link
from calculators.planner.plan import CheckResult, CheckVerdict, Figure, Plan
from calculators.serving import ServingSpeed, serving_speed

__all__ = ["loaded_figures", "plan_serving_speed", "serving_network_check"]


def plan_serving_speed(plan: Plan) -> ServingSpeed:
    """The speed of one replica of a serving plan, holding its share of the sequences.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> s = plan_serving_speed(Plan(task="inference", model=lookup_model("Mixtral-8x7B"),
        ...     gpu=lookup_gpu("RTX 4090"), gpus=8, tensor_parallel=8))
        >>> 10 < 1 / s.decode_seconds_per_token < 100  # tens of tokens/s, not the 245 roofline
        True
    """
    return serving_speed(
        model=plan.model,
        gpu=plan.gpu,
        tensor_parallel=plan.tensor_parallel,
        pipeline_parallel=plan.pipeline_parallel,
        gpus_per_node=plan.gpus_per_node,
        intra_link=intra_link(plan),
        inter_link=plan.inter_link,
        nics_per_node=plan.nics_per_node,
        weight_dtype=plan.weight_dtype or plan.precision,
        kv_dtype=plan.cache_dtype,
        batch_size=plan.batch_per_replica,
        context_length=plan.sequence_length,
        prompt_tokens=min(plan.prompt_tokens or DEFAULT_PROMPT_TOKENS, plan.sequence_length),
        prefill_mfu=plan.mfu,
    )


def serving_network_check(plan: Plan) -> CheckResult:
    """Tensor-parallel all-reduces and pipeline hops of one decode step, against the step.

    "ok" while communication is at most 25% of the time per token, "tight" above (the replica
    is communication-bound: fewer GPUs per replica and more replicas serve more); never "fail",
    since no latency target is given here.
    """
    speed = plan_serving_speed(plan)
    comm = speed.allreduce_seconds + speed.pipeline_seconds
    share = comm / speed.decode_seconds_per_token
    verdict: CheckVerdict = "ok" if share <= NETWORK_OK_RATIO else "tight"
    if plan.tensor_parallel * plan.pipeline_parallel == 1:
        verdict = "n/a"
    multi = speed.nodes > 1
    figures: dict[str, Figure] = {
        "tp_allreduce_seconds_per_token": speed.allreduce_seconds,
        "pipeline_seconds_per_token": speed.pipeline_seconds,
        "comm_seconds_per_token": comm,
        "seconds_per_token": speed.decode_seconds_per_token,
        "comm_share_of_token_time": share,
        "allreduce_bytes_per_token": speed.allreduce_bytes_per_step,
        "inter_node_bytes_per_token": speed.inter_node_bytes_per_step if multi else None,
        "nodes_per_replica": speed.nodes,
        "tensor_parallel": plan.tensor_parallel,
        "pipeline_parallel": plan.pipeline_parallel,
    }
    inter = plan.inter_link.name if plan.inter_link else None
    return CheckResult(
        kind="network",
        verdict=verdict,
        figures=figures,
        formula=Msg("formula.serving.network", ok=NETWORK_OK_RATIO),
        inputs={
            "tensor_parallel": plan.tensor_parallel,
            "pipeline_parallel": plan.pipeline_parallel,
            "gpus_per_node": plan.gpus_per_node,
            "intra_link": intra_link(plan).name,
            "inter_link": inter,
            "batch_per_replica": plan.batch_per_replica,
        },
        assumptions=speed.assumptions,
        sources=speed.sources,
        limiting="tensor_parallel" if verdict == "tight" else None,
        flags=_flags(plan, speed),
    )


def _flags(plan: Plan, speed: ServingSpeed) -> tuple[str, ...]:
    flags: list[str] = []
    if plan.tensor_parallel > 1 and intra_link(plan).kind == "pcie":
        flags.append("tensor_parallel_over_pcie")
    if plan.tensor_parallel > plan.gpus_per_node:
        flags.append("tensor_parallel_across_nodes")
    if speed.nodes > 1:
        flags.append("multi_node_replica")
    return tuple(flags)


def loaded_figures(plan: Plan, speed: ServingSpeed) -> dict[str, Figure]:
    """A serving plan's figures at its request rate (``plan.request_rate``, over the whole
    deployment, spread evenly over the replicas), prefill sharing each replica's GPUs
    (`calculators.serving_rate`): ρ = λ x t_prefill per replica, the time between a
    sequence's tokens t_step / (1 − ρ), the first token with queueing, and the output tokens
    delivered (λ x output). Empty without a rate; past the replicas' capacity (ρ ≥ 1, or more
    requests than prefill plus decode leave GPU time for at this batch) the latency figures
    are None and ``overloaded`` is True.
    """
    from calculators.serving_rate import gpu_time_rate, queued_first_token, token_interval

    if plan.request_rate is None or plan.request_rate <= 0:
        return {}
    each = plan.request_rate / plan.replicas
    output = plan.output_tokens or max(1, plan.sequence_length - (plan.prompt_tokens or 0))
    shared = {
        "requests_per_second": each,
        "prefill_seconds": speed.first_token_seconds,
        "seconds_per_step": speed.decode_seconds_per_token,
    }
    capacity = gpu_time_rate(
        prefill_seconds=speed.first_token_seconds,
        output_tokens=output,
        seconds_per_step=speed.decode_seconds_per_token,
        batch_size=plan.batch_per_replica,
    )
    over = each > capacity * (1 + 1e-9)
    return {
        "request_rate": plan.request_rate,
        "requests_per_second_capacity": capacity * plan.replicas,
        "prefill_share": each * speed.first_token_seconds,
        "loaded_seconds_per_token": None if over else token_interval(**shared),
        "loaded_first_token_seconds": None if over else queued_first_token(**shared),
        "delivered_tokens_per_s": None if over else plan.request_rate * output,
        "overloaded": over,
    }
