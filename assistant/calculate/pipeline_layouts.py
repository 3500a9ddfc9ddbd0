"""Multi-node training layouts with pipeline stages across the nodes, and the expert-parallel
degree of MoE training (`calculate.layouts` tries these beside its flat ZeRO/TP layouts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.calculate.batch_scale import data_parallel_batch
from assistant.records import Scenario
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE

if TYPE_CHECKING:
    from calculators.catalog.models import ModelSpec

__all__ = [
    "MAX_EXPERT_PARALLEL",
    "MAX_PIPELINE_STAGES",
    "expert_parallel",
    "model_of",
    "pipeline_layouts",
]


def model_of(scenario: Scenario) -> ModelSpec:
    """The scenario's model: the catalog entry, or the generic shape of its size."""
    from calculators.catalog.models import generic_model, lookup_model

    if scenario.model:
        return lookup_model(scenario.model)
    return generic_model(params=scenario.params or 1.0)


#: Most pipeline stages tried across nodes: Llama 3 405B trained with 16 (arXiv:2407.21783
#: §3.3.2, Table 4), DeepSeek-V3 with 16 (arXiv:2412.19437 §3.2), Megatron-LM's 1T-parameter
#: run with 64 at TP=8 (Narayanan et al. 2021, arXiv:2104.04473 Table 1); 32 keeps the search
#: small (each degree costs four evaluations).
MAX_PIPELINE_STAGES = 32


def pipeline_layouts(scenario: Scenario, gpus: int, node_tp: int) -> list[dict[str, object]]:
    """Multi-node training with the split left open: pipeline stages across the nodes, with
    tensor parallel inside each node (or none) and ZeRO-1 over the data-parallel rest, as
    Megatron-LM runs 3D parallelism (Narayanan et al. 2021 §3); selective or full recompute.
    The stage counts are the degrees up to MAX_PIPELINE_STAGES (and the layer count) that
    divide the GPUs left by TP, so the layout is whole; a stated stage count is the only one
    tried, with TP still open (DeepSeek-V3 ran PP=16 with no TP, ZeRO-1 over the data-parallel
    rest, arXiv:2412.19437 §3.2). A stated TP leaves no such layout. Full and LoRA/QLoRA
    fine-tuning get the same layouts (Megatron-LM/NeMo and DeepSpeed's pipeline engine
    fine-tune with pipeline stages too): each stage holds its layers of the base and 1F1B's
    in-flight activations, as in pre-training (`calculators.stage_memory`), and only
    activations cross the nodes. A fine-tuning batch is kept as stated or defaulted, never
    grown: the bubble (p - 1) / (m + p - 1) it leaves is charged to the run time."""
    per_node = scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE
    stated = scenario.pipeline_parallel
    if (
        scenario.task not in ("pretrain", "finetune")
        or gpus <= per_node
        or scenario.tensor_parallel
        or stated == 1
    ):
        return []
    model = model_of(scenario)
    out: list[dict[str, object]] = []
    for tp in sorted({node_tp, 1}, reverse=True):
        top = min(MAX_PIPELINE_STAGES, model.layers, gpus // tp)
        degrees = [stated] if stated else range(2, top + 1)
        for pp in (p for p in degrees if (gpus // tp) % p == 0):
            ep = expert_parallel(scenario, gpus // (tp * pp))
            batch = _pipeline_batch_tokens(scenario, gpus // (tp * pp), pp)
            out += [
                {
                    "zero_stage": 1,
                    "recompute": r,
                    "tensor_parallel": tp if tp > 1 else None,
                    "pipeline_parallel": pp,
                    "expert_parallel": ep,
                    "global_batch_tokens": batch,
                    "stages_across_nodes": True,
                }
                for r in ("selective", "full")
            ]
    return out


def _pipeline_batch_tokens(scenario: Scenario, data_parallel: int, pp: int) -> float | None:
    """The default batch grown so each of the data-parallel pipelines runs at least
    MIN_MICROBATCHES_PER_STAGE x p micro-batches of one sequence, as large runs grow the batch
    with the cluster (`calculators.planner.compute.pipeline_microbatches`; Llama 3 405B: 16M
    tokens, DeepSeek-V3: up to 63M); None (the scenario's) for a stated batch."""
    from calculators.defaults import PRETRAIN_BATCH_TOKENS
    from calculators.planner.compute import MIN_MICROBATCHES_PER_STAGE

    context = scenario.context_length or DEFAULT_CONTEXT_TOKENS
    default = round(PRETRAIN_BATCH_TOKENS / context)
    grown = data_parallel_batch(scenario, default)  # the default grown for the nodes
    if scenario.task != "pretrain" or scenario.batch_size not in (None, default, grown):
        return None
    sequences = max(default, MIN_MICROBATCHES_PER_STAGE * pp * data_parallel)
    return float(sequences * context)


#: Largest expert-parallel degree chosen for MoE training: DeepSeek-V3 trains with 64-way
#: expert parallelism over 8 nodes (DeepSeek-AI 2024, arXiv:2412.19437 §3.2); models with fewer
#: experts split all of them (Mixtral-8x7B: 8).
MAX_EXPERT_PARALLEL = 64


def expert_parallel(scenario: Scenario, data_parallel: int) -> int | None:
    """MoE pretraining and full fine-tuning split the experts over the data-parallel ranks,
    as deployed (Megatron-Core and DeepSpeed-MoE fine-tune Mixtral/Qwen-MoE with expert
    parallelism; the memory model shards the routed experts' weights, gradients and Adam
    states by it, `gpu_memory.training_memory`): the largest degree up to
    MAX_EXPERT_PARALLEL dividing both the experts and the data-parallel GPUs. A stated degree
    ("EP64") is the one used, in every layout (the planner refuses a layout it does not
    divide). None for dense models and LoRA/QLoRA (the frozen base is held as a whole,
    experts included)."""
    from calculators.catalog.models import lookup_model

    full_finetune = scenario.task == "finetune" and (scenario.method or "full") == "full"
    if not (scenario.task == "pretrain" or full_finetune) or not scenario.model:
        return None
    experts = lookup_model(scenario.model).experts
    if scenario.expert_parallel and experts:
        return scenario.expert_parallel
    degree = max(
        (
            e
            for e in range(1, min(experts, MAX_EXPERT_PARALLEL) + 1)
            if experts % e == 0 and data_parallel % e == 0
        ),
        default=1,
    )
    return degree if degree > 1 else None
