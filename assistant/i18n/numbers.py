"""The one place numbers become text, for both languages.

Bytes in decimal units with the binary value beside them ("80 GB (74.5 GiB)"), durations in
the largest convenient unit ("3.5 days" / "3.5 天"), large counts as "70B" / "700亿", rates
with SI prefixes. Inputs are SI base units (bytes, seconds, FLOPs, bytes/s).
"""

from __future__ import annotations

import math
from typing import Literal

from calculators.power import JOULES_PER_KWH
from calculators.units import format_bytes, format_flops, format_rate

__all__ = [
    "bytes_text",
    "DURATION_SECONDS",
    "count_text",
    "duration_text",
    "duration_unit",
    "flops_text",
    "integer_text",
    "number_text",
    "percent_text",
    "rate_text",
]

Language = Literal["zh", "en"]

_YEAR = 365.25 * 86400
#: (upper bound in seconds, divisor, English unit, Chinese unit), smallest first.
_DURATION_UNITS = (
    (1e-3, 1e-6, "µs", "微秒"),
    (1.0, 1e-3, "ms", "毫秒"),
    (60.0, 1.0, "s", "秒"),
    (3600.0, 60.0, "min", "分钟"),
    (2 * 86400.0, 3600.0, "h", "小时"),
    (2 * _YEAR, 86400.0, "days", "天"),
    (math.inf, _YEAR, "years", "年"),
)


#: Seconds in each unit a question may ask a duration in (a month of 30 days, as parsed).
DURATION_SECONDS = {"h": 3600.0, "days": 86400.0, "weeks": 7 * 86400.0, "months": 30 * 86400.0}


def duration_unit(seconds: float) -> str:
    """The English unit `duration_text` says `seconds` in ("days" for 34 days).

    Examples:
        >>> duration_unit(34 * 86400), duration_unit(3 * _YEAR), duration_unit(7200)
        ('days', 'years', 'h')
    """
    size = abs(seconds)
    return next(en for bound, _, en, _ in _DURATION_UNITS if size < bound or bound == math.inf)


def _trim(text: str) -> str:
    """'90.0' → '90', '1.50' → '1.5'."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def number_text(value: float, digits: int = 3) -> str:
    """A plain number with `digits` significant figures and thousands separators.

    Examples:
        >>> number_text(1234567.0), number_text(0.01234), number_text(12.0)
        ('1,234,567', '0.0123', '12')
    """
    if not math.isfinite(value):
        return "∞" if value > 0 else ("-∞" if value < 0 else "NaN")
    if abs(value) >= 10**digits:
        return f"{value:,.0f}"
    return _trim(f"{value:.{digits}g}") if abs(value) >= 1e-4 or value == 0 else f"{value:.2e}"


def integer_text(value: float) -> str:
    """A whole count with thousands separators ("1,024")."""
    return f"{round(value):,}"


def amount_text(value: float) -> str:
    """A money, hour or energy amount: whole from 100 up ("1,234"), 3 significant figures below
    ("2.16", "0.5"), so a small bill is not rounded to a misleading whole number.

    Examples:
        >>> amount_text(1234.4), amount_text(2.16), amount_text(0.5), amount_text(100.4)
        ('1,234', '2.16', '0.5', '100')
    """
    return integer_text(value) if abs(value) >= 100 else number_text(value)


def money_text(value: float) -> str:
    """An amount of money: whole from 100 up ("1,261,440"), to the cent below ("2.18", "0.55").

    Examples:
        >>> money_text(1261440.0), money_text(2.176), money_text(0.551), money_text(32.0)
        ('1,261,440', '2.18', '0.55', '32.00')
    """
    return integer_text(value) if abs(value) >= 100 else f"{value:,.2f}"


def bytes_text(value: float, part: str = "") -> str:
    """Bytes as "80.0 GB (74.5 GiB)": decimal first, binary beside it, both labelled.

    `part` "si" or "gib" gives one of the two, for a sentence that puts the binary figure
    after its phrase ("171.8 GB in total (160.0 GiB)"). "ram" is host memory: a whole number of
    GiB is a DIMM total and is said in binary ("512 GiB", "2 TiB"); any other figure (a
    computed need, a stated "256 GB") in decimal.

    Examples:
        >>> bytes_text(80e9), bytes_text(80e9, "si"), bytes_text(80e9, "gib")
        ('80.0 GB (74.5 GiB)', '80.0 GB', '74.5 GiB')
        >>> bytes_text(2**41, "ram"), bytes_text(256 * 2**30, "ram"), bytes_text(987.8e9, "ram")
        ('2 TiB', '256 GiB', '987.8 GB')
    """
    if part == "si" or abs(value) < 1e3:
        return format_bytes(value)
    if part == "ram":
        if not _is_whole_binary(value):
            return format_bytes(value)
        return format_bytes(value, binary=True).replace(".0 ", " ")
    if part == "gib":
        return format_bytes(value, binary=True)
    return f"{format_bytes(value)} ({format_bytes(value, binary=True)})"


def _is_whole_binary(value: float) -> bool:
    """True for a whole number of GiB (a DIMM total), not a computed need."""
    return value >= 2**30 and value % 2**30 == 0


def duration_text(seconds: float, language: Language = "en") -> str:
    """A duration in the largest convenient unit, in the answer's language.

    Examples:
        >>> duration_text(90), duration_text(90, "zh"), duration_text(34 * 86400, "zh")
        ('1.5 min', '1.5 分钟', '34 天')
    """
    if not math.isfinite(seconds):
        return "∞"
    size = abs(seconds)
    for bound, divisor, en, zh in _DURATION_UNITS:
        if size < bound:
            return f"{_trim(f'{seconds / divisor:.1f}')} {zh if language == 'zh' else en}"
    raise AssertionError  # pragma: no cover - the last bound is infinite


def count_text(value: float, language: Language = "en") -> str:
    """A large count (parameters, tokens): "70B" / "1.4T", or "700亿" / "1.4万亿" in Chinese.

    Examples:
        >>> count_text(7e10), count_text(7e10, "zh"), count_text(1.4e12, "zh"), count_text(512)
        ('70B', '700亿', '1.4万亿', '512')
    """
    units = (
        ((1e12, "万亿"), (1e8, "亿"), (1e4, "万"))
        if language == "zh"
        else ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))
    )
    for factor, unit in units:
        if abs(value) >= factor:
            scaled = value / factor
            short = f"{scaled:.0f}" if abs(scaled) >= 100 else _trim(f"{scaled:.3g}")
            return f"{short}{unit}"
    return f"{value:.0f}" if abs(value) >= 100 else _trim(f"{value:.3g}")


def flops_text(value: float) -> str:
    """A FLOP count ("3.14e23 FLOPs")."""
    return format_flops(value)


def kwh_text(joules: float) -> str:
    """Energy in kWh (1 kWh = 3.6e6 J), as an amount ("1,234 kWh", "2.16 kWh").

    Examples:
        >>> kwh_text(3.6e9), kwh_text(7.776e6)
        ('1,000 kWh', '2.16 kWh')
    """
    return f"{amount_text(joules / JOULES_PER_KWH)} kWh"


def rate_text(value: float, unit: str = "B/s") -> str:
    """A rate with an SI prefix ("312.0 TFLOP/s", "3.1 GB/s")."""
    return format_rate(value, unit=unit)


def percent_text(value: float) -> str:
    """A fraction as a percentage ("40%", "2.5%")."""
    pct = value * 100
    return f"{pct:.0f}%" if abs(pct) >= 10 or pct == round(pct) else f"{_trim(f'{pct:.1f}')}%"
