"""One sentence per check, in the answer's language, from the check's SI figures.

Only figures the calculators computed are quoted. Each part of a sentence is a catalog
message (`assistant/i18n/catalog/summary.toml`) with its figures as parameters, so the
numbers are formatted by `assistant.i18n.numbers` and the words exist in both languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from assistant.calculate.verdict import PRACTICAL_SECONDS
from assistant.calculate.whole_nodes import on_nodes, whole_nodes
from assistant.i18n import has, t, text
from assistant.records import Figure, Language, Scenario
from calculators.messages import Msg

__all__ = ["currency_words", "describe_setup", "evaluated_on", "summarize"]

Figures = Mapping[str, Figure]


def _num(figures: Figures, key: str) -> float | None:
    value = figures.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _memory(f: Figures, gpu: str) -> list[Msg]:
    need, have = _num(f, "required_bytes_per_gpu"), _num(f, "available_bytes_per_gpu")
    min_gpus = _num(f, "min_gpus")
    parts: list[Msg] = []
    if need is not None and have is not None:
        parts.append(Msg("summary.memory.need", need=need, have=have))
    weights = _num(f, "weights_bytes")
    if weights is not None:
        parts.append(Msg("summary.memory.weights", weights=weights))
    kv = _num(f, "kv_cache_bytes_per_gpu") or _num(f, "kv_cache_bytes")
    if kv:
        parts.append(Msg("summary.memory.kv", kv=kv))
    gpus = _num(f, "gpus")
    over = need is not None and have is not None and need > have
    if min_gpus is not None and gpus is not None and over and min_gpus <= gpus:
        # the GPUs evaluated hold it in another layout: no "at least" count they already meet
        parts.append(Msg("summary.memory.other_layout", count=gpus, gpu=gpu))
    elif min_gpus is not None:
        nodes = whole_nodes(min_gpus, f, gpu)
        parts.append(Msg("summary.memory.min_gpus", count=min_gpus, gpu=gpu, nodes=nodes))
    return parts


def _training_time(f: Figures, gpu: str) -> list[Msg]:
    parts: list[Msg] = []
    flops, tokens = _num(f, "total_flops"), _num(f, "tokens")
    if flops is not None:
        said = Msg("summary.compute.tokens", tokens=tokens) if tokens else ""
        parts.append(Msg("summary.compute.flops", flops=flops, tokens=said))
    seconds, mfu = _num(f, "seconds"), _num(f, "mfu")
    if seconds is not None:
        key = "summary.compute.mfu_stated" if f.get("mfu_stated") else "summary.compute.mfu"
        at = Msg(key, mfu=mfu) if mfu else ""
        parts.append(Msg("summary.compute.takes", seconds=seconds, mfu=at))
    deadline = _num(f, "deadline_seconds")
    needed = _num(f, "gpus_for_deadline")
    # a how-long question is judged on a year, not on a deadline: no count "for" that year
    if needed is not None and deadline != PRACTICAL_SECONDS:
        limit = (
            Msg("summary.compute.within", seconds=deadline)
            if deadline
            else Msg("summary.compute.the_deadline")
        )
        nodes = whole_nodes(needed, f, gpu)
        parts.append(
            Msg("summary.compute.for_deadline", limit=limit, count=needed, gpu=gpu, nodes=nodes)
        )
    return parts


def _at_load(f: Figures) -> list[Msg] | None:
    """The serving figures at a stated request rate (`loaded_figures`), or None without one:
    the per-stream speed, tokens delivered and first token the load gets, each labelled."""
    qps = _num(f, "request_rate")
    if qps is None:
        return None
    if f.get("overloaded"):  # the figures at the batch evaluated, then that it falls behind
        capacity = _num(f, "requests_per_second_capacity")
        batch = _num(f, "batch_per_replica")
        behind = Msg("summary.compute.overloaded", qps=qps, capacity=capacity, batch=batch)
        return [*_at_batch(f), behind]
    loaded, step = _num(f, "loaded_seconds_per_token"), _num(f, "seconds_per_token")
    total, first = _num(f, "delivered_tokens_per_s"), _num(f, "loaded_first_token_seconds")
    if not (loaded and step and total and first):
        return None
    share = _num(f, "prefill_share") or 0.0
    parts = [
        Msg("summary.compute.at_load", qps=qps, speed=1 / loaded, share=share, step=1 / step),
        Msg("summary.compute.total", rate=total),
        Msg(
            "summary.compute.first_at_load",
            seconds=first,
            unloaded=_num(f, "first_token_seconds"),
            prompt=_num(f, "prompt_tokens"),
        ),
    ]
    replicas = _num(f, "replicas")
    if replicas and replicas > 1:
        parts.append(Msg("summary.compute.replicas", count=replicas))
    return parts


def _compute(f: Figures, gpu: str) -> list[Msg]:
    loaded = _at_load(f)
    return loaded if loaded is not None else [*_training_time(f, gpu), *_at_batch(f)]


def _at_batch(f: Figures) -> list[Msg]:
    """A serving plan's figures at its batch: decode per sequence, in total, and prefill."""
    parts: list[Msg] = []
    # decode_tokens_per_s is over one replica's whole batch; a user reads "per sequence"
    per_token, prefill = _num(f, "seconds_per_token"), _num(f, "prefill_tokens_per_s")
    total = _num(f, "decode_tokens_per_s_all_replicas") or _num(f, "decode_tokens_per_s")
    if per_token:
        parts.append(Msg("summary.compute.decode", rate=1 / per_token))
    if total and per_token and total > 1.5 / per_token:
        parts.append(Msg("summary.compute.total", rate=total))
    first, prompt = _num(f, "first_token_seconds"), _num(f, "prompt_tokens")
    full, full_prompt = _num(f, "full_first_token_seconds"), _num(f, "full_prompt_tokens")
    if prefill is not None and first is not None and prompt and full and full_prompt:
        # a long context with the prompt left open: a prompt that fills it, too
        said = Msg(
            "summary.compute.prefill_first_full",
            rate=prefill,
            seconds=first,
            prompt=prompt,
            full=full,
            full_prompt=full_prompt,
        )
        parts.append(said)
    elif prefill is not None and first is not None and prompt:
        said = Msg("summary.compute.prefill_first", rate=prefill, seconds=first, prompt=prompt)
        parts.append(said)  # the time to first token of the prompt as stated (or defaulted)
    elif prefill is not None:
        parts.append(Msg("summary.compute.prefill", rate=prefill))
    replicas = _num(f, "replicas")
    if replicas and replicas > 1:
        parts.append(Msg("summary.compute.replicas", count=replicas))
    return parts


