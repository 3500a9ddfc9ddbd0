"""The first sentence of an answer: what limits the job, by how much, and what would fix it.

"需要约 54.0 年，期限 90.0 天：差 220 倍" reads faster than a table. The shortfall is a ratio
of two computed figures (time over deadline, memory needed over memory available, communication
over compute); the fix is the first planner change whose re-evaluation is feasible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.whole_nodes import whole_nodes
from assistant.i18n import t, text
from assistant.i18n.labels import CHECK_LABELS
from assistant.i18n.numbers import bytes_text
from assistant.i18n.numbers import duration_text as fmt_seconds
from assistant.records import Check, Figure, Language
from calculators.messages import Msg
from calculators.planner.checks import NETWORK_OK_RATIO
from calculators.planner.host import HOST_USABLE_FRACTION
from calculators.units import format_bytes

if TYPE_CHECKING:
    from calculators.planner.plan import Evaluation, PlanChange

__all__ = ["fixed_speed", "headline", "recounted", "shortfall"]


def _num(figures: Mapping[str, Figure], key: str) -> float | None:
    value = figures.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return None
    return float(value)


def _gb(value: float) -> str:
    return format_bytes(value)


def _dur(seconds: float, lang: Language) -> str:
    """A duration without a spurious ".0" ("90 天", "6.7 years")."""
    text = fmt_seconds(seconds, lang)
    return text.replace(".0 ", " ")


def _times(ratio: float) -> str:
    return f"{ratio:,.0f}" if ratio >= 10 else f"{ratio:.1f}"


def _over(ratio: float, kind: str) -> Msg:
    """How far over a limit: "1.5× over" from 1.1 up, "3% over" below (a ratio rounded to
    "1.0×" reads as double); never "0%" for a limit just passed."""
    if ratio >= 1.1:
        return Msg(f"headline.{kind}.times", times=_times(ratio))
    return Msg(f"headline.{kind}.percent", excess=max(ratio - 1.0, 0.01))


def _memory(f: Mapping[str, Figure], lang: Language, gpu: str, verdict: str) -> str:
    need, have = _num(f, "required_bytes_per_gpu"), _num(f, "available_bytes_per_gpu")
    if not need or not have:
        return ""
    ratio = need / have
    if ratio <= 1 and verdict == "fail":  # the GPUs hold it; the host RAM of an offload does not
        return _host_ram(f, lang, need, have)
    if ratio <= 1:
        key = "headline.memory.tight" if ratio > 0.9 else "headline.memory.fits"
        return t(key, lang, need=_gb(need), have=_gb(have), ratio=ratio)
    over = _over(ratio, "memory")
    extra = _fewest(f, gpu)
    return t("headline.memory.over", lang, need=_gb(need), have=_gb(have), over=over, extra=extra)


def _fewest(f: Mapping[str, Figure], gpu: str) -> Msg | str:
    """The fewest GPUs that fit (any layout). At or below the GPUs evaluated it would read as
    "you lack GPUs you have": another layout of those GPUs fits (the fix says which)."""
    more, have = _num(f, "min_gpus"), _num(f, "gpus")
    if not more:
        return ""
    if have and more <= have:
        return Msg("headline.memory.other_layout", count=have, gpu=gpu)
    return Msg("headline.memory.min_gpus", count=more, gpu=gpu, nodes=whole_nodes(more, f, gpu))


def _host_ram(f: Mapping[str, Figure], lang: Language, need: float, have: float) -> str:
    """The failing resource when GPU memory fits: each node's host RAM for the offloaded states
    (80% of it usable, :data:`~calculators.planner.host.HOST_USABLE_FRACTION`)."""
    host_need = _num(f, "host_ram_needed_bytes_per_node")
    host_have = _num(f, "host_ram_bytes_per_node")
    if not host_need or not host_have:
        return ""
    usable = HOST_USABLE_FRACTION * host_have
    return t(
        "headline.memory.host_over",
        lang,
        need=_gb(host_need),
        usable=_gb(usable),
        have=bytes_text(host_have, "ram"),  # a DIMM total: "512 GiB", not "549.8 GB"
        times=_times(host_need / usable),
        gpu_need=_gb(need),
        gpu_have=_gb(have),
    )


def _compute(
    f: Mapping[str, Figure],
    lang: Language,
    gpu: str,
    verdict: str = "",
    horizon: bool = False,
    default_deadline: bool = False,
) -> str:
    """The run time against the deadline; `default_deadline`: the 90-day default stands in for
    a deadline nobody stated, and the clause says so ("超出默认期限 90 天（未给出期限）")."""
    seconds, deadline = _num(f, "seconds"), _num(f, "deadline_seconds")
    if not seconds or not deadline:
        return ""
    ratio = seconds / deadline
    took = _dur(seconds, lang)
    limit = _dur(deadline, lang)
    if ratio <= 1 and horizon:  # no deadline stated: the year is no limit to compare with
        return t("headline.compute.takes", lang, took=took)
    if ratio <= 1:
        key = "headline.compute.in_default_time" if default_deadline else "headline.compute.in_time"
        return t(key, lang, took=took, limit=limit)
    needed = _num(f, "gpus_for_deadline")
    nodes = whole_nodes(needed, f, gpu)
    if horizon:  # no deadline was stated: the year is the practical horizon, not a deadline
        if not needed:
            return ""
        return t("headline.compute.within_a_year", lang, count=needed, gpu=gpu, nodes=nodes)
    extra = (
        Msg("headline.compute.for_deadline", count=needed, gpu=gpu, nodes=nodes) if needed else ""
    )
    return t(
        "headline.compute.too_slow_default" if default_deadline else "headline.compute.too_slow",
        lang,
        took=took,
        limit=limit,
        over=_over(ratio, "compute"),
        extra=extra,
    )


def _network(f: Mapping[str, Figure], lang: Language, gpu: str, verdict: str) -> str:
    # all of a step's traffic (tensor/pipeline/expert too), as the check's ratio counts it
    comm = _num(f, "comm_seconds_per_step") or _num(f, "allreduce_seconds_per_step")
    comp = _num(f, "compute_seconds_per_step")
    if comm is None or not comp:
        return ""
    key = "headline.network.fail" if verdict == "fail" else "headline.network.tight"
    if verdict == "tight" and f.get("inter_node_rdma") is False and comm / comp <= NETWORK_OK_RATIO:
        # within the ok band: tight only because the nodes talk plain TCP (no RDMA)
        key = "headline.network.tight_tcp"
    tp = _num(f, "tp_seconds_per_step") if _num(f, "comm_seconds_per_step") else None
    inside = t("headline.network.inside", lang, tp=_dur(tp, lang)) if tp else ""
    if tp and tp >= 0.999 * comm:  # one node, or no other traffic: all of it in the node
        inside = t("headline.network.all_inside", lang)
    dur = _dur(comm, lang)
    return t(key, lang, comm=dur, compute=_dur(comp, lang), ratio=comm / comp, inside=inside)


_SHORTFALL = {"memory": _memory, "compute": _compute, "network": _network}


def shortfall(
    check: Check, lang: Language, gpu: str, horizon: bool = False, default_deadline: bool = False
) -> str:
    """What a check says in one clause, with the ratio of need to capacity when it has one
    (`default_deadline`: the run time is judged on the default deadline, see `_compute`)."""
    reader = _SHORTFALL.get(check.kind)
    if check.kind == "compute":
        text = _compute(check.figures, lang, gpu, check.verdict, horizon, default_deadline)
    else:
        text = reader(check.figures, lang, gpu, check.verdict) if reader else ""
    if text:
        return text
    # inference speed has no duration to compare: name it "speed", not "compute and time"
    label = CHECK_LABELS[check.kind][lang]
    if check.kind == "compute":
        label = t("headline.speed", lang)
    if lang == "en":
        label = label.lower()  # mid-sentence; the sentence's first letter is raised below
    summary = check.summary.rstrip("。.")
    if lang == "en" and summary[:1].isupper() and summary[1:2].islower():
        summary = _lower_first(summary)
    return f"{label}{t('common.colon', lang)}{summary}"


def headline(
    verdict: str,
    checks: Sequence[Check],
    binding: str | None,
    fix: str | None,
    lang: Language,
    gpu: str,
    *,
    beyond: str | None = None,
    beyond_key: str = "answer.beyond_stated",
    skip: tuple[str, ...] = (),
    horizon: bool = False,
    offer_fix: bool = True,
    deadline_asked: bool = False,
    memory_first: bool = False,
    recounted: bool = False,
    quiet_deadline: bool = False,
) -> str:
    """One sentence: the binding shortfall (then any other failing check), then the fix.

    `fix` is the first suggested change that makes the plan work and keeps what the user
    stated, or None; `beyond` the first working change that does not (shown as a suggestion
    under an infeasible verdict, never as the fix; `beyond_key` words it as new hardware or as
    undoing a stated choice). Checks of `skip` kinds are left out when
    they pass (a how-long answer states the duration itself). `horizon`: the run was judged on
    the one-year practical horizon, not on a stated deadline (no "deadline 365 days").
    `offer_fix` False leaves every fix out (over budget: a longer deadline or more GPUs fixes
    the run time but never the cost). `deadline_asked`: the user stated the deadline, so a
    passing run time against it leads ("can it finish in 10 days?" is answered first).
    `memory_first`: the question asks whether it fits, so the memory fit leads, even when
    another check only warns ("显存够吗" is answered before a tight network).
    `recounted`: the fix names a re-planned, evaluated GPU count (`recounted`), so when the
    sentence shows that fix against a stated deadline, the compute check's linear "about N to
    make it" is left out: one count, the evaluated one. `quiet_deadline`: no deadline was stated
    and a quantity was asked ("最少要几张?"), so a run time within the default deadline is said
    without it ("takes 5.7 h", not "deadline 90 days": the default decides nothing asked).
    """
    shows_fix = offer_fix and (fix is not None or beyond is not None)
    if recounted and shows_fix and not horizon:
        checks = [_without_count(c) for c in checks]
    checks = [
        c
        for c in checks
        if not (c.kind in skip and c.verdict != "fail" and not _past_horizon(c, horizon))
    ]
    failing = [c for c in checks if c.verdict == "fail"]
    failing.sort(key=lambda c: c.kind != binding)
    clauses = _clauses(checks, failing, lang, gpu, (horizon, quiet_deadline), deadline_asked)
    if memory_first:
        clauses = _memory_first(checks, clauses, lang, gpu)
    if not clauses:
        return ""
    text = t("common.semicolon", lang).join(clauses)
    text = text[0].upper() + text[1:]
    if not offer_fix:  # over a stated budget: no change of the plan lowers its GPU-hours
        pass
    elif failing and fix is not None:
        text += t("headline.fix", lang, fix=fix)  # English lower-cases it ({fix:mid})
    elif failing and beyond is not None:
        said = t(beyond_key, lang, change=beyond).rstrip("。.")
        text += t("headline.sentence_break", lang) + said
    elif failing and verdict == "infeasible":
        text += t("headline.no_single_fix", lang)
    return text + t("common.period", lang)


def recounted(evaluation: Evaluation, index: int | None) -> bool:
    """Whether the planner's suggestion `index` re-plans the same GPU at another count (its
    evaluation, layout and network included, is the count to say; the compute check's
    `gpus_for_deadline` scales the evaluated layout's rate linearly and would disagree)."""
    if index is None or index >= len(evaluation.suggestions):
        return False
    new = evaluation.suggestions[index].new_plan
    plan = evaluation.plan
    return new.gpu.name == plan.gpu.name and new.gpus != plan.gpus


