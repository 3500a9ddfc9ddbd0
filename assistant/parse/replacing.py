"""A card named as the one replaced: "replace the H100 with H200", "把H100换成H200" use the H200.

The card a question uses is the first one it names (`assistant.parse.scenario`), which is the
right one in "H200 instead of H100" and "用H200代替H100"; a wording that names the replaced card
first and the new one after ("instead of H100, use H200", "swap the H100s for H200s", "from
A100 to H100", "不用H100，用H200", "H100换成H200呢") uses the later one. Read on the masked text,
where every catalog card is a ⟨gpu⟩ mark (assistant.parse.mentions).

Examples:
    >>> replacing_card(" ⟨gpu⟩ 换成 ⟨gpu⟩ 呢", ("H100 SXM 80GB", "H200 SXM 141GB"))
    'H200 SXM 141GB'
    >>> replacing_card("replace the ⟨gpu⟩ with ⟨gpu⟩", ("H100 SXM 80GB", "H200 SXM 141GB"))
    'H200 SXM 141GB'
    >>> replacing_card(" ⟨gpu⟩ instead of ⟨gpu⟩ ?", ("H200 SXM 141GB", "H100 SXM 80GB")) is None
    True
    >>> without_replaced("把8张 ⟨gpu⟩ 换成16张 ⟨gpu⟩ 呢").split()
    ['把', '换成16张', '⟨gpu⟩', '呢']
"""

from __future__ import annotations

import re

__all__ = ["replacing_card", "without_replaced"]

_CARD = r"⟨gpu⟩(?:e?s\b)?"
_COUNT_ZH = r"(?:\d+\s*(?:张|块|台|卡)\s*)?"
#: The replaced card first, then the card used, within a short clause.
_REPLACED_FIRST = re.compile(
    r"(?:instead of|rather than|in place of|replac(?:e|ing)|swap(?:ping)?(?: out)?|"
    r"switch(?:ing)? (?:from|out)|mov(?:e|ing) from|upgrad(?:e|ing) from|\bfrom)\s+"
    r"(?:(?:the|our|my|those|these|all|\d+)\s+)*" + _CARD + r"[^⟨?.。]{0,30}?" + _CARD + r"|"
    r"(?:不用|不要|别用|把|将|从|由)\s*" + _COUNT_ZH + _CARD + r"[^⟨?？。]{0,20}?"
    r"(?:换成|改成|换为|改为|换到|替换为|替换成|升级到|升级为|改用|换用|用|到)\s*"
    + _COUNT_ZH
    + _CARD
    + r"|"
    + _CARD
    + r"\s*(?:换成|改成|换为|改为|替换为|替换成|升级到|升级为)\s*"
    + _COUNT_ZH
    + _CARD
)


def replacing_card(text: str, sequence: tuple[str, ...]) -> str | None:
    """The card that replaces the first-named one in `text`, or None when none is replaced.

    `sequence` is every ⟨gpu⟩ mark's catalog name in text order (`Mentions.gpu_sequence`).
    """
    match = _REPLACED_FIRST.search(text)
    if match is None:
        return None
    used = text[: match.end()].count("⟨gpu⟩") - 1  # the last mark of the clause
    if not 0 < used < len(sequence) or sequence[used] == sequence[used - 1]:
        return None
    return sequence[used]


#: The replaced card's own count before it ("8张H100", "8 H100s", "8x H100").
_REPLACED_COUNT = re.compile(r"(?:\d+\s*(?:张|块|台|卡|x|×)?\s*)?⟨gpu⟩(?:e?s\b)?")


def without_replaced(text: str) -> str:
    """`text` with the replaced card and its count blanked ("把8张H100换成16张H20": 16 cards,
    not 8 and 16), so that only the card used is counted; unchanged when none is replaced."""
    match = _REPLACED_FIRST.search(text)
    if match is None:
        return text
    old = _REPLACED_COUNT.search(text, match.start())
    if old is None:
        return text
    return text[: old.start()] + " " * len(old.group(0)) + text[old.end() :]
