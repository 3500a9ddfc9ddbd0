"""The chat app's interface language: which one to use, and its strings from the catalog.

Answers follow the language of the question (the pipeline decides); the app's own labels,
notifications, help text and palette commands are the ``tui.`` messages of the one message
catalog (``assistant/i18n/catalog/tui.toml``). The default follows the system locale and a key
toggles it at run time.
"""

from __future__ import annotations

import os
from typing import Literal

from assistant.i18n import system_language as locale_language
from assistant.i18n import t as catalog_t

UiLanguage = Literal["zh", "en"]

#: Each language by its own name, as language switches show it (a name, not translated).
ENDONYMS: dict[UiLanguage, str] = {"zh": "中文", "en": "English"}
LANGUAGE_CHOICE = f"{ENDONYMS['zh']}/{ENDONYMS['en']}"
"""The two languages, for the strings that name the choice ("切换界面语言（中文/English）")."""


def system_language(environ: dict[str, str] | None = None) -> UiLanguage:
    """The interface language the system locale asks for ("zh" for any Chinese locale).

    Examples:
        >>> system_language({"LANG": "zh_CN.UTF-8"})
        'zh'
        >>> system_language({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"})
        'en'
        >>> system_language({})
        'en'
    """
    return locale_language(os.environ if environ is None else environ)


def resolve_language(setting: str, environ: dict[str, str] | None = None) -> UiLanguage:
    """The interface language for a `Settings.ui_language` value ("auto", "zh" or "en")."""
    if setting == "zh":
        return "zh"
    if setting == "en":
        return "en"
    return system_language(environ)


def t(key: str, language: str, **values: object) -> str:
    """The interface string `key` in `language`: the catalog's ``tui.`` message, filled in.

    Raises:
        KeyError: `key` is not in the catalog (the tests check every key the app uses).
    """
    return catalog_t("tui." + key, "zh" if language == "zh" else "en", **values)


def other(language: str) -> UiLanguage:
    """The language the toggle switches to."""
    return "en" if language == "zh" else "zh"
