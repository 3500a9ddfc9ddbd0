"""Names the question gives that are not in the catalog: said, never silently replaced.

Examples:
    >>> unknown_names_lead(("RTX 5090",), "en").split(".")[0]
    'RTX 5090 is not in the catalog'
"""

from __future__ import annotations

from assistant.i18n import join_sentences, text
from assistant.records import Language
from calculators.messages import Msg

__all__ = ["unknown_names_lead"]


def unknown_names_lead(names: tuple[str, ...], lang: Language) -> str:
    """ "<name> is not in the catalog": never replaced; the closest entries and how to add one."""
    from assistant.parse.names import closest_entries, name_in

    sentences = []
    for name in names:
        kind, closest = closest_entries(name)
        listed: Msg | tuple[str, ...] = closest or Msg("answer.no_close_entry")
        message = Msg("answer.unknown_name", name=name_in(name, lang), closest=listed, kind=kind)
        sentences.append(text(message, lang))
    return join_sentences(sentences, lang)
