"""Hardware options compared in one question ("8×H20 vs 8×910B for 70B inference").

The masked text is cut at the words that separate options ("vs", "versus", "还是", "对比",
"or", "和", "与"); each piece that names hardware (a GPU mark or a GPU count) is one option.
An option holds only its hardware slots: the job (model, task, precision, load) is the
question's, in `Query.scenario`, and an answer evaluates `replace(scenario, **option)`.

Examples:
    >>> hardware_options("8x ⟨gpu⟩ vs 8x ⟨gpu⟩ for 70b inference", ("H20 96GB", "Ascend 910B 64GB"))
    ({'gpu': 'H20 96GB', 'gpu_count': 8}, {'gpu': 'Ascend 910B 64GB', 'gpu_count': 8})
"""

from __future__ import annotations

import re

from assistant.parse import hardware as hw

__all__ = ["hardware_options"]

_SPLIT = re.compile(
    r"\bvs\.?(?![a-z])|\bversus\b|还是|对比|相比|比较|\bor\b|\band\b|和|与|跟|,|，|/"
)
_MAX_OPTIONS = 3


def hardware_options(text: str, gpu_sequence: tuple[str, ...]) -> tuple[dict[str, object], ...]:
    """2–3 hardware options in `text` (masked, normalised), or () when fewer than two.

    `gpu_sequence` is the catalog name of every GPU mark in `text`, in order.
    """
    options: list[dict[str, object]] = []
    marks = 0
    for piece in _SPLIT.split(text):
        option: dict[str, object] = {}
        count = piece.count(hw.GPU_MARK.strip())
        if count:
            name = gpu_sequence[min(marks, len(gpu_sequence) - 1)]
            if name:  # an unknown card is listed in Query.unknown_names, not named here
                option["gpu"] = name
            marks += count
        counts = hw.read_counts(piece)
        if counts.gpu_counts:
            option["gpu_count"] = counts.gpu_counts[0]
        elif counts.nodes is not None and counts.gpus_per_node is not None:
            option["gpu_count"] = counts.nodes * counts.gpus_per_node
        if counts.nodes is not None and counts.gpus_per_node is not None:
            option["nodes"], option["gpus_per_node"] = counts.nodes, counts.gpus_per_node
        seen = [o.get("gpu") for o in options]
        if option and not ("gpu_count" not in option and option.get("gpu") in seen):
            options.append(option)  # a GPU named again with no count is not a new option
    options = _each(options)
    if len(options) < 2:
        return ()
    return tuple(options[:_MAX_OPTIONS])


def _each(options: list[dict[str, object]]) -> list[dict[str, object]]:
    """A count with no GPU after GPUs with none ("H100 和 A100 …，各8张") is each one's count."""
    named = [o for o in options if "gpu" in o]
    counts = [o for o in options if "gpu" not in o and "gpu_count" in o]
    if named and counts and not any("gpu_count" in o for o in named):
        return [{**o, "gpu_count": counts[0]["gpu_count"]} for o in named]
    return options
