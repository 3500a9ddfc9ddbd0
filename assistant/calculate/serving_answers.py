"""The headline answers of a deployment's speed: its throughput, the time to its first token,
and one stream's time per output token (`focus` looks them up by the ask)."""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.calculate.nouns import gpu_noun
from assistant.records import Check, Scenario
from calculators.messages import Msg

__all__ = [
    "first_token_answer",
    "request_rate_answer",
    "throughput_answer",
    "token_latency_answer",
    "token_volume_answer",
]


def throughput_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """Serving throughput: all replicas' decode rate at the evaluated concurrency (the stated
    one, else the most sequences that fit: see `outcome._resolve`)."""
    from assistant.calculate.targets import has_target

    if scenario.task != "inference":
        from assistant.calculate.measured import training_rate

        return training_rate(checks, scenario)
    total = figure(checks, "compute", "decode_tokens_per_s_all_replicas")
    step = figure(checks, "compute", "seconds_per_token")  # one sequence's time per token
    if has_target(scenario) or not total or not step:
        return None  # a stated target has its own answer (`targets.meet_target`)
    sequences = scenario.batch_size or 1
    if sequences == 1:  # one user stated ("只有我自己用"), else one sequence for want of a load
        key = "answer.throughput_single" if scenario.concurrency == 1 else "answer.throughput_one"
        return Msg(key, each=1.0 / step)
    return Msg("answer.throughput", total=total, sequences=sequences, each=1.0 / step)


def token_volume_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """ "一天能处理多少token": the deployment's decode rate at capacity (the most sequences that
    fit, `solvers.at_full_batch`) over an hour and a day, run flat out: an upper bound."""
    if scenario.task != "inference":
        return _trained_volume(checks, scenario)
    total = figure(checks, "compute", "decode_tokens_per_s_all_replicas")
    if not total:
        return None
    # a stated load ("并发50") is evaluated as stated; else at the most sequences that fit
    key = "answer.token_volume_at" if scenario.concurrency else "answer.token_volume"
    return Msg(
        key,
        total=total,
        hour=total * 3600.0,
        day=total * 86400.0,
        sequences=scenario.batch_size or 1,
    )


def _trained_volume(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """ "一张H100一小时能训练多少token": the run's tokens per second (its time, bubble and network
    wait included) over an hour and a day, at the MFU evaluated."""
    tokens, seconds = figure(checks, "compute", "tokens"), figure(checks, "compute", "seconds")
    mfu = figure(checks, "compute", "mfu")
    if not (tokens and seconds and mfu):
        return None
    total = tokens / seconds
    gpus = scenario.gpu_count or 1
    return Msg("answer.token_volume_training", total=total, gpus=gpus, noun=gpu_noun(gpus),
               hour=total * 3600.0, day=total * 86400.0, mfu=mfu)  # fmt: skip


def first_token_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The time to the first token of the prompt evaluated (stated, else the default)."""
    from assistant.calculate.targets import has_target

    seconds = figure(checks, "compute", "first_token_seconds")
    prompt = figure(checks, "compute", "prompt_tokens")
    rate = figure(checks, "compute", "prefill_tokens_per_s")
    if scenario.task != "inference" or has_target(scenario) or not seconds or not prompt:
        return None
    return Msg("answer.first_token", seconds=seconds, prompt=prompt, rate=rate or 0.0)


def token_latency_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """One sequence's time per output token (TPOT) at the evaluated load, and its rate."""
    from assistant.calculate.targets import has_target

    step = figure(checks, "compute", "seconds_per_token")
    if scenario.task != "inference" or has_target(scenario) or not step:
        return None
    sequences = scenario.batch_size or 1
    key = "answer.token_latency_one" if sequences == 1 else "answer.token_latency"
    return Msg(key, seconds=step, each=1.0 / step, sequences=sequences)


def request_rate_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The most requests a second the deployment serves: the sequences memory holds, each a
    user in a closed loop (`calculators.serving_loop`: a request is its prefill plus its
    output tokens, prefill sharing the GPUs), summed over the replicas."""
    from calculators.defaults import DEFAULT_OUTPUT_TOKENS
    from calculators.serving_loop import stream_load

    step = figure(checks, "compute", "seconds_per_token")
    prefill_rate = figure(checks, "compute", "prefill_tokens_per_s")
    prompt = figure(checks, "compute", "prompt_tokens")
    per_replica = figure(checks, "compute", "batch_per_replica")
    replicas = figure(checks, "compute", "replicas") or 1.0
    if scenario.task != "inference" or not (step and prefill_rate and prompt and per_replica):
        return None
    output = scenario.output_tokens or DEFAULT_OUTPUT_TOKENS
    load = stream_load(
        prefill_seconds=prompt / prefill_rate,
        step_seconds=step,
        streams=int(per_replica),
        output_tokens=output,
    )
    return Msg(
        "answer.request_rate",
        rate=load.requests_per_second * replicas,
        sequences=int(per_replica * replicas),
        prompt=int(prompt),
        output=output,
        each=load.first_token_seconds + output * load.seconds_per_token,
    )
