"""Labels of `gpu-advisor calc` output in English and Chinese (figure names, verdicts, units).

Figure keys stay the SI names of the JSON output; people see these labels instead. The words
live in the message catalog (`assistant/i18n/catalog/label.toml`); the tables here are built
from it, in the shapes the CLI and the TUI read. Calculator sources are quoted as written
(English): they cite papers by their titles.

Examples:
    >>> figure_label("required_bytes_per_gpu", "zh"), figure_label("odd_new_figure", "zh")
    ('每卡所需显存', 'odd_new_figure')
    >>> word("still fails", "zh"), catalog_word("GPU catalog", "zh"), VERDICTS["tight"]
    ('仍不满足', 'GPU 目录', '偏紧')
"""

from __future__ import annotations

from assistant.i18n import messages

__all__ = [
    "CATALOG_ZH",
    "CHECK_TITLES",
    "FIGURE_LABELS",
    "TASKS",
    "VALUES",
    "VERDICTS",
    "WORDS",
    "catalog_word",
    "figure_label",
    "value_text",
    "word",
]


def _pairs(prefix: str) -> dict[str, tuple[str, str]]:
    """`<prefix><name>` → (English, Chinese), by name ("label.figure." → figure labels)."""
    return {
        key.removeprefix(prefix): (entry["en"], entry["zh"])
        for key, entry in messages(prefix).items()
    }


def _english_to_chinese(prefix: str) -> dict[str, str]:
    """`<prefix>*` as English text → Chinese text (the code passes the English)."""
    return dict(_pairs(prefix).values())


#: figure key -> (English label, Chinese label)
FIGURE_LABELS: dict[str, tuple[str, str]] = _pairs("label.figure.")
#: check kind -> (English title, Chinese title)
CHECK_TITLES: dict[str, tuple[str, str]] = _pairs("label.check.")
#: check or plan verdict -> Chinese (the English is the verdict itself)
VERDICTS: dict[str, str] = _english_to_chinese("label.verdict.")
#: task -> (English, Chinese)
TASKS: dict[str, tuple[str, str]] = _pairs("label.task.")
#: Line prefixes and headings, English -> Chinese.
WORDS: dict[str, str] = _english_to_chinese("label.word.")
#: Text values of figures, English -> Chinese.
VALUES: dict[str, str] = _english_to_chinese("label.value.")
#: Titles and column headings of the catalog listings, English -> Chinese.
CATALOG_ZH: dict[str, str] = _english_to_chinese("label.listing.")


def word(text: str, language: str) -> str:
    """A heading or prefix in ``language`` (English is the key itself)."""
    return WORDS.get(text, text) if language == "zh" else text


def figure_label(key: str, language: str) -> str:
    """The label people see for a figure key (the key itself if unknown)."""
    labels = FIGURE_LABELS.get(key)
    if labels is None:
        return key
    return labels[1] if language == "zh" else labels[0]


def value_text(value: str, language: str) -> str:
    """A text figure ("memory", "whole run") in ``language``; other text is shown as it is.

    Examples:
        >>> value_text("whole run", "zh"), value_text("whole run", "en"), value_text("H100", "zh")
        ('整个训练', 'whole run', 'H100')
    """
    return VALUES.get(value, value) if language == "zh" else value


def catalog_word(text: str, language: str) -> str:
    """A catalog title or column heading in ``language``."""
    return CATALOG_ZH.get(text, text) if language == "zh" else text
