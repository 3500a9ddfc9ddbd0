"""Host (CPU) memory and the CPU optimizer step of ZeRO-Offload: what offloading needs.

ZeRO-Offload (Ren et al. 2021, arXiv:2101.06840 §4) keeps the gradients and the optimizer
states in host memory and runs the Adam step on the CPU. Host RAM is per node; a plan gives
it (``Plan.host_ram_bytes``, from the site profile) or gets the default of its server class
below, stated as an assumption.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from calculators.catalog.hardware import GPU
from calculators.messages import Msg
from calculators.units import GiB, TiB

__all__ = [
    "CPU_ADAM_BYTES_PER_PARAM",
    "HOST_BANDWIDTH_BYTES_PER_S",
    "HOST_RAM_DEFAULTS",
    "HOST_USABLE_FRACTION",
    "DESK_MAX_GPUS",
    "WORKSTATION_MIN_GPUS",
    "desk_box",
    "HostRam",
    "host_ram",
    "host_ram_assumption",
    "host_ram_condition",
    "host_ram_default",
]


@dataclass(frozen=True)
class HostRamDefault:
    """Host RAM per node assumed for a server class, with its source."""

    bytes_per_node: float
    server: str
    source: str
    option_bytes_per_node: float = 0.0
    """A larger standard configuration of the same server (0 when the datasheet names none).
    With no host RAM given, offloading that needs more than the standard configuration is
    planned on this option and says so: the unstated host RAM does not decide the verdict."""
    max_bytes_per_node: float = 0.0
    """The most RAM such a server can be configured with (DIMM slots x largest RDIMM, sourced
    in ``training.host_max.<class>``; 0 when no more than the option is known). With no host
    RAM given, offload that needs more than the standard configuration (and its option) but
    no more than this is a condition the answer states ("needs ≥ X per node, not stated:
    check your servers"), not a verdict of the default; beyond it the offload stays infeasible."""


#: Host RAM per node by server class (used when the site gives none). DIMMs come in binary
#: sizes, so a datasheet's "2 TB" of 32 x 64 GB DIMMs is 2 TiB = 2**41 bytes and "8 x 32 GB" is
#: 256 GiB: the defaults are those byte counts, not 2e12 or 256e9.
HOST_RAM_DEFAULTS: Mapping[str, HostRamDefault] = MappingProxyType(
    {
        "hopper": HostRamDefault(
            2 * TiB,
            "DGX/HGX H100-class",
            "NVIDIA DGX H100 datasheet and DGX BasePOD reference architecture ('Core "
            "Components'): 2 TB of DDR5 system memory, 32 x 64 GB DIMMs = 2 TiB",
        ),
        "blackwell": HostRamDefault(
            2 * TiB,
            "DGX/HGX B200-class",
            "NVIDIA DGX B200 datasheet: 2 TB system memory (up to 4 TB), binary DIMM sizes",
            4 * TiB,
        ),
        "ampere": HostRamDefault(
            1 * TiB,
            "DGX/HGX A100-class",
            "NVIDIA DGX A100 datasheet: 1 TB system memory (2 TB option), binary DIMM sizes",
            2 * TiB,
        ),
        "volta": HostRamDefault(
            512 * GiB,
            "DGX-1-class V100",
            "NVIDIA DGX-1 datasheet: 512 GB system memory, binary DIMM sizes",
        ),
        "davinci": HostRamDefault(
            512 * GiB,
            "Atlas 800T A2 / Atlas 800 (Ascend) training server",
            "planning assumption: no public Huawei memory configuration of the Atlas 800T A2 "
            "or Atlas 900 A2 PoD node was found; a conservative 16 x 32 GB DIMMs",
            # 2 x Kunpeng 920 (Huawei/DaoCloud OceanStor A800 compatibility report: "Atlas 800T
            # A2, CPU: 2 * HUAWEI Kunpeng 920") x up to 1 TiB of 8-channel DDR4 per socket
            # (WikiChip, Kunpeng 920-4826 / 920-6426 "Max Memory 1 TiB")
            max_bytes_per_node=2 * TiB,
        ),
        "pcie": HostRamDefault(
            512 * GiB,
            "2-socket PCIe GPU server",
            "planning assumption: 16 x 32 GB DIMMs in a 2-socket PCIe server",
            # 2 sockets x 8 channels x 2 DIMMs per channel = 32 slots x 256 GB RDIMMs = 8 TB
            # (ServeTheHome, Supermicro AS-1024US-TRT review: "16x 256GB DIMMs for 4TB per
            # socket. In a two-socket server, one gets 8TB"); binary DIMM sizes: 8 TiB
            max_bytes_per_node=8 * TiB,
        ),
        "consumer": HostRamDefault(
            128 * GiB,
            "desktop board",
            "planning assumption: 4 x 32 GB DDR5 DIMMs, the usual ceiling of a desktop board",
        ),
        "workstation": HostRamDefault(
            256 * GiB,
            "workstation board",
            "planning assumption: 8 x 32 GB RDIMMs, one per channel of a workstation CPU "
            "(AMD Ryzen Threadripper PRO 5000/7000 WX and Intel Xeon W-3400 datasheets: "
            "8 memory channels, up to 2 TB)",
            max_bytes_per_node=2 * TiB,  # the same datasheets: up to 2 TB (8 x 256 GB RDIMMs)
        ),
    }
)
#: Consumer cards on one node from which the machine is a workstation rather than a desktop: a
#: desktop CPU has about 20-28 PCIe lanes (two cards at x8/x8), so 3 or more cards mean a
#: workstation platform (Threadripper PRO: 128 PCIe lanes; Xeon W-3400: 112).
WORKSTATION_MIN_GPUS = 3
#: Most consumer cards one desk-side box holds: a workstation board has 4 double-spaced x16
#: slots (Threadripper PRO WRX90 / Xeon W790 boards); more cards mean a rack server.
DESK_MAX_GPUS = 4
#: Share of host RAM the offloaded states may take (OS, data loader, pinned buffers).
HOST_USABLE_FRACTION = 0.8
#: Bytes the CPU Adam step moves per parameter: read fp32 master, momentum, variance (12) and
#: the gradient (2), write the three back (12) and the 16-bit copy (2). It is bound by host
#: memory bandwidth (ZeRO-Offload §4.2: CPU-Adam is vectorised; the step is memory-bound).
CPU_ADAM_BYTES_PER_PARAM = 28.0
#: Achievable host memory bandwidth per node: planning assumption, about half of a 2-socket
#: DDR5 server's 16 channels x 38.4 GB/s (614 GB/s peak); desktops get far less.
HOST_BANDWIDTH_BYTES_PER_S = 300e9
_DESKTOP_BANDWIDTH_BYTES_PER_S = 60e9  # 2 DDR5 channels (~77 GB/s peak), planning figure


def host_ram_default(gpu: GPU, gpus_on_node: int = 1) -> HostRamDefault:
    """The host RAM assumed per node for ``gpu``'s server class; consumer cards sit in a
    desktop up to two cards and in a workstation from WORKSTATION_MIN_GPUS.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> host_ram_default(lookup_gpu("H100")).bytes_per_node / 2**40  # DGX H100: 2 TiB
        2.0
        >>> host_ram_default(lookup_gpu("RTX 4090")).bytes_per_node / 2**30
        128.0
        >>> host_ram_default(lookup_gpu("RTX 4090"), gpus_on_node=4).bytes_per_node / 2**30
        256.0
        >>> host_ram_default(lookup_gpu("910B")).server
        'Atlas 800T A2 / Atlas 800 (Ascend) training server'
    """
    if gpu.gpu_class == "consumer":
        workstation = gpus_on_node >= WORKSTATION_MIN_GPUS
        return HOST_RAM_DEFAULTS["workstation" if workstation else "consumer"]
    if gpu.intra_link.startswith("PCIe"):
        return HOST_RAM_DEFAULTS["pcie"]
    return HOST_RAM_DEFAULTS.get(gpu.architecture, HOST_RAM_DEFAULTS["pcie"])


def desk_box(gpu: GPU, gpus_on_node: int) -> str | None:
    """The desk-side box (`calculators.power.DESK_BOXES` key) consumer cards sit in, or None
    for a data-centre server (any other card, or more cards than a desk-side box holds).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> desk_box(lookup_gpu("RTX 4090"), 2), desk_box(lookup_gpu("RTX 4090"), 4)
        ('desktop', 'workstation')
        >>> desk_box(lookup_gpu("RTX 4090"), 8), desk_box(lookup_gpu("H100"), 1)
        (None, None)
    """
    if gpu.gpu_class != "consumer" or gpus_on_node > DESK_MAX_GPUS:
        return None
    return "workstation" if gpus_on_node >= WORKSTATION_MIN_GPUS else "desktop"


def host_ram_assumption(
    gpu: GPU, gpus_on_node: int, available_bytes: float, required_bytes: float = 0.0
) -> Msg:
    """The host RAM an offloading plan was given by default, said as an assumption the user
    should replace ("按 512 GiB 主机内存假设…；请告诉我实际内存"); with `required_bytes` (an
    offload past the standard configuration), the RAM it needs, as a condition to check.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> said = host_ram_assumption(lookup_gpu("910B"), 8, 512 * 2**30)
        >>> said.key, said["server"].key
        ('training.host_ram_note', 'training.host_server.davinci')
        >>> host_ram_assumption(lookup_gpu("910B"), 8, 2 * 2**40, 636e9).key
        'training.host_ram_condition'
    """
    default = host_ram_default(gpu, gpus_on_node)
    name = _class_of(default)
    if required_bytes:
        return Msg(
            "training.host_ram_condition",
            required=required_bytes,
            max=default.max_bytes_per_node,
            server=Msg(f"training.host_server.{name}"),
            max_source=Msg(f"training.host_max.{name}"),
        )
    return Msg(
        "training.host_ram_note",
        ram=available_bytes,
        server=Msg(f"training.host_server.{name}"),
        source=Msg(f"training.host_source.{name}"),
    )


def host_ram_condition(gpu: GPU, gpus_on_node: int, required_bytes: float) -> Msg:
    """A fix's clause for an offload past the standard configuration of an unstated host RAM:
    the RAM each node needs, and the most its server class can be configured with.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> said = host_ram_condition(lookup_gpu("910B"), 8, 636e9)
        >>> said.key, said["max"] / 2**40
        ('suggest.host.needs', 2.0)
    """
    default = host_ram_default(gpu, gpus_on_node)
    server = Msg(f"training.host_server.{_class_of(default)}")
    maximum = default.max_bytes_per_node
    return Msg("suggest.host.needs", need=required_bytes, max=maximum, server=server)


def _class_of(default: HostRamDefault) -> str:
    """The server class of a default (its key in HOST_RAM_DEFAULTS): the catalog words of its
    server and source are `training.host_server.<class>` / `training.host_source.<class>`."""
    return next(name for name, one in HOST_RAM_DEFAULTS.items() if one is default)


@dataclass(frozen=True)
class HostRam:
    """What offloading puts in one node's host memory, against what it has."""

    needed_bytes_per_node: float
    available_bytes_per_node: float
    usable_bytes_per_node: float
    cpu_step_seconds: float
    """One CPU Adam step over the node's offloaded parameters (memory-bound)."""
    given: bool
    message: Msg
    configured_bytes_per_node: float = 0.0
    """With no host RAM given: the standard configuration (and option) the offload outgrew,
    planned on the server's configurable maximum instead (0 when it fits the standard one or
    the RAM was given). The answer states the RAM needed as a condition."""

    @property
    def required_bytes_per_node(self) -> float:
        """The host RAM a node must have for the offloaded states (usable share 80%)."""
        return self.needed_bytes_per_node / HOST_USABLE_FRACTION

    @property
    def fits(self) -> bool:
        """True when the offloaded states fit the usable host RAM."""
        return self.needed_bytes_per_node <= self.usable_bytes_per_node


def host_ram(
    *,
    gpu: GPU,
    offloaded_bytes_per_gpu: float,
    gpus_on_node: int,
    host_ram_bytes: float | None = None,
    optimizer_state_bytes_per_param: float = 14.0,
    optimizer_params_per_gpu: float | None = None,
) -> HostRam:
    """Host RAM offloading needs per node and the CPU optimizer step time.

    ``offloaded_bytes_per_gpu`` is the gradients + optimizer states one GPU moved to the host;
    the node holds ``gpus_on_node`` of them. The CPU step reads and writes
    CPU_ADAM_BYTES_PER_PARAM per parameter at the node's host memory bandwidth.
    ``optimizer_params_per_gpu`` (a LoRA/QLoRA frozen base offloaded under FSDP) names the
    parameters the CPU Adam updates, the adapters: the offloaded base is read, never stepped.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> h = host_ram(gpu=lookup_gpu("A100 80GB"), offloaded_bytes_per_gpu=14 * 70e9 / 8,
        ...              gpus_on_node=8)  # Llama-2-70B full fine-tune on one node
        >>> round(h.needed_bytes_per_node / 1e9), h.fits  # 980 GB > 80% of 1 TiB: 2 TiB option
        (980, True)
        >>> h.available_bytes_per_node / 2**40
        2.0
        >>> host_ram(gpu=lookup_gpu("A100 80GB"), offloaded_bytes_per_gpu=14 * 70e9 / 8,
        ...          gpus_on_node=8, host_ram_bytes=1e12).fits  # a stated 1 TB decides
        False
    """
    default = host_ram_default(gpu, gpus_on_node)
    needed = offloaded_bytes_per_gpu * gpus_on_node
    available = host_ram_bytes or default.bytes_per_node
    if not host_ram_bytes and needed > HOST_USABLE_FRACTION * available:
        available = max(available, default.option_bytes_per_node)
    standard = 0.0
    if not host_ram_bytes and needed > HOST_USABLE_FRACTION * available:
        if needed <= HOST_USABLE_FRACTION * default.max_bytes_per_node:
            standard, available = available, default.max_bytes_per_node
    base = optimizer_params_per_gpu is not None
    params = (
        optimizer_params_per_gpu * gpus_on_node
        if optimizer_params_per_gpu is not None
        else needed / optimizer_state_bytes_per_param
    )
    what = Msg("training.offloaded_base" if base else "training.offloaded_states")
    bandwidth = (
        _DESKTOP_BANDWIDTH_BYTES_PER_S
        if gpu.gpu_class == "consumer"
        else HOST_BANDWIDTH_BYTES_PER_S
    )
    step = params * CPU_ADAM_BYTES_PER_PARAM / bandwidth
    usable = HOST_USABLE_FRACTION * available
    figures: dict[str, Msg | float] = {
        "what": what,
        "needed_bytes": needed,
        "available_bytes": available,
        "usable_bytes": usable,
        "cpu_step_seconds": step,
    }
    given = host_ram_bytes is not None
    message = _said(default, figures, given, standard, needed)
    return HostRam(needed, available, usable, step, given, message, standard)


def _said(
    default: HostRamDefault,
    figures: dict[str, Msg | float],
    given: bool,
    standard: float,
    needed: float,
) -> Msg:
    """The memory check's sentence on the host RAM: given, assumed, or (`standard` > 0) needed
    beyond the standard configuration, within the server's configurable maximum."""
    if given:
        return Msg("training.host_ram_given", **figures)
    name = _class_of(default)
    server = Msg(f"training.host_server.{name}")
    if standard:
        return Msg(
            "training.host_ram_beyond",
            **figures,
            required_bytes=needed / HOST_USABLE_FRACTION,
            standard_bytes=standard,
            server=server,
            max_source=Msg(f"training.host_max.{name}"),
        )
    source = Msg(f"training.host_source.{name}")
    return Msg("training.host_ram_assumed", **figures, server=server, source=source)
