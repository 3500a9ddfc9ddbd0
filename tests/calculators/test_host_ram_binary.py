"""Host-RAM defaults are DIMM totals, and DIMMs come in binary sizes: "8 x 32 GB" is 256 GiB
and a DGX H100's "2 TB" (32 x 64 GB) is 2 TiB. Every class says where its figure comes from
in both languages; the Ascend one, with no public Huawei configuration found, says it is a
planning assumption."""

from __future__ import annotations

import pytest

from assistant.i18n import catalog, text
from assistant.i18n.numbers import bytes_text
from calculators.catalog.hardware import lookup_gpu
from calculators.planner.host import HOST_RAM_DEFAULTS, host_ram, host_ram_default

GIB, TIB = 2**30, 2**40


@pytest.mark.parametrize(
    ("gpu", "on_node", "expected"),
    [
        ("H100", 8, 2 * TIB),  # DGX H100: 32 x 64 GB DIMMs
        ("H800", 8, 2 * TIB),
        ("B200", 8, 2 * TIB),
        ("A100", 8, 1 * TIB),  # DGX A100: 1 TB standard (2 TB option)
        ("V100", 8, 512 * GIB),  # DGX-1
        ("910B", 8, 512 * GIB),  # Atlas 800T A2: conservative assumption, no public figure
        ("L40S", 8, 512 * GIB),  # 2-socket PCIe server: 16 x 32 GB
        ("RTX 4090", 2, 128 * GIB),  # desktop: 4 x 32 GB
        ("RTX 4090", 3, 256 * GIB),  # boundary: a third card means a workstation, 8 x 32 GB
    ],
)
def test_defaults_are_binary_dimm_totals(gpu: str, on_node: int, expected: int) -> None:
    assert host_ram_default(lookup_gpu(gpu), on_node).bytes_per_node == expected


@pytest.mark.parametrize("name", sorted(HOST_RAM_DEFAULTS))
def test_every_class_is_whole_gib_and_worded_in_both_languages(name: str) -> None:
    default = HOST_RAM_DEFAULTS[name]
    for value in (
        default.bytes_per_node,
        default.option_bytes_per_node,
        default.max_bytes_per_node,
    ):
        assert value % GIB == 0
    if default.max_bytes_per_node:  # a configurable maximum says where it comes from
        assert default.max_bytes_per_node > max(
            default.bytes_per_node, default.option_bytes_per_node
        )
        entry = catalog()[f"training.host_max.{name}"]
        assert entry["en"]
        assert entry["zh"]
    for kind in ("server", "source"):
        entry = catalog()[f"training.host_{kind}.{name}"]  # a missing one was a KeyError
        assert entry["en"]
        assert entry["zh"]


def test_the_ascend_default_is_an_assumption_not_a_pcie_server() -> None:
    default = host_ram_default(lookup_gpu("910B"), 8)
    assert default is HOST_RAM_DEFAULTS["davinci"]
    assert "planning assumption" in default.source
    assert "规划假设" in catalog()["training.host_source.davinci"]["zh"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (256 * GIB, "256 GiB"),
        (2 * TIB, "2 TiB"),
        (1.5 * TIB, "1.5 TiB"),
        (256e9, "256.0 GB"),  # a stated decimal figure stays decimal
        (987.8e9, "987.8 GB"),  # a computed need
    ],
)
def test_host_ram_is_labelled_as_it_is(value: float, expected: str) -> None:
    assert bytes_text(value, "ram") == expected


def test_the_assumed_host_ram_is_said_in_binary() -> None:
    host = host_ram(gpu=lookup_gpu("910B"), offloaded_bytes_per_gpu=14 * 8.03e9 / 8, gpus_on_node=8)
    assert "assumed 512 GiB for a" in text(host.message, "en")
    assert "549.8 GB" not in text(host.message, "en")
    assert "512 GiB" in text(host.message, "zh")


def test_the_binary_standard_size_holds_what_decimal_did_not() -> None:
    """850 GB offloaded on a DGX A100: over 80% of a decimal 1 TB (800 GB), within 80% of the
    true 1 TiB (879.6 GB): the standard configuration suffices, no 2 TiB option needed."""
    host = host_ram(gpu=lookup_gpu("A100"), offloaded_bytes_per_gpu=850e9 / 8, gpus_on_node=8)
    assert host.fits
    assert host.available_bytes_per_node == TIB


@pytest.mark.parametrize(
    ("gpu", "on_node", "offloaded_per_gpu", "fits", "configured"),
    [
        # 8 x 61.7 GB = 494 GB > 80% of 512 GiB (440 GB), <= 80% of 2 TiB: planned on the max
        ("910B", 8, 61.7e9, True, True),
        ("910B", 8, 50e9, True, False),  # 400 GB fits the standard 512 GiB: no condition
        ("910B", 8, 230e9, False, False),  # 1.84 TB > 80% of 2 TiB (1.76 TB): stays short
        ("L40S", 8, 150e9, True, True),  # 1.2 TB on a 2-socket PCIe server (8 TiB max)
        ("H100", 8, 230e9, False, False),  # DGX H100: 2 TiB is its only configuration
    ],
)
def test_an_unstated_host_ram_is_planned_up_to_the_servers_maximum(
    gpu: str, on_node: int, offloaded_per_gpu: float, fits: bool, configured: bool
) -> None:
    host = host_ram(
        gpu=lookup_gpu(gpu), offloaded_bytes_per_gpu=offloaded_per_gpu, gpus_on_node=on_node
    )
    assert host.fits is fits
    assert bool(host.configured_bytes_per_node) is configured
    if configured:
        assert host.message.key == "training.host_ram_beyond"
        assert host.required_bytes_per_node == pytest.approx(on_node * offloaded_per_gpu / 0.8)


def test_a_stated_host_ram_is_never_raised_to_the_maximum() -> None:
    host = host_ram(
        gpu=lookup_gpu("910B"),
        offloaded_bytes_per_gpu=61.7e9,
        gpus_on_node=8,
        host_ram_bytes=512 * GIB,
    )
    assert not host.fits
    assert not host.configured_bytes_per_node
