"""A stream slower than interactive use: each user's tokens per second, and what a reply of
the stated (or assumed) length then takes ("each stream ~3.1 tok/s: a 300-token reply takes
~97 s").

The bar is this tool's threshold, 10 tokens/s per sequence: silent reading runs at about 238
words per minute (Brysbaert 2019, "How many words do we read per minute?", Journal of Memory
and Language 109, 104047), about 4 words or 5 to 6 tokens per second at about 0.75 words per
token (OpenAI's tokenizer rule of thumb), and a reader who skims outruns that. Below 10 tokens/s
the wait for the reply, not the reading, sets the pace.
"""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.records import Check, Scenario
from calculators.defaults import DEFAULT_OUTPUT_TOKENS
from calculators.messages import Msg

__all__ = ["INTERACTIVE_TOKENS_PER_SECOND", "slow_stream", "slow_stream_msg"]

#: Per-sequence decode speed below which an answer flags the stream as slow (tool threshold).
INTERACTIVE_TOKENS_PER_SECOND = 10.0


def slow_stream_msg(seconds_per_token: float | None, output_tokens: int | None) -> Msg | None:
    """The slow-stream sentence for a time per token, or None at an interactive speed.

    Examples:
        >>> slow_stream_msg(0.32, 300)["seconds"]
        96.0
        >>> slow_stream_msg(0.05, 300) is None
        True
    """
    if not seconds_per_token or seconds_per_token <= 0:
        return None
    speed = 1.0 / seconds_per_token
    if speed >= INTERACTIVE_TOKENS_PER_SECOND:
        return None
    output = output_tokens or DEFAULT_OUTPUT_TOKENS
    return Msg(
        "answer.slow_stream",
        speed=speed,
        threshold=INTERACTIVE_TOKENS_PER_SECOND,
        output=output,
        seconds=output * seconds_per_token,
    )


def slow_stream(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """`slow_stream_msg` on a serving plan's compute check (the decode step at its batch)."""
    return slow_stream_msg(figure(checks, "compute", "seconds_per_token"), scenario.output_tokens)
