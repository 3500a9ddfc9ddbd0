"""Names the question gives that are not in the catalog: said, never silently replaced.

Examples:
    >>> unknown_names_lead(("RTX 5090",), "en").split(".")[0]
    'RTX 5090 is not in the catalog'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.i18n import join_sentences, text
from assistant.records import Language
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = ["unknown_names_lead"]

#: A name that reads as a model ("Qwen2-7B", "GLM-4", "Yi-34B"), not a GPU.
_MODEL_NAME = re.compile(
    r"\d+(?:\.\d+)?\s*[bm]\b|llama|qwen|mistral|mixtral|deepseek|gpt|glm|baichuan|\byi\b|gemma|phi",
    re.IGNORECASE,
)


def unknown_names_lead(names: tuple[str, ...], lang: Language) -> str:
    """ "<name> is not in the catalog": never replaced; the closest entries and how to add one."""
    from calculators.catalog.hardware import lookup_gpu
    from calculators.catalog.models import lookup_model
    from calculators.errors import UnknownNameError

    sentences = []
    for name in names:
        closest: tuple[str, ...] = ()
        tables: list[tuple[Callable[[str], object], str]] = [
            (lookup_gpu, "gpu"),
            (lookup_model, "model"),
        ]
        if _MODEL_NAME.search(name):
            tables.reverse()
        kind = tables[0][1]  # the template to offer when nothing is close
        for lookup, table in tables:
            try:
                lookup(name)
            except UnknownNameError as exc:
                if exc.suggestions and not closest:
                    closest, kind = exc.suggestions[:3], table
            except CalculatorInputError:
                continue
        listed: Msg | tuple[str, ...] = closest or Msg("answer.no_close_entry")
        message = Msg("answer.unknown_name", name=name, closest=listed, kind=kind)
        sentences.append(text(message, lang))
    return join_sentences(sentences, lang)