def _network(f: Figures, gpu: str) -> list[Msg]:
    serving = _num(f, "comm_seconds_per_token")
    if serving is not None:  # a serving replica: TP all-reduces and pipeline hops per token
        return [
            Msg(
                "serving.network",
                comm_seconds=serving,
                share=_num(f, "comm_share_of_token_time"),
                nodes=_num(f, "nodes_per_replica"),
                tp=_num(f, "tensor_parallel"),
                pp=_num(f, "pipeline_parallel"),
            )
        ]
    parts: list[Msg] = []
    comm, comp = _num(f, "allreduce_seconds_per_step"), _num(f, "compute_seconds_per_step")
    if comm == 0 and comp is not None:
        parts.append(Msg("summary.network.one_replica"))
    elif comm is not None and comp is not None:
        parts.append(Msg("summary.network.sync", comm=comm, compute=comp))
    pp, moe = _num(f, "pp_seconds_per_step"), _num(f, "moe_seconds_per_step")
    if pp:  # the parts of the step's traffic, each named, add up to the headline's total
        parts.append(Msg("summary.network.pipeline", pp=pp))
    if moe:
        parts.append(Msg("summary.network.experts", moe=moe))
    tp = _num(f, "tp_seconds_per_step")
    if tp:
        parts.append(Msg("summary.network.tensor_parallel", tp=tp))
    bandwidth = _num(f, "inter_node_bytes_per_second")
    if bandwidth:
        parts.append(Msg("summary.network.bandwidth", bandwidth=bandwidth))
    parts.extend(_efficiency(f))
    return parts


def _efficiency(f: Figures) -> list[Msg]:
    """The efficiency the run time uses (overlapped traffic), else the no-overlap bound. On a
    network the check calls tight (its ratio past the ok band, or plain TCP between the
    nodes) the overlapped figure is said with the no-overlap one, and over TCP as at line
    rate, so "tight" never stands beside a bare "100%" (`calculate.bottleneck` words both)."""
    from calculators.planner.checks import NETWORK_OK_RATIO

    efficiency = _num(f, "network_efficiency")
    efficiency = _num(f, "scaling_efficiency") if efficiency is None else efficiency
    if efficiency is None:
        return []
    if f.get("network_in_stated_mfu") is True:
        return [Msg("summary.network.in_stated_mfu")]
    comp = _num(f, "compute_seconds_per_step") or 0.0
    keys = ("allreduce_seconds_per_step", "pp_seconds_per_step", "moe_seconds_per_step")
    inter = sum(_num(f, k) or 0.0 for k in keys)
    tcp = f.get("inter_node_rdma") is False
    tight = (_num(f, "comm_compute_ratio") or 0.0) > NETWORK_OK_RATIO or tcp
    # the planner's no-overlap figure, the one the headline says too (`bottleneck`)
    plain = _num(f, "network_efficiency_no_overlap")
    if plain is None:
        plain = comp / (comp + inter) if comp > 0 else efficiency
    if (_num(f, "nodes") or 1) <= 1 or not tight or efficiency - plain < 0.005:
        return [Msg("summary.network.efficiency", efficiency=efficiency)]
    said = [Msg("summary.network.efficiency_range", efficiency=efficiency, plain=plain)]
    return [*said, Msg("summary.network.line_rate")] if tcp else said


