"""Two or three hardware options for the same job, side by side: one verdict and the key figures
per option, then which wins on what ("8×H20 vs 8×910B for 70B inference").

Parse puts each option's differing slots in `Query.options`; every option is evaluated as its
own question (its verdict respects what it states), and the answer's checks are the best one's.
An option wins on speed (the shortest run, or the most tokens/s), on memory (the most headroom
per GPU) and on cost (the cheapest run, when a price per GPU-hour is given); a win needs at
least two options with the figure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.calculate.verdict import PRACTICAL_SECONDS
from assistant.i18n import join_sentences, mid_sentence, text
from assistant.records import Figure, Language, Option, Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["CHEAPER", "compare_options", "merged", "options_of"]

_RANK = {"feasible": 0, "conditional": 1, "infeasible": 2, "unknown": 3}
#: What an option can win on: the figure, and True when higher is better.
_WINS: dict[str, tuple[str, bool]] = {
    "speed_seconds": ("seconds", False),
    "speed_rate": ("tokens_per_second", True),
    "memory": ("memory_share", False),
    "cost": ("cost", False),
}


def merged(base: Scenario, option: Scenario) -> Scenario:
    """The question's scenario with the option's stated slots on top."""
    changes = {f.name: getattr(option, f.name) for f in fields(option)}
    return replace(base, **{k: v for k, v in changes.items() if v is not None})


CHEAPER = re.compile(
    r"cheap|less expensive|lower cost|costs? less|per (?:1m |million )?tokens?|"
    r"便宜|省钱|成本(?:更)?低|划算|花费(?:更)?少",
    re.I,
)
#: The win a comparison question asks about, by its words: that sentence answers it, first.
_ASKED_WIN = {
    "solve.wins_cost": CHEAPER,
    "solve.wins_cost_tokens": CHEAPER,
    "answer.faster_training": re.compile(r"fast|quick|sooner|更快|快|用时(?:更)?短", re.I),
    "answer.faster_serving": re.compile(r"fast|throughput|更快|快|吞吐", re.I),
    "answer.faster_serving_one": re.compile(r"fast|throughput|更快|快|吞吐", re.I),
    "solve.wins_memory": re.compile(r"headroom|more memory|显存(?:更)?(?:大|多|余量)", re.I),
}
_NO_WORD = re.compile(r"(?!)")


def _hardware(s: Scenario) -> Msg:
    return Msg("common.gpus", count=s.gpu_count or 1, gpu=s.gpu or "GPU")


def _figures(outcome: Outcome) -> dict[str, Figure]:
    """The option's key figures (SI units): time or throughput, memory share, cost."""
    checks, s = outcome.checks, outcome.scenario or Scenario()
    out: dict[str, Figure] = {}
    seconds = figure(checks, "compute", "seconds")
    if s.task != "inference" and seconds is not None:
        out["seconds"] = seconds
    rate = figure(checks, "compute", "decode_tokens_per_s_all_replicas") or figure(
        checks, "compute", "decode_tokens_per_s"
    )
    if s.task == "inference" and rate is not None:
        out["tokens_per_second"] = rate
        sequences = figure(checks, "compute", "concurrent_sequences")
        out["concurrent_sequences"] = int(sequences) if sequences else 1
    need = figure(checks, "memory", "required_bytes_per_gpu")
    have = figure(checks, "memory", "available_bytes_per_gpu")
    if need is not None and have:
        out["memory_share"] = need / have
    cost = figure(checks, "cost", "cost")
    per_million = figure(checks, "cost", "cost_per_million_tokens")
    if s.task == "inference" and per_million is not None:
        out["cost"], out["cost_per_million"] = per_million, True  # serving: per token, not hour
    elif cost is not None:
        out["cost"] = cost
    return out


def _counts(f: Mapping[str, Figure], works: bool, name: str) -> bool:
    """Whether an option's figure takes part in the `name` win. A working option's figures all
    do. For speed, so does an option that is only too slow (its memory fits: the duration or
    rate is a computed one), so "which is faster" is answered when both runs overrun a year."""
    share = f.get("memory_share")
    fits = isinstance(share, float) and share <= 1.0
    if name == "memory":
        return works and fits  # one over its memory has no headroom
    return works or (name.startswith("speed") and fits)


def _wins(figures: Sequence[Mapping[str, Figure]], works: Sequence[bool]) -> list[tuple[str, ...]]:
    """What each option wins on: the best value of a figure at least two options have that
    count for it (`_counts`: an option that cannot hold the job wins nothing)."""
    won: list[list[str]] = [[] for _ in figures]
    for name, (key, higher) in _WINS.items():
        values = [
            (i, f[key])
            for i, f in enumerate(figures)
            if isinstance(f.get(key), float) and _counts(f, works[i], name)
        ]
        if len(values) < 2:
            continue
        ranked = sorted(values, key=lambda iv: float(iv[1]), reverse=higher)  # type: ignore[arg-type]
        first, second = float(ranked[0][1]), float(ranked[1][1])  # type: ignore[arg-type]
        if abs(first - second) > 0.01 * max(abs(first), abs(second)):  # a tie wins nothing
            won[ranked[0][0]].append(name.split("_")[0])
    return [tuple(w) for w in won]


def options_of(outcomes: list[Outcome]) -> tuple[Option, ...]:
    """The comparison's options: scenario, verdict, key figures and wins."""
    figures = [_figures(o) for o in outcomes]
    works = [o.verdict in ("feasible", "conditional") for o in outcomes]
    return tuple(
        Option(scenario=o.scenario or Scenario(), verdict=o.verdict, figures=f, wins=w)
        for o, f, w in zip(outcomes, figures, _wins(figures, works))
    )


