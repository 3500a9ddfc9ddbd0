"""When no compared option works as asked: say so, which comes closest and by what, and what
each would need (its own first fix)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.i18n import mid_sentence
from assistant.records import Language, Option, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["first_change", "none_works"]


def _hardware(s: Scenario) -> Msg:
    return Msg("common.gpus", count=s.gpu_count or 1, gpu=s.gpu or "GPU")


#: The pace figures an option is judged near by: the shortest run, else the most tokens/s.
_PACE = (("seconds", 1.0), ("tokens_per_second", -1.0))


def _closeness(option: Option) -> tuple[int, float, float]:
    """How near an option that does not work comes to working (smaller is nearer): one whose
    memory fits before one that does not, then the least memory, the shortest run, or the
    most tokens/s."""
    f = option.figures
    share = f.get("memory_share")
    timed = next(
        (sign * float(v) for k, sign in _PACE if isinstance(v := f.get(k), float)), math.inf
    )
    if isinstance(share, float) and share > 1.0:
        return 1, share, timed  # equal memory (same card size): the faster run is nearer
    return (0, timed, 0.0) if timed < math.inf else (2, 0.0, 0.0)


def _closest(options: tuple[Option, ...]) -> Msg:
    """ "8 × L40S 48GB comes closest (…)": the option nearest to working, and by what."""
    nearest = min(options, key=_closeness)
    fits = _closeness(nearest)[0]
    f, hardware = nearest.figures, _hardware(nearest.scenario)
    if fits == 1:
        return Msg("answer.compare_closest_memory", hardware=hardware, share=f["memory_share"])
    if "seconds" in f:
        return Msg("answer.compare_closest_time", hardware=hardware, seconds=f["seconds"])
    if "tokens_per_second" in f:
        return Msg("answer.compare_closest_rate", hardware=hardware, rate=f["tokens_per_second"])
    return Msg("answer.compare_closest", hardware=hardware)


def first_change(outcome: Outcome, lang: Language) -> str:
    """An option's first fix, for the middle of a sentence."""
    change = outcome.suggestions[0].change
    return mid_sentence(change) if lang == "en" else change


def none_works(
    outcomes: Sequence[Outcome], options: tuple[Option, ...], lang: Language
) -> list[Msg]:
    """When no option works as asked: say so, which comes closest, and what each would need
    (its first fix, as its own answer lists it); empty when some option works."""
    if any(o.verdict in ("feasible", "conditional") for o in outcomes) or not any(
        o.verdict == "infeasible" for o in outcomes
    ):
        return []
    none = "answer.compare_none_works" if len(options) == 2 else "answer.compare_none_works_many"
    needs = [
        Msg("answer.compare_needs", hardware=_hardware(o.scenario), change=first_change(out, lang))
        for o, out in zip(options, outcomes, strict=True)
        if out.suggestions
    ]
    return [Msg(none), _closest(options), *needs]