def _power(f: Figures, gpu: str) -> list[Msg]:
    parts: list[Msg] = []
    watts = _num(f, "facility_watts") or _num(f, "power_watts")
    if watts is not None:
        parts.append(Msg("summary.power.kw", kw=watts / 1e3))
    per_hour = _num(f, "kwh_per_hour")
    per_million = _num(f, "kwh_per_million_tokens")
    joules = _num(f, "energy_joules")
    if per_hour is not None:  # serving: a rate, not a total over a deadline
        parts.append(Msg("summary.power.per_hour", kwh=per_hour))
        if per_million is not None:
            parts.append(Msg("summary.power.per_million", kwh=per_million))
        seconds = _num(f, "seconds")
        if joules is not None and seconds is not None and seconds > 3600:  # a stated period
            parts.append(Msg("summary.power.over_period", kwh=joules / 3.6e6, seconds=seconds))
    elif joules is not None:
        parts.append(Msg("summary.power.energy", kwh=joules / 3.6e6))
    return parts


def currency_words(code: str) -> Msg | str:
    """A currency as said after an amount: a known code in words ("元"), others as written."""
    key = f"summary.currency.{code.upper()}"
    return Msg(key) if has(key) else f" {code}"


def _cost(f: Figures, gpu: str) -> list[Msg]:
    parts: list[Msg] = []
    hours = _num(f, "gpu_hours")
    per = (
        Msg("summary.cost.per_hour_of_serving") if f.get("period") == "one hour of serving" else ""
    )
    if hours is not None:
        key = "summary.cost.gpu_hour" if hours == 1 else "summary.cost.gpu_hours"
        parts.append(Msg(key, hours=hours, per=per))
    cost = _num(f, "cost")
    if cost is not None:
        currency = currency_words(str(f.get("currency") or ""))
        parts.append(Msg("summary.cost.amount", cost=cost, currency=currency, per=per))
        per_million = _num(f, "cost_per_million_tokens")
        if per_million is not None:
            parts.append(Msg("summary.cost.per_million", cost=per_million, currency=currency))
    return parts


def _join(parts: list[Msg], lang: Language) -> str:
    if not parts:
        return ""
    said = t("common.semicolon", lang).join(text(part, lang) for part in parts)
    return said[0].upper() + said[1:] + t("common.period", lang)


_SUMMARIES: dict[str, Callable[[Figures, str], list[Msg]]] = {
    "memory": _memory,
    "compute": _compute,
    "network": _network,
    "power": _power,
    "cost": _cost,
}


def summarize(kind: str, verdict: str, figures: Figures, language: Language, gpu: str) -> str:
    """The sentence for one check ("Needs 1.6 TB per GPU, 80.0 GB available; …"), in
    `language`, every word from the catalog (`summary.*`)."""
    return _join(_SUMMARIES[kind](figures, gpu), language) or t(f"summary.none.{kind}", language)


def describe_setup(s: Scenario, lang: Language) -> str:
    """The evaluated hardware in words ("1 台 8 张 H100", "2 nodes × 8 H100 (16 GPUs)",
    "14 张 A10（2 台：8 + 6）")."""
    count = s.gpu_count or 1
    per_node = s.gpus_per_node or count
    nodes = s.nodes or -(-count // max(per_node, 1))
    return text(on_nodes(count, per_node, nodes, s.gpu or "GPU"), lang)


def evaluated_on(scenario: Scenario, stated: Scenario, lang: Language) -> str:
    """The "Evaluated on …" sentence, naming a fine-tuning method the question stated."""
    setup = describe_setup(scenario, lang)
    if stated.method is not None and scenario.task == "finetune":
        method = Msg(f"answer.finetune_method.{stated.method}")
        where = text(Msg("answer.evaluated_on_method", setup=setup, method=method), lang)
    else:
        where = text(Msg("answer.evaluated_on", setup=setup), lang)
    return where.replace("） 评估", "）评估")  # no space after a closing full-width bracket
