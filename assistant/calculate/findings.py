"""The planner's findings as the answer's records: each check in the answer's language, and the
fixes list with what each fix would change (`effect`), ordered as an engineer offers them:
changes that keep what the user stated first, then more or other hardware, then changes that
undo a stated choice, marked as such (`verdict.keeps_stated`, `verdict.undoes_stated`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.summaries import summarize
from assistant.calculate.totals import deployment_totals
from assistant.calculate.verdict import keeps_stated, undoes_stated
from assistant.i18n import text
from assistant.records import Check, Language, Scenario, Suggestion
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import Evaluation, PlanChange

__all__ = ["marked", "planner_checks", "planner_suggestions", "stated_first"]


def planner_checks(evaluation: Evaluation, lang: Language, gpu: str) -> tuple[Check, ...]:
    """The planner's checks as the answer's records: each summary, formula and assumption in
    the answer's language; the memory figures with the deployment's totals."""
    out = []
    for result in evaluation.checks:
        summary = summarize(result.kind, result.verdict, result.figures, lang, gpu)
        figures = dict(result.figures)
        if result.kind == "memory":
            figures = deployment_totals(evaluation, figures)
        out.append(
            Check(
                kind=result.kind,
                verdict=result.verdict,
                summary=summary,
                figures=figures,
                formula=text(result.formula, lang) if result.formula is not None else "",
                inputs=dict(result.inputs),
                assumptions=(
                    *(text(m, lang) for m in result.messages),
                    *(text(a, lang) for a in result.assumptions),
                ),
                sources=result.sources,
            )
        )
    return tuple(out)


def _effect(change: PlanChange, lang: Language) -> str:
    after = change.evaluation_after
    figures = after.figures
    parts: list[Msg] = [Msg(f"common.verdict.{after.verdict}")]
    memory = figures.get("required_bytes_per_gpu")
    if isinstance(memory, (int, float)) and not isinstance(memory, bool):
        parts.append(Msg("effect.memory", memory=memory))
    seconds = figures.get("seconds")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
        parts.append(Msg("effect.time", seconds=seconds))
    if after.failing and not after.paced:  # a network that only paces the run is in `time`
        names = tuple(Msg(f"effect.check.{k}") for k in after.failing)
        parts.append(Msg("effect.still_fails", names=names))
    return text(Msg("effect.summary", parts=tuple(parts)), lang)


def planner_suggestions(
    evaluation: Evaluation, lang: Language
) -> tuple[tuple[Suggestion, ...], Suggestion | None]:
    """The planner's changes (its five best and a kept condition), and the first one that makes
    the plan feasible."""
    from calculators.planner import suggest

    changes: Sequence[PlanChange] = evaluation.suggestions or suggest(evaluation.plan)
    out = tuple(
        Suggestion(
            change=text(c.description, lang),
            effect=_effect(c, lang),
        )
        for c in changes
    )
    fix = next((s for s, c in zip(out, changes) if c.evaluation_after.verdict == "feasible"), None)
    return out, fix


def stated_first(
    suggestions: tuple[Suggestion, ...], evaluation: Evaluation, stated: Scenario, lang: Language
) -> tuple[Suggestion, ...]:
    """The fixes list in the order an engineer offers them: changes that keep what the user
    stated and need no new hardware, then more or other hardware (which says so itself), then
    changes that undo a stated choice ("全参" → LoRA, FP16 → int8, more GPUs at ZeRO-3 after
    "ZeRO-0"), marked as such."""
    changes = evaluation.suggestions
    if len(changes) != len(suggestions):  # no planner changes behind them: nothing to judge
        return suggestions
    ranked: list[tuple[int, Suggestion]] = []
    for suggestion, change in zip(suggestions, changes, strict=True):
        if undoes_stated(change, evaluation.plan, stated):
            ranked.append((2, marked(suggestion, lang)))
        elif change.hardware:
            ranked.append((1, suggestion))
        elif keeps_stated(change, evaluation.plan, stated):
            ranked.append((0, suggestion))
        else:
            ranked.append((2, marked(suggestion, lang)))
    return tuple(s for _, s in sorted(ranked, key=lambda pair: pair[0]))


def marked(suggestion: Suggestion, lang: Language) -> Suggestion:
    """A fix that changes what the user stated, said so: "… (changes what you stated)"."""
    return replace(
        suggestion, change=text(Msg("answer.undoes_stated", change=suggestion.change), lang)
    )
