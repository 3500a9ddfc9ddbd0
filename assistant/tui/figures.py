"""Display of raw figures and scenario slots (SI base units, keyed by name) in the side panel.

The unit formatting itself is `assistant.render`'s (`fmt_bytes`, `fmt_seconds`, …); this
module only picks the formatter from a figure's key, and puts unit words in the interface
language.
"""

from __future__ import annotations

import math
import re

from assistant.cli.calc_labels import localize_units, word

_NUMERIC = re.compile(r"-?[0-9]+(\.[0-9]+)?")
#: Fractions shown as percentages.
_PERCENT = frozenset({"mfu", "scaling_efficiency", "scaling_efficiency_overlap",
                      "comm_compute_ratio", "utilization", "runtime_overhead_fraction"})
#: Key endings of plain counts with a unit word.
_COUNTED = (("kwh", "kWh"), ("gpu_hours", "GPU-hours"), ("days", "days"), ("steps", "steps"))


def show_value(key: str, value: object, language: str = "en") -> str:
    """`value` of figure or slot `key` as text with its unit.

    Examples:
        >>> show_value("required_bytes_per_gpu", 8.2e10)
        '82.0 GB (76.4 GiB)'
        >>> show_value("params", 7e10, "zh")
        '700亿'
        >>> show_value("gpu", "H100")
        'H100'
        >>> show_value("peak_flops_per_s", 3.12e14), show_value("mfu", 0.3)
        ('312.0 TFLOP/s', '30%')
        >>> show_value("flash_attention", "True", "zh"), show_value("gpu_hours", 3.79e6, "zh")
        ('是', '3,790,000 GPU 时')
    """
    language = "zh" if language == "zh" else "en"
    if isinstance(value, bool) or value in ("True", "False"):
        return word("yes" if value in (True, "True") else "no", language)
    if value is None:
        return "–"
    if isinstance(value, str) and _NUMERIC.fullmatch(value):
        value = float(value)
    if isinstance(value, str):
        return localize_units(str(value), language)
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return str(value)
    try:
        return localize_units(_by_key(key, float(value), language), language)
    except (ValueError, OverflowError):
        return str(value)


def _by_key(key: str, value: float, language: str) -> str:
    from assistant import render

    parts = set(key.split("_"))
    if "bytes" in parts and ("second" in parts or "per_s" in key):
        return render.fmt_rate(value, unit="B/s")
    if "bytes" in parts:
        return render.fmt_bytes(value)
    if "flops_per_s" in key or "flop_s" in key:
        return render.fmt_rate(value, unit="FLOP/s")
    if "tokens_per_s" in key:
        return f"{_number(value)} tokens/s"
    if "flops" in parts:
        return render.fmt_flops(value)
    if "seconds" in parts:
        return "0" if value == 0 else render.fmt_seconds(value, language)  # type: ignore[arg-type]
    if key in ("params", "active_params", "tokens"):
        shown = render.fmt_count(value, language)  # type: ignore[arg-type]
        # "1e+03亿" is not how anyone writes 千亿; the English form is clearer then.
        return render.fmt_count(value, "en") if "e+" in shown else shown
    if key in _PERCENT or "fraction" in parts:
        return f"{value * 100:.3g}%"
    if key.endswith("_joules"):
        return render.fmt_rate(value, unit="J")
    if key.endswith("_watts") or key == "host_watts_per_gpu":
        return render.fmt_rate(value, unit="W")
    for ending, unit in _COUNTED:
        if key.endswith(ending):
            return f"{_number(value)} {unit}"
    return _number(value)


def _number(value: float) -> str:
    if value.is_integer() or abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:,.3g}"
