"""The catalog models closest in size to an unknown model name: an encoder or other
non-decoder name ("BERT-large", "T5-11B") is offered the decoder LLMs nearest its parameter
count, never the ones that merely share its spelling ("BERT-large": Mistral-Large-2, 123B);
a decoder name with its size written ("Foo-13B") keeps the spelling matches, the ones
closest in size first.

The sizes of well-known encoder and encoder-decoder checkpoints are their papers': BERT
base 110M and large 340M (Devlin et al. 2019, §3); RoBERTa base 125M and large 355M (Liu et
al. 2019, the released checkpoints); T5 small 60M, base 220M, large 770M, 3B, 11B (Raffel et
al. 2020, §3.7); DeBERTa base 140M (He et al. 2021); BART large 400M (Lewis et al. 2020).

    >>> size_of("T5-11B"), size_of("bert-large-uncased"), size_of("Zephyr-Omega")
    (11000000000.0, 340000000.0, None)
"""

from __future__ import annotations

import math
import re

__all__ = ["by_size", "size_of"]

#: Published sizes of encoder / encoder-decoder checkpoints named without a size.
_KNOWN: tuple[tuple[str, float], ...] = (
    (r"(?:distil)bert", 66e6),
    (r"(?:ro)?bert(?:a)?[-_ ]?(?:tiny)", 4.4e6),
    (r"roberta[-_ ]?large", 355e6),
    (r"roberta(?:[-_ ]?base)?", 125e6),
    (r"bert[-_ ]?large", 340e6),
    (r"bert(?:[-_ ]?base)?", 110e6),
    (r"deberta(?:-v\d)?[-_ ]?large", 400e6),
    (r"deberta(?:-v\d)?(?:[-_ ]?base)?", 140e6),
    (r"(?:flan-?|m)?t5(?:[-_ ]v1\.1)?[-_ ]small", 60e6),
    (r"(?:flan-?|m)?t5(?:[-_ ]v1\.1)?[-_ ]base", 220e6),
    (r"(?:flan-?|m)?t5(?:[-_ ]v1\.1)?[-_ ]large", 770e6),
    (r"(?:flan-?|m)?t5(?:[-_ ]v1\.1)?[-_ ]xl", 3e9),
    (r"(?:flan-?|m)?t5(?:[-_ ]v1\.1)?[-_ ]xxl", 11e9),
    (r"bart[-_ ]large", 400e6),
    (r"bart[-_ ]base", 140e6),
)
_WRITTEN = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", re.IGNORECASE)


def size_of(name: str) -> float | None:
    """The parameter count a model name states ("T5-11B", "Foo-1.5b") or, for a well-known
    encoder checkpoint named without one, its published size; None when neither."""
    written = _WRITTEN.search(name)
    if written:
        return float(written.group(1)) * (1e9 if written.group(2).lower() == "b" else 1e6)
    lowered = name.lower().strip()
    for pattern, size in _KNOWN:
        if re.fullmatch(pattern + r"(?:[-_ ](?:uncased|cased))?", lowered):
            return size
    return None


def by_size(name: str, spelled: tuple[str, ...], *, other_family: bool) -> tuple[str, ...]:
    """Up to three catalog models for the unknown `name`: for another family
    (`other_family`, an encoder...), the catalog's nearest in parameter count; otherwise the
    spelling matches `spelled`, nearest in size first when the name states one."""
    from calculators.catalog.models import MODELS

    size = size_of(name)
    if size is None:
        return () if other_family else spelled
    pool = tuple(MODELS) if other_family else spelled

    def distance(entry: str) -> float:
        return abs(math.log(MODELS[entry].params / size)) if entry in MODELS else math.inf

    return tuple(sorted(pool, key=distance)[:3])
