"""Two or three hardware options for the same job, side by side: one verdict and the key figures
per option, then which wins on what ("8×H20 vs 8×910B for 70B inference").

Parse puts each option's differing slots in `Query.options`; every option is evaluated as its
own question (its verdict respects what it states), on a common basis (`compare_basis`: each
at its own fewest GPUs when no count is given, one split for all at the same count), and the
answer's checks are the best one's. An option wins on speed (the shortest run, or the most
tokens/s at the same load), on memory (the most free memory across its GPUs at the load), on
cost (the cheapest run, when a price per GPU-hour is given), on power (the least draw or
energy) and on count (the fewest GPUs that hold the job); a win needs at least two options
with the figure. The winner on the question's criterion (`criterion`) is named first; with
none, the faster, and the answer says speed was the basis. Asked for value ("better value",
"性价比") or the cheapest, the winner on cost comes first with the runner-up's cost and the
saving, then how the speeds differ. Serving options are compared at one load (the stated one,
else the most every option holds when each ran at its most: `compare_basis.on_common_load`),
and each option's own capacity (the most sequences it holds) is given on its line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING

from assistant.calculate.compare_basis import (
    OptionRun,
    at_capacity_splits,
    at_common_count,
    at_own_counts,
    default_count_basis,
    on_common_load,
    on_common_split,
    split_of,
)
from assistant.calculate.compare_none import first_change, none_works
from assistant.calculate.criterion import (
    CHEAPER,
    VALUE,
    cost_sentence,
    cost_tie,
    criterion,
    fewest_sentence,
    runs_sentences,
    speed_tie,
)
from assistant.calculate.focus import figure
from assistant.calculate.headline import fixed_speed
from assistant.calculate.scope import ask_wording
from assistant.calculate.sizing import smallest_layout
from assistant.calculate.solvers import max_sequences
from assistant.calculate.targets import has_target
from assistant.calculate.verdict import PRACTICAL_SECONDS
from assistant.i18n import join_sentences, text
from assistant.records import Figure, Language, Option, Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["CHEAPER", "compare_options", "merged", "options_of", "sized_to_load"]

_RANK = {"feasible": 0, "conditional": 1, "infeasible": 2, "unknown": 3}
#: What an option can win on: the figure, and True when higher is better.
#: Above this share of usable memory a check is "tight" (within 10% of the limit): such an
#: option wins no headroom ("1.1 GB free, 99% used" is no headroom to choose it for).
TIGHT_SHARE = 0.9
_WINS: dict[str, tuple[str, bool]] = {
    "speed_seconds": ("seconds", False),
    "speed_rate": ("tokens_per_second", True),
    "memory": ("free_bytes", True),
    "capacity": ("capacity", True),
    "cost": ("cost", False),
    "power": ("power", False),
}


def merged(base: Scenario, option: Scenario) -> Scenario:
    """The question's scenario with the option's stated slots on top."""
    changes = {f.name: getattr(option, f.name) for f in fields(option)}
    return replace(base, **{k: v for k, v in changes.items() if v is not None})


#: The win sentence that answers each criterion asked (`criterion.criterion`).
_ASKED_WIN = {
    "cost": (
        "solve.wins_cost",
        "solve.wins_cost_tokens",
        "compare.value_tokens",
        "compare.value_run",
        "compare.cheapest_hour",
        "compare.value_hour",
    ),
    "speed": (
        "answer.faster_training",
        "answer.faster_serving",
        "answer.faster_serving_one",
        "answer.faster_serving_stream",
    ),
    "memory": ("solve.wins_memory",),
    "capacity": ("solve.wins_capacity",),
    "power": ("compare.least_power", "compare.least_energy", "compare.least_energy_cost"),
}


def _hardware(s: Scenario) -> Msg:
    return Msg("common.gpus", count=s.gpu_count or 1, gpu=s.gpu or "GPU")


def _figures(
    outcome: Outcome, open_count: bool = False, lang: Language = "en"
) -> dict[str, Figure]:
    """The option's key figures (SI units): time or throughput, memory share and free memory,
    GPUs needed, power, cost. One whose memory does not fit has only its memory figures: the
    run time, rate, power and cost of a job it cannot hold are no figures of it."""
    checks, s = outcome.checks, outcome.scenario or Scenario()
    memory = _memory_figures(outcome, open_count)
    if "free_bytes" not in memory and "need_bytes" in memory:
        return {**memory, **_fixed_speed(outcome, lang)}
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
        load = int(sequences) if sequences else 1
        capacity = max_sequences(s) if outcome.scenario is not None else None
        out["concurrent_sequences"], out["capacity"] = load, max(capacity or 0, load)
    out.update(memory)
    out.update(_power_figure(outcome))
    cost = figure(checks, "cost", "cost")
    per_million = figure(checks, "cost", "cost_per_million_tokens")
    if s.task == "inference" and sized_to_load(s) and s.price_per_gpu_hour is not None:
        # each option sized to the same stated load serves the same tokens: its rent decides
        out["cost"], out["cost_per_hour"] = (s.gpu_count or 1) * s.price_per_gpu_hour, True
    elif s.task == "inference" and per_million is not None:
        out["cost"], out["cost_per_million"] = per_million, True  # serving: per token, not hour
    elif cost is not None:
        out["cost"] = cost
    return out


def _fixed_speed(outcome: Outcome, lang: Language) -> dict[str, Figure]:
    """A serving option that holds the job only after a change needing no new hardware (int8
    weights, a shorter context): that change and one sequence's decode speed after it."""
    evaluation = outcome.evaluation
    if outcome.verdict != "conditional" or evaluation is None:
        return {}
    for change in evaluation.suggestions:
        speed = None if change.hardware else fixed_speed(change)
        if speed is not None:
            return {"fixed_tokens_per_second": speed, "fix": text(change.description, lang)}
    return {}


