"""The fewest-GPU search stops at the first layout whose least possible rank is past the best
found (layouts in floor order): the same layout as ranking every layout without pruning."""

from __future__ import annotations

import pytest

from calculators import _memory_parts as parts
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.gpu_memory import USABLE_FRACTION
from calculators.layout_search import _FitSearch, min_gpus_to_fit

_CASES = (
    ("A100 80GB", "Llama-2-70B", "training", {}),
    ("H100", "Llama-3.1-405B", "training", {"recompute": "full"}),
    ("RTX 4090", "Llama-2-7B", "finetune", {"method": "full"}),
    ("RTX 4090", "Llama-2-70B", "finetune", {"method": "qlora"}),
    ("A100 80GB", "Llama-2-70B", "inference", {"batch_size": 64, "context_length": 4096}),
    ("L40S", "DeepSeek-V3", "inference", {"weight_dtype": "fp8"}),
)


def _unpruned(gpu: str, model: str, kind: str, options: dict[str, object]) -> tuple[int, ...]:
    """(GPUs, TP, PP, ZeRO) of the best layout, every layout ranked."""
    card, spec = lookup_gpu(gpu), lookup_model(model)
    search = _FitSearch(kind, spec, USABLE_FRACTION * card.memory_bytes, 100_000, options)
    ranked = []
    for tp, pp, zero in parts.fit_layouts(kind, spec, 8, options):
        d = search.data_parallel(tp, pp, zero)
        if d is not None:
            gpus = tp * pp * (1 if kind == "inference" else d)
            ranked.append(((gpus, pp, tp, zero), search.evaluate(tp, pp, zero, d).gpus))
    (_, pp, tp, zero), gpus = min(ranked)
    return gpus, tp, pp, zero


#: Every card and model of a grid, for each kind of job (near the edges: one card just enough,
#: a few cards where TP x PP groups of the same size compete, and far more).
_GRID = [
    (gpu, model, kind, options)
    for gpu in ("RTX 4090", "A100 80GB", "H200")
    for model in ("Qwen2.5-1.5B", "Llama-2-7B", "Llama-2-13B", "Qwen2.5-32B", "Llama-2-70B")
    for kind, options in (
        ("training", {}),
        ("finetune", {"method": "lora"}),
        ("inference", {"batch_size": 8, "context_length": 8192}),
    )
]


@pytest.mark.parametrize(("gpu", "model", "kind", "options"), [*_CASES, *_GRID])
def test_pruned_search_finds_the_unpruned_best(
    gpu: str, model: str, kind: str, options: dict[str, object]
) -> None:
    fit = min_gpus_to_fit(gpu=lookup_gpu(gpu), model=lookup_model(model), kind=kind, **options)
    if fit is None:
        with pytest.raises(ValueError, match="empty"):
            _unpruned(gpu, model, kind, options)  # nothing fits either way
        return
    found = (fit.gpus, fit.tensor_parallel, fit.pipeline_parallel, fit.zero_stage)
    assert found == _unpruned(gpu, model, kind, options)
