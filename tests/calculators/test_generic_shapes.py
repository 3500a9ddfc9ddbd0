"""Generic cards (only the memory is known) and generic models (only the size is known).

A generic card keeps the memory the question gave and borrows the rest from one catalog card,
without inheriting that card's missing 16-bit mode. A generic model's head counts split over
the tensor-parallel degrees people ask for inside a node.
"""

from __future__ import annotations

import pytest

from calculators._memory_parts import valid_tensor_parallel
from calculators.catalog.generic import (
    generic_gpu,
    generic_memory,
    generic_name,
    is_generic,
    stand_in_name,
)
from calculators.catalog.hardware import GPUS, lookup_gpu
from calculators.catalog.models import generic_model


@pytest.mark.parametrize("memory", [16e9, 24e9, 32e9, 48e9, 64e9, 96e9, 141e9])
def test_a_generic_name_carries_its_memory_back(memory: float) -> None:
    card = lookup_gpu(generic_name(memory))
    assert card.memory_bytes == memory
    assert is_generic(card.name)
    assert card.name not in GPUS  # never listed as a catalog card


@pytest.mark.parametrize("name", ["L40S 48GB", "48GB", "GPU 48GB", "48 GB GPU x"])
def test_other_names_are_not_generic(name: str) -> None:
    assert generic_memory(name) is None


def test_a_32gb_card_runs_bf16_at_the_16_bit_rate_of_its_stand_in() -> None:
    like = GPUS[stand_in_name(32e9)]
    assert not like.supports("bf16")  # the stand-in (a V100) has no BF16 ...
    card = generic_gpu(32e9)
    assert card.dense_flops_per_s("bf16") == like.fp16_flops_per_s  # ... the generic card does
    assert not card.supports("fp8")  # but no FP8 tensor cores are claimed for it


def test_a_stand_in_with_fp8_lends_its_bandwidth_but_not_its_8_bit_tensor_cores() -> None:
    # a "24GB card" may be an RTX 3090 (no FP8) as well as a 4090: the answer may not claim
    # FP8 tensor cores its own assumption ("no 8-bit tensor cores assumed") does not grant
    like = GPUS[stand_in_name(24e9)]
    card = generic_gpu(24e9)
    assert like.supports("fp8")
    assert like.supports("int8")
    assert not card.supports("fp8")
    assert not card.supports("int8")
    assert card.memory_bandwidth_bytes_per_s == like.memory_bandwidth_bytes_per_s


@pytest.mark.parametrize(
    ("memory", "stand_in"),
    [
        (24e9, "RTX 4090 24GB"),  # the common card comes before the catalog's first 24 GB (P40)
        (80e9, "A100 SXM 80GB"),
        (20e9, "P100 SXM2 16GB"),  # no 20 GB card: the largest one below
        (4e9, "RTX 3080 10GB"),  # nothing below: the smallest one above
    ],
)
def test_the_stand_in_is_chosen_by_memory(memory: float, stand_in: str) -> None:
    assert stand_in_name(memory) == stand_in


SIZES = [0.5e9, 1e9, 1.5e9, 3e9, 7e9, 14e9, 20e9, 30e9, 34e9, 72e9, 175e9, 405e9]


@pytest.mark.parametrize("params", SIZES)
@pytest.mark.parametrize("degree", [1, 2, 4, 8])
def test_generic_heads_split_over_the_usual_tensor_parallel_degrees(
    params: float, degree: int
) -> None:
    assert valid_tensor_parallel(generic_model(params=params), degree)


@pytest.mark.parametrize("params", SIZES)
def test_the_generic_shape_still_has_the_size_asked(params: float) -> None:
    model = generic_model(params=params)
    assert model.params == pytest.approx(params, rel=0.005)
    assert model.heads * model.head_dim == model.hidden


def test_the_30b_shape_that_refused_tp4_now_takes_it() -> None:
    model = generic_model(params=30e9)
    assert model.heads % 8 == 0  # 57 heads before: TP 2, 4 and 8 were refused
    assert model.kv_heads == model.heads  # multi-head at 30B, as before
