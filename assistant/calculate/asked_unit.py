"""A duration said in the unit the question asked for ("Days to train…?" → "about 1,390 days
(3.8 years)"), before the unit the number would be said in on its own."""

from __future__ import annotations

from assistant.i18n.numbers import DURATION_SECONDS, duration_unit
from assistant.parse.durations import asked_duration_unit
from calculators.messages import Msg

__all__ = ["in_asked_unit"]


def in_asked_unit(message: Msg, wording: str, param: str = "seconds") -> Msg:
    """`message` with its duration `param` said in the unit `wording` asks for, the usual unit
    after it; unchanged when the question names no unit or the usual unit is the one asked.

    Examples:
        >>> m = Msg("answer.duration", seconds=1390 * 86400.0, hardware="8 × A100")
        >>> in_asked_unit(m, "days to train a 7b model?")["seconds"].key
        'common.duration_in.days'
        >>> in_asked_unit(m, "how long?") == m, in_asked_unit(m, "how many years?") == m
        (True, True)
        >>> b = Msg("answer.rent_or_buy", breakeven=625 * 86400.0)
        >>> round(in_asked_unit(b, "in how many months?", "breakeven")["breakeven"]["value"], 2)
        20.83
    """
    seconds = message.get(param)
    unit = asked_duration_unit(wording)
    if unit is None or not isinstance(seconds, (int, float)) or duration_unit(seconds) == unit:
        return message
    value = seconds / DURATION_SECONDS[unit]
    said = Msg(f"common.duration_in.{unit}", value=value, seconds=seconds)
    return Msg(message.key, **{**dict(message), param: said})
