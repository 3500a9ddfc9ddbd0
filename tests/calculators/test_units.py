"""Display helpers: GB (1e9) and GiB (2^30) labelled correctly."""

from __future__ import annotations

import math

import pytest

from calculators.units import (
    GB,
    TB,
    TFLOPS,
    GiB,
    format_bytes,
    format_flops,
    format_rate,
    format_seconds,
)


def test_constants() -> None:
    assert GB == 1e9
    assert GiB == 2**30
    assert TB == 1e12
    assert TFLOPS == 1e12


@pytest.mark.parametrize(
    ("value", "binary", "label"),
    [
        (80e9, False, "80.0 GB"),  # an "80 GB" card in decimal units
        (80e9, True, "74.5 GiB"),  # the same bytes in binary units: not "80 GiB"
        (141e9, True, "131.3 GiB"),  # H200 (datasheet note)
        (2**30, True, "1.0 GiB"),
        (2**30, False, "1.1 GB"),
        (999, False, "999 B"),
        (1.5e15, False, "1.5 PB"),
        (math.nan, False, "nan B"),
    ],
)
def test_format_bytes(value: float, binary: bool, label: str) -> None:
    assert format_bytes(value, binary=binary) == label


@pytest.mark.parametrize(
    ("seconds", "label"),
    [
        (5e-6, "5.0 µs"),
        (0.25, "250.0 ms"),
        (59, "59.0 s"),
        (3600, "1.0 h"),
        (34 * 86400, "34.0 days"),
        (3 * 365.25 * 86400, "3.0 years"),
    ],
)
def test_format_seconds(seconds: float, label: str) -> None:
    assert format_seconds(seconds) == label


def test_format_flops_and_rates() -> None:
    assert format_flops(3.14e23) == "3.14e23 FLOPs"
    assert format_rate(989.4e12, unit="FLOP/s") == "989.4 TFLOP/s"
    assert format_rate(450e9) == "450.0 GB/s"
    assert format_rate(400e9, unit="b/s") == "400.0 Gb/s"