def sized_to_load(s: Scenario) -> bool:
    """Whether a serving option was sized to a stated load: a QPS or tokens/s target, or a
    latency target at a stated concurrency (`targets.meet_target` finds its GPUs)."""
    load = s.target_qps is not None or s.target_tokens_per_second is not None
    return load or (has_target(s) and s.concurrency is not None)


def _memory_figures(outcome: Outcome, open_count: bool) -> dict[str, Figure]:
    """Memory per GPU needed and usable, their share, the memory left free across all the GPUs
    at the load (a deployment's headroom, not one card's share of a split) and the GPUs that
    hold the job: the count evaluated when the option was sized to it, else the fewest."""
    checks, s = outcome.checks, outcome.scenario or Scenario()
    need = figure(checks, "memory", "required_bytes_per_gpu")
    have = figure(checks, "memory", "available_bytes_per_gpu")
    least = figure(checks, "memory", "min_gpus")
    out: dict[str, Figure] = {}
    if need is not None and have:
        out.update(memory_share=need / have, need_bytes=need, have_bytes=have)
        if need <= have:
            out["free_bytes"] = (have - need) * (s.gpu_count or 1)
    fits = need is not None and bool(have) and need <= (have or 0.0)
    if open_count and fits and s.gpu_count:
        out["gpus_needed"] = int(s.gpu_count)
    elif least is not None:  # the fewest as a layout (a power of two in a node, whole nodes)
        out["gpus_needed"] = smallest_layout(least, s.gpus_per_node or DEFAULT_GPUS_PER_NODE)
    return out


def _power_figure(outcome: Outcome) -> dict[str, Figure]:
    """What "the least power" compares: the energy cost when a price per kWh is given, else a
    serving deployment's draw (W) or a training run's energy (kWh)."""
    checks, s = outcome.checks, outcome.scenario or Scenario()
    priced = figure(checks, "power", "energy_cost")
    if priced is not None:
        return {"power": priced, "power_kind": "cost"}
    watts, kwh = figure(checks, "power", "power_watts"), figure(checks, "power", "kwh")
    if s.task == "inference" and watts is not None:
        return {"power": watts, "power_kind": "watts"}
    return {"power": kwh, "power_kind": "kwh"} if kwh is not None else {}


def _counts(f: Mapping[str, Figure], works: bool, name: str) -> bool:
    """Whether an option's figure takes part in the `name` win. A working option's figures all
    do. For speed, so does an option that is only too slow (its memory fits: the duration or
    rate is a computed one), so "which is faster" is answered when both runs overrun a year."""
    share = f.get("memory_share")
    fits = isinstance(share, float) and share <= 1.0
    if name == "memory":  # one over its memory, or tight (within 10% of it), has no headroom
        return works and isinstance(share, float) and share <= TIGHT_SHARE
    return works or (name.startswith("speed") and fits)


