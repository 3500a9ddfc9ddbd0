"""Pipeline depths the fewest-GPU search tries: every depth that gives each stage a layer, for
tensor-parallel groups as wide as the node (pipelines of whole nodes), and powers of two below
that width. 'DeepSeek-V3 in BF16 on H20' holds on 3 nodes of TP=8 (PP=3); it had said 32."""

from __future__ import annotations

import dataclasses
import math

from hypothesis import given
from hypothesis import strategies as st

from calculators import _memory_parts as parts
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.layout_search import min_gpus_to_fit


def test_deepseek_v3_bf16_on_h20_fits_three_nodes() -> None:
    # 671B x 2 B = 1.34 TB of weights; 24 x 86.4 GB usable = 2.07 TB holds it, 16 x 86.4 GB =
    # 1.38 TB does not once the embedding stage and KV cache are added.
    plan = min_gpus_to_fit(
        gpu=lookup_gpu("H20"),
        model=lookup_model("DeepSeek-V3"),
        kind="inference",
        weight_dtype="bf16",
    )
    assert plan is not None
    assert (plan.gpus, plan.tensor_parallel, plan.pipeline_parallel) == (24, 8, 3)


def test_odd_depths_only_with_node_wide_tensor_parallel() -> None:
    layouts = parts.fit_layouts("inference", lookup_model("Qwen2.5-72B"), 8, {})
    odd = {(t, p) for t, p, _ in layouts if p & (p - 1)}
    assert odd
    assert {t for t, _ in odd} == {8}


@given(layers=st.integers(min_value=1, max_value=200))
def test_every_depth_leaves_each_stage_a_layer(layers: int) -> None:
    model = lookup_model("Llama-2-7B")
    shaped = dataclasses.replace(model, layers=layers)
    depths = parts.pipeline_degrees(shaped)
    assert depths[0] == 1
    assert depths[-1] == layers
    for p in depths:
        size = math.ceil(layers / p)
        assert layers - size * (p - 1) >= 1
