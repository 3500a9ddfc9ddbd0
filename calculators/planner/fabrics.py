"""Inter-node fabrics the planner may suggest for a GPU: the ones its generation ships with.

A suggestion is read as advice to buy, so it must name a fabric that real clusters of that
accelerator use, not merely the fastest entry of the link catalog. Planning assumptions, by
generation (a NIC cannot usefully outrun the host's PCIe slot either):

- Huawei Ascend 910B (Atlas 800T A2): RoCE, 100GbE or 200GbE, one port per NPU. Huawei's
  MindCluster Ascend Deployer guide (hiascend.com, deployer_0025, "configure the parameter
  plane") gives each Atlas 800T A2 node 8 NPU network ports on a RoCE parameter plane
  (roce_port 4791); the per-port speed is our planning assumption. Ascend 910 (Atlas 800 model
  9000): 100GbE RoCE.
- GeForce (RTX 3090/4090) workstations and 4U chassis: 25GbE or 100GbE RoCE at most.
- PCIe Gen3 generation (V100, T4): InfiniBand EDR or 100GbE RoCE.
- PCIe Gen4 generation (A100/A800, L40S, L20, L4, A10): InfiniBand HDR (200G) or
  100/200GbE RoCE. Not NDR: a 400 Gb/s port (50 GB/s) outruns the Gen4 x16 slot it sits in
  (31.5 GB/s per direction, PCI-SIG); DGX A100 ships ConnectX-6 HDR (user guide DU-09821-001).
- Hopper and MI300X (PCIe Gen5): InfiniBand NDR 400G or 400GbE RoCE.
- Blackwell (B200): InfiniBand NDR or XDR, or 400GbE RoCE.

Ports per node: as the card's servers are cabled (DGX/HGX and Atlas nodes: one per
accelerator; DGX-1: one per two V100); 1, 2, 4 or 8 for a GeForce box. A suggested fabric is
never slower than the one the card's servers ship with (`typical_fabric`).

A stated fabric follows one rule whether it is InfiniBand or RoCE: on SXM/OAM nodes (NVLink,
HCCS or Infinity Fabric inside) an RDMA fabric of compute-fabric speed (RAIL_MIN_BITS_PER_S or
more) is cabled as the card's compute fabric is, one port per GPU (DGX-1 V100: per two), as
rail-optimised clusters are: NVIDIA DGX SuperPOD H100 (eight 400 Gb/s NDR ports per node, one
per GPU, rail-optimised), NVIDIA's HGX AI Factory RA on Spectrum-X Ethernet (2-8-9-400: 8 GPUs,
400 Gb/s per GPU), and Meta's Llama 3 clusters, RoCE and InfiniBand alike (Dubey et al. 2024,
arXiv:2407.21783 §3.3.1: 400 Gbps between GPUs; Gangidi et al., SIGCOMM 2024, "RDMA over
Ethernet for Distributed AI Training at Meta Scale": each Grand Teton GPU 1:1 with a 400G RDMA
NIC). Plain TCP Ethernet and slower ports are one per node. A port count the user states
("one NIC per node", "单口") wins over all of these (the caller passes it).

When a multi-node question names no fabric, `typical_fabric` (catalog data in
`calculators.catalog.fabrics`, re-exported here) is assumed (and said): the one
network its clusters usually have, with the ports they are cabled with (Atlas 800T A2: 8 x
200GE RoCE; DGX/HGX A100 and A800: 8 x HDR; H100/H800/H20: 8 x NDR; DGX-1 V100: 4 x EDR;
GeForce servers: one 25GbE port).

Examples:
    >>> from calculators.catalog.hardware import lookup_gpu
    >>> [link.name for link in fabric_links(lookup_gpu("910B"))]
    ['100GbE RoCE', '200GbE RoCE']
    >>> [link.name for link in fabric_links(lookup_gpu("H100"))]
    ['InfiniBand NDR', '400GbE RoCE']
"""

from __future__ import annotations

from calculators.catalog.fabrics import TypicalFabric, typical_fabric
from calculators.catalog.hardware import GPU, LINKS, Link
from calculators.messages import Msg

