"""One rule for a stated fabric's ports, InfiniBand or RoCE: on 8-GPU SXM/OAM nodes an RDMA
fabric of 100 Gb/s or more is cabled one port per GPU (rail-optimised: DGX SuperPOD, Meta's
Llama 3 RoCE and InfiniBand clusters); plain TCP Ethernet, slow ports and PCIe cards' Ethernet
one per node; a count the user states wins (`assistant.parse.links.read_nics_per_node`)."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.links import read_nics_per_node
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.planner.fabrics import ports_per_node, rail_optimised


@pytest.mark.parametrize(
    ("gpu", "link", "ports"),
    [
        ("H100", "400G RoCE", 8),  # was 1: the gap this rule closes
        ("H100", "400G IB", 8),  # the same node on InfiniBand: the same count
        ("H800", "200G RoCE", 8),
        ("A100", "100G RoCE", 8),  # boundary: 100 Gb/s is compute-fabric speed
        ("A100", "25G RoCE", 1),  # below it: a per-node speed
        ("H100", "400GbE", 1),  # plain TCP Ethernet: no rail fabric
        ("V100 SXM2 32GB", "100G RoCE", 4),  # cabled as DGX-1: one port per two V100
        ("910B", "200G RoCE", 8),  # Atlas 800T A2, as before
        ("910B", "25GbE", 1),  # TCP Ethernet where the card's fabric is RoCE
        ("A100 PCIe 80GB", "200G RoCE", 1),  # a PCIe card: no rail-optimised default
        ("RTX 4090", "25G RoCE", 1),  # a GeForce server, as before
    ],
)
def test_ports_per_node(gpu: str, link: str, ports: int) -> None:
    assert ports_per_node(lookup_gpu(gpu), lookup_link(link), 8) == ports


@pytest.mark.parametrize("speed", ["100G", "200G", "400G"])
def test_infiniband_and_roce_of_one_speed_get_one_count(speed: str) -> None:
    gpu = lookup_gpu("H100")
    ib = {"100G": "InfiniBand EDR", "200G": "InfiniBand HDR", "400G": "InfiniBand NDR"}[speed]
    roce = ports_per_node(gpu, lookup_link(f"{speed} RoCE"), 8)
    assert roce == ports_per_node(gpu, lookup_link(ib), 8) == 8
    assert rail_optimised(gpu, lookup_link(f"{speed} RoCE"))


@pytest.mark.parametrize(
    ("text", "nics"),
    [
        ("4 nodes of 8x h100 with one 400g roce nic per node", 1),
        ("two 400g ports per server", 2),
        ("a single 200g ib link per node", 1),
        ("single-port 400g roce", 1),
        ("400 gb/s per node", 1),
        ("4台8卡a100，每台一张200g ib网卡", 1),
        ("每台机器两张400g网卡", 2),
        ("单口400g roce", 1),
        ("机间只有一张100g网卡", 1),
        ("4 nodes of 8x h100 over 400g roce", None),  # per GPU, the default
        ("8张h100，400g ib，每张gpu一个端口", None),
        ("2台8张h100服务器400g网卡", None),  # "8张" counts GPUs, not NICs
    ],
)
def test_read_nics_per_node(text: str, nics: int | None) -> None:
    assert read_nics_per_node(text) == nics


def test_a_stated_count_reaches_the_network_check() -> None:
    from assistant.calculate import calculate

    def bandwidth(question: str) -> float:
        outcome = calculate(parse(question))
        network = next(c for c in outcome.checks if c.kind == "network")
        return float(network.figures["inter_node_bytes_per_second"])  # type: ignore[arg-type]

    base = "4 nodes of 8x H100 over 400G RoCE: how long to pretrain a 7B model on 100B tokens?"
    one = "4 nodes of 8x H100, one 400G RoCE NIC per node: pretrain a 7B model on 100B tokens?"
    assert bandwidth(base) == pytest.approx(8 * 50e9)
    assert bandwidth(one) == pytest.approx(50e9)
