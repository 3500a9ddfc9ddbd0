"""An offload planned on a default host RAM says the figure, in binary, as an assumption the
user should replace; first when it decides the verdict (brief answers show the first few)."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.parse import parse


def test_an_unstated_host_ram_past_the_standard_one_is_a_condition_not_the_verdict() -> None:
    # 14 B x 70.6e9 = 988 GB offloaded > 80% of the assumed 512 GiB of an Atlas 800T A2, but
    # within the 2 TiB a 2 x Kunpeng 920 node can be configured with: the default decides
    # nothing, the RAM needed (988 / 0.8 = 1.2 TB) is the condition, said with the maximum
    outcome = calculate(parse("8张910B用ZeRO-Offload全参微调Llama-3-70B可以吗"))
    assert outcome.verdict == "conditional"
    assert "卸载每节点需要 ≥ 1.2 TB 主机内存：问题未给出，请核对你的服务器" in outcome.lead
    said = [a for a in outcome.assumptions if a.startswith("问题没有给出主机内存")]
    assert said
    assert "2 TiB" in said[0]
    assert "鲲鹏 920" in said[0]  # the maximum's source


def test_a_stated_host_ram_too_small_decides() -> None:
    # a stated "1 TB" of server memory is 1 TiB (binary DIMMs): 80% usable is 879.6 GB < 988 GB
    query = parse("8张910B用ZeRO-Offload全参微调Llama-3-70B，主机内存 1 TB，可以吗")
    outcome = calculate(query)
    assert outcome.verdict == "infeasible"
    assert "1 TiB 中可用 879.6 GB" in outcome.lead
    assert any("主机内存 1 TB 按 1 TiB" in note for note in query.warnings)


def test_an_unstated_host_ram_past_the_servers_maximum_stays_infeasible() -> None:
    # 14 B x 405e9 = 5.7 TB offloaded on one node > the 2 TiB DGX A100 option (its maximum)
    outcome = calculate(
        parse("Can one node of 8 A100 80GB fully fine-tune Llama-3.1-405B with ZeRO-Offload?")
    )
    assert outcome.verdict == "infeasible"
    assert "check your servers" not in outcome.lead


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