__all__ = [
    "TypicalFabric",
    "fabric_links",
    "fabric_options",
    "fabric_remark",
    "RAIL_MIN_BITS_PER_S",
    "ports_per_node",
    "rail_optimised",
    "typical_fabric",
]


_BY_NAME: dict[str, tuple[str, ...]] = {
    "Ascend 910B 64GB": ("100GbE RoCE", "200GbE RoCE"),
    "Ascend 910 32GB": ("100GbE RoCE",),
    "B200 180GB": ("InfiniBand NDR", "400GbE RoCE", "InfiniBand XDR"),
}
_CONSUMER = ("25GbE RoCE", "100GbE RoCE")
_BY_PCIE_GEN: dict[int, tuple[str, ...]] = {
    3: ("InfiniBand EDR", "100GbE RoCE"),
    4: ("100GbE RoCE", "InfiniBand HDR", "200GbE RoCE"),
    5: ("InfiniBand NDR", "400GbE RoCE"),
}


def fabric_links(gpu: GPU) -> tuple[Link, ...]:
    """The inter-node links realistic for ``gpu``'s generation (see the module docstring)."""
    names = _BY_NAME.get(gpu.name)
    if names is None:
        names = (
            _CONSUMER
            if gpu.gpu_class == "consumer"
            else _BY_PCIE_GEN.get(gpu.pcie_gen, _BY_PCIE_GEN[5])
        )
    return tuple(LINKS[name] for name in names)


#: Slowest port counted as a rail-optimised compute-fabric NIC (one per GPU): 100 Gb/s, the
#: EDR/100GbE generation (DGX-2: eight 100 Gb/s ports for its GPUs; DGX A100: 200 Gb/s HDR;
#: DGX H100 and Meta's Llama 3 clusters: 400 Gb/s). 25/10GbE are front-end, per-node speeds.
RAIL_MIN_BITS_PER_S = 100e9

_ON_BOARD_FABRICS = ("nvlink", "hccs", "infinity-fabric")


def rail_optimised(gpu: GPU, link: Link) -> bool:
    """True when a stated ``link`` on ``gpu`` nodes is cabled one port per GPU, as
    rail-optimised clusters are: an SXM/OAM node (NVLink, HCCS or Infinity Fabric between its
    accelerators, not a PCIe card or a bridge pair) on an RDMA fabric, InfiniBand or RoCE, of
    at least RAIL_MIN_BITS_PER_S (see the module docstring for the sources).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu, lookup_link
        >>> rail_optimised(lookup_gpu("H100"), lookup_link("400G RoCE"))
        True
        >>> rail_optimised(lookup_gpu("H100"), lookup_link("25GbE RoCE"))
        False
        >>> rail_optimised(lookup_gpu("L40S"), lookup_link("400G IB"))
        False
    """
    board = LINKS.get(gpu.intra_link)
    on_board = board is not None and board.kind in _ON_BOARD_FABRICS and "bridge" not in board.name
    fast = link.rdma and link.bytes_per_s * 8 >= RAIL_MIN_BITS_PER_S
    return on_board and fast and link.kind in ("infiniband", "ethernet")


def ports_per_node(gpu: GPU, link: Link, gpus_per_node: int) -> int:
    """Inter-node ports of a ``gpu`` node on a stated ``link`` (a count the user states wins,
    and is the caller's): on SXM/OAM nodes an RDMA fabric of compute-fabric speed, IB or RoCE
    alike, is cabled as the card's compute fabric (one port per GPU; DGX-1: per two V100;
    `rail_optimised`); else a link of the kind the card's clusters use is cabled as they are
    (Atlas: one RoCE port per NPU; GeForce boxes: one Ethernet port), but plain TCP Ethernet
    where the card's fabric is RDMA is one port per node; a GeForce box one port of any link
    (an HCA is an added card there, seldom eight); other InfiniBand one port per GPU, other
    Ethernet one port per node.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu, lookup_link
        >>> ports_per_node(lookup_gpu("910B"), lookup_link("100GbE RoCE"), 8)
        8
        >>> ports_per_node(lookup_gpu("A100"), lookup_link("100GbE RoCE"), 8)
        8
        >>> ports_per_node(lookup_gpu("H100"), lookup_link("400G RoCE"), 8)
        8
        >>> ports_per_node(lookup_gpu("A100"), lookup_link("InfiniBand NDR"), 8)
        8
        >>> ports_per_node(lookup_gpu("A100"), lookup_link("25GbE"), 8)
        1
        >>> ports_per_node(lookup_gpu("A100 PCIe 80GB"), lookup_link("200G RoCE"), 8)
        1
        >>> ports_per_node(lookup_gpu("RTX 4090"), lookup_link("InfiniBand HDR"), 8)
        1
    """
    typical = typical_fabric(gpu)
    if rail_optimised(gpu, link):
        return typical.ports(gpus_per_node)
    if link.kind == typical.link.kind and (link.rdma or not typical.link.rdma):
        return typical.ports(gpus_per_node)
    if gpu.gpu_class == "consumer":
        return 1
    return max(1, gpus_per_node) if link.kind == "infiniband" else 1


