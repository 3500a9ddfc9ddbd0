"""Two or three hardware options for the same job, side by side: one verdict and the key figure
per option, then which wins on what ("8×H20 vs 8×910B for 70B inference").

Parse puts each option's differing slots in `Query.options`; every option is evaluated as its
own question (its verdict respects what it states), and the answer's checks are the best one's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.i18n import text
from assistant.records import Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["compare_options", "merged"]

_RANK = {"feasible": 0, "conditional": 1, "infeasible": 2, "unknown": 3}


def merged(base: Scenario, option: Scenario) -> Scenario:
    """The question's scenario with the option's stated slots on top."""
    changes = {f.name: getattr(option, f.name) for f in fields(option)}
    return replace(base, **{k: v for k, v in changes.items() if v is not None})


def _hardware(s: Scenario) -> Msg:
    return Msg("common.gpus", count=s.gpu_count or 1, gpu=s.gpu or "GPU")


def _line(outcome: Outcome) -> tuple[Msg, float | None]:
    """The option's sentence and its score (time to finish, lower wins; or -throughput)."""
    s = outcome.scenario or Scenario()
    verdict = Msg(f"common.verdict.{outcome.verdict}")
    seconds = figure(outcome.checks, "compute", "seconds")
    if s.task != "inference" and seconds is not None:
        msg = Msg(
            "answer.compare_training", hardware=_hardware(s), verdict=verdict, seconds=seconds
        )
        return msg, seconds
    rate = figure(outcome.checks, "compute", "decode_tokens_per_s_all_replicas") or figure(
        outcome.checks, "compute", "decode_tokens_per_s"
    )
    need = figure(outcome.checks, "memory", "required_bytes_per_gpu")
    have = figure(outcome.checks, "memory", "available_bytes_per_gpu")
    if rate is not None and need is not None and have:
        msg = Msg(
            "answer.compare_serving",
            hardware=_hardware(s),
            verdict=verdict,
            rate=rate,
            share=need / have,
        )
        return msg, -rate
    return Msg("answer.compare_other", hardware=_hardware(s), verdict=verdict), None


def _winner(outcomes: list[Outcome], scores: list[float | None]) -> Msg | None:
    ranked = sorted(
        (o for o, sc in zip(outcomes, scores) if sc is not None and o.verdict != "unknown"),
        key=lambda o: scores[outcomes.index(o)] or 0.0,
    )
    if len(ranked) < 2 or ranked[0].scenario is None or ranked[-1].scenario is None:
        return None
    best, worst = scores[outcomes.index(ranked[0])], scores[outcomes.index(ranked[-1])]
    if best is None or worst is None or not worst:
        return None
    winner, loser = _hardware(ranked[0].scenario), _hardware(ranked[-1].scenario)
    if best > 0:
        return Msg("answer.faster_training", winner=winner, loser=loser, share=best / worst)
    return Msg("answer.faster_serving", winner=winner, loser=loser, ratio=best / worst)


def compare_options(query: Query, run: Callable[[Scenario], Outcome]) -> Outcome:
    """Evaluate every option; the lead lists each with its verdict and says which wins."""
    outcomes = [run(merged(query.scenario, option)) for option in query.options]
    lines = [_line(o) for o in outcomes]
    lang = query.language
    gap = "" if lang == "zh" else " "
    sentences = [text(msg, lang) for msg, _ in lines]
    winner = _winner(outcomes, [score for _, score in lines])
    if winner is not None:
        sentences.append(text(winner, lang))
    best = min(outcomes, key=lambda o: _RANK[o.verdict])
    return replace(best, lead="", focus=gap.join(sentences))
