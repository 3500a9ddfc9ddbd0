"""The inter-node network each accelerator's clusters usually have: catalog data.

When a multi-node question names no fabric, training (`calculators.planner`) and serving
(`calculators.serving`) both assume this one, with the ports its nodes are cabled with, and say
so: Atlas 800T A2: 8 x 200GE RoCE; DGX/HGX A100 and A800: 8 x HDR; H100/H800/H20: 8 x NDR;
DGX-1 V100: 4 x EDR; GeForce servers: one 25GbE port. Each entry carries its public source.
It lives in the catalog so that formula modules may read it (the planner imports formula
modules, never the other way round); `calculators.planner.fabrics` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.catalog.hardware import GPU, LINKS, Link

__all__ = ["TypicalFabric", "typical_fabric"]


@dataclass(frozen=True)
class TypicalFabric:
    """The inter-node network a cluster of one accelerator usually has: assumed when a
    multi-node question names none (and said in the answer)."""

    link: Link
    gpus_per_port: int
    """Accelerators sharing one port: 1 on DGX/HGX and Atlas nodes, 8 (one per node) on
    GeForce servers."""
    source: str

    def ports(self, gpus_per_node: int) -> int:
        """Ports per node of ``gpus_per_node`` accelerators (at least one)."""
        return max(1, gpus_per_node // self.gpus_per_port)


_DGX_H100 = (
    "NVIDIA DGX H100 user guide: eight ConnectX-7 400 Gb/s (NDR) ports for the compute "
    "fabric, one per GPU (DGX BasePOD reference architecture, 'Core Components': four OSFP "
    "ports serving eight single-port ConnectX-7 VPI, up to 400 Gb/s InfiniBand/Ethernet)"
)
#: name -> (link, GPUs per port, source); else by class and PCIe generation below.
_TYPICAL_BY_NAME: dict[str, tuple[str, int, str]] = {
    "Ascend 910B 64GB": (
        "200GbE RoCE",
        1,
        "Huawei Atlas 800T A2 training server: 8 x 200GE ports, one per NPU, on the RoCE "
        "parameter plane (MindCluster Ascend Deployer guide, 'configure the parameter plane'; "
        "DaoCloud OceanStor A800 compatibility report, Table 1-2: Atlas 800T A2 with "
        "4 x 2-port 200GE RoCE NICs on the parameter plane)",
    ),
    "Ascend 910 32GB": (
        "100GbE RoCE",
        1,
        "Huawei Atlas 800 training server (model 9000): 8 x 100GE RoCE ports, one per NPU",
    ),
    "H800 SXM 80GB": (
        "InfiniBand NDR",
        1,
        "DeepSeek-AI 2024, DeepSeek-V3 (arXiv:2412.19437) §3.2.2: H800 nodes with InfiniBand "
        "at 50 GB/s (400 Gb/s) per GPU",
    ),
    "B200 180GB": (
        "InfiniBand NDR",
        1,
        "NVIDIA DGX B200 user guide: eight ConnectX-7 400 Gb/s ports, one per GPU",
    ),
}
_TYPICAL_CONSUMER = (
    "25GbE RoCE",
    8,
    "Planning assumption: GeForce servers have one 25GbE port per node, no DGX-style fabric",
)
_TYPICAL_BY_PCIE_GEN: dict[int, tuple[str, int, str]] = {
    3: (
        "InfiniBand EDR",
        2,
        "NVIDIA DGX-1 (V100) user guide: four 100 Gb/s EDR InfiniBand ports for 8 GPUs",
    ),
    4: (
        "InfiniBand HDR",
        1,
        "NVIDIA DGX A100 user guide (DU-09821-001): eight single-port ConnectX-6 200 Gb/s HDR "
        "InfiniBand adapters for the compute fabric, one per GPU (HGX A100/A800 nodes alike)",
    ),
    5: ("InfiniBand NDR", 1, _DGX_H100),
}


def typical_fabric(gpu: GPU) -> TypicalFabric:
    """The inter-node network ``gpu``'s clusters usually have (see the tables above).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> f = typical_fabric(lookup_gpu("910B"))
        >>> f.link.name, f.ports(8)
        ('200GbE RoCE', 8)
        >>> [typical_fabric(lookup_gpu(n)).link.name for n in ("A800", "H800", "H20", "4090")]
        ['InfiniBand HDR', 'InfiniBand NDR', 'InfiniBand NDR', '25GbE RoCE']
        >>> typical_fabric(lookup_gpu("4090")).ports(8)
        1
    """
    entry = _TYPICAL_BY_NAME.get(gpu.name)
    if entry is None:
        entry = (
            _TYPICAL_CONSUMER
            if gpu.gpu_class == "consumer"
            else _TYPICAL_BY_PCIE_GEN.get(gpu.pcie_gen, _TYPICAL_BY_PCIE_GEN[5])
        )
    name, per_port, source = entry
    return TypicalFabric(LINKS[name], per_port, source)
