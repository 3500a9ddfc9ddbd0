"""A consumer card named with no count ("用4090跑7B", "3090 24G 能LoRA微调吗") is one card.

A desktop card is bought one at a time (and a small inference card, T4, L4 or A10, is rented
one at a time): someone asking about "a 4090" has one, not an 8-GPU
server. The count is then the user's (more cards are more hardware, so the verdict is judged on
one), and the answer says it was read that way. A data-centre card with no count keeps the
default of one typical 8-GPU server (HGX/DGX boards carry 8), said in the assumptions.

Examples:
    >>> from assistant.records import Query, Scenario
    >>> q = Query(question="用4090训练1B模型", language="zh",
    ...           scenario=Scenario(gpu="RTX 4090 24GB", params=1e9, task="pretrain"))
    >>> with_one_card(q, None)[0].scenario.gpu_count
    1
    >>> with_one_card(replace(q, question="4090服务器训练1B模型"), None)[1] is None
    True
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate import Outcome
    from assistant.records import SiteProfile

__all__ = ["ONE_CARD_CLASSES", "ONE_CARD_NAMES", "with_note", "with_one_card"]

#: Catalog classes sold one per desktop or workstation (`GPU.gpu_class`).
ONE_CARD_CLASSES = frozenset({"consumer", "workstation"})
#: Small data-centre inference cards met one at a time: the 1-GPU cloud instances (AWS
#: g4dn.xlarge has one T4, g6.xlarge one L4, g5.xlarge one A10G) and Colab's T4.
ONE_CARD_NAMES = frozenset({"T4", "L4 24GB", "A10"})
#: Words that make the card part of a server or a cluster ("4090服务器", "a 4090 cluster"); a
#: "4090主机" or "my 4090 machine" is a desktop PC, one card.
_MACHINE = re.compile(r"服务器|集群|节点|机柜|server|cluster|node|rack", re.IGNORECASE)


def _rented_for_training(s: Scenario) -> bool:
    """A consumer card rented by the GPU-hour for a training job: the count is open (a rented
    card is not one desk's), so the job is judged on the defaults' count, never on one card."""
    return s.price_per_gpu_hour is not None and s.task in ("pretrain", "finetune")


def with_one_card(query: Query, site: SiteProfile | None) -> tuple[Query, str | None]:
    """`query` with one card when it names a consumer card and no count, no node, no server and
    no site, and does not ask how many cards ("需要几张4090"); with the assumption to state."""
    from assistant.calculate.focus import main_ask
    from assistant.calculate.targets import has_target
    from calculators.catalog.hardware import GPUS

    s = query.scenario
    card = GPUS.get(s.gpu or "")
    if (
        card is None
        or (card.gpu_class not in ONE_CARD_CLASSES and card.name not in ONE_CARD_NAMES)
        or (card.name in ONE_CARD_NAMES and has_target(s))  # "20 requests/s on A10": sized
        or site is not None
        or query.options
        or main_ask(query) == "gpu_count"
        or _rented_for_training(s)  # "租4090每卡时2元预训练": as many as the job needs are rented
        or any(v is not None for v in (s.gpu_count, s.nodes, s.gpus_per_node))
        or _MACHINE.search(query.question)
    ):
        return query, None
    key = "default.one_card_rented" if card.name in ONE_CARD_NAMES else "default.one_card"
    note = text(Msg(key, gpu=card.name), query.language)
    return replace(query, scenario=replace(s, gpu_count=1)), note


def with_note(outcome: Outcome, note: str | None) -> Outcome:
    """`outcome` with `note` first among its assumptions (unchanged for None)."""
    if note is None:
        return outcome
    return replace(outcome, assumptions=(note, *outcome.assumptions))