def _line(option: Option) -> Msg:
    s, f = option.scenario, option.figures
    verdict = Msg(f"common.verdict.{option.verdict}")
    if "seconds" in f:
        # past the practical year a run is impractical, said in words (the year is no verdict)
        long = isinstance(f["seconds"], (int, float)) and f["seconds"] > PRACTICAL_SECONDS
        key = "answer.compare_training_impractical" if long else "answer.compare_training"
        return Msg(key, hardware=_hardware(s), verdict=verdict, seconds=f["seconds"])
    if "tokens_per_second" in f and "memory_share" in f:
        sequences = f.get("concurrent_sequences", 1)
        return Msg(
            "answer.compare_serving" if _many(options=(option,)) else "answer.compare_serving_one",
            hardware=_hardware(s),
            verdict=verdict,
            rate=f["tokens_per_second"],
            share=f["memory_share"],
            n=sequences,
            split=_split(s),
        )
    return Msg("answer.compare_other", hardware=_hardware(s), verdict=verdict)


def _split(s: Scenario) -> Msg:
    """The serving split an option was evaluated on ("TP=4, PP=1, 2 replicas")."""
    tp, pp = s.tensor_parallel or 1, s.pipeline_parallel or 1
    count = max(1, (s.gpu_count or 1) // (tp * pp))
    replicas = Msg("default.replica" if count == 1 else "default.replicas", count=count)
    return Msg("answer.compare_split", tp=tp, pp=pp, replicas=replicas)


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


def _change(outcome: Outcome, lang: Language) -> str:
    """An option's first fix, for the middle of a sentence."""
    change = outcome.suggestions[0].change
    return mid_sentence(change) if lang == "en" else change


def _none_works(
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
        Msg("answer.compare_needs", hardware=_hardware(o.scenario), change=_change(out, lang))
        for o, out in zip(options, outcomes, strict=True)
        if out.suggestions
    ]
    return [Msg(none), _closest(options), *needs]


def _many(options: Sequence[Option]) -> bool:
    """True when some option serves more than one sequence at once: its tokens/s is a total.
    With one sequence (no concurrency given) the figure is one sequence's decode speed, and
    the replicas the GPUs would hold beyond the first are idle, not throughput."""
    return any(float(o.figures.get("concurrent_sequences") or 1) > 1 for o in options)


def _against(options: tuple[Option, ...], key: str, winner: Option) -> tuple[float, Msg]:
    """The winner's figure over the furthest other option's, and that option's hardware."""
    higher = key == "tokens_per_second"
    others = [o for o in options if o is not winner and isinstance(o.figures.get(key), float)]
    worst = (min if higher else max)(others, key=lambda o: float(o.figures[key]))  # type: ignore[arg-type]
    mine, theirs = float(winner.figures[key]), float(worst.figures[key])  # type: ignore[arg-type]
    return (mine / theirs if theirs else 1.0), _hardware(worst.scenario)


def _verdicts(options: tuple[Option, ...]) -> list[Msg]:
    """ "X is faster …", "Y has the most memory headroom", "Z is cheapest"."""
    out: list[Msg] = []
    for option in options:
        hardware, f = _hardware(option.scenario), option.figures
        if "speed" in option.wins:
            key = "seconds" if "seconds" in f else "tokens_per_second"
            value, loser = _against(options, key, option)
            if key == "seconds":
                out.append(Msg("answer.faster_training", winner=hardware, loser=loser, share=value))
            else:
                key = "answer.faster_serving" if _many(options) else "answer.faster_serving_one"
                out.append(Msg(key, winner=hardware, loser=loser, ratio=value))
        if "memory" in option.wins:
            out.append(Msg("solve.wins_memory", winner=hardware, share=f["memory_share"]))
        if "cost" in option.wins:
            currency = option.scenario.currency or ""
            key = "solve.wins_cost_tokens" if f.get("cost_per_million") else "solve.wins_cost"
            out.append(Msg(key, winner=hardware, cost=f["cost"], currency=currency))
    return out


def compare_options(query: Query, run: Callable[[Scenario], Outcome]) -> Outcome:
    """Evaluate every option; the lead lists each with its verdict and says which wins on what."""
    outcomes = [run(merged(query.scenario, option)) for option in query.options]
    options = options_of(outcomes)
    lang = query.language
    wins = _verdicts(options)
    asked = [m for m in wins if _ASKED_WIN.get(m.key, _NO_WORD).search(query.question)]
    if CHEAPER.search(query.question) and not any("cost" in o.figures for o in options):
        asked.insert(0, Msg("solve.no_prices"))  # "which is cheaper" with no price to compare
    # "which is cheaper": the cheapest option first, then each option's line, then the rest;
    # "怎么选" / "A100 or H100 for …" words no criterion: every win comes first, so the headline
    # still names the winner and on what before listing the options
    asked = asked or wins
    failing = _none_works(outcomes, options, lang)
    if failing:  # no winner as if it worked: that none does, and the nearest
        # "which is faster" of runs that fit but overrun: the faster first (it is the nearer)
        faster = [m for m in asked if m.key.startswith("answer.faster")]
        sentences = [text(m, lang) for m in (*faster, failing[0], *failing[1 : 2 - len(faster)])]
        sentences += [text(_line(o), lang) for o in options]
        sentences += [text(m, lang) for m in failing[2:]]
        best = min(outcomes, key=lambda o: _RANK[o.verdict])
        return replace(best, lead="", focus=join_sentences(sentences, lang), options=options)
    sentences = [text(m, lang) for m in asked]
    sentences += [text(_line(o), lang) for o in options]
    sentences += [text(m, lang) for m in wins if m not in asked]
    best = min(outcomes, key=lambda o: _RANK[o.verdict])
    return replace(best, lead="", focus=join_sentences(sentences, lang), options=options)
