"""Validation of a document at `kb add` time, per `kind`: a bad document is refused, never
"added" and then left out of the index.

:data:`VALIDATORS` maps a front-matter `kind` to a function that raises
:class:`~assistant.errors.DocumentError` with the reason. Other kinds (user GPU and model
cards) plug in by adding an entry: ``VALIDATORS["gpu"] = validate_gpu_card``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from assistant.errors import DocumentError
from assistant.i18n import t
from assistant.records import SiteProfile
from assistant.retrieval.documents import Document, site_profile

Validator = Callable[[Document], None]


def _site(doc: Document) -> None:
    site_profile(doc)  # raises on a missing [site] table or a bad number


VALIDATORS: dict[str, Validator] = {"site": _site}


def validate(doc: Document) -> None:
    """Raise DocumentError when `doc` is not usable as its kind."""
    validator = VALIDATORS.get(doc.kind)
    if validator is not None:
        validator(doc)


def _names(profile: SiteProfile) -> set[str]:
    return {name.casefold().strip() for name in (profile.title, *profile.aliases) if name.strip()}


def alias_clash(doc: Document, profiles: Iterable[SiteProfile]) -> DocumentError | None:
    """An error when `doc`'s site profile claims a name (alias or title) of another profile."""
    mine = site_profile(doc)
    if mine is None:
        return None
    for other in profiles:
        if other.id == mine.id:
            continue
        shared = sorted(_names(mine) & _names(other))
        if shared:
            params = {"name": shared[0], "other": other.source}
            return DocumentError(
                doc.source,
                t("kb.alias_clash", "en", **params),
                reason_zh=t("kb.alias_clash", "zh", **params),
            )
    return None
