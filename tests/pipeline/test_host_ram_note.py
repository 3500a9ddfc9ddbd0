"""An offload planned on a default host RAM says the figure, in binary, as an assumption the
user should replace; first when it decides the verdict (brief answers show the first few)."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.parse import parse


def test_an_assumed_host_ram_that_decides_is_said_first() -> None:
    # 14 B x 70.6e9 = 988 GB offloaded > 80% of the assumed 512 GiB of an Atlas 800T A2
    outcome = calculate(parse("8张910B用ZeRO-Offload全参微调Llama-3-70B可以吗"))
    assert outcome.verdict == "infeasible"
    first = outcome.assumptions[0]
    assert first.startswith("按 512 GiB 主机内存假设")
    assert "请告诉我实际内存" in first
    assert "512 GiB 中可用" in outcome.lead


def test_an_assumed_host_ram_that_fits_is_said_too() -> None:
    outcome = calculate(
        parse("Can one node of 8 H100 fully fine-tune Llama-2-70B with ZeRO-Offload?")
    )
    said = [a for a in outcome.assumptions if a.startswith("Host RAM assumed 2 TiB per node")]
    assert said
    assert "tell me the actual RAM" in said[0]


def test_a_stated_host_ram_is_not_an_assumption() -> None:
    outcome = calculate(parse("8张910B用ZeRO-Offload全参微调Llama-3-70B，主机内存 2 TB，可以吗"))
    assert not any("主机内存假设" in a for a in outcome.assumptions)
    assert outcome.verdict == "feasible"  # 988 GB < 80% of a stated 2 TB


def test_no_offload_no_host_ram_note() -> None:
    outcome = calculate(parse("8张H100 LoRA微调Llama-3-8B可以吗"))
    assert not any("主机内存假设" in a for a in outcome.assumptions)
