"""One sentence per check, in the answer's language, from the check's SI figures.

Only figures the calculators computed are quoted; numbers are formatted by `assistant.i18n.numbers`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from assistant.calculate.defaults import say
from assistant.calculate.verdict import PRACTICAL_SECONDS
from assistant.i18n.numbers import bytes_text as fmt_bytes
from assistant.i18n.numbers import count_text as fmt_count
from assistant.i18n.numbers import duration_text as fmt_seconds
from assistant.i18n.numbers import flops_text as fmt_flops
from assistant.i18n.numbers import percent_text as fmt_percent
from assistant.i18n.numbers import rate_text as fmt_rate
from assistant.records import Figure, Language

__all__ = ["summarize"]

Figures = Mapping[str, Figure]


#: Currency codes as a Chinese sentence says them ("约 510,194 元").
_CURRENCY_ZH = {"CNY": " 元", "RMB": " 元", "USD": " 美元", "EUR": " 欧元"}


def _num(figures: Figures, key: str) -> float | None:
    value = figures.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _memory(f: Figures, lang: Language, gpu: str) -> str:
    need, have = _num(f, "required_bytes_per_gpu"), _num(f, "available_bytes_per_gpu")
    min_gpus = _num(f, "min_gpus")
    parts: list[str] = []
    if need is not None and have is not None:
        parts.append(
            say(
                lang,
                f"每张 GPU 需要 {fmt_bytes(need)}，可用 {fmt_bytes(have)}",
                f"needs {fmt_bytes(need)} per GPU, {fmt_bytes(have)} available",
            )
        )
    weights = _num(f, "weights_bytes")
    if weights is not None:
        parts.append(
            say(lang, f"其中权重 {fmt_bytes(weights)}", f"of which weights {fmt_bytes(weights)}")
        )
    kv = _num(f, "kv_cache_bytes_per_gpu") or _num(f, "kv_cache_bytes")
    if kv:
        parts.append(say(lang, f"KV cache {fmt_bytes(kv)}", f"KV cache {fmt_bytes(kv)}"))
    if min_gpus is not None:
        parts.append(
            say(
                lang, f"至少需要 {min_gpus:.0f} 张 {gpu}", f"at least {min_gpus:.0f} × {gpu} needed"
            )
        )
    return _join(parts, lang)


def _compute(f: Figures, lang: Language, gpu: str) -> str:
    parts: list[str] = []
    flops, tokens = _num(f, "total_flops"), _num(f, "tokens")
    if flops is not None:
        parts.append(
            say(lang, f"总计算量 {fmt_flops(flops)}", f"total compute {fmt_flops(flops)}")
            + (
                say(
                    lang,
                    f"（{fmt_count(tokens, lang)} token）",
                    f" ({fmt_count(tokens, lang)} tokens)",
                )
                if tokens
                else ""
            )
        )
    seconds, mfu = _num(f, "seconds"), _num(f, "mfu")
    if seconds is not None:
        at = say(lang, f"，MFU {fmt_percent(mfu)}", f" at {fmt_percent(mfu)} MFU") if mfu else ""
        parts.append(
            say(
                lang,
                f"需时 {fmt_seconds(seconds, lang)}{at}",
                f"takes {fmt_seconds(seconds, lang)}{at}",
            )
        )
    deadline = _num(f, "deadline_seconds")
    needed = _num(f, "gpus_for_deadline")
    # a how-long question is judged on a year, not on a deadline: no count "for" that year
    if needed is not None and deadline != PRACTICAL_SECONDS:
        limit = fmt_seconds(deadline, lang) if deadline else say(lang, "期限", "the deadline")
        parts.append(
            say(
                lang,
                f"{limit}内完成需要 {needed:,.0f} 张 {gpu}",
                f"finishing within {limit} needs {needed:,.0f} × {gpu}",
            )
        )
    # decode_tokens_per_s is over one replica's whole batch; a user reads "per sequence"
    per_token, prefill = _num(f, "seconds_per_token"), _num(f, "prefill_tokens_per_s")
    total = _num(f, "decode_tokens_per_s_all_replicas") or _num(f, "decode_tokens_per_s")
    if per_token:
        parts.append(
            say(
                lang,
                f"每路生成约 {1 / per_token:,.1f} token/s",
                f"decode about {1 / per_token:,.1f} tokens/s per sequence",
            )
        )
    if total and per_token and total > 1.5 / per_token:
        parts.append(
            say(lang, f"合计约 {total:,.0f} token/s", f"about {total:,.0f} tokens/s in total")
        )
    if prefill is not None:
        parts.append(
            say(lang, f"预填充约 {prefill:,.0f} token/s", f"prefill about {prefill:,.0f} tokens/s")
        )
    replicas = _num(f, "replicas")
    if replicas and replicas > 1:
        parts.append(say(lang, f"{replicas:.0f} 个副本", f"{replicas:.0f} replicas"))
    return _join(parts, lang)


def _network(f: Figures, lang: Language, gpu: str) -> str:
    parts: list[str] = []
    serving = _num(f, "comm_seconds_per_token")
    if serving is not None:  # a serving replica: TP all-reduces and pipeline hops per token
        from assistant.i18n import text
        from calculators.messages import Msg

        return _join(
            [
                text(
                    Msg(
                        "serving.network",
                        comm_seconds=serving,
                        share=_num(f, "comm_share_of_token_time"),
                        nodes=_num(f, "nodes_per_replica"),
                        tp=_num(f, "tensor_parallel"),
                        pp=_num(f, "pipeline_parallel"),
                    ),
                    lang,
                )
            ],
            lang,
        )
    comm, comp = _num(f, "allreduce_seconds_per_step"), _num(f, "compute_seconds_per_step")
    if comm == 0 and comp is not None:
        parts.append(
            say(
                lang,
                "只有一个数据并行副本，没有梯度同步",
                "one data-parallel replica: no gradient all-reduce",
            )
        )
    elif comm is not None and comp is not None:
        parts.append(
            say(
                lang,
                f"每步梯度同步 {fmt_seconds(comm, lang)}，计算 {fmt_seconds(comp, lang)}",
                f"gradient sync {fmt_seconds(comm, lang)} per step vs "
                f"{fmt_seconds(comp, lang)} of compute",
            )
        )
    bandwidth = _num(f, "inter_node_bytes_per_second")
    if bandwidth:
        parts.append(
            say(
                lang,
                f"机间带宽 {fmt_rate(bandwidth)}",
                f"inter-node bandwidth {fmt_rate(bandwidth)}",
            )
        )
    efficiency = _num(f, "scaling_efficiency")
    if efficiency is not None:
        parts.append(
            say(
                lang,
                f"扩展效率 {fmt_percent(efficiency)}",
                f"scaling efficiency {fmt_percent(efficiency)}",
            )
        )
    return _join(parts, lang)


def _power(f: Figures, lang: Language, gpu: str) -> str:
    parts: list[str] = []
    watts = _num(f, "facility_watts") or _num(f, "power_watts")
    if watts is not None:
        parts.append(say(lang, f"功率约 {watts / 1e3:.1f} kW", f"about {watts / 1e3:.1f} kW"))
    per_hour = _num(f, "kwh_per_hour")
    per_million = _num(f, "kwh_per_million_tokens")
    joules = _num(f, "energy_joules")
    if per_hour is not None:  # serving: a rate, not a total over a deadline
        parts.append(
            say(lang, f"每小时约 {per_hour:,.1f} kWh", f"about {per_hour:,.1f} kWh per hour")
        )
        if per_million is not None:
            parts.append(
                say(
                    lang,
                    f"每百万 token 约 {per_million:,.2f} kWh",
                    f"about {per_million:,.2f} kWh per million tokens",
                )
            )
    elif joules is not None:
        parts.append(
            say(lang, f"能耗约 {joules / 3.6e6:,.0f} kWh", f"about {joules / 3.6e6:,.0f} kWh")
        )
    return _join(parts, lang)


def _cost(f: Figures, lang: Language, gpu: str) -> str:
    parts: list[str] = []
    hours = _num(f, "gpu_hours")
    hourly = f.get("period") == "one hour of serving"
    per_zh, per_en = ("（每服务 1 小时）", " per hour of serving") if hourly else ("", "")
    if hours is not None:
        unit = "GPU-hour" if round(hours) == 1 else "GPU-hours"
        parts.append(say(lang, f"{hours:,.0f} GPU 小时{per_zh}", f"{hours:,.0f} {unit}{per_en}"))
    cost = _num(f, "cost")
    currency = f.get("currency") or ""
    if cost is not None:
        zh_unit = _CURRENCY_ZH.get(str(currency).upper(), f" {currency}")
        zh_cost = f"费用约 {cost:,.0f}{zh_unit}{per_zh}"
        parts.append(say(lang, zh_cost, f"about {cost:,.0f} {currency}{per_en}"))
    return _join(parts, lang)


def _join(parts: list[str], lang: Language) -> str:
    if not parts:
        return ""
    text = say(lang, "；", "; ").join(parts)
    return text[0].upper() + text[1:] + say(lang, "。", ".")


_SUMMARIES: dict[str, Callable[[Figures, Language, str], str]] = {
    "memory": _memory,
    "compute": _compute,
    "network": _network,
    "power": _power,
    "cost": _cost,
}
_NOT_APPLICABLE = {
    "memory": ("不适用。", "Not applicable."),
    "compute": ("不适用。", "Not applicable."),
    "network": ("单机，无机间通信。", "Single node: no inter-node traffic."),
    "power": ("未评估。", "Not evaluated."),
    "cost": ("未给出每卡时价格，不估算费用。", "No price per GPU-hour given; cost not estimated."),
}


def summarize(kind: str, verdict: str, figures: Figures, language: Language, gpu: str) -> str:
    """The sentence for one check ("Needs 1.6 TB per GPU, 80.0 GB available; …")."""
    text = _SUMMARIES[kind](figures, language, gpu)
    if not text:
        zh, en = _NOT_APPLICABLE[kind]
        return say(language, zh, en)
    return text
