"""Show untrusted text (questions, documents, answers) literally on the screen.

Rich markup such as `[bold red]` must stay visible as typed, and control characters (ANSI
escape sequences, carriage returns, bells) must never reach the terminal, where they would
move the cursor or restyle the screen. Widgets build `rich.text.Text` or pass `markup=False`
for markup; this module removes the control characters.
"""

from __future__ import annotations

from rich.text import Text

from assistant import sanitize


def clean(text: str) -> str:
    """`text` made safe by :func:`assistant.sanitize.clean` (control characters and bidi
    overrides made visible), with emoji variation selectors (U+FE0F) removed.

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
    return sanitize.clean(text).replace("\ufe0f", "")


def literal(text: str, style: str = "") -> Text:
    """A Rich `Text` showing `text` exactly as written (no markup, no control characters)."""
    return Text.styled(clean(text), style)