def _wins(figures: Sequence[Mapping[str, Figure]], works: Sequence[bool]) -> list[tuple[str, ...]]:
    """What each option wins on: the best value of a figure at least two options have that
    count for it (`_counts`: an option that cannot hold the job wins nothing)."""
    won: list[list[str]] = [[] for _ in figures]
    for name, (key, higher) in _WINS.items():
        values = [
            (i, f[key])
            for i, f in enumerate(figures)
            if isinstance(f.get(key), (int, float)) and _counts(f, works[i], name)
        ]
        if len(values) < 2:
            continue
        ranked = sorted(values, key=lambda iv: float(iv[1]), reverse=higher)  # type: ignore[arg-type]
        first, second = float(ranked[0][1]), float(ranked[1][1])  # type: ignore[arg-type]
        if abs(first - second) > 0.01 * max(abs(first), abs(second)):  # a tie wins nothing
            won[ranked[0][0]].append(name.split("_")[0])
    for i in _fewest(figures, works):
        won[i].append("count")
    return [tuple(w) for w in won]


def _fewest(figures: Sequence[Mapping[str, Figure]], works: Sequence[bool]) -> list[int]:
    """The working options needing the fewest GPUs (a tie is shared; all equal wins nothing)."""
    needed = {
        i: n
        for i, f in enumerate(figures)
        if works[i] and isinstance(n := f.get("gpus_needed"), int)
    }
    if len(needed) < 2 or len(set(needed.values())) == 1:
        return []
    fewest = min(needed.values())
    return [i for i, n in needed.items() if n == fewest]


def options_of(
    outcomes: list[Outcome], *, open_count: bool = False, lang: Language = "en"
) -> tuple[Option, ...]:
    """The comparison's options: scenario, verdict, key figures and wins; `open_count` when
    each was evaluated at its own fewest GPUs (no count given)."""
    figures = [_figures(o, open_count, lang) for o in outcomes]
    works = [o.verdict in ("feasible", "conditional") for o in outcomes]
    return tuple(
        Option(scenario=o.scenario or Scenario(), verdict=o.verdict, figures=f, wins=w)
        for o, f, w in zip(outcomes, figures, _wins(figures, works))
    )


def _line(option: Option) -> Msg:
    s, f = option.scenario, option.figures
    verdict = Msg(f"common.verdict.{option.verdict}")
    share = f.get("memory_share")
    if isinstance(share, float) and share > 1.0:  # it cannot run: what it lacks, not a pace
        key = "compare.lacks" if "gpus_needed" in f else "compare.lacks_memory"
        need, have = f["need_bytes"], f["have_bytes"]
        least = f.get("gpus_needed")
        lacks = Msg(key, hardware=_hardware(s), verdict=verdict, need=need, have=have, min=least)
        fixed, fix = f.get("fixed_tokens_per_second"), f.get("fix")
        if isinstance(fixed, float) and isinstance(fix, str):  # the condition, and its pace
            return Msg("compare.lacks_until_fixed", lacks=lacks, fix=fix, rate=fixed)
        return lacks
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
            split=split_of(s),
            capacity=f.get("capacity", sequences),
        )
    return Msg("answer.compare_other", hardware=_hardware(s), verdict=verdict)


def _many(options: Sequence[Option]) -> bool:
    """True when some option serves more than one sequence at once: its tokens/s is a total.
    With one sequence (no concurrency given) the figure is one sequence's decode speed, and
    the replicas the GPUs would hold beyond the first are idle, not throughput."""
    return any(float(o.figures.get("concurrent_sequences") or 1) > 1 for o in options)


def _against(options: tuple[Option, ...], key: str, winner: Option) -> tuple[float, Msg]:
    """The winner's figure over the runner-up's (its lead over the next best, the margin that
    decides "which is fastest"), and the runner-up's hardware."""
    higher = key == "tokens_per_second"
    others = [o for o in options if o is not winner and isinstance(o.figures.get(key), float)]
    runner = (max if higher else min)(others, key=lambda o: float(o.figures[key]))  # type: ignore[arg-type]
    mine, theirs = float(winner.figures[key]), float(runner.figures[key])  # type: ignore[arg-type]
    return (mine / theirs if theirs else 1.0), _hardware(runner.scenario)


