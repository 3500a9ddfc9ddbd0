"""Show untrusted text (questions, documents, answers) literally on the screen.

Rich markup such as `[bold red]` must stay visible as typed, and control characters (ANSI
escape sequences, carriage returns, bells) must never reach the terminal, where they would
move the cursor or restyle the screen. Widgets build `rich.text.Text` or pass `markup=False`
for markup; this module removes the control characters.
"""

from __future__ import annotations

import re

from rich.text import Text

# C0 and C1 control characters except tab and newline; DEL too.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x1B:
        return "␛"
    if code < 0x20:
        # U+2400 block: a visible picture of each C0 control ("␍" for CR).
        return chr(0x2400 + code)
    return "\ufffd"


def clean(text: str) -> str:
    """`text` with every control character except tab and newline made visible, and emoji
    variation selectors (U+FE0F) removed.

    A selector turns "⚠" (one cell) into an emoji that some terminals draw two cells wide and
    others one, which shifts the rest of the row; without it every terminal agrees.

    Examples:
        >>> clean("red \\x1b[31mtext\\x1b[0m")
        'red ␛[31mtext␛[0m'
        >>> clean("a\\tb\\nc\\rd")
        'a\\tb\\nc␍d'
        >>> clean("\u26a0\ufe0f tight")
        '\u26a0 tight'
    """
    return _CONTROL.sub(_visible, text).replace("\ufe0f", "")


def literal(text: str, style: str = "") -> Text:
    """A Rich `Text` showing `text` exactly as written (no markup, no control characters)."""
    return Text.styled(clean(text), style)
