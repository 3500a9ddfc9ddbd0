"""The one output sanitiser: untrusted text made safe for a terminal, widget, file or clipboard.

Text from documents, file names, settings, questions and site profiles is untrusted. Written raw
to a terminal, an escape sequence in it can set the window title (``ESC ] 0 ; … BEL``), write the
clipboard (``ESC ] 52``), plant a hyperlink (``ESC ] 8``) or clear the screen (``ESC [ 2 J``); a
bidi override can make text read differently from what it is; Rich or Textual markup such as
``[link=file:///etc/passwd]`` can turn a value into a live link. Every place such text is shown
goes through this module:

- :func:`clean` makes every C0/C1 control character (except tab and newline), DEL and every
  bidi override/isolate visible: ``ESC`` becomes ``␛``, other C0 controls their U+2400 picture,
  C1 controls and bidi controls ``U+FFFD``. Without its ESC byte a sequence is inert text.
- :func:`one_line` does the same and also makes newlines visible (titles, file names).
- :func:`markup` additionally escapes Rich/Textual markup, for strings printed as markup.
- :func:`json_text` keeps JSON lossless but writes C1 and bidi controls as ``\\uXXXX`` escapes
  (``json.dumps`` already escapes C0 controls).
- :class:`SafeConsole` is a Rich console whose output passes :func:`clean` and never carries a
  hyperlink, whatever renderable (Markdown included) produced it.

Examples:
    >>> clean("title\\x1b]0;pwned\\x07 end")
    'title␛]0;pwned␇ end'
    >>> clean("abc\\u202edcba")
    'abc\\ufffddcba'
    >>> one_line("a\\nb")
    'a␤b'
    >>> markup("[link=file:///etc/passwd]x")
    '\\\\[link=file:///etc/passwd]x'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import ConsoleOptions, RenderableType
    from rich.segment import Segment

__all__ = ["SafeConsole", "clean", "has_controls", "json_text", "markup", "one_line"]

#: Bidi embeddings, overrides and isolates, plus the Arabic letter mark: they reorder what follows.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{_BIDI}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x0A:
        return "␤"
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␛ for ESC, ␇ for BEL
    if code == 0x7F:
        return "␡"
    return "\ufffd"


def clean(text: str) -> str:
    """`text` with control characters (tab and newline kept) and bidi controls made visible."""
    return _UNSAFE.sub(_visible, text)


def one_line(text: str) -> str:
    """Like :func:`clean`, and newlines and tabs made visible too (names, titles, paths)."""
    return _UNSAFE_LINE.sub(_visible, text)


def has_controls(text: str) -> bool:
    """True when `text` holds a character :func:`clean` would replace (tab/newline are fine).

    Examples:
        >>> has_controls("GPU 服务器"), has_controls("x\\u001b[2J")
        (False, True)
    """
    return _UNSAFE.search(text) is not None


def markup(text: str) -> str:
    """:func:`clean` text with Rich/Textual markup escaped, to interpolate into markup."""
    from rich.markup import escape

    return escape(clean(text))


def json_text(dumped: str) -> str:
    """A `json.dumps(..., ensure_ascii=False)` result with C1, DEL and bidi controls escaped.

    Those characters can only occur inside JSON strings, so the result parses to the same data.

    Examples:
        >>> json_text('{"t": "a\\u009b2J"}')
        '{"t": "a\\\\u009b2J"}'
    """
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)


def _segments(segments: Iterable[Segment]) -> Iterable[Segment]:
    from rich.segment import Segment

    for segment in segments:
        if segment.control:  # Rich's own cursor/erase codes, never text from a document
            yield segment
            continue
        style = segment.style
        if style is not None and style.link:
            style = style.update_link(None)
        yield Segment(clean(segment.text), style)


def _console_class() -> type[Any]:
    from rich.console import Console

    class _SafeConsole(Console):
        """A Console whose rendered text is cleaned and carries no hyperlinks."""

        def render(
            self, renderable: RenderableType, options: ConsoleOptions | None = None
        ) -> Iterable[Segment]:
            return _segments(super().render(renderable, options))

        def on_broken_pipe(self) -> None:
            """The reader went away: let the command end quietly with status 0 (the group in
            `assistant.__main__` does), not with Rich's `SystemExit(1)`."""
            self.quiet = True
            raise BrokenPipeError

    return _SafeConsole


def SafeConsole(**kwargs: Any) -> Any:  # noqa: N802 -- used like a class; Rich is imported lazily
    """A `rich.console.Console` (same arguments) that cleans text and drops hyperlinks."""
    return _console_class()(**kwargs)