def _verdicts(
    options: tuple[Option, ...], value: bool = False, capacity: bool = False
) -> list[Msg]:
    """ "X is faster …", "Y has the most memory headroom", "Z is cheapest" (or "the better
    value", when `value` was asked), "W draws the least power"; the fastest first (the basis
    when no criterion is asked)."""
    out: list[Msg] = []
    for option in options:
        if "speed" in option.wins:
            out.append(_faster(options, option))
    for option in options:
        hardware, f = _hardware(option.scenario), option.figures
        if "memory" in option.wins:
            free, share = f["free_bytes"], f["memory_share"]
            out.append(Msg("solve.wins_memory", winner=hardware, free=free, share=share))
        if capacity and "capacity" in option.wins:  # "which one fits more concurrent users"
            out.append(_holds_most(options, option))
        if "cost" in option.wins:
            out.append(cost_sentence(options, option, value=value))
        if "power" in option.wins:
            key = _POWER_KEYS[str(f["power_kind"])]
            currency = option.scenario.currency or ""
            out.append(Msg(key, winner=hardware, value=f["power"], currency=currency))
    return out


def _holds_most(options: tuple[Option, ...], winner: Option) -> Msg:
    """ "X holds the most concurrent sequences: 18, against 13 on Y" (the runner-up's)."""
    others = [o for o in options if o is not winner and "capacity" in o.figures]
    runner = max(others, key=_held)
    count = _held(winner)
    return Msg(
        "solve.wins_capacity",
        winner=_hardware(winner.scenario),
        count=count,
        other=_hardware(runner.scenario),
        other_count=_held(runner),
    )


def _held(option: Option) -> int:
    value = option.figures.get("capacity")
    return int(value) if isinstance(value, (int, float)) else 0


_POWER_KEYS = {
    "watts": "compare.least_power",
    "kwh": "compare.least_energy",
    "cost": "compare.least_energy_cost",
}


def _faster(options: tuple[Option, ...], option: Option) -> Msg:
    hardware, f = _hardware(option.scenario), option.figures
    key = "seconds" if "seconds" in f else "tokens_per_second"
    value, loser = _against(options, key, option)
    if key == "seconds":
        return Msg("answer.faster_training", winner=hardware, loser=loser, share=value)
    key = "answer.faster_serving" if _many(options) else "answer.faster_serving_one"
    one_user = option.scenario.fastest_stream and option.scenario.concurrency == 1
    if key.endswith("_one") and one_user:  # asked of one stream ("single-user"): said so
        key = "answer.faster_serving_stream"
    return Msg(key, winner=hardware, loser=loser, ratio=value)


def _asked(
    wanted: str | None,
    options: tuple[Option, ...],
    outcomes: Sequence[Outcome],
    wins: list[Msg],
    lang: Language,
) -> list[Msg]:
    """The sentences that answer the criterion asked, first: the fewest GPUs, which run it,
    or the winner on it; when only one option works, that it is the only one (it wins by
    default: no figure of the others to beat)."""
    working = [o for o in options if o.verdict in ("feasible", "conditional")]
    changes = [first_change(out, lang) if out.suggestions else None for out in outcomes]
    if wanted == "count":
        fewest = fewest_sentence(options)
        if fewest is not None:
            return [fewest]
    if wanted in ("runs", "count") or len(working) == 1:
        return runs_sentences(options, changes)
    if wanted is None:
        asked = [m for m in wins if m.key not in _ASKED_WIN["power"]]  # the fastest first
    else:
        asked = [m for m in wins if m.key in _ASKED_WIN[wanted]]
    tie = speed_tie(options) if wanted in (None, "speed") else None
    if tie is not None:  # "which is faster" of options as fast as each other: that they tie
        asked.insert(0, tie)
    if wanted in (None, "speed"):  # no figure ranks them (one does not fit): which run it
        return asked or runs_sentences(options, changes)
    if wanted == "cost" and not any("cost" in o.figures for o in options):
        asked.insert(0, Msg("solve.no_prices"))  # "which is cheaper" with no price to compare
    elif wanted == "cost":  # the winner on cost (or that they tie), then how the speeds differ
        tie = cost_tie(options)
        asked = [tie] if tie is not None and not asked else asked
        asked += [m for m in wins if m.key.startswith("answer.faster")] if asked else []
    return asked


