"""Count nouns in English answers: "on 1 GPU", "on 8 GPUs" (Chinese writes its own 张卡).

Examples:
    >>> from assistant.i18n import text
    >>> text(gpu_noun(1), "en"), text(gpu_noun(8), "en")
    ('GPU', 'GPUs')
"""

from __future__ import annotations

from calculators.messages import Msg

__all__ = ["gpu_noun"]


def gpu_noun(count: int) -> Msg:
    """ "GPU" after one, "GPUs" after more ("on 1 GPU", never "on 1 GPUs")."""
    return Msg("common.gpu_noun_one" if count == 1 else "common.gpu_noun_many")
