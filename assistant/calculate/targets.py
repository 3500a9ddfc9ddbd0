"""Serving targets: GPUs for a tok/s, QPS or first-token target ("1000 tok/s 需要几张A100",
"QPS 10, first token under 1 s").

`calculators.gpus_for_target` gives the fewest GPUs (replicas × GPUs per replica) that meet the
targets on the evaluated GPU. With no GPU count stated, the job is re-evaluated at that count
and layout (so the checks under the answer agree with it); with a count stated, the count is
compared with it: fewer GPUs than the target needs is `infeasible` (more hardware), never a
condition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.solvers import in_flight_on, model_and_gpu, serving_inputs, weight_dtype
from assistant.calculate.target_fixes import target_judged_fixes
from assistant.calculate.target_load import assumed_lengths, at_load_said, headroom, slow_at_load
from assistant.i18n import join_sentences, text
from assistant.records import Language, Scenario
from calculators.defaults import (
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_OUTPUT_TOKENS,
)
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome
    from calculators.serving_load import InFlight
    from calculators.serving_target import ServingTarget

__all__ = ["has_target", "interactive_sizing", "meet_target", "serving_target", "target_words"]

#: Evaluate a scenario (hardware, count and layout filled in) with an assumption note.
Rerun = Callable[[Scenario, str], "Outcome"]


def has_target(s: Scenario) -> bool:
    """True when the question states a throughput, QPS or first-token target."""
    return any(
        v is not None
        for v in (
            s.target_tokens_per_second,
            s.target_qps,
            s.target_first_token_seconds,
            s.target_seconds_per_token,
        )
    )


def target_words(s: Scenario) -> tuple[Msg, ...]:
    """The stated targets as messages (a list in the answer's language)."""
    users = s.concurrency or s.batch_size
    speed = 1.0 / s.target_seconds_per_token if s.target_seconds_per_token else None
    tail = s.first_token_quantile is not None
    parts = (
        ("solve.target_tps", s.target_tokens_per_second),
        ("solve.target_qps", s.target_qps),
        ("solve.target_ttft_tail" if tail else "solve.target_ttft", s.target_first_token_seconds),
        ("solve.target_users" if users and speed else "solve.target_speed", speed),
    )
    pct = 100 * (s.first_token_quantile or 0.0)
    return tuple(
        Msg(key, value=value, concurrent=_concurrent(users or 1), pct=pct)
        for key, value in parts
        if value is not None
    )


def _aggregate(s: Scenario) -> float | None:
    """The throughput asked for: stated, or users × the speed each is to get."""
    users = s.concurrency or s.batch_size
    if s.target_tokens_per_second is None and users and s.target_seconds_per_token:
        return users / s.target_seconds_per_token
    return s.target_tokens_per_second


def serving_target(s: Scenario) -> ServingTarget | None:
    """`calculators.gpus_for_target` on the scenario's model, GPU, context and format."""
    from calculators import gpus_for_target
    from calculators.errors import CalculatorInputError

    found = model_and_gpu(s)
    if found is None:
        return None
    model, gpu = found
    try:
        return gpus_for_target(
            model=model,
            gpu=gpu,
            target_tokens_per_second=_aggregate(s),
            target_qps=s.target_qps,
            target_first_token_seconds=s.target_first_token_seconds,
            target_concurrency=s.concurrency,
            target_seconds_per_token=s.target_seconds_per_token,
            first_token_quantile=s.first_token_quantile,
            **serving_inputs(s),
        )
    except (CalculatorInputError, KeyError, ValueError):
        return None


def sizing_scenario(stated: Scenario, evaluated: Scenario, per_node: int) -> Scenario:
    """The evaluated scenario to size a target on: the layout only as the question states it
    (a layout the evaluation chose is searched again), on nodes of ``per_node``."""
    return replace(
        evaluated,
        gpus_per_node=per_node,
        tensor_parallel=stated.tensor_parallel,
        pipeline_parallel=stated.pipeline_parallel,
    )


def _sized(key: str, t: ServingTarget, gpu: str, **more: Param) -> Msg:
    """A sentence about what the target needs (`t.gpus` GPUs in replicas)."""
    return Msg(
        key,
        hardware=Msg("common.gpus", count=t.gpus or 0, gpu=gpu),
        replicas=t.replicas,
        per_replica=t.tensor_parallel * t.pipeline_parallel,
        concurrent=_concurrent(t.sequences_per_replica),
        tokens_per_second=t.tokens_per_second_per_replica,
        qps=t.requests_per_second_per_replica,
        ttft=ttft_said(t),
        **more,
    )


def ttft_said(t: ServingTarget) -> Msg:
    """The first token a sizing found: the mean, with its tail when the target is a
    percentile ("p99 about 0.9 s, mean 0.4 s at this load: queueing tail, an estimate")."""
    if t.first_token_tail_seconds is not None:
        return Msg(
            "solve.ttft_tail",
            tail=t.first_token_tail_seconds,
            mean=t.first_token_seconds,
            pct=100 * (t.first_token_quantile or 0.0),
        )
    key = "solve.ttft_at_load" if t.rate_bound is not None else "solve.ttft_unloaded"
    return Msg(key, seconds=t.first_token_seconds)


def _rate_said(t: ServingTarget) -> tuple[Msg, ...]:
    """How a replica's request rate is found at a QPS target: prefill plus its share of the
    decode on the same GPUs (`calculators.serving_rate`), and the latency target if it binds."""
    if t.rate_bound is None or t.gpus is None:
        return ()
    capacity = 1.0 / (t.prefill_seconds + t.decode_share_seconds)
    key = "solve.rate_budget" if t.rate_bound == "gpu_time" else "solve.rate_budget_capped"
    return (
        Msg(
            key,
            prefill=t.prefill_seconds,
            decode=t.decode_share_seconds,
            capacity=capacity,
            qps=t.requests_per_second_per_replica,
            target=Msg(f"solve.rate_bound.{t.rate_bound}"),
        ),
    )


def interactive_sizing(
    stated: Scenario, evaluated: Scenario, per_node: int
) -> Callable[[], ServingTarget | None]:
    """The load sized again with the tool's interactive bar per stream as a per-token target
    (none when the question set its own): the GPUs that give every stream that speed. The
    one home of this re-sizing: a serving target's answer (`slow_at_load`) and a count asked
    for stated users (`interactive.with_interactive_count`) both use it."""
    from assistant.calculate.stream_speed import INTERACTIVE_TOKENS_PER_SECOND

    if stated.target_seconds_per_token is not None:
        return lambda: None
    bar = 1.0 / INTERACTIVE_TOKENS_PER_SECOND
    sizing = replace(sizing_scenario(stated, evaluated, per_node), target_seconds_per_token=bar)
    return lambda: serving_target(sizing)


def _concurrent(sequences: int) -> Msg:
    """ "1 concurrent sequence" / "8 concurrent sequences": the count with its noun."""
    return Msg("solve.concurrent_one" if sequences == 1 else "solve.concurrent", count=sequences)


def _at_count(stated: Scenario, gpu: str, t: ServingTarget) -> Scenario:
    """The question's scenario on the target's GPU count, layout and load (stated slots kept)."""
    return replace(
        stated,
        gpu=gpu,
        gpu_count=t.gpus,
        tensor_parallel=stated.tensor_parallel or t.tensor_parallel,
        pipeline_parallel=stated.pipeline_parallel or t.pipeline_parallel,
        batch_size=stated.batch_size or t.sequences_per_replica * t.replicas,
    )


def meet_target(
    stated: Scenario, outcome: Outcome, rerun: Rerun, lang: Language, *, counted: bool
) -> Outcome:
    """The answer to a serving target: the GPUs it needs, first.

    `outcome` is the evaluation of the question as asked (hardware resolved); `counted` is True
    when the question fixed the GPU count (then the count is judged, not changed)."""
    evaluated = outcome.scenario
    if evaluated is None:
        return outcome
    # layouts are searched on nodes of eight unless the question says otherwise: "2 H100" is a
    # count to judge, not a node of two (else a target 4 GPUs meet reads as unreachable)
    per_node = stated.gpus_per_node or DEFAULT_GPUS_PER_NODE
    sizing = sizing_scenario(stated, evaluated, per_node)
    target = serving_target(sizing)
    if target is None:
        return outcome
    gpu = evaluated.gpu or "GPU"
    words = target_words(stated)
    have = (evaluated.gpu_count or 1) if counted else None
    short = target.gpus is None or (have is not None and have < target.gpus)
    lower = _lower_format(sizing, per_node, have) if short else None
    if lower is not None and stated.precision is None:
        return _in_format(stated, evaluated, rerun, lang, target, lower, have)
    # a stated format: another one that meets the target is a suggestion, not a condition
    other = (_other_format(gpu, evaluated, *lower),) if lower is not None else ()
    if target.gpus is None:
        said = (Msg("solve.target_unreachable", gpu=gpu, target=words), *other)
        focus = join_sentences(tuple(text(m, lang) for m in said), lang)
        outcome = target_judged_fixes(stated, outcome, per_node, lang)
        return replace(outcome, verdict="infeasible", focus=focus)
    if have is not None:
        return _counted(stated, outcome, rerun, lang, target, have, other)
    return _sized_answer(stated, evaluated, rerun, lang, target, per_node)


def _counted(
    stated: Scenario,
    outcome: Outcome,
    rerun: Rerun,
    lang: Language,
    target: ServingTarget,
    have: int,
    other: tuple[Msg, ...],
) -> Outcome:
    """A stated count judged against the target: met, the figures at the load asked (the
    sequences the target keeps in flight, or the stated concurrency), then the headroom; short,
    the count it takes."""
    evaluated = outcome.scenario or stated
    gpu, words = evaluated.gpu or "GPU", target_words(stated)
    enough = target.gpus is not None and have >= target.gpus
    stated_hw = Msg("common.gpus", count=have, gpu=gpu)
    one = have == 1  # "1 × L4 falls short", "8 × L4 fall short"
    met = "solve.target_met_one" if one else "solve.target_met"
    key = met if enough else "solve.target_short_one" if one else "solve.target_short"
    sized = _sized(key, target, gpu, stated=stated_hw, target=words)
    found = _loaded(stated, evaluated, target, have) if enough else None
    load = found[2] if found is not None else None
    if found is not None:
        outcome = rerun(found[0], text(found[1], lang))
    elif enough and (stated.batch_size or stated.concurrency):  # evaluated at that load already
        load = _in_flight(evaluated, target, have)
    if load is not None:  # the stated load's figures first, then the memory maximum
        more: dict[str, Param] = {"stated": stated_hw, "target": words}
        checks = outcome.checks
        met_load = "solve.target_met_load_one" if one else "solve.target_met_load"
        sized = at_load_said(met_load, target, gpu, load, evaluated, checks, **more)
    rate = _rate_said(target)
    room = (headroom(target, rate_said=bool(rate)),) if load else ()
    faster = interactive_sizing(stated, evaluated, stated.gpus_per_node or DEFAULT_GPUS_PER_NODE)
    slow = slow_at_load(load, evaluated, faster, gpu) if load is not None else ()
    lengths = () if enough else assumed_lengths(stated)  # defaults that decide the verdict
    said = (sized, *lengths, *slow, *rate, *room, *other)
    focus = join_sentences(tuple(text(m, lang) for m in said), lang)
    if not enough:  # a fix that only makes it fit is no fix for the target
        per_node = stated.gpus_per_node or DEFAULT_GPUS_PER_NODE
        outcome = target_judged_fixes(stated, outcome, per_node, lang)
    return replace(outcome, verdict=outcome.verdict if enough else "infeasible", focus=focus)


def _loaded(
    stated: Scenario, evaluated: Scenario, target: ServingTarget, have: int
) -> tuple[Scenario, Msg, InFlight] | None:
    """The scenario at the sequences in flight on the stated GPUs, the note saying so, and
    the load (`calculators.in_flight`)."""
    s = evaluated
    if stated.batch_size is not None or not (s.target_qps or _aggregate(s)):
        return None
    load = _in_flight(s, target, have)
    if load is None:
        return None
    note = Msg(
        "solve.in_flight_note",
        sequences=load.sequences,
        per_replica=load.per_replica,
        ttft=load.first_token_seconds,
        output=s.output_tokens or DEFAULT_OUTPUT_TOKENS,
        tpot=load.seconds_per_token,
    )
    at_load = replace(
        _on_stated(stated, evaluated.gpu, have),
        tensor_parallel=stated.tensor_parallel or target.tensor_parallel,
        pipeline_parallel=stated.pipeline_parallel or target.pipeline_parallel,
        batch_size=load.sequences,
    )
    return at_load, note, load


def _on_stated(stated: Scenario, gpu: str | None, count: int) -> Scenario:
    """The question's scenario on the GPUs it was judged on: a named site's profile gives
    them again when re-evaluated (set here, they would read as overriding the profile)."""
    if stated.site_profile is not None:
        return stated
    return replace(stated, gpu=gpu, gpu_count=count)


def _in_flight(s: Scenario, target: ServingTarget, have: int) -> InFlight | None:
    """`calculators.in_flight` on the target's layout over the stated GPUs."""
    per_replica = target.tensor_parallel * target.pipeline_parallel
    if per_replica < 1 or target.sequences_per_replica < 1:
        return None
    return in_flight_on(
        s,
        (target.tensor_parallel, target.pipeline_parallel),
        replicas=max(1, have // per_replica),
        batch_limit=target.sequences_per_replica,
        target_qps=s.target_qps,
        target_tokens_per_second=_aggregate(s),
    )


def _sized_answer(
    stated: Scenario,
    evaluated: Scenario,
    rerun: Rerun,
    lang: Language,
    target: ServingTarget,
    per_node: int,
) -> Outcome:
    """No count stated: the fewest GPUs in the released format, evaluated at that count, and
    the fewer a smaller format the question left open would need (said, not assumed)."""
    gpu, words, count = evaluated.gpu or "GPU", target_words(stated), target.gpus or 1
    hardware = Msg("common.gpus", count=count, gpu=gpu)
    note = text(Msg("solve.target_note", hardware=hardware, target=words), lang)
    found = _loaded(stated, evaluated, target, count)
    load: InFlight | None = None
    if found is None:  # the stated load (a concurrency), or none: a latency target alone
        sized_outcome = rerun(_at_count(stated, gpu, target), note)
        if stated.batch_size or stated.concurrency:  # evaluated at that load already
            load = _in_flight(evaluated, target, count)
    else:  # evaluated at the sequences the target keeps in flight on that count
        sized_outcome = rerun(found[0], join_sentences((note, text(found[1], lang)), lang))
        load = found[2]
    if load is None:  # no load to state: what a replica holds is the answer
        said = [_sized("solve.target_gpus", target, gpu, target=words), *_rate_said(target)]
    else:  # the stated (or implied) load first, then the memory maximum as headroom
        checks = sized_outcome.checks
        led = at_load_said(
            "solve.target_gpus_load", target, gpu, load, evaluated, checks, target=words
        )
        rate = _rate_said(target)
        slow = slow_at_load(load, evaluated, interactive_sizing(stated, evaluated, per_node), gpu)
        said = [*_bar_first(led, slow, words), *rate, headroom(target, rate_said=bool(rate))]
    sizing = sizing_scenario(stated, evaluated, per_node)
    fewer = _lower_format(sizing, per_node, count - 1) if stated.precision is None else None
    if fewer is not None:
        dtype, t = fewer
        said.append(_sized("solve.fewer_in_format", t, gpu, dtype=_format(*dtype)))
    focus = join_sentences(tuple(text(m, lang) for m in said), lang)
    return replace(sized_outcome, focus=focus)


def _bar_first(led: Msg, slow: tuple[Msg, ...], words: Param) -> tuple[Msg, ...]:
    """A count asked for a target whose streams would crawl on the fewest GPUs that hold it:
    the count that also gives every stream the interactive bar leads, the fewest after it."""
    if len(slow) < 2:
        return (led, *slow)
    bar = Msg("solve.interactive_first", **{**dict(slow[1]), "target": words})
    return bar, Msg("solve.memory_only", count=led), slow[0]


#: Weight formats tried for a serving target the released one misses, in the order a serving
#: engineer tries them: FP8 where the GPU has FP8 tensor cores (vLLM / TensorRT-LLM FP8
#: checkpoints), int8 where it has not (the same byte per weight, so never both), then 4-bit
#: AWQ/GPTQ. Decode reads every weight once per step (Pope et al. 2022, §2), so fewer bytes
#: per weight is a proportionally shorter step; see knowledge/guides/inference-serving. The KV
#: cache stays 16-bit beside them (`kv_format`); when the question leaves the KV format open,
#: each is also tried with an 8-bit KV cache (vLLM `--kv-cache-dtype fp8`; INT8 without FP8),
#: its own change, as a serving engineer adds it.
_FP8_FORMATS = ("fp8", "int4")
_NO_FP8_FORMATS = ("int8", "int4")

#: A serving format tried: (weights, the KV cache's format or None for the 16-bit default).
Format = tuple[str, str | None]


def _lower_format(
    evaluated: Scenario, per_node: int, have: int | None
) -> tuple[Format, ServingTarget] | None:
    """The first smaller serving format whose deployment meets the target (on `have` GPUs at
    most when the count is stated), and that deployment; None when none does."""
    from calculators.catalog.hardware import DTYPE_BYTES

    found = model_and_gpu(evaluated)
    if found is None:
        return None
    current = DTYPE_BYTES.get(weight_dtype(evaluated) or "bf16", 2.0)
    fp8 = found[1].supports("fp8")
    kv8 = (None,) if evaluated.kv_dtype is not None else (None, "fp8" if fp8 else "int8")
    for dtype in _FP8_FORMATS if fp8 else _NO_FP8_FORMATS:
        for kv in kv8 if DTYPE_BYTES[dtype] < current else ():
            tried = replace(evaluated, gpus_per_node=per_node, precision=dtype)
            t = serving_target(replace(tried, kv_dtype=kv or evaluated.kv_dtype))
            if t is not None and t.gpus is not None and (have is None or t.gpus <= have):
                return (dtype, kv), t
    return None


def _in_format(
    stated: Scenario,
    evaluated: Scenario,
    rerun: Rerun,
    lang: Language,
    released: ServingTarget,
    lower: tuple[Format, ServingTarget],
    have: int | None,
) -> Outcome:
    """The target met in a smaller weight format the question left open: a condition (no new
    hardware, nothing stated undone), evaluated in that format so the checks agree."""
    (dtype, kv), t = lower
    gpu = evaluated.gpu or "GPU"
    label = _format(dtype, kv)
    stated = replace(stated, kv_dtype=kv or stated.kv_dtype)  # evaluated with that cache
    more: dict[str, Param] = {"target": target_words(stated), "dtype": label}
    more["tpot"] = t.seconds_between_tokens  # at the target's load, prefill taking its share
    notes: tuple[Msg, ...]
    if have is not None:
        on = _on_stated(stated, gpu, evaluated.gpu_count or have)
        scenario = replace(on, precision=dtype)
        more["stated"] = Msg("common.gpus", count=have, gpu=gpu)
        notes = (Msg("solve.target_format_note", dtype=label),)
        # judged at the sequences in flight in that format, as in the released one (`_loaded`)
        in_format = replace(evaluated, precision=dtype, kv_dtype=stated.kv_dtype)
        loaded = _loaded(replace(stated, precision=dtype), in_format, t, have)
        if loaded is not None:
            scenario, notes = loaded[0], (*notes, loaded[1])
            more["tpot"] = loaded[2].seconds_per_token  # the figure the note derives from
        said = _sized("solve.target_in_format", t, gpu, **more)
    else:
        scenario = _at_count(replace(stated, precision=dtype), gpu, t)
        said = _sized("solve.target_gpus_in_format", t, gpu, **more)
        notes = (Msg("solve.target_format_note_any", dtype=label),)
    out = rerun(scenario, join_sentences(tuple(text(n, lang) for n in notes), lang))
    verdict = "conditional" if out.verdict in ("feasible", "conditional") else out.verdict
    before = _in_released(evaluated, released, gpu)
    sentences = (said, *_rate_said(t), before)
    focus = join_sentences(tuple(text(m, lang) for m in sentences), lang)
    return replace(out, verdict=verdict, focus=focus)


def _in_released(evaluated: Scenario, released: ServingTarget, gpu: str) -> Msg:
    """What the target takes in the released format (or that nothing meets it there)."""
    was = (evaluated.precision or "bf16").upper()
    if released.gpus is None:
        return Msg("solve.released_none", released=was, gpu=gpu)
    hardware = Msg("common.gpus", count=released.gpus, gpu=gpu)
    return Msg("solve.released_takes", released=was, hardware=hardware)


def _other_format(gpu: str, evaluated: Scenario, dtype: Format, t: ServingTarget) -> Msg:
    """A smaller format than the stated one meets the target: said, under `infeasible`."""
    return Msg(
        "solve.target_other_format",
        dtype=_format(*dtype),
        released=(evaluated.precision or "bf16").upper(),
        hardware=Msg("common.gpus", count=t.gpus or 0, gpu=gpu),
        tpot=t.seconds_between_tokens,
    )


def _format(dtype: str, kv: str | None = None) -> Msg:
    """A serving format as deployed: the KV cache stays 16-bit beside 8- or 4-bit weights (as
    the plan and the solvers take it, `kv_format`) unless an 8-bit cache is added too."""
    if kv is None:
        return Msg("solve.format.weights", dtype=dtype.upper())
    return Msg("solve.format.weights_kv", dtype=dtype.upper(), kv=kv.upper())
