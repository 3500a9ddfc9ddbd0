"""The answer shortened to a screen: verdict headline, key figures, top fixes, one line per
source. Formulas and every assumption stay in `ask --full` (and in JSON, which keeps all).

Examples:
    >>> text = "**Feasible**: ok.\\n\\n### Key figures\\n- ✅ **Memory**: 1 GB\\n"
    >>> brief_markdown(text + "  - Formula: `x`\\n") == text
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from assistant.i18n import LANGUAGES, Language, t

__all__ = ["KEEP", "brief_markdown", "cli_more"]


def _both(key: str) -> tuple[str, ...]:
    """The catalog text of `key` in each language."""
    return tuple(t(key, lang) for lang in LANGUAGES)


#: How many items each section keeps on a screen (by its heading in either language); other
#: sections keep everything.
KEEP = {
    **dict.fromkeys(_both("answer.heading.suggestions"), 3),
    **dict.fromkeys(_both("answer.heading.assumptions"), 4),
}
_SOURCES = _both("answer.heading.sources")
_FORMULA = re.compile(
    rf"^\s+- (?:{'|'.join(map(re.escape, _both('answer.heading.formula')))})[:：]"
)
_SOURCE = re.compile(r"^(\d+\. .*?) \(`([^`]+)`, id `[^`]+`\): .*$")
#: "3. GPU memory for training, fine-tuning and inference › Training: weights … (`gpu-memory`)":
#: the document title before the section heading (the document id names it too).
_TITLE = re.compile(r"^(\d+\. ).* › ")


def _section(line: str) -> str | None:
    return line[4:].strip() if line.startswith("### ") else None


def cli_more(language: Language, dropped: int) -> str:
    """The line standing for the items a list lost: where the terminal shows them all."""
    return t("answer.more", language, n=dropped)


def brief_markdown(
    text: str,
    *,
    keep: Mapping[str, int] = KEEP,
    more: Callable[[Language, int], str] = cli_more,
    short_sources: bool = False,
) -> str:
    """`text` (the full Markdown answer) without formulas, with long lists cut and each source
    on one line (title and document id).

    `keep` says how many items a section keeps (by heading); `more` words the line that stands
    for the rest (the chat app points to its side panel instead of `ask --full`).
    `short_sources` (the terminal) names a source by its section heading and document id only,
    so that it fits one line of a terminal ("3. Training: weights, … (`gpu-memory`)").

    Examples:
        >>> line = "3. GPU memory › Training: weights (`gpu-memory`, id `gm-3`): Mixed …"
        >>> brief_markdown("### Sources\\n" + line, short_sources=True).splitlines()[-1]
        '3. Training: weights (`gpu-memory`)'
    """
    lang: Language = "zh" if re.search(r"[\u4e00-\u9fff]", text.split("\n", 1)[0]) else "en"
    out: list[str] = []
    section: str | None = None
    items = dropped = 0

    def close() -> None:
        if dropped:
            at = len(out) - 1 if out and not out[-1] else len(out)
            out.insert(at, "- " + more(lang, dropped))

    for line in text.splitlines():
        heading = _section(line)
        if heading is not None:
            close()
            section, items, dropped = heading, 0, 0
        elif _FORMULA.match(line):
            continue
        elif section is not None and section in keep and line.startswith("- "):
            items += 1
            if items > keep[section]:
                dropped += 1
                continue
        elif section in _SOURCES:
            line = _SOURCE.sub(r"\1 (`\2`)", line)
            line = _TITLE.sub(r"\1", line) if short_sources else line
        out.append(line)
    close()
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")
