"""Line wrapping for mixed Chinese and English text, and an aligned key/value layout.

Rich wraps only at spaces, so a Chinese sentence with a few numbers in it breaks at those
numbers and leaves ragged lines, and a long name such as `regional-single-node` is cut
anywhere. Here a line may break between two wide (CJK) characters, after a space, and after
`-`, `/`, `_`, `,`, `.` or CJK punctuation; closing punctuation never starts a line and opening
punctuation never ends one. Widths are terminal cells (`rich.cells.cell_len`), so wide
characters and double-width emoji line up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text

#: Characters that may not start a line (they stay with what they close or follow).
_NO_START = frozenset("，。、；：！？）》」』】〕”’…,.;:!?)]}%·›")
#: Characters that may not end a line (they stay with what they open).
_NO_END = frozenset("（《「『【〔“‘([{")
#: A line may break after these (besides spaces and wide characters).
_BREAK_AFTER = frozenset("-/_,.;:，。、；：！？）》」』】")


#: Short bracketed groups ("(289.4 GiB)", "（规格）") are kept on one line.
_SHORT_GROUP = re.compile(r"\([^()\n]{1,14}\)|（[^（）\n]{1,7}）")


def _is_wide(char: str) -> bool:
    return cell_len(char) == 2


def _long_sides(text: str, index: int) -> bool:
    """At least three letters or digits on both sides of a break inside a word."""
    left, right = text[max(0, index - 4) : index - 1], text[index : index + 3]
    return len(left) == len(right) == 3 and (left + right).replace(".", "").isalnum()


def break_points(text: str, *, cjk: bool = True) -> list[int]:
    """Offsets where a line may begin (not counting 0 and the end). With `cjk` False, not
    between two wide characters (a short label such as 能装下的最少卡数 stays whole), but
    still before an opening bracket.

    Examples:
        >>> break_points("ab cd")
        [3]
        >>> break_points("显存不够")
        [1, 2, 3]
        >>> break_points("single-node")
        [7]
        >>> break_points("需要（约）"), break_points("1,755 GB"), break_points("1 GB (2 GiB)")
        ([1, 2], [6], [2, 5])
        >>> break_points("每卡可用显存（90%）", cjk=False)
        [6]
    """
    points: list[int] = []
    inside = {i for m in _SHORT_GROUP.finditer(text) for i in range(m.start() + 1, m.end())}
    for index in range(1, len(text)):
        if index in inside:
            continue
        before, after = text[index - 1], text[index]
        if after.isspace() or after in _NO_START or before in _NO_END:
            continue
        if before in ".,:" and after.isdigit():  # 1,755 and 310.7 stay whole
            continue
        if before in "-/_." and not _long_sides(text, index):  # 4sbv/t, x-y stay whole
            continue
        soft = before.isspace() or before in _BREAK_AFTER
        wide = _is_wide(before) or _is_wide(after) if cjk else after in _NO_END
        if soft or wide:
            points.append(index)
    return points


def _hard_split(text: str, start: int, end: int, width: int) -> list[int]:
    """Line starts inside text[start:end], a piece with no break point wider than `width`."""
    starts: list[int] = []
    used = 0
    for index in range(start, end):
        cells = cell_len(text[index])
        if used + cells > width and used > 0:
            starts.append(index)
            used = 0
        used += cells
    return starts


def line_starts(text: str, width: int, *, cjk: bool = True) -> list[int]:
    """Offsets where each wrapped line of `text` (no newlines) begins, the first being 0."""
    width = max(1, width)
    starts = [0]
    used = 0
    points = [*break_points(text, cjk=cjk), len(text)]
    previous = 0
    for point in points:
        piece = text[previous:point]
        cells = cell_len(piece)
        fits = used + cell_len(piece.rstrip()) <= width
        if not fits and used > 0:
            starts.append(previous)
            used = 0
        if cell_len(piece.rstrip()) > width:
            extra = _hard_split(text, previous, point, width)
            starts += extra
            used = cell_len(text[extra[-1] if extra else previous : point])
        else:
            used += cells
        previous = point
    return starts


def wrap_text(text: Text, width: int, *, cjk: bool = True) -> list[Text]:
    """`text` as lines of at most `width` cells (styles kept, newlines honoured).

    Examples:
        >>> [line.plain for line in wrap_text(Text("regional-single-node"), 10)]
        ['regional-', 'single-', 'node']
        >>> [line.plain for line in wrap_text(Text("每卡需要 310.7 GB，可用 72.0 GB"), 16)]
        ['每卡需要 310.7', 'GB，可用 72.0 GB']
    """
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        plain = paragraph.plain
        if not plain:
            lines.append(Text(""))
            continue
        starts = line_starts(plain, width, cjk=cjk)
        pieces = paragraph.divide(starts[1:]) if len(starts) > 1 else [paragraph]
        for piece in pieces:
            piece.rstrip()
            lines.append(piece)
    return lines


#: Spacing gets a style of its own, so it is never merged into the text beside it: SVG
#: renderers drop leading spaces of a text run, which would shift an indented line left.
_SPACE = Style(meta={"spacing": True})


def _spaces(count: int) -> Text:
    return Text(" " * max(0, count), _SPACE)


def _longest_piece(text: str) -> int:
    """Cells of the longest part of `text` that has no break point (wide characters kept
    together)."""
    edges = [0, *break_points(text, cjk=False), len(text)]
    return max(cell_len(text[a:b].rstrip()) for a, b in zip(edges, edges[1:]))


def _pad(text: Text, width: int) -> Text:
    padded = text.copy()
    padded.append_text(_spaces(width - cell_len(text.plain)))
    return padded


def _line(parts: Iterable[Text]) -> Text:
    line = Text(no_wrap=True, overflow="crop", end="\n")
    for part in parts:
        line.append_text(part)
    return line


@dataclass(frozen=True)
class Wrapped:
    """A paragraph wrapped to the width it is given, continuation lines under the first.

    `prefix` goes before the first line ("• "); later lines are indented by its width.
    """

    text: Text
    prefix: Text | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        prefix = self.prefix or Text("")
        indent = cell_len(prefix.plain)
        width = max(1, options.max_width - indent)
        text = self.text.copy()
        text.expand_tabs(4)  # a tab's width depends on where it lands: fix it before wrapping
        for number, line in enumerate(wrap_text(text, width)):
            lead = prefix if number == 0 else _spaces(indent)
            blank = len(line.plain) - len(line.plain.lstrip(" "))
            yield _line((lead, _spaces(blank), line[blank:]))


@dataclass(frozen=True)
class Row:
    """One row of a `KeyValues` layout."""

    key: Text
    value: Text
    mark: str = ""
    """A one-cell marker between key and value ("·" for a filled-in value)."""
    mark_style: str = "dim"


@dataclass(frozen=True)
class KeyValues:
    """Keys in a fixed-width column, values beside them, both wrapped inside their column.

    The key column width is chosen by `key_width`; a marker column appears when any row has
    a mark. Each row starts on a new line and nothing runs from one column into the other,
    whatever the mix of wide and narrow characters.
    """

    rows: Sequence[Row]
    header: tuple[Text, Text] | None = None
    key_share: float = 0.5

    def key_width(self, width: int, gap: int = 2) -> int:
        """Cells given to the key column when the whole layout is `width` cells wide.

        At most `key_share` of the width, and no narrower than the longest piece of a key
        that cannot be broken (so 能装下的最少卡数 is not cut); within that, the width that
        takes the fewest lines (a wrapped key counting half a line extra), the narrowest on
        a tie.
        """
        keys = [row.key.plain for row in self.rows]
        if self.header is not None:
            keys.append(self.header[0].plain)
        longest = max((cell_len(key) for key in keys), default=1)
        high = max(1, min(longest, int(width * self.key_share)))
        low = min(high, max((_longest_piece(key) for key in keys), default=1))

        def cost(key_width: int) -> float:
            value_width = max(1, width - key_width - gap)
            total = 0.0
            for row in self.rows:
                keys = len(wrap_text(row.key, key_width, cjk=False))
                total += max(keys, len(wrap_text(row.value, value_width)))
                total += 0.5 if keys > 1 else 0  # a label read in one piece is worth a line
            return total

        return min(range(low, high + 1), key=lambda key_width: (cost(key_width), key_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        marks = any(row.mark for row in self.rows)
        gap = 3 if marks else 2
        key_width = self.key_width(width, gap)
        value_width = max(1, width - key_width - gap)
        if self.header is not None:
            key, value = self.header
            yield _line((_pad(key, key_width), _spaces(gap), value))
        for row in self.rows:
            keys = wrap_text(row.key, key_width, cjk=False)
            values = wrap_text(row.value, value_width)
            for number in range(max(len(keys), len(values))):
                key = keys[number] if number < len(keys) else Text("")
                value = values[number] if number < len(values) else Text("")
                mark = row.mark if number == 0 else ""
                middle = Text(f" {mark} ", row.mark_style) if mark else _spaces(gap)
                yield _line((_pad(key, key_width), middle, value))
