"""The closed-form layout search agrees with the bisection it replaced, layout by layout.

The old search bisected the data-parallel degree d of every (t, p, ZeRO) layout, evaluating the
memory ~17 times per layout. The closed form (ZeRO divides only the model states by d,
arXiv:1910.02054 §5) reads fixed and sharded bytes off two evaluations. The bisection is kept
here as the reference.
"""

from __future__ import annotations

import pytest

from calculators import _memory_parts as parts
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import MODELS
from calculators.gpu_memory import USABLE_FRACTION
from calculators.layout_search import _FitSearch

_GPUS = ("A100 80GB", "RTX 4090")  # 1,000+ layouts in all
_JOBS = (
    ("training", {}),
    ("training", {"recompute": "full", "offload_optimizer": True, "sequence_length": 8192}),
    ("finetune", {"method": "full"}),
    ("finetune", {"method": "lora", "zero_stage": 3}),
    # the one non-affine case: the gathered base is capped at two layers (bisected)
    ("finetune", {"method": "qlora", "zero_stage": 3, "offload_optimizer": True}),
)


def _bisected(search: _FitSearch, tp: int, pp: int, zero: int) -> int | None:
    top = 1 if zero == 0 else search.max_gpus // (tp * pp)
    return parts.smallest_passing(
        lambda n: search.evaluate(tp, pp, zero, n).total_bytes <= search.budget, top
    )


@pytest.mark.parametrize("gpu_name", _GPUS)
@pytest.mark.parametrize(("kind", "options"), _JOBS)
def test_closed_form_matches_bisection(
    gpu_name: str, kind: str, options: dict[str, object]
) -> None:
    gpu = lookup_gpu(gpu_name)
    compared = 0
    for model in MODELS.values():
        search = _FitSearch(kind, model, USABLE_FRACTION * gpu.memory_bytes, 100_000, options)
        for tp, pp, zero in parts.fit_layouts(kind, model, 8, options):
            found = search.smallest(tp, pp, zero)
            expected = _bisected(search, tp, pp, zero)
            assert (found.data_parallel if found else None) == expected, (model.name, tp, pp, zero)
            compared += 1
    assert compared >= 50  # every catalog model, several layouts each
