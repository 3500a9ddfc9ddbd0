"""Unit constants and display helpers.

Every calculator works in SI base units (bytes, FLOPs, FLOP/s, seconds, bytes/s). These helpers
only turn such a number into a label for display, with GB (10^9 bytes) and GiB (2^30 bytes) kept
apart and labelled correctly.
"""

from __future__ import annotations

import math

__all__ = [
    "GB",
    "KB",
    "MB",
    "PB",
    "PFLOPS",
    "TB",
    "TFLOPS",
    "GiB",
    "KiB",
    "MiB",
    "TiB",
    "format_bytes",
    "format_count",
    "format_flops",
    "format_rate",
    "format_seconds",
]

KB = 1e3
MB = 1e6
GB = 1e9
TB = 1e12
PB = 1e15
KiB = float(2**10)
MiB = float(2**20)
GiB = float(2**30)
TiB = float(2**40)
TFLOPS = 1e12
PFLOPS = 1e15

_DECIMAL = ((1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB"))
_BINARY = ((2.0**50, "PiB"), (2.0**40, "TiB"), (2.0**30, "GiB"), (2.0**20, "MiB"), (2.0**10, "KiB"))
_SI_PREFIXES = (
    (1e24, "Y"),
    (1e21, "Z"),
    (1e18, "E"),
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
)


def _not_finite(value: float) -> str | None:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return None


def format_bytes(value_bytes: float, *, binary: bool = False) -> str:
    """A byte count as a label: decimal (GB = 10^9) by default, binary (GiB = 2^30) on request.

    Examples:
        >>> format_bytes(80e9)
        '80.0 GB'
        >>> format_bytes(80e9, binary=True)
        '74.5 GiB'
        >>> format_bytes(327_680)
        '327.7 KB'
        >>> format_bytes(512)
        '512 B'
    """
    special = _not_finite(value_bytes)
    if special is not None:
        return f"{special} B"
    size = abs(value_bytes)
    for factor, unit in _BINARY if binary else _DECIMAL:
        if size >= factor:
            return f"{value_bytes / factor:.1f} {unit}"
    return f"{value_bytes:.0f} B"


def format_seconds(seconds: float) -> str:
    """A duration in the largest convenient unit (ms, s, min, h, days, years).

    Examples:
        >>> format_seconds(0.0123)
        '12.3 ms'
        >>> format_seconds(90)
        '1.5 min'
        >>> format_seconds(34 * 86400)
        '34.0 days'
    """
    special = _not_finite(seconds)
    if special is not None:
        return f"{special} s"
    size = abs(seconds)
    if size < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if size < 1:
        return f"{seconds * 1e3:.1f} ms"
    if size < 60:
        return f"{seconds:.1f} s"
    if size < 3600:
        return f"{seconds / 60:.1f} min"
    if size < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if size < 2 * 365.25 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):.1f} years"


def format_flops(flops: float) -> str:
    """A FLOP count (not a rate) in scientific notation.

    Examples:
        >>> format_flops(3.14e23)
        '3.14e23 FLOPs'
        >>> format_flops(0)
        '0 FLOPs'
    """
    special = _not_finite(flops)
    if special is not None:
        return f"{special} FLOPs"
    if flops == 0:
        return "0 FLOPs"
    mantissa, exponent = f"{flops:.2e}".split("e")
    return f"{mantissa}e{int(exponent)} FLOPs"


_COUNT_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"))


def format_count(value: float, *, unit: str = "") -> str:
    """A large count (tokens, parameters, GPU-hours) for people: a short form with T/B/M
    (trillion, billion, million) and, in brackets, the exact figure below 1e9 or the power of ten.

    Examples:
        >>> format_count(1.998e12, unit="tokens")
        '2.0 T tokens (2.0e12)'
        >>> format_count(3_862_920, unit="GPU-hours")
        '3.9 M GPU-hours (3,862,920)'
        >>> format_count(499_554, unit="steps")
        '499,554 steps'
        >>> format_count(0.25)
        '0.25'
    """
    special = _not_finite(value)
    tail = f" {unit}" if unit else ""
    if special is not None:
        return special + tail
    size = abs(value)
    for factor, suffix in _COUNT_SUFFIXES:
        if size >= factor:
            mantissa, exponent = f"{value:.1e}".split("e")
            exact = f"{value:,.0f}" if size < 1e9 else f"{mantissa}e{int(exponent)}"
            return f"{value / factor:.1f} {suffix}{tail} ({exact})"
    if float(value).is_integer():
        return f"{value:,.0f}{tail}"
    return f"{value:,.4g}{tail}" if size < 1e4 else f"{value:,.0f}{tail}"


def format_rate(value_per_s: float, *, unit: str = "B/s") -> str:
    """A rate with a decimal SI prefix: ``unit`` is "B/s", "b/s", "FLOP/s", "tokens/s"...

    Examples:
        >>> format_rate(312e12, unit="FLOP/s")
        '312.0 TFLOP/s'
        >>> format_rate(2.039e12)
        '2.0 TB/s'
        >>> format_rate(100e9, unit="b/s")
        '100.0 Gb/s'
        >>> format_rate(35.2, unit="tokens/s")
        '35.2 tokens/s'
    """
    special = _not_finite(value_per_s)
    if special is not None:
        return f"{special} {unit}"
    size = abs(value_per_s)
    for factor, prefix in _SI_PREFIXES:
        if size >= factor:
            return f"{value_per_s / factor:.1f} {prefix}{unit}"
    return f"{value_per_s:.1f} {unit}"
