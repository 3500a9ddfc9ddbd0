"""Host RAM as the question states it ("512GB 内存", "1 TB of host memory"), read in the binary
units server memory is sold in, and the note that says so."""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, first_match, to_float
from calculators.messages import Msg

__all__ = ["host_ram_note", "read_host_ram"]

_RAM_UNITS = r"(tib|tb|t|gib|gb|g)"
_HOST_RAM = (
    re.compile(
        NUMBER + r"\s*" + _RAM_UNITS + r"\s*(?:of\s+|的)?\s*(?:主机|系统|cpu|host|system)?\s*"
        r"(?:内存|ram\b|dram\b|ddr\d?\b|memory on the host|host memory|cpu memory|system memory)"
    ),
    re.compile(
        r"(?:内存|host (?:ram|memory)|cpu (?:ram|memory)|system memory|\bram)\s*"
        r"(?:为|是|有|:|of|=|to|[改换变加升扩增][成为到]|升级到|扩容到|增加到|"
        r"(?:(?:is|was|were|got|gets)\s+)?(?:(?:went|goes|go|bumped|increased|upgraded|raised)"
        r"\s+(?:up\s+)?to)?)?\s*" + NUMBER + r"\s*" + _RAM_UNITS
    ),
)
#: Server memory is sold in binary sizes (DIMMs of 32 or 64 GiB; "2 TB" in a DGX H100 datasheet
#: is 32 x 64 GiB = 2 TiB), so a host RAM written "512GB" or "1TB" is 512 GiB or 1 TiB, as the
#: catalog's server classes count it (calculators.planner.host.HOST_RAM_DEFAULTS). Only a GB
#: figure written with decimals ("549.76 GB") is taken as decimal.
_RAM_BINARY = {"tib": 2**40, "tb": 2**40, "t": 2**40, "gib": 2**30, "gb": 2**30, "g": 2**30}
_RAM_WRITTEN = {"tib": "TiB", "tb": "TB", "t": "TB", "gib": "GiB", "gb": "GB", "g": "GB"}


def _host_ram_match(text: str) -> tuple[float, str, bool] | None:
    """(bytes, the amount as written, read as binary although written in decimal units)."""
    match = first_match(_HOST_RAM, text)
    if match is None:
        return None
    number, unit = match.group(1), match.group(2)
    written = f"{number} {_RAM_WRITTEN[unit]}"
    if unit in ("gb", "g") and "." in number:
        return to_float(number) * 1e9, written, False
    return to_float(number) * _RAM_BINARY[unit], written, "i" not in unit


def read_host_ram(text: str) -> float | None:
    """Host (CPU) memory in bytes when stated ("512GB 内存", "1TB RAM", "1 TB of RAM",
    "host RAM 256 GB"), in binary units as servers are sold.

    >>> read_host_ram("512gb内存") == 512 * 2**30, read_host_ram("2t内存") == 2 * 2**40
    (True, True)
    >>> read_host_ram("549.76 gb of ram")
    549760000000.0
    """
    found = _host_ram_match(text)
    return found[0] if found else None


def host_ram_note(text: str) -> Msg | None:
    """How a host RAM written in GB or TB was read (as GiB or TiB), for the answer to say."""
    found = _host_ram_match(text)
    if found is None or not found[2]:
        return None
    size, written, _ = found
    binary = written.replace("TB", "TiB").replace("GB", "GiB")
    return Msg("parse.host_ram_binary", written=written, binary=binary, size=size)
