"""A follow-up asking how many GPUs ("ok how many A100s would do it in 7 days then?") sizes the
count: the previous turn's count is not kept (that would judge the answer on the cards the
user asked to replace), the rest of the set-up is, and the answer says so."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.calculate.followup import changed_note
from assistant.parse import parse


def test_a_count_asked_in_a_follow_up_is_sized() -> None:
    first = parse("8x A100 80G for a week — can we do a full pretrain of a 3B on 100B tok?")
    assert first.scenario.gpu_count == 8
    then = parse("ok how many A100s would do it in 7 days then?", previous=first)
    assert then.followup
    assert then.scenario.gpu_count is None
    assert then.scenario.params == 3e9
    assert then.scenario.tokens == 100e9
    outcome = calculate(then)
    assert outcome.verdict == "feasible"
    assert outcome.scenario.gpu_count is not None
    assert outcome.scenario.gpu_count > 8
    assert "GPU count is left open" in changed_note(then)


def test_a_count_stated_in_a_follow_up_is_kept() -> None:
    first = parse("8张H100推理Llama-3-70B，20个并发")
    then = parse("那16张呢，需要几张A100？", previous=first)
    assert then.scenario.gpu_count == 16
