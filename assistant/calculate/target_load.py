"""A serving target met: the figures at the load the question states, then the headroom.

A deployment sized for a target runs at that target's load, not at the most sequences its
memory holds, so the answer's first sentence gives what the stated load gets: replicas and
GPUs, the tokens per second delivered (requests/s x output tokens by Little's law, or the
in-flight sequences x each one's speed for a concurrency), requests per second, each
sequence's speed and the first token. The memory maximum is a second, labelled sentence
("余量：…"), never mixed into the first (`targets.meet_target`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.calculate.stream_speed import INTERACTIVE_TOKENS_PER_SECOND, slow_stream_msg
from assistant.records import Check, Scenario
from calculators.defaults import DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from calculators.serving_load import InFlight
    from calculators.serving_target import ServingTarget

__all__ = [
    "assumed_lengths",
    "at_load_said",
    "headroom",
    "interactive_count",
    "load_ttft_said",
    "slow_at_load",
]

#: Times per token within 5% read as the same speed (the compute line's, at one decimal).
_SAME = 1.05


def load_ttft_said(load: InFlight, s: Scenario) -> Msg:
    """The first token at the stated load: the mean with queueing, and its tail when the
    target is stated at a percentile (`calculators.serving_tail`)."""
    from calculators.serving_tail import tail_first_token

    if s.first_token_quantile is None or load.prefill_seconds <= 0.0:
        return Msg("solve.ttft_at_load", seconds=load.first_token_seconds)
    tail = tail_first_token(
        requests_per_second=load.requests_per_second_per_replica,
        prefill_seconds=load.prefill_seconds,
        seconds_per_step=load.decode_step_seconds or load.seconds_per_token,
        quantile=s.first_token_quantile,
    )
    return Msg(
        "solve.ttft_tail",
        tail=tail,
        mean=load.first_token_seconds,
        pct=100 * s.first_token_quantile,
    )


def at_load_said(
    key: str,
    sized: ServingTarget,
    gpu: str,
    load: InFlight,
    s: Scenario,
    checks: tuple[Check, ...],
    **more: Param,
) -> Msg:
    """The sentence of a target met at the stated load (`key`: `solve.target_gpus_load` or
    `solve.target_met_load`), from the load (`calculators.in_flight`); `checks` (evaluated at
    that load) give the time per token only when the load has none."""
    output = s.output_tokens or DEFAULT_OUTPUT_TOKENS
    # the time per token at the load, prefill taking its share of the GPUs (the in-flight
    # note derives the sequences from it), so sequences x speed is about what is delivered
    step = figure(checks, "compute", "seconds_per_token")
    spt = load.seconds_per_token or step or 1.0
    # slower than the decode step under it: say why, so the two speeds do not read as a clash
    shared = Msg("solve.prefill_share") if step and spt > step * _SAME else ""
    delivered = s.target_qps * output if s.target_qps else load.sequences / spt
    ttft = load_ttft_said(load, s)
    return Msg(
        key,
        hardware=Msg("common.gpus", count=sized.gpus or 0, gpu=gpu),
        replicas=sized.replicas,
        per_replica=sized.tensor_parallel * sized.pipeline_parallel,
        sequences=load.sequences,
        spread=Msg("solve.load_spread", replicas=load.replicas)
        if load.replicas != sized.replicas  # the stated GPUs hold more replicas than needed
        else "",
        delivered=delivered,
        qps=s.target_qps or delivered / output,
        speed=1.0 / spt,
        shared=shared,
        ttft=ttft,
        **more,
    )


def headroom(target: ServingTarget, *, rate_said: bool = False) -> Msg:
    """The memory maximum per replica, as its own sentence; with the request rate a replica
    sustains unless the answer said it already (`rate_said`). When a latency target caps the
    batch below what memory holds, both, each labelled: memory holds M, the target serves N."""
    concurrent = Msg("solve.concurrent", count=target.sequences_per_replica)
    held = target.memory_sequences_per_replica
    if held > target.sequences_per_replica:  # a latency target caps the batch below memory
        return Msg(
            "solve.headroom_capped_memory" if rate_said else "solve.headroom_capped",
            held=Msg("solve.concurrent", count=held),
            concurrent=concurrent,
            qps=target.requests_per_second_per_replica,
        )
    if rate_said:
        return Msg("solve.headroom_memory", concurrent=concurrent)
    return Msg("solve.headroom", concurrent=concurrent, qps=target.requests_per_second_per_replica)


def slow_at_load(
    load: InFlight,
    s: Scenario,
    interactive: Callable[[], ServingTarget | None] | None = None,
    gpu: str = "GPU",
) -> tuple[Msg, ...]:
    """The slow-stream sentence at the load's time per token, if under the interactive bar;
    then the GPUs that serve the same load with every stream at that bar at least
    (`interactive()`: the target sized again with the bar as a per-token target), if any."""
    slow = slow_stream_msg(load.seconds_per_token, s.output_tokens)
    if slow is None:
        return ()
    faster = interactive() if interactive is not None else None
    if faster is None or faster.gpus is None:
        return (slow,)
    return slow, interactive_count(faster, gpu)


def interactive_count(
    faster: ServingTarget,
    gpu: str,
    held: int | None = None,
    each: float = 0.0,
    step: float | None = None,
    split: tuple[int, int] = (1, 1),
) -> Msg:
    """The GPUs that give every stream the interactive bar at the load (`faster`). With the
    count `held` that holds the load (sized on memory alone): both counts when more are
    needed ("N hold this load; … it takes M"), else the layout that gives the bar on no more
    GPUs than that ("laid out as 4 × 8, 32 × L40S give every stream …"); `each` is a stream's
    speed on the `held` GPUs (tokens/s, the other streams' prefills taking their share), said
    beside them with the decode `step` (seconds) when that is faster, so the two speeds the
    answer gives do not read as a clash. `split` is the held count's TP x PP: another layout
    on the same count names both splits, or "1 × 32 instead" reads as the one evaluated."""
    key = "solve.interactive_count"
    more: dict[str, Param] = {}
    if held is not None:
        more["held"] = Msg("common.gpus", count=held, gpu=gpu)
        more["each"] = each
        more_needed = faster.gpus is not None and faster.gpus > held
        key = "solve.interactive_also" if more_needed else "solve.interactive_layout"
        if more_needed and faster.replicas == 1:  # "(1 × 32, … serving 1/1)" reads as noise
            key = "solve.interactive_also_one"
        more["decoding"] = ""
        if step is not None and step > 0 and each * step * _SAME < 1.0:  # prefill's share
            decode = 1.0 / step
            if decode < INTERACTIVE_TOKENS_PER_SECOND:  # both under the bar: decode first
                more["each"], more["decoding"] = decode, Msg("solve.stream_average", speed=each)
            else:  # only the mean is under it: the mean first
                more["decoding"] = Msg("solve.stream_decoding", speed=decode)
        if key == "solve.interactive_layout":
            more.update(tp=faster.tensor_parallel, pp=faster.pipeline_parallel)
            more.update(held_tp=split[0], held_pp=split[1])
    return Msg(
        key,
        threshold=INTERACTIVE_TOKENS_PER_SECOND,
        hardware=Msg("common.gpus", count=faster.gpus or 0, gpu=gpu),
        replicas=faster.replicas,
        per_replica=faster.tensor_parallel * faster.pipeline_parallel,
        **more,
    )


def assumed_lengths(s: Scenario) -> tuple[Msg, ...]:
    """At a request-rate target, the request lengths the question left open, said beside a
    verdict they decide: the GPUs a rate needs grow with each request's prompt (prefill) and
    reply (decode), so a count judged short at the default lengths is short only at them."""
    if not s.target_qps or (s.prompt_tokens is not None and s.output_tokens is not None):
        return ()
    prompt = s.prompt_tokens or DEFAULT_PROMPT_TOKENS
    return (
        Msg(
            "solve.assumed_lengths",
            prompt=prompt,
            output=s.output_tokens or DEFAULT_OUTPUT_TOKENS,
            prefill=s.target_qps * prompt,
        ),
    )
