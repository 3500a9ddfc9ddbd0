"""A suggested inter-node fabric is one the card's servers ship with: DGX/HGX A100 and A800
nodes have eight 200 Gb/s HDR ports (DGX A100 user guide), DGX H100 eight 400 Gb/s NDR
ports (DGX BasePOD reference architecture), Atlas 800T A2 eight 200GE RoCE ports; never
"1 x 100GbE RoCE" for a cluster of eight-GPU A100 servers."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.planner import evaluate
from calculators.planner.fabrics import fabric_options, typical_fabric
from calculators.planner.plan import Plan


@pytest.mark.parametrize(
    ("gpu", "slowest"),
    [
        ("A100 80GB", ("InfiniBand HDR", 8)),  # DGX A100: 8 x HDR, one per GPU
        ("A800", ("InfiniBand HDR", 8)),  # HGX A800 is cabled as A100
        ("H100", ("InfiniBand NDR", 8)),  # DGX H100: 8 x NDR
        ("H800", ("InfiniBand NDR", 8)),
        ("910B", ("200GbE RoCE", 8)),  # Atlas 800T A2: 8 x 200GE RoCE
        ("V100", ("InfiniBand EDR", 4)),  # DGX-1: 4 x EDR for 8 GPUs
        ("RTX 4090", ("25GbE RoCE", 1)),  # a GeForce box: one Ethernet port
    ],
)
def test_the_slowest_option_is_the_shipped_fabric(gpu: str, slowest: tuple[str, int]) -> None:
    _, link, ports = fabric_options(lookup_gpu(gpu), 8)[0]
    assert (link.name, ports) == slowest


@pytest.mark.parametrize("gpu", ["A100 80GB", "A800", "H100", "H20", "910B", "B200", "V100"])
def test_no_option_is_slower_or_fewer_ported_than_the_servers(gpu: str) -> None:
    card = lookup_gpu(gpu)
    typical = typical_fabric(card)
    floor = typical.link.bytes_per_s * typical.ports(8)
    options = fabric_options(card, 8)
    assert options
    for bandwidth, _, ports in options:
        assert bandwidth >= floor
        assert ports == typical.ports(8)  # data-center nodes: as cabled, never "1 x"


def test_four_gpu_nodes_get_four_ports() -> None:
    assert {ports for _, _, ports in fabric_options(lookup_gpu("A100 80GB"), 4)} == {4}


def test_a_geforce_box_may_add_ports() -> None:
    counts = {ports for _, _, ports in fabric_options(lookup_gpu("RTX 4090"), 8)}
    assert counts == {1, 2, 4, 8}


@pytest.mark.parametrize("gpu", ["A100 80GB", "H100"])
def test_the_scaled_up_cluster_names_eight_ports(gpu: str) -> None:
    """8 GPUs pretraining a 7B model on 1T tokens take over a year; the larger cluster the
    planner suggests spans nodes and is cabled as its servers come."""
    plan = Plan(
        task="pretrain",
        model=lookup_model("Llama-2-7B"),
        gpu=lookup_gpu(gpu),
        gpus=8,
        tokens=1e12 if gpu != "H100" else 4e12,
    )
    crossing = [
        change.new_plan
        for change in evaluate(plan).suggestions
        if change.new_plan.gpu.name == plan.gpu.name and change.new_plan.nodes > 1
    ]
    assert crossing
    for new in crossing:
        assert new.inter_link is not None
        assert new.nics_per_node == 8
        assert new.inter_link.bytes_per_s >= typical_fabric(plan.gpu).link.bytes_per_s


def test_a_slow_stated_fabric_is_upgraded_to_the_shipped_one() -> None:
    """Eight A100 nodes on 10GbE: the faster fabric suggested is 8 x HDR at least. ZeRO-3
    gathers the weights in every micro-batch (ZeRO++ §3), so the run uses micro-batches of 4
    (with full recompute), as the assistant's layout search would."""
    plan = Plan(
        task="pretrain",
        model=lookup_model("Llama-2-13B"),
        gpu=lookup_gpu("A100 80GB"),
        gpus=64,
        tokens=260e9,
        zero_stage=3,
        inter_link=lookup_link("10GbE"),
        micro_batch_size=4,
        recompute="full",
    )
    upgrades = [c.new_plan for c in evaluate(plan).suggestions if c.kind == "inter_link"]
    assert upgrades
    for new in upgrades:
        assert new.nics_per_node == 8
        assert new.inter_link is not None
        assert new.inter_link.bytes_per_s >= lookup_link("HDR").bytes_per_s
