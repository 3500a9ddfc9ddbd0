"""Deterministic calculators for gpu-advisor (standard library only, SI base units).

Three layers, each importing only the ones before it:

- `catalog/`: reference data (GPUs, links, models) with a public source beside every figure;
- formula modules: `gpu_memory` (with `_memory_parts`, `memory_breakdown`, `stage_memory`
  and `serving_memory`), `compute_time` (with `mfu` and `roofline`), `collectives`, `network`,
  `serving`, `serving_layout`, `serving_load` (Little's law), `power`, and the inverse solvers
  `sizing` and `serving_solvers`;
- `planner/`: one job on one cluster, its checks, the verdict and the changes that would fix it.

Beside them: `defaults` (every value used when a question leaves one open), `validate` (input
checks), `units`, `errors`, `registry`, and `messages` (`Msg`: results that need words are
message keys with parameters, put into words by `assistant.i18n`). This package re-exports
the public calculators, loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from calculators.errors import CalculatorInputError, UnknownNameError

if TYPE_CHECKING:
    from calculators.catalog.hardware import (
        DTYPE_BYTES,
        GPU,
        GPUS,
        LINKS,
        PRECISIONS,
        Link,
        gpu_alias_index,
        link_alias_index,
        lookup_gpu,
        lookup_link,
    )
    from calculators.catalog.models import (
        MAX_PARAMS,
        MODELS,
        ModelSpec,
        generic_model,
        kv_cache_bytes_per_token,
        kv_cache_split,
        lookup_model,
        model_alias_index,
    )
    from calculators.catalog.names import normalize_name
    from calculators.compute_time import (
        CHINCHILLA_TOKENS_PER_PARAM,
        DECODE_BANDWIDTH_EFFICIENCY,
        MFU_TABLE,
        InferenceSpeed,
        MfuDefault,
        TrainingTime,
        chinchilla_tokens,
        default_mfu,
        default_mfu_basis,
        gpus_for_deadline,
        inference_speed,
        training_flops,
        training_time,
    )
    from calculators.gpu_memory import (
        USABLE_FRACTION,
        MemoryBreakdown,
        finetune_memory,
        inference_memory,
        lora_trainable_params,
        training_memory,
    )
    from calculators.layout_search import FitPlan, min_gpus_to_fit

    # CalcB: network, power, planner and registry.
    from calculators.network import (
        Fabric,
        NetworkEstimate,
        allreduce_time,
        fabric_from_links,
        step_network,
        training_step_network,
        transfer_time,
    )
    from calculators.planner import (
        CheckResult,
        Evaluation,
        Outcome,
        Plan,
        PlanChange,
        evaluate,
        suggest,
    )
    from calculators.planner.compare import GpuComparison, compare_gpus
    from calculators.power import (
        DEFAULT_PUE,
        HOST_WATTS_PER_GPU,
        EnergyEstimate,
        cost,
        energy,
        energy_cost,
    )
    from calculators.power_budget import PowerBudget, gpus_within_power
    from calculators.purchase import purchase_cost, units_bought
    from calculators.registry import (
        REGISTRY,
        Calculator,
    )
    from calculators.serving import ServingSpeed, experts_touched, serving_speed
    from calculators.serving_layout import ServingLayout, serving_dtype
    from calculators.serving_load import InFlight, in_flight, littles_law_sequences
    from calculators.serving_rate import ReplicaRate, replica_rate
    from calculators.serving_solvers import (
        Concurrency,
        max_concurrency,
        replica_batch_limit,
    )
    from calculators.serving_streams import StreamCapacity, StreamLoad, streams_within
    from calculators.serving_target import ServingTarget, gpus_for_target
    from calculators.sizing import (
        Budget,
        EnergyCost,
        LargestModel,
        budget_compute,
        budget_gpus,
        budget_hours,
        job_energy_cost,
        largest_model,
    )
    from calculators.units import (
        GB,
        TB,
        TFLOPS,
        GiB,
        format_bytes,
        format_count,
        format_flops,
        format_rate,
        format_seconds,
    )

#: Where each public name lives. The package imports them on first use (PEP 562), so a
#: caller that needs one module (the CLI's error boundary imports `calculators.errors`)
#: does not pay for loading every calculator, the catalogs and the registry (~0.1-0.3 s).
_EXPORTS: dict[str, str] = {
    "Budget": "calculators.sizing",
    "CHINCHILLA_TOKENS_PER_PARAM": "calculators.compute_time",
    "Calculator": "calculators.registry",
    "CheckResult": "calculators.planner",
    "Concurrency": "calculators.serving_solvers",
    "DECODE_BANDWIDTH_EFFICIENCY": "calculators.compute_time",
    "DEFAULT_PUE": "calculators.power",
    "DTYPE_BYTES": "calculators.catalog.hardware",
    "EnergyCost": "calculators.sizing",
    "EnergyEstimate": "calculators.power",
    "Evaluation": "calculators.planner",
    "Fabric": "calculators.network",
    "FitPlan": "calculators.gpu_memory",
    "GB": "calculators.units",
    "GPU": "calculators.catalog.hardware",
    "GPUS": "calculators.catalog.hardware",
    "GiB": "calculators.units",
    "GpuComparison": "calculators.planner.compare",
    "HOST_WATTS_PER_GPU": "calculators.power",
    "InferenceSpeed": "calculators.compute_time",
    "LINKS": "calculators.catalog.hardware",
    "LargestModel": "calculators.sizing",
    "Link": "calculators.catalog.hardware",
    "MAX_PARAMS": "calculators.catalog.models",
    "MFU_TABLE": "calculators.compute_time",
    "MODELS": "calculators.catalog.models",
    "MemoryBreakdown": "calculators.gpu_memory",
    "MfuDefault": "calculators.compute_time",
    "ModelSpec": "calculators.catalog.models",
    "NetworkEstimate": "calculators.network",
    "Outcome": "calculators.planner",
    "PRECISIONS": "calculators.catalog.hardware",
    "Plan": "calculators.planner",
    "PowerBudget": "calculators.power_budget",
    "PlanChange": "calculators.planner",
    "REGISTRY": "calculators.registry",
    "ServingLayout": "calculators.serving_layout",
    "ReplicaRate": "calculators.serving_rate",
    "ServingSpeed": "calculators.serving",
    "ServingTarget": "calculators.serving_target",
    "StreamCapacity": "calculators.serving_streams",
    "StreamLoad": "calculators.serving_streams",
    "streams_within": "calculators.serving_streams",
    "InFlight": "calculators.serving_load",
    "in_flight": "calculators.serving_load",
    "littles_law_sequences": "calculators.serving_load",
    "TB": "calculators.units",
    "TFLOPS": "calculators.units",
    "TrainingTime": "calculators.compute_time",
    "USABLE_FRACTION": "calculators.gpu_memory",
    "allreduce_time": "calculators.network",
    "budget_compute": "calculators.sizing",
    "budget_gpus": "calculators.sizing",
    "budget_hours": "calculators.sizing",
    "chinchilla_tokens": "calculators.compute_time",
    "compare_gpus": "calculators.planner.compare",
    "cost": "calculators.power",
    "purchase_cost": "calculators.purchase",
    "units_bought": "calculators.purchase",
    "default_mfu": "calculators.compute_time",
    "default_mfu_basis": "calculators.compute_time",
    "energy": "calculators.power",
    "energy_cost": "calculators.power",
    "evaluate": "calculators.planner",
    "experts_touched": "calculators.serving",
    "fabric_from_links": "calculators.network",
    "finetune_memory": "calculators.gpu_memory",
    "format_bytes": "calculators.units",
    "format_count": "calculators.units",
    "format_flops": "calculators.units",
    "format_rate": "calculators.units",
    "format_seconds": "calculators.units",
    "generic_model": "calculators.catalog.models",
    "gpu_alias_index": "calculators.catalog.hardware",
    "gpus_for_deadline": "calculators.compute_time",
    "gpus_within_power": "calculators.power_budget",
    "gpus_for_target": "calculators.serving_target",
    "inference_memory": "calculators.gpu_memory",
    "inference_speed": "calculators.compute_time",
    "job_energy_cost": "calculators.sizing",
    "kv_cache_bytes_per_token": "calculators.catalog.models",
    "kv_cache_split": "calculators.catalog.models",
    "largest_model": "calculators.sizing",
    "link_alias_index": "calculators.catalog.hardware",
    "lookup_gpu": "calculators.catalog.hardware",
    "lookup_link": "calculators.catalog.hardware",
    "lookup_model": "calculators.catalog.models",
    "lora_trainable_params": "calculators.gpu_memory",
    "max_concurrency": "calculators.serving_solvers",
    "min_gpus_to_fit": "calculators.gpu_memory",
    "model_alias_index": "calculators.catalog.models",
    "normalize_name": "calculators.catalog.names",
    "replica_batch_limit": "calculators.serving_solvers",
    "replica_rate": "calculators.serving_rate",
    "serving_dtype": "calculators.serving_layout",
    "serving_speed": "calculators.serving",
    "step_network": "calculators.network",
    "suggest": "calculators.planner",
    "training_flops": "calculators.compute_time",
    "training_memory": "calculators.gpu_memory",
    "training_step_network": "calculators.network",
    "training_time": "calculators.compute_time",
    "transfer_time": "calculators.network",
}


# `serving_layout` is not re-exported: it would shadow its module, `calculators.serving_layout`
# (the registry imports the module by that name).


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        msg = f"module 'calculators' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Budget",
    "CHINCHILLA_TOKENS_PER_PARAM",
    "Calculator",
    "CalculatorInputError",
    "CheckResult",
    "Concurrency",
    "DECODE_BANDWIDTH_EFFICIENCY",
    "DEFAULT_PUE",
    "DTYPE_BYTES",
    "EnergyCost",
    "EnergyEstimate",
    "Evaluation",
    "Fabric",
    "FitPlan",
    "GB",
    "GPU",
    "GPUS",
    "GiB",
    "GpuComparison",
    "HOST_WATTS_PER_GPU",
    "InFlight",
    "InferenceSpeed",
    "LINKS",
    "LargestModel",
    "Link",
    "MAX_PARAMS",
    "MFU_TABLE",
    "MODELS",
    "MemoryBreakdown",
    "MfuDefault",
    "ModelSpec",
    "NetworkEstimate",
    "Outcome",
    "PRECISIONS",
    "Plan",
    "PlanChange",
    "PowerBudget",
    "REGISTRY",
    "ReplicaRate",
    "ServingLayout",
    "ServingSpeed",
    "ServingTarget",
    "StreamCapacity",
    "StreamLoad",
    "TB",
    "TFLOPS",
    "TrainingTime",
    "USABLE_FRACTION",
    "UnknownNameError",
    "allreduce_time",
    "budget_compute",
    "budget_gpus",
    "budget_hours",
    "chinchilla_tokens",
    "compare_gpus",
    "cost",
    "default_mfu",
    "default_mfu_basis",
    "energy",
    "energy_cost",
    "evaluate",
    "experts_touched",
    "fabric_from_links",
    "finetune_memory",
    "format_bytes",
    "format_count",
    "format_flops",
    "format_rate",
    "format_seconds",
    "generic_model",
    "gpu_alias_index",
    "gpus_for_deadline",
    "gpus_for_target",
    "gpus_within_power",
    "in_flight",
    "inference_memory",
    "inference_speed",
    "job_energy_cost",
    "kv_cache_bytes_per_token",
    "kv_cache_split",
    "largest_model",
    "link_alias_index",
    "littles_law_sequences",
    "lookup_gpu",
    "lookup_link",
    "lookup_model",
    "lora_trainable_params",
    "max_concurrency",
    "min_gpus_to_fit",
    "model_alias_index",
    "normalize_name",
    "purchase_cost",
    "replica_batch_limit",
    "replica_rate",
    "serving_dtype",
    "serving_speed",
    "streams_within",
    "step_network",
    "suggest",
    "training_flops",
    "training_memory",
    "training_step_network",
    "training_time",
    "transfer_time",
    "units_bought",
]
