"""What people see instead of raw names in the side panel: slots, calculator inputs, figures
and check verdicts, in the interface language.

Slot, input and method labels are ``tui.slot.*``, ``tui.input.*`` and ``tui.method.*``
messages of the catalog; figure labels come from `assistant.render.labels` (shared with
`gpu-advisor calc`); a key without a label is shown in a readable form of itself
("micro_batch_size" → "micro batch size").
"""

from __future__ import annotations

from assistant.i18n import has
from assistant.render.labels import FIGURE_LABELS, TASKS, VERDICTS
from assistant.tui.i18n import t

#: Check verdict -> one-cell icon shown before its label.
VERDICT_ICONS = {"ok": "✔", "tight": "!", "fail": "✘", "n/a": "–"}


def _pick(pair: tuple[str, str], language: str) -> str:
    return pair[0] if language == "zh" else pair[1]


def _label(group: str, key: str, language: str) -> str | None:
    """The catalog label ``tui.<group>.<key>`` in `language`, or None when there is none."""
    if not has(f"tui.{group}.{key}"):
        return None
    return t(f"{group}.{key}", language)


def readable(key: str) -> str:
    """A raw key in a readable form, for names nothing else labels.

    Examples:
        >>> readable("micro_batch_size")
        'micro batch size'
    """
    return key.replace("_", " ").strip()


def slot_label(slot: str, language: str) -> str:
    """The label of scenario slot `slot`.

    Examples:
        >>> slot_label("gpus_per_node", "zh"), slot_label("gpus_per_node", "en")
        ('每节点 GPU', 'GPUs per node')
    """
    return _label("slot", slot, language) or readable(slot)


def input_label(key: str, language: str) -> str:
    """The label of a calculator input (a slot, another known input, or a figure name)."""
    own = _label("slot", key, language) or _label("input", key, language)
    pair = _figure_pair(key)
    return own or (_pick(pair, language) if pair else readable(key))


def figure_label(key: str, language: str) -> str:
    """The label of a calculator figure (from `assistant.render.labels`, else a readable key).

    Examples:
        >>> figure_label("required_bytes_per_gpu", "zh"), figure_label("odd_new_figure", "zh")
        ('每卡所需显存', 'odd new figure')
    """
    pair = _figure_pair(key)
    if pair:
        return _pick(pair, language)
    return _label("input", key, language) or _label("slot", key, language) or readable(key)


def _figure_pair(key: str) -> tuple[str, str] | None:
    english_chinese = FIGURE_LABELS.get(key)
    return (english_chinese[1], english_chinese[0]) if english_chinese else None


def verdict_label(verdict: str, language: str) -> str:
    """A check verdict (ok, tight, fail, n/a) in the interface language.

    Examples:
        >>> verdict_label("fail", "zh"), verdict_label("fail", "en")
        ('不满足', 'fail')
    """
    return VERDICTS.get(verdict, verdict) if language == "zh" else verdict


def slot_value(slot: str, value: str, language: str) -> str:
    """A word-valued slot (task, method) in the interface language; other values unchanged."""
    if slot == "method":
        return _label("method", value, language) or value
    pair = TASKS.get(value) if slot == "task" else None  # TASKS is (en, zh)
    return _pick((pair[1], pair[0]), language) if pair else value
