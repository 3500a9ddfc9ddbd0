"""An amount of memory is no model size: "内存换成2T" is 2 TiB of host RAM, not a 2T model
(the follow-up was evaluated as a 2-trillion-parameter model needing 488 A100)."""

from __future__ import annotations

import pytest

from assistant.parse import parse

TIB = 2**40


@pytest.mark.parametrize(
    ("question", "params", "ram"),
    [
        # a verb between the memory word and the amount ("换成", "加到", "to")
        ("如果内存换成2T呢", None, 2 * TIB),
        ("主机内存换成2TB呢", None, 2 * TIB),
        ("内存加到1T呢", None, 1 * TIB),
        ("内存2T呢", None, 2 * TIB),
        ("what if the host RAM went to 2 TB?", None, 2 * TIB),
        ("and if RAM were upgraded to 1TB?", None, 1 * TIB),
        ("what if the ram was 512GB", None, 512 * 2**30),
        # the memory word after the amount; the model size elsewhere is still read
        ("2T内存的机器上训练70B", 70e9, 2 * TIB),
        ("8张A100，内存2T，ZeRO-3全参微调70B能跑吗", 70e9, 2 * TIB),
        # a T with no memory word stays a model size or, after a data word, tokens
        ("训练一个2T模型要多少卡", 2e12, None),
        ("1.8T参数的MoE训练要多久", 1.8e12, None),
    ],
)
def test_memory_amounts_are_host_ram_not_model_sizes(
    question: str, params: float | None, ram: float | None
) -> None:
    s = parse(question).scenario
    assert (s.params, s.host_ram_bytes) == (params, ram)


def test_the_follow_up_changes_the_ram_and_keeps_the_model() -> None:
    first = parse("8张A100 80G，ZeRO-3全参微调Llama-3.1-70B，主机内存512G，能跑吗")
    merged = parse("如果内存换成2T呢", previous=first).scenario
    assert (merged.model, merged.params) == ("Llama-3.1-70B", first.scenario.params)
    assert merged.host_ram_bytes == 2 * TIB
