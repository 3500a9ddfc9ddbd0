"""The language layer: one message catalog, language applied once.

Owns the catalog (``catalog/*.toml``) and :func:`text`/:func:`t` here, `numbers` (the one
place numbers become text in either language: bytes, durations, counts, percentages) and
`labels` (verdict and check names, read from the catalog).

Stages describe results as :class:`~calculators.messages.Msg` values (a key and parameters in
SI units). :func:`text` turns one into words in the answer's language, using the catalog in
``assistant/i18n/catalog/*.toml``: one file per domain, each message a table with an ``en`` and
a ``zh`` entry. The file's stem is the first part of the key (``memory.toml`` holds
``memory.exceeds``): ``assume`` and ``formula`` hold the calculators' assumptions and formulas,
``unit`` the unit words of figure tables, the others one stage or command each.
Placeholders name a parameter and, after a colon, how to format it:

=============  ===========================================  ==========================
spec           parameter                                    example
=============  ===========================================  ==========================
``bytes``      bytes                                        80 GB (74.5 GiB)
``bytes:si``   bytes, decimal only                          80 GB
``bytes:gib``  bytes, binary only                           74.5 GiB
``duration``   seconds                                      3.5 days / 3.5 天
``count``      a large count                                70B / 700亿
``int``        a whole number                               1,024
``num``        any number, 3 significant figures            0.0123
``percent``    a fraction                                   40%
``flops``      FLOPs                                        3.14e23 FLOPs
``kwh``        joules, shown in kWh (the billing unit)      1,234 kWh
``rate:UNIT``  UNIT per second (``B/s``, ``b/s``, ``FLOP/s``)  3.35 TB/s
``semicolons`` a tuple of clauses                            a: x, y; b: z / a：x；b：z
``commas``     a tuple of phrases                            a, b / a，b
``mid``        a phrase placed mid-sentence (English lower-  use ZeRO-3 / 使用 ZeRO-3
               cases its first letter unless it is a name)
(none)         a string, a nested Msg, or a tuple (a list)  GPT-3、Llama-2-70B
``omit``       a parameter the other language shows         (nothing)
=============  ===========================================  ==========================

Examples:
    >>> from calculators.messages import Msg, use_renderer
    >>> text(Msg("common.gpus", count=16, gpu="H100"), "zh")
    '16 张 H100'
    >>> text(Msg("common.gpus", count=16, gpu="H100"), "en")
    '16 × H100'
"""

from __future__ import annotations

import string
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from assistant.i18n import numbers
from calculators.messages import Msg, use_renderer

if TYPE_CHECKING:
    from calculators.errors import CalculatorInputError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = [
    "LANGUAGES",
    "Language",
    "Msg",
    "as_language",
    "catalog",
    "domain",
    "has",
    "input_error",
    "join_sentences",
    "messages",
    "mid_sentence",
    "placeholders",
    "system_language",
    "t",
    "text",
]

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")
CATALOG_DIR = Path(__file__).with_name("catalog")

_LIST_SEPARATOR = {"en": ", ", "zh": "、"}
#: Between the items of a ``{…:semicolons}`` list (clauses that contain commas themselves).
_CLAUSE_SEPARATOR = {"en": "; ", "zh": "；"}
#: Between the parts of a ``{…:commas}`` phrase ("Feasible, 40 GB per GPU, takes 3 days").
_PHRASE_SEPARATOR = {"en": ", ", "zh": "，"}
#: Between two sentences: none in Chinese (each ends in "。"), one space in English.
_SENTENCE_GAP = {"en": " ", "zh": ""}


def as_language(value: object) -> Language:
    """A language code as one of the two languages: "zh" is Chinese, anything else English.

    Examples:
        >>> as_language("zh"), as_language("en"), as_language("auto")
        ('zh', 'en', 'en')
    """
    return _LANGUAGE_OF.get(str(value), "en")


_LANGUAGE_OF: dict[str, Language] = {"zh": "zh", "en": "en"}


