"""Numbers no question can mean: refused with a clear message (exit 2), never a traceback.

Counts out of range ("-8 张卡", "1e30 nodes") stay slots for the calculator to refuse by name;
what is refused here cannot even become a slot: a number that overflows to infinity
("1e999 GPUs"), a Chinese numeral beyond any count ("一亿亿亿参数"), a price, budget or
electricity price that is not positive ("$-2 per GPU-hour") and an MFU that no GPU can run at
("150% MFU", "利用率0%"), which would otherwise be replaced by the default MFU unsaid.

Examples:
    >>> refuse_nonsense("8 h100 train 7b", "8 h100 train 7b", {"price_per_gpu_hour": 2.0})
    >>> refuse_nonsense("1e999 gpus", "1e999 gpus", {})
    Traceback (most recent call last):
    ...
    calculators.errors.CalculatorInputError: gpu_count='1e999': is too large to be read as a number
    >>> refuse_nonsense("serve 8b on nan gpus", "serve 8b on nan gpus", {})
    Traceback (most recent call last):
    ...
    calculators.errors.CalculatorInputError: gpu_count='nan': must be a finite number
    >>> refuse_nonsense("", "", {"mfu": 1.5})
    Traceback (most recent call last):
    ...
    calculators.errors.CalculatorInputError: mfu='150%': must be more than 0% and at most 100%
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from assistant.parse.numbers import NUMBER, cn_value, to_float
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = ["refuse_nonsense"]

_CN = "零〇一二两三四五六七八九十百千万亿"
_CN_RUN = re.compile(f"[{_CN}]*亿[{_CN}]*")
#: Chinese numerals name at most 亿亿 (1e16) in practice; "一亿亿亿" is not a quantity.
_CN_LIMIT = 1e17
_MONEY = ("price_per_gpu_hour", "budget", "price_per_kwh")
#: The slot a number is, from the word after it ("1e999张H100" is a GPU count), so that the
#: refusal names it in the user's language ("GPU 数量 1e999：…"), not as "number".
_UNIT_SLOTS = (
    ("nodes", re.compile(r"\s*(?:台|个节点|nodes?\b|servers?\b|machines?\b)")),
    ("gpu_count", re.compile(r"\s*(?:张|块|个|x|×)?\s*(?:卡|显卡|gpus?\b|cards?\b|⟨gpu⟩)")),
    ("tokens", re.compile(r"\s*[kmbt]?\s*(?:个)?\s*tokens?\b")),
    ("params", re.compile(r"\s*(?:[mbt]\b|参数|params?\b|parameters?\b)")),
    ("deadline_seconds", re.compile(r"\s*(?:天|周|个月|days?\b|weeks?\b|months?\b)")),
)


#: A word that is no number where a count or an amount goes ("on nan GPUs", "inf nodes").
_NOT_A_NUMBER = re.compile(r"(?<![a-z0-9])(?:nan|inf|infinity|infinite)(?![a-z0-9])")


def _slot_after(rest: str) -> str:
    """The slot named by the unit after a number, or "number" when none is."""
    return next((slot for slot, unit in _UNIT_SLOTS if unit.match(rest)), "number")


def refuse_nonsense(cleaned: str, normalized: str, found: Mapping[str, object]) -> None:
    """Raise :class:`CalculatorInputError` for an unreadable number or a non-positive price.

    Args:
        cleaned: The question, cleaned and lower-cased (Chinese numerals as typed).
        normalized: The same text with numbers rewritten as digits.
        found: The slots read so far (prices are read with their sign).
    """
    for match in _CN_RUN.finditer(cleaned):
        if match.group(0).count("亿") >= 3 or cn_value(match.group(0)) >= _CN_LIMIT:
            field = _slot_after(cleaned[match.end() :])  # "一亿亿亿参数": the model size
            raise CalculatorInputError(
                field,
                match.group(0),
                Msg("invalid.chinese_numeral"),
            )
    for match in _NOT_A_NUMBER.finditer(normalized):  # "nan GPUs", "inf nodes"
        field = _slot_after(normalized[match.end() :])
        if field != "number":
            raise CalculatorInputError(field, match.group(0), Msg("invalid.finite"))
    for match in re.finditer(NUMBER, normalized):
        if not math.isfinite(to_float(match.group(1))):
            field = _slot_after(normalized[match.end() :])
            raise CalculatorInputError(
                field,
                match.group(1),
                Msg("invalid.unreadable_number"),
            )
    for name, value in found.items():
        # A readable number times its unit can still overflow ("1e300B" parameters → inf).
        if isinstance(value, float) and not math.isfinite(value):
            raise CalculatorInputError(
                name,
                value,
                Msg("invalid.unreadable_number"),
            )
    for name in _MONEY:
        value = found.get(name)
        if isinstance(value, (int, float)) and not value > 0:
            raise CalculatorInputError(name, value, Msg("invalid.positive_amount"))
    mfu = found.get("mfu")
    if isinstance(mfu, (int, float)) and not 0 < mfu <= 1:
        field = "mfu"  # shown as the percentage said: "MFU 150%"
        raise CalculatorInputError(field, f"{mfu * 100:g}%", Msg("invalid.mfu_percent"))
