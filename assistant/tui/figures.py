"""Display of raw figures and scenario slots (SI base units, keyed by name) in the side panel.

The unit formatting itself is `assistant.render`'s (`fmt_bytes`, `fmt_seconds`, …); this
module only picks the formatter from a figure's key, and puts unit words in the interface
language.
"""

from __future__ import annotations

import math
import re

from assistant.render.calc import PERCENT_FIGURES as _PERCENT
from assistant.render.labels import value_text, word

_NUMERIC = re.compile(r"-?[0-9]+(\.[0-9]+)?")


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
        ('是', '3.8 M GPU 时 (3,790,000)')
    """
    language = "zh" if language == "zh" else "en"
    if isinstance(value, bool) or value in ("True", "False"):
        return word("yes" if value in (True, "True") else "no", language)
    if value is None:
        return "–"
    if isinstance(value, str) and _NUMERIC.fullmatch(value):
        value = float(value)
    if isinstance(value, str):
        return value_text(str(value), language)
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return str(value)
    try:
        return _by_key(key, float(value), language)
    except (ValueError, OverflowError):
        return str(value)


def _by_key(key: str, value: float, language: str) -> str:
    """The side panel's few differences from the CLI's `figure_text` (which picks every other
    unit): parameter and token counts in the reader's magnitudes (700亿), whole durations
    without a decimal, and percentages without a trailing ".0"."""
    from assistant import render
    from assistant.render.calc import figure_text

    if key in ("params", "active_params", "tokens"):
        shown = render.fmt_count(value, language)  # type: ignore[arg-type]
        # "1e+03亿" is not how anyone writes 千亿; the English form is clearer then.
        return render.fmt_count(value, "en") if "e+" in shown else shown
    if "seconds" in key.split("_") and value != 0:
        return render.fmt_seconds(value, language)  # type: ignore[arg-type]
    if key in _PERCENT or "fraction" in key.split("_"):
        return f"{value * 100:.3g}%"
    return figure_text(key, value, language)
