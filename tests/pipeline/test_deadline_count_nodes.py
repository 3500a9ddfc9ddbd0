"""A training count past 32 nodes is a whole number of 8-node groups: the layout search needs
pipeline and expert-parallel degrees that divide the cluster, and 249 nodes (3 x 83) have none."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.calculate.focus import needed_gpus
from assistant.parse import parse
from assistant.records import Check


def _checks(memory: float, deadline: float | None) -> tuple[Check, ...]:
    compute = {} if deadline is None else {"gpus_for_deadline": deadline}
    return (
        Check(kind="memory", verdict="ok", summary="", figures={"min_gpus": memory}),
        Check(kind="compute", verdict="ok", summary="", figures=compute),
    )


def test_a_large_deadline_count_is_rounded_to_groups_of_eight_nodes() -> None:
    assert needed_gpus(_checks(152, 1992), 8) == 2048  # 249 nodes -> 256
    assert needed_gpus(_checks(16, 543), 8) == 576  # 68 nodes -> 72
    assert needed_gpus(_checks(2, 65), 8) == 72  # 9 nodes: small counts stay whole nodes


def test_a_memory_count_is_only_whole_nodes() -> None:
    assert needed_gpus(_checks(1992, None), 8) == 1992  # serving replicas need no such split
    assert needed_gpus(_checks(3, None), 8) == 3


def test_deepseek_v3_in_two_months_is_about_the_published_cluster() -> None:
    # DeepSeek-V3 report: 2,048 H800 for ~54 days of pre-training (2.664M GPU-hours, Table 1)
    outcome = calculate(
        parse(
            "how many H800s would we need to pretrain DeepSeek-V3 from scratch (14.8T tokens)"
            " in 2 months?"
        )
    )
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 2048
    assert "2,048" in outcome.lead.split(".")[0]
