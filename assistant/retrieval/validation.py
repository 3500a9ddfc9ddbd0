"""Validation of a document at `kb add` time, per `kind`: a bad document is refused, never
"added" and then left out of the index.

:data:`VALIDATORS` maps a front-matter `kind` to a function that raises
:class:`~assistant.errors.DocumentError` with the reason. Other kinds (user GPU and model
cards, :mod:`assistant.retrieval.cards`) are checked and registered with the calculators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from assistant.errors import DocumentError
from assistant.records import SiteProfile
from assistant.retrieval.cards import register
from assistant.retrieval.documents import Document, site_profile
from calculators.messages import Msg

Validator = Callable[[Document], None]


#: Fields of a site profile's `[site]` table (the template explains each).
SITE_FIELDS = (
    "aliases",
    "nodes",
    "gpus_per_node",
    "gpu",
    "intra_link",
    "inter_link",
    "pue",
    "host_ram_GB",
    "notes",
)


def _site(doc: Document) -> None:
    """A site profile must name catalog hardware: an unknown GPU or link name, an unknown
    field or a PUE below 1 is refused now, not when a question uses the site."""
    from calculators.catalog.hardware import lookup_gpu, lookup_link
    from calculators.errors import CalculatorInputError

    profile = site_profile(doc)  # raises on a missing [site] table or a bad number
    assert profile is not None
    assert doc.site is not None
    unknown = sorted(set(doc.site) - set(SITE_FIELDS))
    if unknown:
        known = ", ".join(SITE_FIELDS)
        raise DocumentError(
            doc.source, Msg("errors.doc.site_unknown", field=unknown[0], known=known)
        )
    checks = (("gpu", lookup_gpu), ("intra_link", lookup_link), ("inter_link", lookup_link))
    for field, lookup in checks:
        value = getattr(profile, field)
        try:
            if value is not None:
                lookup(value)
        except CalculatorInputError as exc:
            raise DocumentError(
                doc.source, Msg("errors.doc.site_field", field=field, reason=exc.reason)
            ) from exc
    if profile.pue is not None and profile.pue < 1:
        raise DocumentError(doc.source, Msg("errors.doc.site_pue", value=profile.pue))


VALIDATORS: dict[str, Validator] = {"site": _site, "gpu": register, "model": register}


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
            return DocumentError(doc.source, Msg("kb.alias_clash", **params))
    return None
