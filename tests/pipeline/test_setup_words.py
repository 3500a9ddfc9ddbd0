"""The evaluated hardware is said from the catalog in the answer's language (issue 10)."""

from __future__ import annotations

import pytest

from assistant.calculate.summaries import describe_setup, evaluated_on
from assistant.records import Scenario


@pytest.mark.parametrize(
    ("nodes", "per_node", "count", "lang", "expected"),
    [
        (None, None, 8, "zh", "1 台 8 张 H100"),
        (1, 8, 8, "en", "one node with 8 × H100"),
        (2, 8, 16, "zh", "2 台 × 8 张 H100（共 16 张）"),
        (2, 8, 16, "en", "2 nodes × 8 H100 (16 GPUs)"),
        # a large cluster: thousands separators in both languages, one-node text too
        (161, 8, 1288, "en", "161 nodes × 8 H100 (1,288 GPUs)"),
        (161, 8, 1288, "zh", "161 台 × 8 张 H100（共 1,288 张）"),
        (1, 1024, 1024, "en", "one node with 1,024 × H100"),
    ],
)
def test_setup_in_words(
    nodes: int | None, per_node: int | None, count: int, lang: str, expected: str
) -> None:
    scenario = Scenario(gpu="H100", gpu_count=count, nodes=nodes, gpus_per_node=per_node)
    assert describe_setup(scenario, lang) == expected  # type: ignore[arg-type]


def test_no_chinese_in_english_and_no_english_words_in_chinese() -> None:
    scenario = Scenario(gpu="H800", gpu_count=32, nodes=4, gpus_per_node=8)
    english, chinese = describe_setup(scenario, "en"), describe_setup(scenario, "zh")
    assert not any("\u4e00" <= c <= "\u9fff" for c in english)
    assert "nodes" not in chinese
    assert "GPUs" not in chinese


def test_evaluated_on_keeps_no_space_after_a_full_width_bracket() -> None:
    scenario = Scenario(gpu="H100", gpu_count=16, nodes=2, gpus_per_node=8)
    said = evaluated_on(scenario, Scenario(), "zh")
    assert said == "按 2 台 × 8 张 H100（共 16 张）评估。"
