"""The most concurrent streams the stated GPUs serve within a per-stream floor: "要求每路20
tok/s，8张A100跑Llama-3-70B最多多少并发", "首token 1秒内最多多少并发".

The question fixes the GPUs and asks for a count of streams, so the answer is that count
(`calculators.streams_within`: each stream a user in a closed loop, prefill sharing the GPUs,
bisected on the serving calculator at the layout of the stated GPUs that keeps the most), not
the GPUs a target needs (`targets.meet_target`). The memory maximum follows as headroom. The
figures under the answer are evaluated at that many streams on that layout, and say so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.solvers import model_and_gpu, serving_inputs
from assistant.calculate.stream_speed import slow_stream_msg
from assistant.i18n import join_sentences, text
from assistant.records import Ask, Language, Scenario, Verdict
from calculators.defaults import (
    DEFAULT_OUTPUT_TOKENS,
)
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome
    from calculators.serving_streams import StreamCapacity, StreamLoad

__all__ = ["floor_asked", "most_streams", "stream_capacity"]

#: Evaluate a scenario (hardware, count and layout filled in) with an assumption note.
Rerun = Callable[[Scenario, str], "Outcome"]


def floor_asked(s: Scenario, ask: Ask) -> bool:
    """True for "how many concurrent streams" asked with a floor per stream (a speed or a
    first token) and no rate target (a tokens/s or QPS target is sized by `meet_target`).

    Examples:
        >>> floor_asked(Scenario(target_seconds_per_token=0.05), "max_concurrency")
        True
        >>> floor_asked(Scenario(target_seconds_per_token=0.05), "gpu_count")
        False
        >>> floor_asked(Scenario(target_qps=5, target_first_token_seconds=1), "max_concurrency")
        False
    """
    floor = s.target_seconds_per_token is not None or s.target_first_token_seconds is not None
    rate = s.target_tokens_per_second is not None or s.target_qps is not None
    return ask == "max_concurrency" and floor and not rate


def stream_capacity(s: Scenario) -> StreamCapacity | None:
    """`calculators.streams_within` on the evaluated scenario's model, GPUs and formats."""
    from calculators import streams_within
    from calculators.errors import CalculatorInputError

    found = model_and_gpu(s)
    if found is None or not s.gpu_count:
        return None
    try:
        return streams_within(
            model=found[0],
            gpu=found[1],
            gpus=s.gpu_count,
            target_seconds_per_token=s.target_seconds_per_token,
            target_first_token_seconds=s.target_first_token_seconds,
            first_token_quantile=s.first_token_quantile,
            **serving_inputs(s),
        )
    except (CalculatorInputError, KeyError, ValueError):
        return None


def most_streams(stated: Scenario, outcome: Outcome, rerun: Rerun, lang: Language) -> Outcome:
    """The answer: the most streams within the floor on the stated GPUs, the layout, each
    stream's speed and first token there, what stops one more, then the memory headroom;
    evaluated at that load. Not one stream within it: infeasible on these GPUs."""
    from assistant.calculate.targets import target_words

    evaluated = outcome.scenario
    found = stream_capacity(evaluated) if evaluated is not None else None
    if evaluated is None or found is None:
        return outcome
    if found.load is None:
        return _none_within(stated, evaluated, outcome, rerun, lang, found)
    note = Msg(
        "solve.streams_note",
        streams=found.streams,
        qps=found.load.requests_per_second * found.replicas,
        output=evaluated.output_tokens or DEFAULT_OUTPUT_TOKENS,
    )
    at_load = replace(
        evaluated,
        concurrency=found.streams,
        batch_size=found.streams,
        tensor_parallel=found.tensor_parallel,
        pipeline_parallel=found.pipeline_parallel,
    )
    out = rerun(at_load, text(note, lang))
    said = _said(found, found.load, evaluated, target_words(stated))
    verdict: Verdict = "infeasible" if out.verdict == "infeasible" else "feasible"
    focus = join_sentences(tuple(text(m, lang) for m in said), lang)
    return replace(out, verdict=verdict, focus=focus)


