"""A family and a size with no version ("Qwen-14B", "Qwen 72B", "千问7B") is no catalog entry:
Qwen-14B (Qwen 1.0) is another model than Qwen2.5-14B, so the answer says the name is not in
the catalog, offers the family's entries of that size and evaluates a generic model of the
size; a versioned name ("Qwen2.5-14B", "qwen2.5 14b", "Qwen3-8B") keeps its entry."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.names import closest_entries


@pytest.mark.parametrize(
    ("question", "name", "entry"),
    [
        ("Can one A100 80GB run Qwen-14B inference?", "Qwen-14B", "Qwen2.5-14B"),
        ("Qwen 72B inference on 4x A100?", "Qwen 72B", "Qwen2.5-72B"),
        ("单卡4090能跑千问7B推理吗", "千问7B", "Qwen2.5-7B"),
        ("通义千问72B 用 4 张 A800 推理", "通义千问72B", "Qwen2.5-72B"),
    ],
)
def test_a_versionless_name_is_not_replaced(question: str, name: str, entry: str) -> None:
    query = parse(question)
    assert query.scenario.model is None
    assert [n.lower() for n in query.unknown_names] == [name.lower()]
    assert entry in closest_entries(name)[1]
    lead = calculate(query).lead
    assert "not in the catalog" in lead or "不在目录中" in lead


def test_the_family_entries_of_that_size_are_offered() -> None:
    assert sorted(closest_entries("Qwen-14B")[1]) == ["Qwen1.5-14B", "Qwen2.5-14B", "Qwen3-14B"]


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("Can one H100 serve Qwen2.5-14B?", "Qwen2.5-14B"),
        ("qwen2.5 14b on an L40S, does it fit?", "Qwen2.5-14B"),
        ("Qwen3-8B 单卡4090推理可以吗", "Qwen3-8B"),
        ("通义千问2.5-72B 用 4 张 A800 推理", "Qwen2.5-72B"),
    ],
)
def test_a_versioned_name_keeps_its_entry(question: str, entry: str) -> None:
    query = parse(question)
    assert query.scenario.model == entry
    assert not query.unknown_names
