"""Serving as deployed: the released precision where the GPU runs it, and the layout
(tensor parallel inside a node, pipeline stages across nodes, replicas with the rest).

vLLM, SGLang and TensorRT-LLM deployments keep tensor parallelism inside a node's NVLink or
PCIe domain and add pipeline stages across nodes (vLLM docs, "Distributed inference and
serving": "tensor parallel size = GPUs per node, pipeline parallel size = number of nodes";
SGLang DeepSeek-V3 docs: 2 x 8 H100 as TP=8 per node); more GPUs serve as replicas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from calculators import _memory_parts as parts
from calculators.catalog.hardware import DTYPE_BYTES, GPU
from calculators.catalog.models import ModelSpec
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE
from calculators.gpu_memory import USABLE_FRACTION, inference_memory
from calculators.messages import Msg
from calculators.validate import check_count

__all__ = [
    "NEAREST_PRECISION",
    "ServingLayout",
    "approximation_messages",
    "serving_dtype",
    "serving_layout",
    "serving_precision_message",
]

#: When a GPU lacks the released format: the nearest format it runs, in order of preference
#: (FP8 checkpoints are served in BF16 on A100-class GPUs, as SGLang's DeepSeek-V3 docs do).
NEAREST_PRECISION = {
    "fp8": ("fp8", "bf16", "fp16"),
    "bf16": ("bf16", "fp16"),
    "fp16": ("fp16", "bf16"),
    "int8": ("int8", "bf16", "fp16"),
    "int4": ("int4",),
}


def serving_dtype(*, model: ModelSpec, gpu: GPU) -> str:
    """The weight format a deployment of ``model`` on ``gpu`` uses: the released one where
    the GPU has a tensor mode for it, else the nearest one it has.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> v3 = lookup_model("DeepSeek-V3")
        >>> [serving_dtype(model=v3, gpu=lookup_gpu(name)) for name in ("H20", "A100")]
        ['fp8', 'bf16']
        >>> serving_dtype(model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("V100 32GB"))
        'fp16'
    """
    released = model.release_dtype
    for dtype in NEAREST_PRECISION.get(released, (released,)):
        if dtype == "int4" or gpu.supports(dtype):
            return dtype
    return gpu.default_training_precision()


def serving_precision_message(*, model: ModelSpec, gpu: GPU) -> Msg:
    """Why the serving precision is what it is (released, or the nearest the GPU runs)."""
    chosen = serving_dtype(model=model, gpu=gpu)
    if chosen == model.release_dtype:
        return Msg("serving.release_precision", model=model.name, dtype=chosen, gpu=gpu.name)
    return Msg(
        "serving.nearest_precision",
        model=model.name,
        dtype=model.release_dtype,
        gpu=gpu.name,
        chosen=chosen,
    )


def approximation_messages(model: ModelSpec) -> tuple[Msg, ...]:
    """What the catalog shape of ``model`` leaves out and which way its figures err, one
    message per `ModelSpec.approximations` code (none for the models it holds exactly).

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> [m.key for m in approximation_messages(lookup_model("gpt-oss-20b"))]
        ['serving.approx.mxfp4_as_int4', 'serving.approx.kv_full_attention']
        >>> approximation_messages(lookup_model("Llama-3.1-8B"))
        ()
    """
    return tuple(Msg(f"serving.approx.{code}", model=model.name) for code in model.approximations)


@dataclass(frozen=True)
class ServingLayout:
    """One replica's split and how many replicas the GPUs hold."""

    tensor_parallel: int
    pipeline_parallel: int
    replicas: int
    required_bytes_per_gpu: float
    """Most-loaded GPU of a replica at the batch and context it was sized for."""

    @property
    def gpus_per_replica(self) -> int:
        """TP x PP."""
        return self.tensor_parallel * self.pipeline_parallel

    @property
    def message(self) -> Msg:
        """The layout as a message."""
        return Msg(
            "serving.layout",
            tp=self.tensor_parallel,
            pp=self.pipeline_parallel,
            replicas=self.replicas,
        )


def _fits(model: ModelSpec, gpu: GPU, tp: int, pp: int, options: dict[str, object]) -> float | None:
    # The options are inference_memory's own keyword arguments, checked by its validation.
    kwargs: dict[str, Any] = dict(options)
    need = inference_memory(
        model=model, tensor_parallel=tp, pipeline_parallel=pp, **kwargs
    ).total_bytes
    return need if need <= USABLE_FRACTION * gpu.memory_bytes else None


def serving_layout(
    *,
    model: ModelSpec,
    gpu: GPU,
    gpus: int,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    batch_size: int = 1,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
) -> ServingLayout | None:
    """The deployment layout: the smallest TP inside a node (1, 2, 4, 8 dividing the heads)
    whose replica fits; failing that, TP = the node and the fewest pipeline stages (one per
    node) that fit; the other GPUs are replicas. None when all ``gpus`` cannot hold one replica.

    ``batch_size`` is the concurrent sequences ONE replica must hold (KV cache).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> lay = serving_layout(model=lookup_model("DeepSeek-V3"), gpu=lookup_gpu("H100"),
        ...                      gpus=32, weight_dtype="fp8", kv_dtype="fp8")
        >>> lay.tensor_parallel, lay.pipeline_parallel, lay.replicas  # SGLang: 2 x 8 H100
        (8, 2, 2)
    """
    check_count("gpus", gpus, maximum=10**7)
    check_count("gpus_per_node", gpus_per_node, maximum=1024)
    options: dict[str, object] = {
        "weight_dtype": weight_dtype,
        "kv_dtype": kv_dtype,
        "batch_size": batch_size,
        "context_length": context_length,
    }
    per_node = min(gpus, gpus_per_node)
    degrees = [
        t
        for t in parts.SEARCHED_TENSOR_PARALLEL
        if t <= per_node and per_node % t == 0 and parts.valid_tensor_parallel(model, t)
    ]
    for tp in degrees:
        need = _fits(model, gpu, tp, 1, options)
        if need is not None:
            return ServingLayout(tp, 1, gpus // tp, need)
    node_tp = degrees[-1] if degrees else 1
    stages = _fewest_stages(model, gpu, node_tp, min(model.layers, gpus // node_tp), options)
    if stages is None:
        return None
    need = _fits(model, gpu, node_tp, stages, options)
    assert need is not None  # _fewest_stages checked it
    return ServingLayout(node_tp, stages, gpus // (node_tp * stages), need)


def _fewest_stages(
    model: ModelSpec, gpu: GPU, tp: int, top: int, options: dict[str, object]
) -> int | None:
    """The fewest pipeline stages (2 .. top) whose most-loaded stage fits, without trying
    every count: a GPU holds at least weights / (TP x stages), which bounds the count from
    below; from there the count doubles until one fits, then bisects (memory only falls as
    stages are added: a stage holds ceil(layers / stages) layers)."""
    weights = model.params * DTYPE_BYTES[str(options["weight_dtype"])]
    low = max(2, math.ceil(weights / (tp * USABLE_FRACTION * gpu.memory_bytes) - 1e-9))
    step, failed = 1, low - 1
    while True:
        if low > top:
            return None
        if _fits(model, gpu, tp, low, options) is not None:
            break
        if low == top:
            return None
        failed, low, step = low, min(top, low + step), step * 2
    while low - failed > 1:  # `failed` does not fit, `low` does
        mid = (failed + low) // 2
        fits = _fits(model, gpu, tp, mid, options) is not None
        failed, low = (failed, mid) if fits else (mid, low)
    return low