def _said(found: StreamCapacity, load: StreamLoad, s: Scenario, floor: Param) -> tuple[Msg, ...]:
    """The count with its layout, speed and first token; what stops one more; the memory
    maximum as headroom (unless memory is the limit); a slow-stream note when under the bar."""
    layout = Msg(
        "solve.streams_layout",
        replicas=found.replicas,
        tp=found.tensor_parallel,
        pp=found.pipeline_parallel,
    )
    said: tuple[Msg, ...] = (
        Msg(
            "solve.streams_within",
            hardware=Msg("common.gpus", count=s.gpu_count or 0, gpu=s.gpu or "GPU"),
            target=floor,
            streams=found.streams,
            layout=layout,
            speed=1.0 / load.seconds_per_token,
            ttft=_ttft(load, s),
        ),
        Msg(f"solve.streams_bound.{found.bound}"),
    )
    if found.bound != "memory":  # the memory maximum, as its own sentence
        room = found.memory_per_replica * found.replicas
        said = (*said, Msg("solve.streams_headroom", count=room))
    slow = slow_stream_msg(load.seconds_per_token, s.output_tokens)
    return said if slow is None else (*said, slow)  # a first-token floor can leave them slow


def _ttft(load: StreamLoad, s: Scenario) -> Msg:
    """The first token at the count found: the mean, with its tail at a stated percentile."""
    from calculators.serving_loop import first_token_at

    if s.first_token_quantile is None:
        return Msg("solve.ttft_about", seconds=load.first_token_seconds)
    tail = first_token_at(load, s.first_token_quantile)
    pct = 100 * s.first_token_quantile
    return Msg("solve.ttft_tail_short", tail=tail, mean=load.first_token_seconds, pct=pct)


#: Weight formats tried when no stream meets the floor as released and the question left the
#: format open: FP8 where the GPU has FP8 tensor cores, INT8 where it has not, then 4-bit; decode
#: reads every weight once per step, so fewer bytes per weight is a shorter step (Pope et al.
#: 2022, §2; knowledge/guides/inference-serving). The order is `targets._lower_format`'s.
_FORMATS = {True: ("fp8", "int4"), False: ("int8", "int4")}


def _none_within(
    stated: Scenario,
    evaluated: Scenario,
    outcome: Outcome,
    rerun: Rerun,
    lang: Language,
    found: StreamCapacity,
) -> Outcome:
    """Not one stream within the floor as released: with the format open, the first smaller
    weight format in which some are (a condition: no new hardware, nothing stated undone),
    evaluated in it; else infeasible on these GPUs."""
    from assistant.calculate.targets import target_words

    hardware = Msg("common.gpus", count=evaluated.gpu_count or 0, gpu=evaluated.gpu or "GPU")
    floor = target_words(stated)
    key = "solve.streams_none_memory" if found.bound == "memory" else "solve.streams_none"
    none = Msg(key, hardware=hardware, target=floor)
    gpu = model_and_gpu(evaluated)
    if stated.precision is not None or gpu is None:
        return replace(outcome, verdict="infeasible", focus=text(none, lang))
    for dtype in _FORMATS[gpu[1].supports("fp8")]:
        in_format = replace(evaluated, precision=dtype)
        other = stream_capacity(in_format)
        if other is not None and other.load is not None:
            out = most_streams(
                replace(stated, precision=dtype), replace(outcome, scenario=in_format), rerun, lang
            )
            said = (
                text(none, lang),
                text(Msg("solve.streams_in_format", dtype=dtype.upper()), lang),
                out.focus,
            )
            verdict = "conditional" if out.verdict != "infeasible" else out.verdict
            return replace(out, verdict=verdict, focus=join_sentences(said, lang))
    return replace(outcome, verdict="infeasible", focus=text(none, lang))
