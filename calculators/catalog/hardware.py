"""GPU and interconnect catalogs, loaded once from ``calculators/catalog/data/*.json``.

Every figure keeps its unit in SI base units (bytes, bytes/s, FLOP/s, watts) and its public source.
Compute peaks are DENSE tensor-core rates: the 2:4-sparsity figures that datasheets print first
are never used. GeForce cards carry the FP32-accumulate tensor rate (what mixed precision uses).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from calculators.catalog.names import build_alias_index, normalize_name, resolve
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = [
    "DTYPE_BYTES",
    "GPU",
    "GPUS",
    "LINKS",
    "PRECISIONS",
    "Link",
    "gpu_alias_index",
    "link_alias_index",
    "lookup_gpu",
    "lookup_link",
    "nvlink_bridge",
]

#: Bytes per element of each number format (int4/nf4 are half a byte; scales are extra).
DTYPE_BYTES: Mapping[str, float] = MappingProxyType(
    {
        "fp32": 4.0,
        "tf32": 4.0,
        "bf16": 2.0,
        "fp16": 2.0,
        "fp8": 1.0,
        "int8": 1.0,
        "int4": 0.5,
        "nf4": 0.5,
    }
)

#: Precisions a GPU can be asked for in ``GPU.dense_flops_per_s``.
PRECISIONS = ("bf16", "fp16", "fp8", "int8", "fp32")
#: NVIDIA architectures with no FP8 tensor cores that still serve FP8 weights, weight-only (W8A16:
#: FP8 weights dequantized to 16-bit in the kernel, 16-bit matrix multiplies): "FP8 models will run
#: on compute capability >= 7.5 (Turing) as weight-only W8A16, utilizing FP8 Marlin"
#: (https://docs.vllm.ai/en/stable/features/quantization/fp8/). Volta (7.0) and Pascal are below.
FP8_WEIGHT_ONLY_ARCHITECTURES = frozenset({"turing", "ampere"})


@dataclass(frozen=True)
class Link:
    """An interconnect, with its bandwidth per direction.

    Attributes:
        name: canonical name, e.g. "NVLink 4" or "InfiniBand NDR".
        kind: "pcie", "nvlink", "ethernet", "infiniband", "hccs" or "infinity-fabric".
        bytes_per_s: bandwidth in ONE direction (datasheets often print both directions summed).
        latency_s: per-message latency, a planning estimate.
        rdma: True when the GPUs exchange data without the host TCP stack (NVLink, IB, RoCE...).
    """

    name: str
    kind: str
    bytes_per_s: float
    latency_s: float
    rdma: bool
    aliases: tuple[str, ...]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class GPU:
    """One accelerator variant with datasheet figures in SI base units.

    ``None`` in a FLOP/s field means the chip has no such mode (V100 and T4 have no BF16; V100,
    T4, A100 and A800 have no FP8). ``memory_bytes`` is the datasheet capacity in decimal bytes
    (80 GB = 80e9 B); the driver reports slightly more (A100 80GB shows 81920 MiB).

    Examples:
        >>> gpu = lookup_gpu("A100 80G")
        >>> gpu.name, gpu.memory_bytes, gpu.dense_flops_per_s("bf16")
        ('A100 SXM 80GB', 80000000000.0, 312000000000000.0)
    """

    name: str
    vendor: str
    gpu_class: str
    architecture: str
    memory_bytes: float
    memory_bandwidth_bytes_per_s: float
    bf16_flops_per_s: float | None
    fp16_flops_per_s: float | None
    fp8_flops_per_s: float | None
    int8_ops_per_s: float | None
    fp32_flops_per_s: float | None
    intra_link: str
    intra_link_bytes_per_s: float
    pcie_gen: int
    tdp_watts: float
    aliases: tuple[str, ...]
    sources: tuple[str, ...]
    notes: str
    confidence: str

    def dense_flops_per_s(self, precision: str) -> float:
        """Dense peak FLOP/s (OP/s for int8) at ``precision``: bf16, fp16, fp8, int8 or fp32.

        Raises:
            CalculatorInputError: the chip has no such mode; the message suggests one it has.

        Examples:
            >>> lookup_gpu("H100").dense_flops_per_s("fp8")
            1978900000000000.0
        """
        key, field = str(precision).strip().lower(), "precision"
        if key not in PRECISIONS:
            reason = Msg("invalid.one_of", options=tuple(PRECISIONS))
            raise CalculatorInputError(field, precision, reason)
        value = self._peaks()[key]
        if value is None:
            hint = self.default_training_precision()
            reason = Msg("invalid.no_tensor_mode", gpu=self.name, mode=key.upper(), hint=hint)
            raise CalculatorInputError(field, precision, reason)
        return value

    def supports(self, precision: str) -> bool:
        """True when the chip has a peak rate for ``precision``."""
        return self._peaks().get(str(precision).lower()) is not None

    def fp8_weight_only(self) -> bool:
        """True when FP8 weights run on this chip only weight-only (W8A16, vLLM FP8 Marlin): an
        NVIDIA Turing or Ampere chip, which has no FP8 tensor mode.

        Examples:
            >>> [lookup_gpu(n).fp8_weight_only() for n in ("A100", "RTX 3090", "V100", "H100")]
            [True, True, False, False]
        """
        return (
            not self.supports("fp8")
            and self.vendor == "NVIDIA"
            and self.architecture in FP8_WEIGHT_ONLY_ARCHITECTURES
        )

    def default_training_precision(self) -> str:
        """ "bf16" where the chip has it, else "fp16" (V100, T4, Ascend 910), else "fp32" where
        FP16 runs slower than FP32 (Pascal GP102: the P40 does FP16 at 1/64 of FP32).

        Examples:
            >>> [lookup_gpu(n).default_training_precision() for n in ("A100", "V100", "P40")]
            ['bf16', 'fp16', 'fp32']
        """
        if self.bf16_flops_per_s is not None:
            return "bf16"
        fp16, fp32 = self.fp16_flops_per_s or 0.0, self.fp32_flops_per_s or 0.0
        return "fp16" if fp16 >= fp32 else "fp32"

    def default_cache_dtype(self) -> str:
        """The 16-bit format a KV cache is stored in beside 8- or 4-bit weights: "bf16" where
        the chip has it, else "fp16", a storage format every card holds even where FP16 math
        is slow (Pascal: llama.cpp's default cache type is f16, `--cache-type-k`; vLLM's
        kv_cache_dtype "auto" is the model dtype).

        Examples:
            >>> [lookup_gpu(n).default_cache_dtype() for n in ("A100", "V100", "P40")]
            ['bf16', 'fp16', 'fp16']
        """
        return "bf16" if self.bf16_flops_per_s is not None else "fp16"

    def _peaks(self) -> dict[str, float | None]:
        return {
            "bf16": self.bf16_flops_per_s,
            "fp16": self.fp16_flops_per_s,
            "fp8": self.fp8_flops_per_s,
            "int8": self.int8_ops_per_s,
            "fp32": self.fp32_flops_per_s,
        }


def _load(filename: str) -> dict[str, Any]:
    path = resources.files("calculators.catalog").joinpath("data").joinpath(filename)
    text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _scaled(value: float | None, factor: float) -> float | None:
    return None if value is None else float(value) * factor


def _link_from_row(row: Mapping[str, Any]) -> Link:
    return Link(
        name=row["name"],
        kind=row["kind"],
        bytes_per_s=float(row["bandwidth_GBps_per_direction"]) * 1e9,
        latency_s=float(row["latency_us"]) * 1e-6,
        rdma=bool(row["rdma"]),
        aliases=tuple(row["aliases"]),
        sources=tuple(row["sources"]),
    )


def _gpu_from_row(row: Mapping[str, Any], links: Mapping[str, Link]) -> GPU:
    sources = tuple(f"{group}: {text}" for group, text in row["sources"].items())
    return GPU(
        name=row["name"],
        vendor=row["vendor"],
        gpu_class=row["gpu_class"],
        architecture=row["architecture"],
        memory_bytes=float(row["memory_GB"]) * 1e9,
        memory_bandwidth_bytes_per_s=float(row["memory_bandwidth_TBps"]) * 1e12,
        bf16_flops_per_s=_scaled(row["bf16_dense_TFLOPS"], 1e12),
        fp16_flops_per_s=_scaled(row["fp16_dense_TFLOPS"], 1e12),
        fp8_flops_per_s=_scaled(row["fp8_dense_TFLOPS"], 1e12),
        int8_ops_per_s=_scaled(row["int8_dense_TOPS"], 1e12),
        fp32_flops_per_s=_scaled(row["fp32_TFLOPS"], 1e12),
        intra_link=row["intra_link"],
        intra_link_bytes_per_s=links[row["intra_link"]].bytes_per_s,
        pcie_gen=int(row["pcie_gen"]),
        tdp_watts=float(row["tdp_W"]),
        aliases=tuple(row["aliases"]),
        sources=sources,
        notes=row["notes"],
        confidence=row["confidence"],
    )


def _name_permutations(name: str) -> list[str]:
    """ "A100 SXM 80GB" -> also "A100 80GB SXM": the family first, the rest in any order."""
    family, *rest = name.split()
    if family in {"RTX", "Ascend"} and rest:
        family, rest = f"{family} {rest[0]}", rest[1:]
    return [" ".join((family, *order)) for order in itertools.permutations(rest)]


LINKS: Mapping[str, Link] = MappingProxyType(
    {link.name: link for link in map(_link_from_row, _load("links.json")["links"])}
)
#: The shipped GPUs, plus user cards added through `calculators.catalog.extend` (read-only view).
_GPUS: dict[str, GPU] = {
    gpu.name: gpu for gpu in (_gpu_from_row(r, LINKS) for r in _load("gpus.json")["gpus"])
}
GPUS: Mapping[str, GPU] = MappingProxyType(_GPUS)
_GPU_ALIASES: dict[str, str] = build_alias_index(
    ((g.name, (*g.aliases, *_name_permutations(g.name))) for g in GPUS.values()), "GPU"
)
_GPU_INDEX: Mapping[str, str] = MappingProxyType(_GPU_ALIASES)
#: PCIe card -> the link its NVLink bridge gives (`bridge_for` in links.json, with its source).
_BRIDGES: Mapping[str, str] = MappingProxyType(
    {
        card: row["name"]
        for row in _load("links.json")["links"]
        for card in row.get("bridge_for", ())
    }
)
_LINK_INDEX: Mapping[str, str] = MappingProxyType(
    build_alias_index(((k.name, k.aliases) for k in LINKS.values()), "link")
)


def lookup_gpu(name: str) -> GPU:
    """The catalog GPU for a name or alias, ignoring case, spaces, hyphens and vendor words.

    A bare family name means its training variant ("A100" -> "A100 SXM 80GB"). A generic
    card's name ("48GB GPU", `calculators.catalog.generic`) gives that generic card.

    Raises:
        UnknownNameError: not in the catalog; ``suggestions`` holds the closest entries.

    Examples:
        >>> lookup_gpu("昇腾910B").name
        'Ascend 910B 64GB'
        >>> lookup_gpu("rtx4090").name
        'RTX 4090 24GB'
        >>> lookup_gpu("h100 pcie").name
        'H100 PCIe 80GB'
        >>> lookup_gpu("48GB GPU").memory_bytes
        48000000000.0
    """
    from calculators.catalog.generic import generic_gpu, generic_memory

    memory = generic_memory(name)
    if memory is not None:
        return generic_gpu(memory)
    return GPUS[resolve(str(name), _GPU_INDEX, "gpu", GPUS)]


def lookup_link(name: str) -> Link:
    """The catalog interconnect for a name or alias ("400G IB", "万兆", "RoCE", "NVLink 4").

    Raises:
        UnknownNameError: not in the catalog; ``suggestions`` holds the closest entries.

    Examples:
        >>> lookup_link("400G IB").name
        'InfiniBand NDR'
        >>> lookup_link("万兆").bytes_per_s
        1250000000.0
        >>> lookup_link("100Gb/s RoCE").name
        '100GbE RoCE'
    """
    text = str(name)
    # "400Gbps" / "400Gb/s" are the same link speed as "400G".
    key = _BIT_RATE.sub(r"\1gb", normalize_name(text))
    if key in _LINK_INDEX:
        return LINKS[_LINK_INDEX[key]]
    return LINKS[resolve(text, _LINK_INDEX, "link", LINKS)]


_BIT_RATE = re.compile(r"(\d)gb(?:ps|s)(?!e)")


def gpu_alias_index() -> Mapping[str, str]:
    """Normalized alias -> canonical GPU name; normalize text with ``normalize_name`` to match."""
    return _GPU_INDEX


def nvlink_bridge(gpu: str) -> str | None:
    """The link name an NVLink bridge gives this PCIe card, or None when the catalog knows none.

    Examples:
        >>> nvlink_bridge("A100 PCIe 80GB"), nvlink_bridge("RTX 3090 24GB")
        ('NVLink 3', 'NVLink bridge (GA102)')
        >>> nvlink_bridge("L40S 48GB") is None
        True
    """
    return _BRIDGES.get(gpu)


def link_alias_index() -> Mapping[str, str]:
    """Normalized alias -> canonical link name; normalize text with ``normalize_name`` to match."""
    return _LINK_INDEX


def _check_catalog() -> None:
    for gpu in GPUS.values():
        if normalize_name(gpu.intra_link) not in _LINK_INDEX:
            msg = f"{gpu.name}: unknown intra_link {gpu.intra_link!r}"
            raise ValueError(msg)


_check_catalog()