def _port_counts(gpu: GPU, gpus_per_node: int) -> tuple[int, ...]:
    """Ports a ``gpu`` node is cabled with: as its servers come (DGX/HGX and Atlas nodes: one
    per accelerator; DGX-1: one per two V100), any of 1-8 for a GeForce box (one port per
    node is usual, more are added cards)."""
    typical = typical_fabric(gpu)
    if typical.ports(gpus_per_node) == 1:
        return tuple(n for n in (1, 2, 4, 8) if n <= max(1, gpus_per_node))
    return (typical.ports(gpus_per_node),)


def fabric_options(gpu: GPU, gpus_per_node: int) -> list[tuple[float, Link, int]]:
    """(bytes/s per node per direction, link, ports) for ``gpu``, slowest first; ties go to
    fewer ports, then to InfiniBand/RoCE in the order of `fabric_links`.

    A suggestion is advice to buy: nodes are cabled as the card's servers come
    (`_port_counts`), and nothing slower than the fabric they ship with (`typical_fabric`) is
    offered, so an A100 cluster is never told "1 x 100GbE RoCE" when a DGX A100 has eight
    200 Gb/s HDR ports.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> [(link.name, n) for _, link, n in fabric_options(lookup_gpu("A100"), 8)][:2]
        [('InfiniBand HDR', 8), ('200GbE RoCE', 8)]
        >>> [(link.name, n) for _, link, n in fabric_options(lookup_gpu("910B"), 8)]
        [('200GbE RoCE', 8)]
        >>> [(link.name, n) for _, link, n in fabric_options(lookup_gpu("4090"), 8)][:2]
        [('25GbE RoCE', 1), ('25GbE RoCE', 2)]
    """
    typical = typical_fabric(gpu)
    floor = typical.link.bytes_per_s * typical.ports(gpus_per_node)
    links = fabric_links(gpu)
    ports = _port_counts(gpu, gpus_per_node)
    options = [(link.bytes_per_s * n, link, n) for link in links for n in ports]
    order = {link.name: i for i, link in enumerate(links)}
    shipped = [option for option in options if option[0] >= floor]
    return sorted(shipped, key=lambda item: (item[0], item[2], order[item[1].name]))


def fabric_remark(gpus: list[GPU]) -> Msg:
    """Why the suggested fabrics are the ones named: those the card's servers ship with, or
    faster ones of its generation (`fabric_options`, for 8-GPU nodes).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> fabric_remark([lookup_gpu("910B")])["gpus"][0]["links"]
        '200GbE RoCE'
        >>> fabric_remark([lookup_gpu("A100")])["gpus"][0]["links"]
        'InfiniBand HDR / 200GbE RoCE'
    """
    said = []
    for gpu in dict.fromkeys(gpus):
        offered = {link.name for _, link, _ in fabric_options(gpu, 8)}
        links = " / ".join(link.name for link in fabric_links(gpu) if link.name in offered)
        atlas = gpu.name.startswith("Ascend 910B")
        note = Msg("suggest.remark.atlas_nodes") if atlas else ""
        said.append(Msg("suggest.remark.fabric_gpu", gpu=gpu.name, links=links, note=note))
    return Msg("suggest.remark.fabrics", gpus=tuple(said))