def system_language(environ: Mapping[str, str]) -> Language:
    """The language the system locale asks for ("zh" for any Chinese locale), read from the
    POSIX variables in their order of precedence (the first one set decides).

    Examples:
        >>> system_language({"LANG": "zh_CN.UTF-8"})
        'zh'
        >>> system_language({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"})
        'en'
        >>> system_language({})
        'en'
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(name, "")
        if value:
            return as_language(value.lower()[:2])
    return "en"


def mid_sentence(phrase: str) -> str:
    """A phrase for the middle of an English sentence: its first letter lower-cased, unless
    its first word is a name (another capital or a digit in it: "ZeRO-3", "LoRA", "H100").

    Examples:
        >>> mid_sentence("Use ZeRO-3"), mid_sentence("ZeRO-3 + recompute"), mid_sentence("H100")
        ('use ZeRO-3', 'ZeRO-3 + recompute', 'H100')
    """
    first = phrase.split(" ", 1)[0]
    if any(c.isupper() or c.isdigit() for c in first[1:]):
        return phrase
    return phrase[:1].lower() + phrase[1:]


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, dict[str, str]]) -> None:
    if "en" in table or "zh" in table:
        out[prefix] = {lang: str(table.get(lang, "")) for lang in LANGUAGES}
        return
    for name, value in table.items():
        if isinstance(value, Mapping):
            _flatten(f"{prefix}.{name}", value, out)


@cache
def domain(stem: str) -> Mapping[str, Mapping[str, str]]:
    """The messages of one catalog file (``domain("tui")``: every ``tui.*`` key), read once.

    A key's first part names its file, so a message is found by reading that file alone: the
    chat app's first paint reads the few files it shows, not the whole catalog.
    """
    out: dict[str, dict[str, str]] = {}
    path = CATALOG_DIR / f"{stem}.toml"
    if path.is_file():
        with path.open("rb") as handle:
            _flatten(stem, tomllib.load(handle), out)
    return out


@cache
def catalog() -> Mapping[str, Mapping[str, str]]:
    """Every message key → {"en": text, "zh": text}, read once from the catalog folder."""
    out: dict[str, Mapping[str, str]] = {}
    for path in sorted(CATALOG_DIR.glob("*.toml")):
        out.update(domain(path.stem))
    return out


def has(key: str) -> bool:
    """Whether `key` is a message of the catalog (its file alone is read)."""
    return key in domain(key.partition(".")[0])


def messages(prefix: str) -> dict[str, Mapping[str, str]]:
    """The messages whose key starts with `prefix` ("label.figure."), read from its file."""
    entries = domain(prefix.partition(".")[0]).items()
    return {key: entry for key, entry in entries if key.startswith(prefix)}


def placeholders(template: str) -> set[str]:
    """The parameter names a catalog text uses ("{needed:bytes}" → {"needed"})."""
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field
    }


class _Formatter(string.Formatter):
    """str.format with the catalog's format specs, for one language."""

    def __init__(self, language: Language) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        lang = self.language
        kind, _, arg = format_spec.partition(":")
        if kind == "omit":
            return ""
        if kind == "mid":
            return mid_sentence(self.format_field(value, arg))
        if isinstance(value, Msg):
            return text(value, lang)
        if isinstance(value, tuple) and format_spec == "semicolons":
            return _CLAUSE_SEPARATOR[lang].join(self.format_field(v, "") for v in value)
        if isinstance(value, tuple) and format_spec == "commas":
            return _PHRASE_SEPARATOR[lang].join(self.format_field(v, "") for v in value)
        if isinstance(value, tuple):
            return _LIST_SEPARATOR[lang].join(self.format_field(v, format_spec) for v in value)
        if value is None:
            return "—"
        formatters: dict[str, Callable[[Any], str]] = {
            "bytes": lambda v: numbers.bytes_text(float(v), arg),
            "duration": lambda v: numbers.duration_text(float(v), lang),
            "count": lambda v: numbers.count_text(float(v), lang),
            "int": lambda v: numbers.integer_text(float(v)),
            "amount": lambda v: numbers.amount_text(float(v)),
            "money": lambda v: numbers.money_text(float(v)),
            "num": lambda v: numbers.number_text(float(v)),
            "percent": lambda v: numbers.percent_text(float(v)),
            "flops": lambda v: numbers.flops_text(float(v)),
            "kwh": lambda v: numbers.kwh_text(float(v)),
            "rate": lambda v: numbers.rate_text(float(v), arg or "B/s"),
        }
        if kind == "a_int":  # "a 1,024-token prompt", "an 8,192-token prompt"
            number = numbers.integer_text(float(value))
            return f"{_article(number)} {number}" if lang == "en" else number
        if kind in formatters:
            return formatters[kind](value)
        if kind == "currency":  # a code as the language says it after an amount ("元")
            word = domain("summary").get(f"summary.currency.{str(value).upper()}")
            return word[lang].strip() if word else str(value)
        return str(super().format_field(value, format_spec))


def _article(number: str) -> str:
    """The English article before a written number: "an" where it is said with a vowel
    ("an 8,192", "an 11,000", "an 18-layer"), else "a" ("a 1,024", "a 110,000")."""
    lead = number.split(",")[0]
    return "an" if lead.startswith("8") or lead in ("11", "18") else "a"


def t(key: str, language: Language, /, **params: Any) -> str:
    """The catalog text for `key` in `language`, with `params` filled in.

    Raises:
        KeyError: `key` is not in the catalog (a programming error, caught by the tests).
    """
    template = domain(key.partition(".")[0])[key][language]
    return str(_Formatter(language).vformat(template, (), params))


def text(message: Msg | str, language: Language) -> str:
    """A message in `language` (a plain string is returned as it is: names, user text)."""
    if isinstance(message, str):
        return message
    return t(message.key, language, **message.params)


def _render(message: Msg, language: str) -> str:
    return text(message, as_language(language))


# The calculators name their refusals as messages but cannot import the catalog: they render
# through the function registered here (calculators.messages.render).
use_renderer(_render)


def join_sentences(parts: Iterable[str], language: Language) -> str:
    """Sentences one after another, the empty ones left out.

    Examples:
        >>> join_sentences(["可行。", "", "约需 3 天。"], "zh")
        '可行。约需 3 天。'
        >>> join_sentences(["Feasible.", "About 3 days."], "en")
        'Feasible. About 3 days.'
    """
    return _SENTENCE_GAP[language].join(part for part in parts if part)


def input_error(exc: CalculatorInputError, language: Language) -> str:
    """A refused input in `language`, named as the question's slot when it is one ("GPU 数量
    -3：必须是大于等于 1 的整数", "price per GPU-hour -2: must be positive"); other fields
    keep the calculator's wording."""
    key = f"parse.slot.{exc.field}"
    if not has(key):
        return exc.localized(language)
    value = exc.value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    shown = str(value)
    if isinstance(value, (int, float)) and (isinstance(value, float) or abs(value) >= 1e15):
        shown = f"{float(value):g}"  # "1e+30", not the 31 digits of the float
    if exc.field == "deadline_seconds" and isinstance(value, (int, float)) and value:
        from assistant.i18n.numbers import duration_text

        shown = duration_text(value, language)  # "期限 -3 天", not the SI "-259200"
    said = Msg("answer.slot_value", slot=Msg(key), value=shown)
    return t("errors.slot_refused", language, slot_value=said, reason=exc.reason)