def _without_count(check: Check) -> Check:
    """`check` without its count for the deadline (a compute check), else unchanged."""
    if check.kind != "compute" or "gpus_for_deadline" not in check.figures:
        return check
    figures = {k: v for k, v in check.figures.items() if k != "gpus_for_deadline"}
    return replace(check, figures=figures)


def _past_horizon(check: Check, horizon: bool) -> bool:
    """A run time past the practical year on a question that stated no deadline: a warning the
    headline keeps (with the count that finishes within a year) even when the duration is the
    answer, as the year decides no verdict (`verdict.on_open_horizon`)."""
    if not horizon or check.kind != "compute":
        return False
    seconds, deadline = _num(check.figures, "seconds"), _num(check.figures, "deadline_seconds")
    return bool(seconds and deadline and seconds > deadline)


def _clauses(
    checks: Sequence[Check],
    failing: Sequence[Check],
    lang: Language,
    gpu: str,
    limits: tuple[bool, bool],
    deadline_asked: bool,
) -> list[str]:
    """The clauses of the sentence: the failing checks (binding first); else the memory fit
    and the run time or speed, ok or tight, then a warning of the other checks (a tight
    network never hides whether the job fits and finishes). A stated deadline that is met
    leads when nothing fails. `limits` is (`horizon`, `quiet_deadline`) of :func:`headline`:
    either says a run time met without its limit."""
    horizon, quiet = limits
    if failing:
        said = (shortfall(c, lang, gpu, horizon, not deadline_asked) for c in failing[:2])
        return [c for c in said if c]
    tight = [c for c in checks if c.verdict == "tight"]
    core = [c for c in checks if c.kind in ("memory", "compute") and c.verdict in ("ok", "tight")]
    others = [c for c in tight if c.kind not in ("memory", "compute")]
    chosen = [*core, *others[:1]]
    if deadline_asked:  # "can it finish in 10 days?": the run time against it answers that
        chosen.sort(key=lambda c: c.kind != "compute")
    # a run time within a deadline nobody stated (the 90-day default) is said as the time it
    # takes, never "against a deadline of 90 days"
    open_time = horizon or quiet or not deadline_asked
    clauses = [c for c in (shortfall(c, lang, gpu, open_time) for c in chosen) if c]
    return clauses[:3] if tight else clauses[:2]


