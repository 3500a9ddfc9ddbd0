"""A GPU count past one server is also said as whole servers, in both languages."""

from __future__ import annotations

import pytest

from assistant.calculate.summaries import summarize
from assistant.calculate.whole_nodes import whole_nodes


@pytest.mark.parametrize(
    ("count", "per_node", "expected"),
    [
        (18, 8, (24, 3)),  # 18 is more than two nodes: three whole nodes
        (85, 8, (88, 11)),
        (104, 8, (104, 13)),  # already whole nodes
        (9, 8, (16, 2)),  # one GPU past a node is a second node
        (8, 8, None),  # fits in one node: nothing to add
        (3, 4, None),
        (12, 1, (16, 2)),  # a single card scales out as 8-GPU servers
    ],
)
def test_whole_nodes(count: int, per_node: int, expected: tuple[int, int] | None) -> None:
    said = whole_nodes(count, {"gpus_per_node": per_node}, "H800")
    if expected is None:
        assert said == ""
        return
    assert not isinstance(said, str)
    assert (said["gpus"], said["nodes"]) == expected


def test_a_count_of_whole_nodes_is_not_repeated() -> None:
    said = whole_nodes(16, {"gpus_per_node": 8}, "H800")
    assert not isinstance(said, str)
    assert said.key == "summary.whole_nodes_exact"
    figures = {"min_gpus": 16, "gpus_per_node": 8}
    assert "16 × H800 needed (= 2 nodes × 8)" in summarize("memory", "ok", figures, "en", "H800")


def test_no_per_node_figure_says_nothing() -> None:
    assert whole_nodes(18, {}, "H800") == ""


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "needs 85 × A100 (in whole nodes: 88 × A100 = 11 nodes × 8)"),
        ("zh", "需要 85 张 A100（按整台计：88 张 A100 = 11 台 × 每台 8 张）"),
    ],
)
def test_the_deadline_count_says_its_whole_nodes(language: str, expected: str) -> None:
    figures = {
        "gpus_for_deadline": 85,
        "deadline_seconds": 60 * 86_400.0,
        "gpus_per_node": 8,
    }
    assert expected in summarize("compute", "fail", figures, language, "A100")  # type: ignore[arg-type]


def test_the_memory_minimum_says_its_whole_nodes() -> None:
    figures = {"min_gpus": 18, "gpus_per_node": 8}
    said = summarize("memory", "fail", figures, "en", "H800")
    assert "least 18 × H800 needed (in whole nodes: 24 × H800 = 3 nodes × 8)" in said


def _count_answer(min_gpus: int, per_node: int | None, language: str) -> str:
    from assistant.calculate.focus import focus_sentence
    from assistant.records import Check, Scenario

    memory = Check("memory", "ok", "", figures={"min_gpus": min_gpus})
    scenario = Scenario(gpu="H20 96GB", gpus_per_node=per_node)
    return focus_sentence("gpu_count", (memory,), scenario, language, scenario)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("min_gpus", "per_node", "language", "expected"),
    [
        # 12 fit memory; past one 8-GPU node the count is whole nodes, said in the sentence
        (12, 8, "en", "You need at least 16 × H20 96GB (= 2 nodes × 8)."),
        (12, 8, "zh", "至少需要 16 张 H20 96GB（= 2 台 × 每台 8 张）。"),
        (32, 8, "en", "You need at least 32 × H20 96GB (= 4 nodes × 8)."),
        (8, 8, "en", "You need at least 8 × H20 96GB."),  # one node: no split
        (8, 8, "zh", "至少需要 8 张 H20 96GB。"),
        (6, 4, "en", "You need at least 8 × H20 96GB (= 2 nodes × 4)."),  # 4-GPU servers
        (9, None, "en", "You need at least 16 × H20 96GB (= 2 nodes × 8)."),  # default node
    ],
)
def test_a_count_past_one_node_says_its_nodes_first(
    min_gpus: int, per_node: int | None, language: str, expected: str
) -> None:
    assert _count_answer(min_gpus, per_node, language) == expected
