"""Network calculator: ring collectives, the per-step estimate, flags and invariants."""

from __future__ import annotations

import dataclasses
import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import collectives, network
from calculators.errors import CalculatorInputError
from calculators.network import (
    Fabric,
    allreduce_time,
    hierarchical_allreduce,
    ring_allreduce_bytes_per_rank,
    step_network,
    transfer_time,
)

NVLINK3 = 300e9  # A100 NVLink 3: 600 GB/s total = 300 GB/s per direction (A100 datasheet)
IB_NODE = 8 * 25e9  # 8 x HDR 200 Gb/s per DGX A100 node


def _fabric(**kw: object) -> Fabric:
    base = Fabric(
        intra_bytes_per_s=NVLINK3,
        inter_bytes_per_s=IB_NODE,
        intra_latency_s=0.0,
        inter_latency_s=0.0,
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def _step(**kw: object) -> network.NetworkEstimate:
    args: dict[str, object] = {
        "params": 7e9,
        "layers": 32,
        "hidden_size": 4096,
        "gpus": 16,
        "gpus_per_node": 8,
        "fabric": _fabric(),
        "global_batch_tokens": 4e6,
        "peak_flops_per_s": 312e12,
        "mfu": 0.4,
    }
    args.update(kw)
    return step_network(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize("module", [collectives, network])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert result.failed == 0
    assert result.attempted > 0 or module is network


@pytest.mark.parametrize(
    ("size", "ranks", "bandwidth", "latency", "expected"),
    [
        (1e9, 1, 1e9, 1e-3, 0.0),  # one rank: nothing to exchange
        (1e9, 2, 1e9, 0.0, 1.0),  # 2(1)/2 x 1 GB / 1 GB/s
        (1e9, 8, 100e9, 0.0, 2 * 7 / 8 * 1e9 / 100e9),
        (0.0, 4, 1e9, 1e-5, 6 * 1e-5),  # empty buffer: latency only, 2(n-1) steps
    ],
)
def test_allreduce_time_ring_formula(size, ranks, bandwidth, latency, expected) -> None:
    got = allreduce_time(
        size_bytes=size, ranks=ranks, bandwidth_bytes_per_s=bandwidth, latency_s=latency
    )
    assert got == pytest.approx(expected)


@given(size=st.floats(0, 1e13), ranks=st.integers(1, 100_000))
def test_ring_bytes_never_exceed_twice_the_buffer(size: float, ranks: int) -> None:
    per_rank = ring_allreduce_bytes_per_rank(size_bytes=size, ranks=ranks)
    assert per_rank <= 2 * size
    assert ring_allreduce_bytes_per_rank(size_bytes=size, ranks=ranks + 1) >= per_rank


def test_transfer_time_is_latency_plus_size_over_bandwidth() -> None:
    assert transfer_time(size_bytes=5e9, bandwidth_bytes_per_s=50e9, latency_s=0.5) == 0.6


def test_hierarchical_on_one_node_equals_flat_ring() -> None:
    f = _fabric()
    t = hierarchical_allreduce(
        size_bytes=1e9, ranks=8, ranks_per_node=8, groups_per_node=1, fabric=f
    )
    flat = allreduce_time(size_bytes=1e9, ranks=8, bandwidth_bytes_per_s=NVLINK3)
    assert t.seconds(f.inter_bytes_per_s) == pytest.approx(flat)
    assert t.inter_bytes_per_node == 0


def test_hierarchical_two_nodes_hand_worked() -> None:
    # 16 ranks, 8 per node: intra RS+AG 2(7/8) x 1 GB over 300 GB/s; inter 2(1/2) x 1 GB per node
    f = _fabric(inter_bytes_per_s=25e9)
    t = hierarchical_allreduce(
        size_bytes=1e9, ranks=16, ranks_per_node=8, groups_per_node=1, fabric=f
    )
    assert t.inter_bytes_per_node == pytest.approx(1e9)
    assert t.seconds(25e9) == pytest.approx(2 * 7 / 8 / 300 + 1 / 25)


def test_zero3_moves_one_and_a_half_times_the_data_parallel_volume() -> None:
    # Rajbhandari et al. 2020 §7.2.2: ZeRO-3 = 3 x Psi vs 2 x Psi for DP, for a step of one
    # micro-batch per GPU (16 GPUs x one 4,096-token sequence)
    one = 16 * 4096.0
    base = _step(zero_stage=0, global_batch_tokens=one)
    assert _step(zero_stage=2, global_batch_tokens=one).allreduce_seconds_per_step == (
        pytest.approx(base.allreduce_seconds_per_step)
    )
    assert _step(zero_stage=3, global_batch_tokens=one).allreduce_seconds_per_step == (
        pytest.approx(1.5 * base.allreduce_seconds_per_step)
    )


def test_zero3_gathers_again_in_every_micro_batch() -> None:
    # ZeRO++ (Wang et al. 2023) §3: the weights are all-gathered in the forward and backward of
    # each micro-batch, so 4 micro-batches per GPU move 4 x 1.5 x the DP volume; gradient
    # accumulation amortises a plain DP all-reduce (once a step), not ZeRO-3's traffic
    four = 16 * 4 * 4096.0
    base = _step(zero_stage=0, global_batch_tokens=four)
    assert _step(zero_stage=3, global_batch_tokens=four).allreduce_seconds_per_step == (
        pytest.approx(4 * 1.5 * base.allreduce_seconds_per_step)
    )
    wide = _step(zero_stage=3, global_batch_tokens=four, micro_batch_size=4)
    assert wide.allreduce_seconds_per_step == pytest.approx(1.5 * base.allreduce_seconds_per_step)


def test_compute_seconds_is_6nd_over_cluster_throughput() -> None:
    e = _step()
    assert e.compute_seconds_per_step == pytest.approx(4e6 * 6 * 7e9 / (16 * 312e12 * 0.4))


def test_gradient_bytes_shrink_with_model_parallelism() -> None:
    # same 64 GPUs: TP=8 inside the node cuts each GPU's gradient shard 8x
    plain = _step(gpus=64, params=70e9, layers=80, hidden_size=8192)
    tp8 = _step(gpus=64, params=70e9, layers=80, hidden_size=8192, tensor_parallel=8)
    assert tp8.allreduce_seconds_per_step < plain.allreduce_seconds_per_step
    assert tp8.tp_seconds_per_step > 0 == plain.tp_seconds_per_step


def test_tensor_parallel_megatron_four_allreduces_per_layer() -> None:
    # one micro-batch of 4096 tokens, TP=8 in one node: 4 x layers all-reduces of s x h x 2 bytes
    e = _step(gpus=8, tensor_parallel=8, global_batch_tokens=4096, sequence_length=4096)
    size = 4096 * 4096 * 2
    expected = 4 * 32 * 2 * 7 / 8 * size / NVLINK3
    assert e.tp_seconds_per_step == pytest.approx(expected)
    full = _step(gpus=8, tensor_parallel=8, global_batch_tokens=4096, full_recompute=True)
    assert full.tp_seconds_per_step == pytest.approx(expected * 6 / 4)


def test_pipeline_sends_activations_between_stages() -> None:
    e = _step(gpus=16, pipeline_parallel=2, tensor_parallel=8)
    assert e.pp_seconds_per_step > 0
    assert e.inter_node_bytes_per_step > 0


def test_moe_all_to_all_only_with_expert_parallelism() -> None:
    moe = {"moe_layers": 32, "experts_per_token": 2, "expert_params": 5e9}
    assert _step(**moe).moe_seconds_per_step == 0
    assert _step(expert_parallel=16, **moe).moe_seconds_per_step > 0


@pytest.mark.parametrize(
    ("kw", "flag"),
    [
        ({"fabric": _fabric(inter_is_ethernet=True, inter_rdma=False)}, "ethernet_without_rdma"),
        ({"tensor_parallel": 16}, "tensor_parallel_across_nodes"),
        (
            {"tensor_parallel": 8, "fabric": _fabric(intra_is_pcie=True)},
            "tensor_parallel_over_pcie",
        ),
        ({"fabric": _fabric(inter_bytes_per_s=1e8)}, "communication_bound"),
    ],
)
def test_flags(kw: dict[str, object], flag: str) -> None:
    assert flag in _step(**kw).flags
    assert flag not in _step().flags


def test_rdma_ethernet_is_not_flagged() -> None:
    assert "ethernet_without_rdma" not in _step(fabric=_fabric(inter_is_ethernet=True)).flags


def test_efficiencies_are_ordered() -> None:
    e = _step(fabric=_fabric(inter_bytes_per_s=3.125e9), tensor_parallel=2)
    assert 0 < e.scaling_efficiency_no_overlap <= e.scaling_efficiency_overlap <= 1
    total = e.allreduce_seconds_per_step + e.tp_seconds_per_step + e.pp_seconds_per_step
    assert e.comm_seconds_per_step == pytest.approx(total + e.moe_seconds_per_step)


def test_bandwidth_for_90_percent_gives_90_percent() -> None:
    slow = _step(fabric=_fabric(inter_bytes_per_s=1e8, intra_latency_s=5e-6, inter_latency_s=1e-5))
    need = slow.inter_node_bytes_per_s_for_90pct
    assert need is not None
    assert need > 1e8
    fixed = _step(
        fabric=_fabric(inter_bytes_per_s=need, intra_latency_s=5e-6, inter_latency_s=1e-5)
    )
    assert fixed.scaling_efficiency_no_overlap == pytest.approx(0.9)


def test_single_node_needs_no_inter_node_bandwidth() -> None:
    e = _step(gpus=8, fabric=_fabric(inter_bytes_per_s=0.0))
    assert e.inter_node_bytes_per_s_for_90pct == 0.0
    assert e.nodes == 1


@given(nodes=st.integers(1, 64), extra=st.integers(1, 8))
def test_more_gpus_never_lengthen_compute_or_raise_ring_bytes_beyond_2x(nodes, extra) -> None:
    small = _step(gpus=8 * nodes)
    big = _step(gpus=8 * (nodes + extra))
    assert big.compute_seconds_per_step < small.compute_seconds_per_step
    grad = 7e9 * 2
    for e in (small, big):
        per_rank = ring_allreduce_bytes_per_rank(size_bytes=grad, ranks=e.data_parallel)
        assert per_rank <= 2 * grad
        assert e.inter_node_bytes_per_step <= 2 * grad


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"gpus": 0}, "gpus"),
        ({"gpus": 12, "tensor_parallel": 8}, "gpus"),
        ({"gpus_per_node": -1}, "gpus_per_node"),
        ({"params": -7e9}, "params"),
        ({"mfu": 0.0}, "mfu"),
        ({"fabric": _fabric(inter_bytes_per_s=0.0)}, "inter_link"),
        ({"expert_parallel": 3}, "expert_parallel"),
    ],
)
def test_bad_input_names_the_field(kw: dict[str, object], field: str) -> None:
    with pytest.raises(CalculatorInputError) as info:
        _step(**kw)
    assert info.value.field == field
