"""What the headline of an evaluated plan covers: the checks it leaves out when the answer
states them itself, and whether the question asked about the memory fit first."""

from __future__ import annotations

from assistant.calculate.targets import has_target
from assistant.calculate.verdict import on_memory
from assistant.records import Ask, Query, Scenario

__all__ = [
    "KINDS",
    "OPEN_HORIZON",
    "QUANTITY",
    "ask_wording",
    "fit_asked",
    "network_asked",
    "skipped",
]

KINDS = ("memory", "compute", "network", "power", "cost")

#: Asks answered by a quantity of the whole run (its time, money, energy or tokens).
QUANTITY: tuple[Ask, ...] = ("duration", "cost", "gpu_hours", "energy_cost", "power", "tokens")
#: Asks no default deadline judges: the quantities, and "will the network be the bottleneck?"
OPEN_HORIZON: tuple[Ask, ...] = (*QUANTITY, "network")


def skipped(
    ask: Ask, stated: Scenario, judged: bool, *, network_asked: bool = False
) -> tuple[str, ...]:
    """Passing checks the headline leaves out: the run time when the answer states it (how
    long; how much with no deadline given; the speed at a serving target's load), everything
    when nothing is to be judged. A budget
    with no deadline keeps its run time, worded on the open horizon ("训练约需 101.8 天", never
    "期限 365 天" the user did not set)."""
    if not judged:
        return KINDS
    # "is the network the bottleneck?", "how badly does it hurt scaling?": the network check
    # is the answer up front (calculate.bottleneck), not a warning again after it, also when
    # it is the second thing asked ("要多久？网络会成为瓶颈吗")
    up_front: tuple[str, ...] = ("network",) if ask == "network" or network_asked else ()
    training = stated.task in ("pretrain", "finetune") or stated.tokens is not None
    if has_target(stated) and not training:
        return ("compute",)  # the target's sentence gives the speed at the load asked
    if ask == "duration" or (ask in OPEN_HORIZON and stated.deadline_seconds is None):
        return ("compute", *up_front)
    if on_memory(ask, stated):
        return ("compute",)
    return up_front


def network_asked(query: Query) -> bool:
    """Whether the question asks about the network, first or after another ask ("要多久？网络会
    成为瓶颈吗"): its answer is then said up front (`lead.with_focus`), not again in the
    headline."""
    return "network" in query.asks


def fit_asked(query: Query, ask: Ask) -> bool:
    """The question asks whether the job fits ("显存够吗", "放得下吗", "does it fit?"): the
    memory fit is what its headline says first, whatever another check warns of. The parser
    marks the memory topic (or the memory ask); this only reads it."""
    return ask == "memory" or (ask == "feasibility" and "memory" in query.topics)


def ask_wording(query: Query) -> str:
    """The words the asks were put in: the question, and for a follow-up that carries the turn
    before's asks ("那换成Qwen2.5-72B呢" under "哪个更快"), that turn's question first."""
    return f"{query.asked_in} {query.question}" if query.asked_in else query.question
