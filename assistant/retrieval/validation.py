"""Validation of a document at `kb add` time, per `kind`: a bad document is refused, never
"added" and then left out of the index.

:data:`VALIDATORS` maps a front-matter `kind` to a function that raises
:class:`~assistant.errors.DocumentError` with the reason. Other kinds (user GPU and model
cards, :mod:`assistant.retrieval.cards`) are checked and registered with the calculators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from assistant.errors import DocumentError
from assistant.i18n import t
from assistant.records import SiteProfile
from assistant.retrieval.cards import register
from assistant.retrieval.documents import Document, site_profile

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
            doc.source,
            f"[site] has an unknown field {unknown[0]!r} (known: {known})",
            reason_zh=f"[site] 含未知字段 {unknown[0]!r}（可用：{known}）",
        )
    checks = (("gpu", lookup_gpu), ("intra_link", lookup_link), ("inter_link", lookup_link))
    for field, lookup in checks:
        value = getattr(profile, field)
        try:
            if value is not None:
                lookup(value)
        except CalculatorInputError as exc:
            raise DocumentError(
                doc.source,
                f"[site] field {field!r}: {exc.reason}",
                reason_zh=f"[site] 字段 {field!r}：{exc.reason_zh}",
            ) from exc
    if profile.pue is not None and profile.pue < 1:
        raise DocumentError(
            doc.source,
            f"[site] field 'pue' must be at least 1.0, not {profile.pue:g}",
            reason_zh=f"[site] 字段 'pue' 必须至少为 1.0，而不是 {profile.pue:g}",
        )


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
            return DocumentError(
                doc.source,
                t("kb.alias_clash", "en", **params),
                reason_zh=t("kb.alias_clash", "zh", **params),
            )
    return None
