"""`ask --json` reports scenario.expert_parallel as the user's slot: the degree stated
("EP8"), else null, like every other slot of `scenario` that is not a layout the planner
reports as evaluated; a derived degree is said in the assumptions, in words."""

from __future__ import annotations

from assistant.config import Settings
from assistant.pipeline import answer
from assistant.render.serialize import answer_to_json

_JOB = "Can 64x H100 train DeepSeek-V3 on 1T tokens in 60 days"


def _json(question: str) -> dict[str, object]:
    return answer_to_json(answer(question, settings=Settings(), retriever=None))


def test_an_unstated_expert_degree_is_null_and_said_as_derived() -> None:
    data = _json(_JOB + "?")
    scenario = data["scenario"]
    assert isinstance(scenario, dict)
    assert scenario["expert_parallel"] is None
    # the planner's own degree is in the set-up it assumed, not passed off as a stated slot
    assert any("expert parallel EP=" in str(a) for a in data["assumptions"])  # type: ignore[attr-defined]


def test_a_stated_expert_degree_is_reported_as_stated() -> None:
    data = _json(_JOB + " with EP8?")
    scenario = data["scenario"]
    assert isinstance(scenario, dict)
    assert scenario["expert_parallel"] == 8


def test_a_dense_model_has_no_expert_degree() -> None:
    data = _json("Can 8x H100 fine-tune Llama-3-70B with LoRA on 100M tokens?")
    scenario = data["scenario"]
    assert isinstance(scenario, dict)
    assert scenario["expert_parallel"] is None
