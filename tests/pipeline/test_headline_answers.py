"""The first sentence answers what was asked (issue 10): the failing resource by its name, the
speed or run time asked kept beside a tight memory, a stated deadline first, the stored and
the plain weight size side by side, the KV cache total with its GiB after the phrase, and a
concept question answered by a sentence of the passage that names it."""

from __future__ import annotations

import pytest

from assistant.calculate.headline import headline
from assistant.records import Check

DAY = 86400.0
#: GPU memory fits (27.2 of 72 GB) but the offloaded Adam states need 1,018 GB of host RAM per
#: node against 256 GB (80% of it usable: 204.8 GB): 1,018 / 204.8 = 5.0x over.
HOST_FAILS = Check(
    kind="memory",
    verdict="fail",
    summary="",
    figures={
        "required_bytes_per_gpu": 27.2e9,
        "available_bytes_per_gpu": 72e9,
        "host_ram_needed_bytes_per_node": 1017.9e9,
        "host_ram_bytes_per_node": 256e9,
    },
)
TIGHT = Check(
    kind="memory",
    verdict="tight",
    summary="",
    figures={"required_bytes_per_gpu": 70.7e9, "available_bytes_per_gpu": 72e9},
)
SPEED = Check(kind="compute", verdict="ok", summary="Decode about 34.0 tokens/s per sequence.")
FITS = Check(
    kind="memory",
    verdict="ok",
    summary="",
    figures={"required_bytes_per_gpu": 43.9e9, "available_bytes_per_gpu": 72e9},
)
IN_TIME = Check(
    kind="compute",
    verdict="ok",
    summary="",
    figures={"seconds": 28 * 3600.0, "deadline_seconds": 10 * DAY},
)


@pytest.mark.parametrize(
    ("language", "named", "absent"),
    [
        ("en", "Host RAM does not fit the offloaded states: 1.0 TB needed per node", "Fits in"),
        ("zh", "主机内存放不下卸载的状态：每节点需要 1.0 TB，256.0 GB 中可用 204.8 GB", "显存够："),
    ],
)
def test_a_host_ram_failure_is_named_not_called_a_fit(
    language: str, named: str, absent: str
) -> None:
    text = headline("infeasible", (HOST_FAILS,), "memory", None, language, "A100")  # type: ignore[arg-type]
    assert text.startswith(named)
    assert "5.0" in text  # 1,017.9 / 204.8 usable
    assert absent not in text


def test_a_tight_memory_keeps_the_speed_asked() -> None:
    text = headline("feasible", (TIGHT, SPEED), None, None, "en", "H100")
    assert text.startswith("Tight on memory: 70.7 GB of 72.0 GB")
    assert "speed: decode about 34.0 tokens/s" in text


def test_a_stated_deadline_is_answered_first() -> None:
    asked = headline("feasible", (FITS, IN_TIME), None, None, "en", "H100", deadline_asked=True)
    assert asked.startswith("In time: about 28 h against a deadline of 10 days")
    unasked = headline("feasible", (FITS, IN_TIME), None, None, "en", "H100")
    assert unasked.startswith("Fits in memory")  # a default deadline does not lead
