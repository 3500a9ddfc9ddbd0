"""How much memory a ZeRO stage saves: "how much would ZeRO-2 save for 7B on 8 GPUs?",
"ZeRO-3比ZeRO-2多省多少显存", "开ZeRO-3能省多少".

The answer compares the model states per GPU (weights, gradients and optimizer states) at
stage 0 with the named stage, from the memory check of the same job. ZeRO (Rajbhandari et al.
2020, arXiv:1910.02054, §5 and Figure 1) partitions them over the N data-parallel ranks:
stage 1 the optimizer states (2Ψ + 2Ψ + KΨ/N), stage 2 the gradients too (2Ψ + (2+K)Ψ/N),
stage 3 the weights as well ((2+2+K)Ψ/N), with K = 12 for mixed-precision Adam; activations
are not partitioned, so they are left out of the comparison (the memory answer says them).

Examples:
    >>> asks_saving("ok, and how much memory would it save for a 7B model on 8 GPUs?")
    True
    >>> asks_saving("开ZeRO-3能省多少"), asks_saving("how much money would it save?")
    (True, False)
    >>> [round(b / 1e9, 2) for b in stage_states(14e9, 14e9, 84e9, stage=0, ranks=8)]
    [112.0, 38.5, 26.25, 14.0]
"""

from __future__ import annotations

import re

from assistant.calculate.focus import figure
from assistant.records import Check, Query, Scenario
from calculators.messages import Msg, Param

__all__ = ["asks_saving", "saving_message", "stage_states"]

#: "how much (memory) would it / ZeRO-3 save", "能省多少(显存)", "多省多少": a saving asked, not
#: one of money or time ("how much money would it save", "省多少钱").
_SAVING = re.compile(
    r"\bhow much (?:(?:gpu )?(?:memory|vram) )?(?:would|does|will|can|could|do)\b"
    r"[^?.!]{0,40}?\bsave\b|\bmemory sav(?:ing|ings|ed)\b|"
    r"省(?:下|了)?(?:多少|几)(?!\s*(?:钱|元|块|电|时间|小时|天))|多省"
)
_STAGE = re.compile(r"(?<![a-z])zero[- _]?(?:stage[- _]?)?([0-3])(?!\d)|\bstage[- _]?([0-3])(?!\d)")


def asks_saving(question: str) -> bool:
    """True when the question asks how much memory something saves."""
    return bool(_SAVING.search(question.lower()))


def stated_stages(question: str) -> tuple[int, ...]:
    """The ZeRO stages a question names, in order, without repeats ("ZeRO-3比ZeRO-2" → (3, 2)).

    >>> stated_stages("ZeRO-3比ZeRO-2多省多少显存"), stated_stages("what is zero stage 1?")
    ((3, 2), (1,))
    """
    found = (int(a or b) for a, b in _STAGE.findall(question.lower()))
    return tuple(dict.fromkeys(found))


def stage_states(
    weights_bytes: float, gradients_bytes: float, optimizer_bytes: float, *, stage: int, ranks: int
) -> tuple[float, float, float, float]:
    """Model states per GPU at ZeRO stages 0, 1, 2 and 3, from the per-GPU parts at `stage` over
    `ranks` data-parallel ranks (Rajbhandari et al. 2020 §5: stage s partitions the optimizer
    states from 1, the gradients from 2, the weights at 3)."""
    parts = (optimizer_bytes, gradients_bytes, weights_bytes)  # partitioned from stage 1, 2, 3
    whole = [p * (ranks if stage >= level else 1) for level, p in enumerate(parts, start=1)]
    return tuple(  # type: ignore[return-value]
        sum(w / (ranks if s >= level else 1) for level, w in enumerate(whole, start=1))
        for s in range(4)
    )


def saving_message(query: Query, checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The saving asked, first: the named stage against stage 0 (or against the other stage the
    question names: "ZeRO-3比ZeRO-2多省多少"); None when nothing about ZeRO is asked or the
    memory check has no model states to compare (serving, LoRA, an offload)."""
    stage = scenario.zero_stage
    wording = f"{query.context} {query.question}" if query.followup else query.question
    if not stage or scenario.task == "inference" or scenario.offload or not asks_saving(wording):
        return None
    parts = [figure(checks, "memory", f"{k}_bytes") for k in ("weights", "gradients", "optimizer")]
    ranks = figure(checks, "memory", "data_parallel")
    if any(p is None for p in parts) or not ranks or scenario.method in ("lora", "qlora"):
        return None
    weights, gradients, optimizer = (float(p or 0.0) for p in parts)
    states = stage_states(weights, gradients, optimizer, stage=stage, ranks=int(ranks))
    named = stated_stages(query.question)
    base = next((s for s in named if s != stage), 0)
    saved, before, after = states[base] - states[stage], states[base], states[stage]
    params: dict[str, Param] = {
        "stage": stage,
        "saved": saved,
        "share": saved / before if before else 0.0,
        "before": before,
        "after": after,
        "gpus": int(ranks),
        "others": _others(states, (base, stage)),
    }
    if base:
        return Msg("answer.zero_saving_vs", base=base, **params)
    return Msg("answer.zero_saving", **params)


def _others(states: tuple[float, ...], said: tuple[int, int]) -> tuple[Msg, ...]:
    """The other stages' model states per GPU, for comparison."""
    return tuple(
        Msg("answer.zero_saving_stage", stage=s, states=b)
        for s, b in enumerate(states)
        if s not in said
    )
