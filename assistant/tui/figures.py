"""Display of raw figures and scenario slots (SI base units, keyed by name) in the side panel.

The unit formatting itself is `assistant.render`'s (`fmt_bytes`, `fmt_seconds`, …); this
module only picks the formatter from a figure's key.
"""

from __future__ import annotations

import math


def show_value(key: str, value: object, language: str = "en") -> str:
    """`value` of figure or slot `key` as text with its unit.

    Examples:
        >>> show_value("required_bytes_per_gpu", 8.2e10)
        '82.0 GB (76.4 GiB)'
        >>> show_value("params", 7e10, "zh")
        '700亿'
        >>> show_value("gpu", "H100")
        'H100'
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return str(value)
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return str(value)
    try:
        return _by_key(key, float(value), "zh" if language == "zh" else "en")
    except (ValueError, OverflowError):
        return str(value)


def _by_key(key: str, value: float, language: str) -> str:
    from assistant import render

    parts = set(key.split("_"))
    if "bytes_per_second" in key:
        return render.fmt_rate(value, unit="B/s")
    if "bytes" in parts:
        return render.fmt_bytes(value)
    if "flops_per_second" in key or "flop_s" in key:
        return render.fmt_rate(value, unit="FLOP/s")
    if "flops" in parts:
        return render.fmt_flops(value)
    if "seconds" in parts:
        return render.fmt_seconds(value, language)  # type: ignore[arg-type]
    if key in ("params", "active_params", "tokens"):
        shown = render.fmt_count(value, language)  # type: ignore[arg-type]
        # "1e+03亿" is not how anyone writes 千亿; the English form is clearer then.
        return render.fmt_count(value, "en") if "e+" in shown else shown
    if key == "mfu" or "fraction" in parts:
        return render.fmt_percent(value)
    if value.is_integer():
        return f"{int(value):,}"
    return f"{value:,.4g}"