def _memory_first(
    checks: Sequence[Check], clauses: list[str], lang: Language, gpu: str
) -> list[str]:
    """`clauses` led by the memory fit (once), keeping at most two others after it."""
    memory = next((c for c in checks if c.kind == "memory"), None)
    fit = shortfall(memory, lang, gpu) if memory is not None else ""
    if not fit:
        return clauses
    return [fit, *(c for c in clauses if c != fit)][:3]


def _lower_first(text: str) -> str:
    """'Use ZeRO-3' -> 'use ZeRO-3' for a sentence's middle; 'ZeRO-3 + …', 'LoRA …' and
    'H100 …' keep their capitals (a name: another capital or a digit in its first word)."""
    first = text.split(" ", 1)[0]
    if any(c.isupper() or c.isdigit() for c in first[1:]):
        return text
    return text[:1].lower() + text[1:]


def fixed_speed(change: PlanChange) -> float | None:
    """One sequence's decode speed (tokens/s) on a serving plan a change made work; None for
    training or a changed plan that still fails."""
    if change.new_plan.task != "inference" or not change.evaluation_after.works:
        return None
    from calculators.planner.serving import plan_serving_speed

    return 1.0 / plan_serving_speed(change.new_plan).decode_seconds_per_token


def speed_after_fix(evaluation: Evaluation, keeping: int | None, lang: Language) -> str:
    """A serving plan that fails and has a fix: the decode speed the fixed plan reaches
    ("int8 后每路生成约 30 token/s"), so a how-fast question still gets its number; "" for
    training, no fix, or a fixed plan that still fails."""
    if keeping is None or keeping >= len(evaluation.suggestions):
        return ""
    change = evaluation.suggestions[keeping]
    speed = fixed_speed(change)
    if speed is None:
        return ""
    batch = change.new_plan.batch_size
    key = "answer.speed_after_fix_total" if batch > 1 else "answer.speed_after_fix"
    return text(Msg(key, speed=speed, total=batch * speed), lang)
