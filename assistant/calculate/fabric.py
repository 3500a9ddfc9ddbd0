"""'Do I need InfiniBand?': the bandwidth between the nodes the run needs, against the one
evaluated and one plain 100GbE port, said first (the question states no fabric, so the answer
is a figure, not the verdict of the fabric assumed)."""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.i18n import text
from assistant.parse.asks import asks_about_fabric
from assistant.records import Check, Language, Scenario
from calculators.messages import Msg

__all__ = ["fabric_sentence"]

#: The plain Ethernet port the answer measures the need against (links.json).
PLAIN_FABRIC = "100GbE TCP"


def fabric_sentence(
    question: str, checks: tuple[Check, ...], scenario: Scenario, lang: Language
) -> str:
    """The answer to "do I need InfiniBand / RDMA", or "" when the question does not ask it.

    Examples:
        >>> from assistant.records import Check, Scenario
        >>> net = Check(kind="network", verdict="ok", summary="", figures={"nodes": 1})
        >>> fabric_sentence("do I need InfiniBand?", (net,), Scenario(), "en")[:28]
        'No InfiniBand or RDMA needed'
    """
    if not asks_about_fabric(question):
        return ""
    nodes = figure(checks, "network", "nodes")
    if nodes is not None and nodes <= 1:
        return text(Msg("answer.fabric.one_node"), lang)
    need = figure(checks, "network", "required_inter_node_bytes_per_second_for_90pct")
    have = figure(checks, "network", "inter_node_bytes_per_second")
    if need is None or have is None:
        return ""
    from calculators.catalog.hardware import LINKS

    plain = LINKS[PLAIN_FABRIC].bytes_per_s
    evaluated = (
        "answer.fabric.evaluated_enough" if have >= need else "answer.fabric.evaluated_short"
    )
    # the plain port is what was evaluated: its verdict is the answer, not a second comparison
    on_plain = scenario.inter_link == PLAIN_FABRIC
    if on_plain:
        key = "answer.fabric.so_enough" if plain >= need else "answer.fabric.so_short"
    else:
        key = "answer.fabric.plain_enough" if plain >= need else "answer.fabric.plain_short"
    said = Msg(
        "answer.fabric.need_plain" if on_plain else "answer.fabric.need",
        need=need,
        evaluated=Msg(evaluated, link=scenario.inter_link or "", have=have),
        plain=Msg(key, rate=plain),
    )
    return text(said, lang)
