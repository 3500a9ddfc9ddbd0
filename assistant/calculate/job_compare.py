"""Two or three settings of one job on the same hardware, side by side: "ZeRO-2 vs ZeRO-3 for
13B on 8×A100: memory per GPU", "LoRA vs full fine-tuning", "FP8 vs BF16 on H100".

Parse puts each option's setting (`zero_stage`, `method` or `precision`) in `Query.options`;
every option is evaluated as its own question on the question's hardware. The lead names the
winner on the criterion asked (memory per GPU, or speed: the shortest run, the fastest decode
per sequence); with none, memory for a ZeRO stage or a fine-tuning method and speed for a
precision. Speed is compared only among options that fit memory: one that does not fit has no
run time. Then the basis (same hardware, one setting differs) and each option's line; the
options chart is not drawn (it names options by their hardware, the same for all here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.calculate.compare import merged
from assistant.calculate.criterion import criterion
from assistant.calculate.focus import figure
from assistant.calculate.zero_saving import asks_saving
from assistant.i18n import join_sentences, text
from assistant.parse.job_options import JOB_SLOTS
from assistant.records import Check, Query, Scenario
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["compare_jobs", "job_side"]

_RANK = {"feasible": 0, "conditional": 1, "infeasible": 2, "unknown": 3}
_HARDWARE_SLOTS = ("gpu", "gpu_count", "nodes", "gpus_per_node")


def job_side(query: Query) -> bool:
    """True when the options differ in a job setting only (no option names hardware). How
    much one ZeRO stage saves over another ("ZeRO-3比ZeRO-2多省多少") is the saving in model
    states (`zero_saving`), not a comparison of the two runs."""
    options = query.options
    if options and options[0].zero_stage is not None and asks_saving(query.question):
        return False
    return bool(options) and all(
        all(getattr(o, slot) is None for slot in _HARDWARE_SLOTS)
        and any(getattr(o, slot) is not None for slot in JOB_SLOTS)
        for o in options
    )


@dataclass(frozen=True)
class _Run:
    """One option as evaluated: its label, outcome and the figures compared."""

    label: Msg
    outcome: Outcome
    need: float | None
    have: float | None
    seconds: float | None
    rate: float | None
    states: float | None = None
    """Weights, gradients and optimizer states per GPU: what a ZeRO stage shards."""

    @property
    def fits(self) -> bool:
        return self.need is not None and self.have is not None and self.need <= self.have


def _label(option: Scenario) -> tuple[str, Msg]:
    if option.zero_stage is not None:
        return "zero_stage", Msg("compare.job_zero", stage=option.zero_stage)
    if option.method is not None:
        return "method", Msg(f"answer.finetune_method.{option.method}")
    return "precision", Msg("compare.job_precision", name=str(option.precision).upper())


def _run(label: Msg, outcome: Outcome) -> _Run:
    checks, s = outcome.checks, outcome.scenario or Scenario()
    per_token = figure(checks, "compute", "seconds_per_token")
    serving = s.task == "inference"
    return _Run(
        label=label,
        outcome=outcome,
        need=figure(checks, "memory", "required_bytes_per_gpu"),
        have=figure(checks, "memory", "available_bytes_per_gpu"),
        seconds=None if serving else figure(checks, "compute", "seconds"),
        rate=1.0 / per_token if serving and per_token else None,
        states=_states(checks),
    )


def _states(checks: tuple[Check, ...]) -> float | None:
    parts = [figure(checks, "memory", k) for k in ("weights_bytes", "gradients_bytes")]
    parts.append(figure(checks, "memory", "optimizer_bytes"))
    return sum(p for p in parts if p is not None) if all(p is not None for p in parts) else None


def _states_lead(runs: Sequence[_Run]) -> Msg | None:
    """ZeRO shards the model states and leaves activations alone: the stages compare on them."""
    return _least(runs, "states", "compare.job_states")


def _memory_lead(runs: Sequence[_Run]) -> Msg | None:
    return _least(runs, "need", "compare.job_memory")


def _least(runs: Sequence[_Run], field: str, key: str) -> Msg | None:
    """The option needing the least of `field` (bytes per GPU) against the next, and the
    saving; None with fewer than two options that have the figure."""
    known = sorted(
        (r for r in runs if getattr(r, field) is not None), key=lambda r: getattr(r, field)
    )
    if len(known) < 2:
        return None
    best, other = known[0], known[1]
    mine, theirs = getattr(best, field), getattr(other, field)
    said = {field: mine, f"other_{field}": theirs}
    return Msg(key, winner=best.label, other=other.label, saving=theirs - mine, **said)


def _speed_lead(runs: Sequence[_Run]) -> Msg | None:
    fitting = [r for r in runs if r.fits]
    if len(fitting) == 1 and len(runs) > 1:
        others = tuple(r.label for r in runs if r is not fitting[0])
        return Msg("compare.job_only_fits", winner=fitting[0].label, losers=others)
    shapes = (
        ("seconds", "compare.job_faster_time", True),
        ("rate", "compare.job_faster_rate", False),
    )
    for field, key, fewer in shapes:
        ranked = sorted(
            (r for r in fitting if getattr(r, field)),
            key=lambda r: getattr(r, field) * (1.0 if fewer else -1.0),
        )
        if len(ranked) >= 2:  # the shortest run, else the most tokens/s per sequence
            best, other = ranked[0], ranked[1]
            mine, theirs = getattr(best, field), getattr(other, field)
            said = {field: mine, f"other_{field}": theirs}
            ratio = theirs / mine if fewer else mine / theirs
            return Msg(
                key,
                winner=best.label,
                other=other.label,
                ratio=ratio,
                **said,
            )
    return None


def _line(run: _Run) -> Msg:
    verdict = Msg(f"common.verdict.{run.outcome.verdict}")
    if run.need is None or run.have is None:
        return Msg("compare.job_line_other", label=run.label, verdict=verdict)
    said: dict[str, Param] = {
        "label": run.label,
        "verdict": verdict,
        "need": run.need,
        "have": run.have,
    }
    if run.fits and run.seconds is not None:
        return Msg("compare.job_line_time", seconds=run.seconds, **said)
    if run.fits and run.rate is not None:
        return Msg("compare.job_line_rate", rate=run.rate, **said)
    return Msg("compare.job_line", **said)


def _winner(runs: Sequence[_Run], wanted: str) -> _Run:
    """The option whose checks the answer shows: the best verdict, then the winner asked."""

    def key(run: _Run) -> tuple[int, float]:
        if wanted == "speed" and run.fits:
            pace = run.seconds if run.seconds is not None else -(run.rate or 0.0)
            return _RANK[run.outcome.verdict], pace
        return _RANK[run.outcome.verdict], run.need if run.need is not None else float("inf")

    return min(runs, key=key)


def _split(outcome: Outcome) -> tuple[int, int]:
    s = outcome.scenario or Scenario()
    return s.tensor_parallel or 1, s.pipeline_parallel or 1


def _on_one_split(
    scenarios: Sequence[Scenario], outcomes: list[Outcome], run: Callable[[Scenario, str], Outcome]
) -> list[Outcome]:
    """ZeRO stages compared on one split: each stage may be laid out differently on its own
    (ZeRO-1 over TP=8, ZeRO-2 on data parallelism alone), and then the memory per GPU compares
    the layouts, not the stages. The split is the highest stage's (the one that shards the
    most), unless the question states one."""
    first = scenarios[0]
    if first.zero_stage is None or first.tensor_parallel or first.pipeline_parallel:
        return outcomes
    if len({_split(o) for o in outcomes}) == 1:
        return outcomes
    top = max(range(len(scenarios)), key=lambda i: scenarios[i].zero_stage or 0)
    tp, pp = _split(outcomes[top])
    pinned = [replace(s, tensor_parallel=tp, pipeline_parallel=pp) for s in scenarios]
    return [o if i == top else run(pinned[i], "") for i, o in enumerate(outcomes)]


def _hardware(s: Scenario | None) -> Msg:
    if s is None or s.gpu is None:
        return Msg("compare.job_same_hardware")
    return Msg("common.gpus", count=s.gpu_count or 1, gpu=s.gpu)


def compare_jobs(query: Query, run: Callable[[Scenario, str], Outcome]) -> Outcome:
    """Evaluate every job setting on the question's hardware; the lead names the winner on
    the criterion asked, then the basis and each option's verdict, memory and pace."""
    lang = query.language
    slot, _ = _label(query.options[0])
    scenarios = [merged(query.scenario, o) for o in query.options]
    outcomes = _on_one_split(scenarios, [run(s, "") for s in scenarios], run)
    runs = [_run(_label(o)[1], out) for o, out in zip(query.options, outcomes, strict=True)]
    asked = criterion(query.question)
    wanted = asked if asked in ("memory", "speed") else None
    wanted = wanted or ("speed" if slot == "precision" else "memory")
    lead = _speed_lead(runs) if wanted == "speed" else None
    lead = lead or (_states_lead(runs) if slot == "zero_stage" else None) or _memory_lead(runs)
    best = _winner(runs, wanted)
    hardware = _hardware(best.outcome.scenario)
    basis = Msg("compare.job_basis", hardware=hardware, setting=Msg(f"compare.job_setting.{slot}"))
    said = [m for m in (lead, basis, *map(_line, runs)) if m is not None]
    focus = join_sentences([text(m, lang) for m in said], lang)
    # no `options` for the chart: it names each option by its hardware, the same for all here
    return replace(best.outcome, lead="", focus=focus, options=())


def without_job_options(query: Query) -> Query:
    """The query with job-side options dropped when they are not compared as runs (a ZeRO
    saving asked): the question is then answered as one job; hardware options are kept."""
    if query.options and all(
        all(getattr(o, slot) is None for slot in _HARDWARE_SLOTS) for o in query.options
    ):
        return replace(query, options=())
    return query
