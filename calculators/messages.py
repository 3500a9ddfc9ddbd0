"""Messages as facts: a key and its parameters, never a finished sentence.

Calculators and the stages after them describe what they found as :class:`Msg` values
(``Msg("memory.exceeds", needed_bytes=…, usable_bytes=…)``). The words for each key, in
English and Chinese, live in one catalog (:mod:`assistant.i18n`), and the language is chosen
once, when an answer is composed and rendered. This module is standard library only, so the
calculators can use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Union

__all__ = ["Msg", "Param", "render", "use_renderer"]

#: What a message parameter may hold: a number in SI units, a name, another message, or a
#: tuple of these (rendered as a list in the answer's language).
Param = Union[float, int, str, bool, None, "Msg", tuple["Param", ...]]


@dataclass(frozen=True, init=False)
class Msg(Mapping[str, "Param"]):
    """One user-facing message: a catalog key and its parameters (a read-only mapping).

    Examples:
        >>> m = Msg("memory.exceeds", needed_bytes=9.6e10, usable_bytes=7.2e10)
        >>> m.key, m["needed_bytes"]
        ('memory.exceeds', 96000000000.0)
        >>> m == Msg("memory.exceeds", usable_bytes=7.2e10, needed_bytes=9.6e10)
        True
    """

    key: str
    items_: tuple[tuple[str, Param], ...]

    def __init__(self, key: str, /, **params: Param) -> None:
        if not key or key != key.strip():
            msg = f"bad message key {key!r}"
            raise ValueError(msg)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "items_", tuple(sorted(params.items())))

    @property
    def params(self) -> dict[str, Param]:
        """The parameters as a plain dict."""
        return dict(self.items_)

    def __getitem__(self, name: str) -> Param:
        for key, value in self.items_:
            if key == name:
                return value
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self.items_)

    def __len__(self) -> int:
        return len(self.items_)

    def __hash__(self) -> int:
        return hash((self.key, self.items_))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Msg):
            return NotImplemented
        return (self.key, self.items_) == (other.key, other.items_)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.items_)
        return f"Msg({self.key!r}{args})"


#: The catalog's renderer, registered by the language layer (``assistant.i18n``) when it is
#: imported; the calculators never import it. A list so the registration is one ``append``.
_RENDERERS: list[Callable[[Msg, str], str]] = []


def use_renderer(renderer: Callable[[Msg, str], str]) -> None:
    """Register the function that turns a message into words (the catalog's ``text``)."""
    _RENDERERS[:] = [renderer]


def render(message: Msg, language: str = "en") -> str:
    """`message` in `language` through the registered catalog; without one (the calculators
    used on their own), its key and parameters, so nothing is lost."""
    if _RENDERERS:
        return _RENDERERS[0](message, language)
    return repr(message)