def _shown(outcomes: Sequence[Outcome], options: tuple[Option, ...], wanted: str | None) -> Outcome:
    """The option whose checks the answer shows: the best verdict, and of those the winner on
    the criterion asked (speed when none), so the figures under the headline are its."""
    win = {None: "speed", "runs": "speed"}.get(wanted, wanted)
    ranked = sorted(
        zip(outcomes, options, strict=True),
        key=lambda pair: (
            _RANK[pair[0].verdict],
            win not in pair[1].wins,
            win == "count" and "memory" not in pair[1].wins,  # a tie on count: the roomiest
        ),
    )
    return ranked[0][0]


def compare_options(query: Query, run: OptionRun) -> Outcome:
    """Evaluate every option on a common basis; the lead names the winner on the criterion
    asked, says the basis, lists each option with its verdict and then the other wins."""
    lang = query.language
    scenarios = [merged(query.scenario, option) for option in query.options]
    outcomes = [run(s, "") for s in scenarios]
    open_count = all(s.gpu_count is None and s.nodes is None for s in scenarios)
    basis: list[Msg] = []
    wanted = criterion(query.question) or criterion(query.asked_in)  # "那推理呢": as asked before
    if open_count:
        sized = at_own_counts(query, scenarios, outcomes, run)
        common = None
        if wanted in (None, "speed"):  # a speed: at one count, else the count is compared
            sized, common = at_common_count(sized, run)
        if common is not None:
            basis.append(common)
        elif any(a.scenario != b.scenario for a, b in zip(sized, outcomes, strict=True)):
            basis.append(Msg("compare.basis_count"))
        else:  # every option held on the default node: say so, and the fewest each needs
            basis.extend(default_count_basis(sized))
        outcomes = sized
    if wanted == "capacity":  # each on the split holding the most: a common one measures it
        outcomes, split_basis = at_capacity_splits(scenarios, outcomes, run)
    else:
        outcomes, split_basis = on_common_split(scenarios, outcomes, run)
    outcomes, load_basis = on_common_load(query, scenarios, outcomes, run)
    if load_basis is not None and split_basis is not None and split_basis.key.endswith("split"):
        split_basis = Msg("compare.basis_split_at", **split_basis.params)  # the load: said next
    basis += [b for b in (split_basis, load_basis) if b is not None]
    options = options_of(outcomes, open_count=open_count, lang=query.language)
    wins = _verdicts(
        options, value=bool(VALUE.search(ask_wording(query))), capacity=wanted == "capacity"
    )
    best = _shown(outcomes, options, wanted)
    failing = none_works(outcomes, options, lang)
    if failing:  # no winner as if it worked: that none does, and the nearest
        # "which is faster" of runs that fit but overrun: the faster first (it is the nearer)
        faster = [m for m in wins if m.key.startswith("answer.faster")]
        faster = faster if wanted in ("speed", None) else []
        fewest = fewest_sentence(options) if wanted == "count" else None
        head = [*faster, failing[0], *([fewest] if fewest else failing[1 : 2 - len(faster)])]
        sentences = [text(m, lang) for m in head]
        sentences += [text(m, lang) for m in (*basis, *map(_line, options), *failing[2:])]
        return replace(best, lead="", focus=join_sentences(sentences, lang), options=options)
    asked = _asked(wanted, options, outcomes, wins, lang)
    if wanted is None and asked and asked[0].key.startswith(("answer.faster", "compare.speed")):
        basis.insert(0, Msg("compare.basis_speed"))  # speed was our choice: say so
    # the answer, the basis it was reached on, the rest of what was asked, each option, the
    # other wins (power only when asked: the GPUs' draw is no merit of the job's option)
    rest = [m for m in wins if m not in asked and m.key not in _ASKED_WIN["power"]]
    first = 2 if len(asked) > 1 and asked[0].key in _ASKED_WIN["cost"] else 1
    said = (*asked[:first], *basis, *asked[first:], *map(_line, options), *rest)
    sentences = [text(m, lang) for m in said]
    return replace(best, lead="", focus=join_sentences(sentences, lang), options=options)
