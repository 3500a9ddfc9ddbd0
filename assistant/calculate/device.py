"""A computer rather than a GPU ("只用CPU", "my MacBook Pro M3"): said, with the weights for
scale, never judged on a stand-in card.

The calculators model GPUs and accelerators from their datasheets (memory, bandwidth, FLOP/s).
A CPU, or a Mac's unified memory shared with the CPU, has none of those figures in the catalog,
and a catalog card lending its bandwidth would overstate the speed many times over (an M3 Pro
reads 150 GB/s, an RTX 4090 1,008 GB/s), so no verdict or speed is given. What holds on any
device is the size of the weights: parameters x bytes per weight (2 in 16-bit, 0.5 at 4-bit),
and a memory the question states is compared with it.

Examples:
    >>> from assistant.records import Query, Scenario
    >>> q = Query(question="只用CPU能跑7B吗", language="zh",
    ...           scenario=Scenario(params=7e9), unknown_names=("CPU",))
    >>> computer_lead(q).split("：")[0]
    'CPU 不在目录中'
"""

from __future__ import annotations

from assistant.i18n import join_sentences, text
from assistant.records import Query
from calculators.catalog.hardware import DTYPE_BYTES
from calculators.messages import Msg

__all__ = ["computer_lead"]


def computer_lead(query: Query) -> str:
    """The lead for a question about a computer with no catalog GPU, or "" when it is not one."""
    from assistant.parse.names import CPU_NAME, is_computer

    s = query.scenario
    # "笔记本没有显卡，只用CPU": the CPU is what runs it
    names = sorted((n for n in query.unknown_names if is_computer(n)), key=lambda n: n != CPU_NAME)
    if not names or s.gpu is not None:
        return ""
    lang = query.language
    name = names[0][:1].upper() + names[0][1:]  # it starts the answer: "Laptop", "Mac mini"
    sentences = [text(Msg("answer.computer", name=name), lang)]
    params = _params(query)
    if params is not None:
        half, quarter = params * DTYPE_BYTES["bf16"], params * DTYPE_BYTES["int4"]
        sentences.append(text(Msg("answer.computer_weights", bf16=half, int4=quarter), lang))
        memory = s.gpu_memory_bytes
        if memory is not None:
            key = (
                "answer.computer_holds_16bit"
                if half < memory
                else "answer.computer_holds_4bit"
                if quarter < memory
                else "answer.computer_holds_none"
            )
            sentences.append(text(Msg(key, memory=memory), lang))
    return join_sentences(sentences, lang)


def _params(query: Query) -> float | None:
    s = query.scenario
    if s.model is None:
        return s.params
    from calculators.catalog.models import lookup_model

    return lookup_model(s.model).params
