"""The time-against-GPU-count series: every point is the planner's, the user's point is the
answer's own figure, and the deadline is the one the question states."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.records import Check


def _figure(checks: tuple[Check, ...], kind: str, key: str) -> object:
    return next(c.figures.get(key) for c in checks if c.kind == kind)


def test_training_series_around_the_users_count() -> None:
    outcome = calculate(parse("用8张H100训练7B模型，1T token，30天内能完成吗？"))
    scaling = outcome.scaling
    assert scaling is not None
    assert scaling.metric == "seconds"
    assert scaling.gpu_count == 8
    assert scaling.deadline_seconds == 30 * 86400
    counts = [p.gpu_count for p in scaling.points]
    assert counts == sorted(counts)
    assert {4, 8, 16} <= set(counts)
    mine = next(p for p in scaling.points if p.gpu_count == 8)
    assert mine.value == _figure(outcome.checks, "compute", "seconds")
    assert _figure(outcome.checks, "compute", "gpus_for_deadline") in counts
    timed = [p.value for p in scaling.points if p.value is not None]
    assert timed == sorted(timed, reverse=True)  # more GPUs, less time
    assert scaling.assumed_inter_link is not None  # 16 GPUs span two nodes; none was stated


def test_serving_series_is_throughput_without_a_deadline() -> None:
    outcome = calculate(parse("8张H100部署Llama-2-70B推理，32并发"))
    scaling = outcome.scaling
    assert scaling is not None
    assert scaling.metric == "tokens_per_second"
    assert scaling.deadline_seconds is None
    mine = next(p for p in scaling.points if p.gpu_count == scaling.gpu_count)
    assert mine.value == _figure(outcome.checks, "compute", "decode_tokens_per_s_all_replicas")


def test_a_concept_question_has_no_series() -> None:
    assert calculate(parse("ZeRO-3 是什么？")).scaling is None


def test_the_fewest_count_that_fits_is_found_with_the_answers_layout() -> None:
    """2 × A100 cannot hold Llama-2-70B with 100 sequences at TP 2; the series finds the
    fewest TP-2 copies that can, and one copy fewer does not fit (checked by the planner)."""
    from assistant.calculate.layouts import evaluate_best
    from assistant.calculate.outcome import _resolve, main_ask
    from assistant.calculate.scaling import _fewest_fitting, _fits

    query = parse("2张A100部署Llama-2-70B推理，100并发")
    evaluation, _ = evaluate_best(_resolve(query, None, main_ask(query)).scenario, "zh", None)
    plan = evaluation.plan
    fewest = _fewest_fitting(plan)
    assert fewest is not None
    assert fewest > plan.gpus
    assert _fits(plan, fewest)
    assert not _fits(plan, fewest - plan.tensor_parallel)
    scaling = calculate(query).scaling
    assert scaling is not None
    fitting = [p for p in scaling.points if p.memory_fits]
    assert fitting[0].gpu_count == fewest
    assert all(p.value is None for p in scaling.points if not p.memory_fits)


def test_the_series_is_in_ask_json_and_survives_the_store() -> None:
    from assistant.render.serialize import answer_from_record, answer_to_json, answer_to_record
    from tests.tui.chart_samples import TRAINING_SCALING, training_answer

    answer = training_answer("en")
    data = answer_to_json(answer)["scaling"]
    assert data["metric"] == "seconds"
    assert [p["gpu_count"] for p in data["points"]] == [2, 4, 8, 16, 51]
    assert data["points"][0] == {"gpu_count": 2, "value": None, "memory_fits": False}
    assert answer_from_record(answer_to_record(answer)).scaling == TRAINING_SCALING
