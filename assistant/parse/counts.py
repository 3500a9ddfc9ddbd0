"""GPU and node counts read from masked, normalised question text.

"8张H100", "2台8卡服务器", "4x8 H100", "one DGX H100": the total GPU counts, the number of
nodes and the GPUs per node. Catalog GPU names arrive masked as `⟨gpu⟩`
(`assistant.parse.hardware.GPU_MARK`), so the digits in a card's name are never a count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.parse.numbers import MAGNITUDES, NUMBER, to_float
from assistant.parse.prices import NODE_PRICES, PRICE
from assistant.parse.purchase_price import without_purchase_price
from calculators.defaults import DEFAULT_GPUS_PER_NODE

__all__ = ["Count", "Counts", "read_counts"]

Count = int | float
"""A count as typed; a float only when it is not whole (see `_whole`)."""


@dataclass(frozen=True)
class Counts:
    """GPU and node counts stated in the question."""

    gpu_counts: tuple[Count, ...] = ()
    """Every total GPU count mentioned, in order (two distinct values are a contradiction); a
    fractional one ("2.5 H100") is kept as typed, for validation to refuse, never truncated."""
    nodes: Count | None = None
    gpus_per_node: Count | None = None


_G = r"⟨gpu⟩"
#: What 个 counts when it is not cards: months, hours, weeks, quarters, nodes, servers, users…
_NOT_CARD = r"(?!\s*(?:月|小时|钟头|星期|礼拜|周|季度|工作日|节点|服务器|机柜|用户|人|并发|请求))"
_CARD = (
    r"(?:张|块|片|个|颗)?\s*"
    r"(?:显卡|gpu卡|卡|gpus?\b|cards?\b|graphics cards?|accelerators?|npus?\b)"
)
#: What follows a bare "4张" when the cards are its subject: "4张能跑", "4张够不够", "4张一起训练"
_CARD_VERB = r"(?:能|可以|可否|是否|够|就|都|一起|同时|跑|部署|推理|训练|微调|并行|组|搭|行不行|做)"
#: "host" followed by what it hosts is the verb ("PUE 1.5 host 1,000 H20"), not a machine.
_HOST_VERB = r"(?!\s+(?:[\d,]|a\b|an\b|the\b|up to\b|about\b|around\b|over\b|our\b|my\b))"
_NODE = (
    r"(?:台|个节点|节点|个服务器|nodes?\b|machines?\b|servers?\b|boxes\b|hosts\b|host\b"
    + _HOST_VERB
    + r")"
)
#: What a machine is called between its count and the word: "4 PCIe machines", "3 separate
#: boxes", "2 bare-metal servers" (up to two such words).
_NODE_KIND = (
    r"(?:(?:pcie|physical|separate|different|identical|compute|worker|bare-metal|"
    r"desktop|workstation|linux|ubuntu|local|on-prem|rented|cloud)\s+){0,2}"
)
#: A count said to be the whole ("16 A100 in total", "16 GPUs altogether") is no per-node size.
_NOT_PER_NODE = r"(?!\s*(?:in total|in all|total\b|altogether|overall|combined|总共|合计))"
#: What people say of their cards between the count and the card: "4 old P40s", "two used
#: 3090s", "3 spare A100 80GB cards", "4张旧的P40", "两块二手3090" (二手 is normalised to "2手");
#: up to two of them ("4 old used P40s"), each optionally followed by 的.
_WORN_WORD = (
    r"(?:2手|魔改|改装|全新|闲置|备用|旧|老|现有|国产|"
    r"(?:used|old|older|spare|idle|extra|refurbished|modded|second-?hand|secondhand|new|"
    r"brand-new|existing|leftover|retired|cheap|ex-mining|mining)\b)"
)
_WORN = r"(?:" + _WORN_WORD + r"\s*(?:的)?\s*){0,2}"
#: "278.8万H800 GPU小时", "2.788M H800 GPU-hours", "5000 A100-hours": a number of GPU-hours
#: spent, not a number of cards.
_NOT_HOURS = r"(?!\s*(?:gpus?|cards?|卡)?\s*[-·]?\s*(?:小时|卡时|机时|hours?\b|hrs?\b|h\b))"
_TOTAL_PATTERNS = (
    # "8张H100", "8块二手4090", "4 used 3090s", "4 old Tesla P40s", "2 GeForce 4090s" (a maker
    # or line word the catalog alias lacks)
    NUMBER
    + r"\s*(?:[x×*]|张|块|片|颗|个)?\s*"
    + _WORN
    + r"\s*(?:的)?\s*(?:nvidia\s*|英伟达\s*)?(?:geforce\s*|tesla\s*|quadro\s*)?"
    + _G
    + _NOT_HOURS,
    # "4张魔改48G的4090", "8张24G的卡", "4 modded 48GB 4090s": the memory between count and card
    NUMBER
    + r"(?![\d.])\s*(?:[x×*]|张|块)?\s*"
    + _WORN
    + r"\s*(?:版)?\s*"
    + r"\d+(?:\.\d+)?\s*(?:gib|gb|g)\s*(?:的|版|显存的)?\s*"
    + r"(?:"
    + _G
    + r"|显卡|卡|gpus?\b|cards?\b)",
    _G + r"\s*(?:gpus?|cards?|显卡|卡)?\s*(?:[x×*]|\bx)\s*(\d+)(?![\d.])",
    # "A100 8张"; not "A100一个月内" (个 of a time span, a node or a user is no card count)
    _G + r"\s*(?:gpus?|cards?|显卡|卡)?\s*" + NUMBER + r"\s*(?:张|块|片|卡|个" + _NOT_CARD + r")",
    # "8张卡", "4 spare GPUs", "4张旧卡"
    NUMBER + r"\s*(?:张|块|片|个|颗)?\s*" + _WORN + _CARD,
    # "如果有16张呢", "用32块的话": the card is understood
    NUMBER + r"\s*(?:张|块)(?=\s*(?:呢|吧|吗|的话|卡呢|\?|？|,|，|。|$))",
    # "海光K100有64GB显存，4张能跑…", "用4张跑70B": 张 before a verb counts the card named or
    # understood (块 stays out: "5000块能买几张" is money)
    NUMBER + r"\s*张(?=\s*" + _CARD_VERB + r")",
    # "买8张多少钱", "采购16张要多少": the cards bought (块 after 买 is money: "买5000块的卡")
    r"(?:买|购买|采购|购置|购入)\s*" + NUMBER + r"\s*张",
    # "Gaudi 3 with 128GB: can 8 of them serve …": the card named before
    r"⟨gpu⟩[^?？!！]{0,60}?(?<![\d.])" + NUMBER + r"\s*of\s+(?:them|those|these)\b",
    # "A100 80GB跑Qwen2.5-72B，两块够吗": 块 after a card named before counts it when a small
    # number is followed by 够/能 (not "5000块够吗", money)
    r"⟨gpu⟩[^?？!！]{0,60}?(?<![\d.])([1-9]|[1-5]\d|6[0-4])(?![\d.])\s*块(?=\s*(?:够|就够|能|可以))",
    # "The H100 has 80GB, can 2 serve Llama-3-70B?", "are 4 enough?": a bare count as the
    # subject of a verb counts the card named before
    r"⟨gpu⟩[^?？!！]{0,60}?\b(?:can|could|will|would|do|does|are|is|would)\s+"
    + NUMBER
    + r"\s+(?:serve|run|handle|fit|hold|host|train|fine-?tune|load|be enough|suffice|work|"
    + r"enough|sufficient|cope)\b",
)
_PER_NODE_PATTERNS = (
    NUMBER
    + r"\s*台\s*(?:服务器|机器|主机)?\s*(?:,|，)?\s*(?:每台|各)?\s*(?:有|配|装)?\s*"
    + NUMBER
    + r"\s*(?:张\s*卡?|块\s*卡?|卡|"
    + _G
    + ")",
    # "4x8 h100", "2×8卡", "2x 8xA100": nodes × GPUs per node (the second number follows an "x")
    NUMBER + r"\s*[x×*]\s*(\d+)(?![\d.])\s*[x×*]?\s*(?:张)?\s*(?:" + _G + r"|gpus?\b|卡)",
    # "Two 8x A800 servers", "2 8xH100 nodes": the node count, then a per-node "8x <GPU>"
    NUMBER
    + r"\s+(\d+)\s*[x×*]\s*"
    + _G
    + r"\s*(?:gpus?\s*)?(?:nodes|servers|machines|boxes|hosts)\b",
    # "two 8-GPU H100 nodes", "2 台 8 卡服务器", "2个8卡H100节点": the node count, then the
    # per-node size
    NUMBER
    + r"(?:\s+|\s*个\s*)(\d+)[- ]?(?:gpu|卡|card|way)s?\s*(?:"
    + _G
    + r"\s*)?(?:nodes?|servers?|machines?|box(?:es)?|服务器|机器|节点)",
    # "two boxes, each with 8x A100", "3 machines with 8 H100 each", "两台服务器，每台8张"
    NUMBER
    + r"\s*"
    + _NODE
    + r"\s*(?:,|，)?\s*(?:of|with|each with|each has|each having|每台|各|x|×|\*)?\s*"
    + NUMBER
    + r"\s*[x×*]?\s*(?:"
    + _G
    + r"|gpus?\b|cards?\b|张|卡)\s*(?:gpus?|cards?|卡)?"
    + _NOT_PER_NODE
    + r"\s*(?:each|apiece|per node|每台|每个)?",
)
_PER_NODE_ONLY = (
    # "要几台8卡H20", "需要多少台8卡服务器": the count asked is of nodes; 8 is per node
    r"(?:几|多少)\s*(?:台|个节点|个服务器)\s*(?:的)?\s*"
    + NUMBER
    + r"\s*(?:张|块)?\s*(?:卡|"
    + _G
    + r"|gpus?\b)",
    # "4 nodes with 100G RoCE, 8 H800 each": a count followed by "each" is per node
    NUMBER
    + r"\s*[x×*]?\s*(?:"
    + _G
    + r"|gpus?\b|cards?\b)\s*(?:gpus?\b|cards?\b)?\s*"
    + r"(?:each|apiece|in each|per (?:node|server|machine))",
    # "8-GPU H800 nodes", "8卡的节点": the size of a node, never the GPU count
    NUMBER
    + r"[- ]?(?:gpu|卡|card|way)\s*(?:的)?\s*(?:"
    + _G
    + r"\s*)?(?:的)?\s*(?:nodes?|servers?|machines?|box(?:es)?|服务器|机器|节点)",
    # "每台只有4张卡", "if each node had only 4 GPUs", "every server has 4 cards"
    r"(?:每台(?:机器|服务器)?|每个节点|每节点|单机|per node|"
    r"(?:each|every|per) (?:node|server|machine|box)(?: (?:had|has|have|with|holds?|held))?)"
    r"\s*(?:只有|只|有|配了?|装了?|only|just)?\s*"
    + NUMBER
    + r"\s*(?:张|块)?\s*(?:"
    + _G
    + r"|卡|gpus?)",
    NUMBER
    + r"\s*(?:"
    + _G
    + r"\s*)?(?:gpus?|cards?|卡)\s*(?:per|each|every|/)\s*(?:node|server|machine|台)",
)


_ONE_NODE = re.compile(
    r"单机|单台|(?:single|one)[- ](?:\d+[- ]?(?:gpu|card|way)s?[- ]\s*)?(?:"
    + _G
    + r"\s*)?(?:node|machine|server|box)",
    re.ASCII,
)
_DGX = re.compile(
    r"(?:" + NUMBER + r"\s*|\b(?:a|an|one|single)\s+)?(?:dgx|hgx)\b\s*(?:" + _G + r")?"
    r"(\s*(?:clusters?|superpods?|pods?))?"
)
#: "on my 3090", "a 4090", "an A100": one card, unless a cluster, a node or a plural follows
_ONE_CARD = re.compile(
    r"\b(?:my|a|an)\s+(?:single\s+)?" + _G + r"(?!\s*(?:s\b|'s|cluster|node|server|machine|"
    r"box|rig|pod|system|instance|farm|workstation|setup|based|-based|gpus|cards))",
    re.ASCII,
)
#: "colab's free T4", "my old 3090", "the only A10 I have", "the T4 on my instance": one card
#: someone has (a possessive, or "the" with a word of one's own card), unless a plural, a
#: machine or a count follows ("colab's T4 GPUs" and "the A100 cluster" say nothing of a count).
_OWN_CARD = re.compile(
    r"(?:'s|’s|\b(?:my|our|a|an|the))\s+(?:(?:free|only|single|spare|old|own|trusty|little|"
    r"lone|one)\s+)+" + _G + r"|(?:'s|’s)\s+" + _G + r"|\bthe\s+" + _G + r"\s*(?:\(\w+\)\s*)?"
    r"(?:on|in)\s+(?:my|our)\s+(?:instance|vm|laptop|pc|desktop|machine|box|workstation|"
    r"notebook|colab|kaggle)\b",
    re.ASCII,
)
_OWN_CARD_NOT = re.compile(r"\s*(?:s\b|gpus|cards|cluster|nodes?\b|servers?\b|pods?\b|x\b)")
#: "an H100", "a single A100": one card named with an article, not a server ("an H100 node",
#: "a 4090 server", "an H100 cluster" are machines of an unstated size).
_ONE_NAMED = re.compile(
    r"(?<![a-z])(?:an?|single|one)\s+(?:single\s+)?" + _G + r"(?!\s*(?:[x×*]|⟨|gpus?\b|cards?\b|"
    r"nodes?\b|servers?\b|clusters?\b|pods?\b|box(?:es)?\b|machines?\b|systems?\b|racks?\b|"
    r"rigs?\b|instances?\b|vms?\b|dgx|hgx|superpod))",
    re.ASCII,
)


#: "an 8 GPU server with H100", "8卡H100服务器": one server of that size (singular; not "8-GPU
#: servers", and not when the number of servers is what is asked: "需要几台8卡服务器").
_ONE_SERVER = re.compile(
    NUMBER + r"[- ]?(?:gpu|卡|card|way)s?\s*(?:" + _G + r"\s*)?"
    r"(?:node|server|machine|box|服务器|机器|节点|主机)(?![a-z])",
    re.ASCII,
)
#: A count of machines asked or left vague ("需要几台8卡服务器", "several 8-GPU servers");
#: "多少电费" asks an amount of money, not how many servers.
_HOW_MANY = re.compile(
    r"(?:几|多少)\s*(?:个|台|套)?\s*(?:节点|服务器|机器|主机|台|nodes?|servers?|machines?)|几台|多少台|"
    r"how many|\bseveral\b|\bmultiple\b|\bsome\b",
    re.ASCII,
)
#: "16 H100 nodes", "4 A800 servers", "16个H100节点": the count is of machines named by their
#: card (English plural, so "an 8 H100 node" stays one node of eight; "4x H100 nodes" is left
#: to the card patterns; Chinese needs 个/台, since 张/卡 count cards; "节点内" is "inside a node")
_NAMED_NODES = re.compile(
    r"(?<![\d.x×*])" + NUMBER + r"(?:\s+" + _G + r"\s*(?:nodes|servers|machines|boxes|hosts)\b"
    r"|\s*(?:个|台)\s*" + _G + r"\s*(?:节点|服务器|机器|主机)(?!内))",
    re.ASCII,
)

#: "4 of the Jilin GPU servers", "link 4 Jilin servers", "two of our Jilin servers": a count
#: before a site's name counts its machines (the site's profile gives the GPUs per node); "4
#: Jilin GPUs" counts cards, and Chinese says 台 ("用其中4台吉林服务器", read as nodes above).
_SITE_NODES = re.compile(
    r"(?<![\d.x×*])" + NUMBER + r"\s+(?:of\s+(?:the|our|their|those|these|its|my)\s+)?⟨site⟩"
    r"(?!\s*(?:gpus?\b|cards?\b|卡|显卡|张))",
    re.ASCII,
)


def _whole(raw: str) -> Count:
    """A count as typed: an int when whole, else the float ("2.5 H100", "1.5 nodes"), kept for
    validation to refuse (never truncated to a count the user did not give)."""
    value = to_float(raw)
    return int(value) if value.is_integer() else value


def read_counts(text: str) -> Counts:
    """GPU counts, node counts and GPUs per node from masked, normalised text."""
    # "1k H100", "2k GPUs", "3 million H100s": thousands (millions) of cards ("4k context"
    # has no card after it)
    text = re.sub(
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(k|thousand|million|mn)\s+(?=" + _G + r"|gpus?\b|cards?\b)",
        lambda m: f"{float(m.group(1)) * MAGNITUDES[m.group(2)]:.0f} ",
        text,
    )
    text = _without_prices(text)  # "每张卡每小时6块": 6 yuan, not six cards
    text = _PART_OF.sub(_part, text)  # "2 of the 8 A100s": the two the user gets
    text = _EXACT_AFTER.sub(_exact, text)  # "千卡910B（1024张）": the exact count in brackets
    nodes, per_node, spans = _node_layout(text)
    totals: list[tuple[int, Count]] = []
    for pattern in _TOTAL_PATTERNS:
        for match in re.finditer(pattern, text, re.ASCII):
            if any(s <= match.start() < e for s, e in spans):
                continue
            totals.append((match.start(), _whole(match.group(1))))
    if not totals and (
        re.search(r"单卡|单张|single (?:gpu|card)|one (?:gpu|card)", text, re.ASCII)
        or _ONE_CARD.search(text)
        or _ONE_NAMED.search(text)
        or _own_card(text)
    ):
        totals.append((0, 1))
    counts = tuple(dict.fromkeys(v for _, v in sorted(totals)))
    if nodes == 1 and per_node is None and len(counts) == 1:
        per_node = counts[0]
    if nodes == 1 and per_node and len(counts) == 1 and counts[0] > per_node:
        # "a DGX H100 box … on 64 GPUs": that many boxes like it, never 64 GPUs in one box
        if counts[0] % per_node == 0:
            nodes = counts[0] // per_node
    return Counts(counts, nodes, per_node)


#: "2 of the 8 A100 cards", "4 of our 16 GPUs": the cards used are the first count.
_PART_OF = re.compile(
    r"(?<![\d.])(\d+)\s+of\s+(?:the\s+|our\s+|my\s+|its\s+|their\s+|all\s+)?(\d+)\s+"
    r"(?=" + _G + r"|gpus?\b|cards?\b)"
)


def _part(match: re.Match[str]) -> str:
    """The part's count before the cards, when it is the smaller ("2 of the 8"); else as said."""
    part, whole = int(match.group(1)), int(match.group(2))
    return f"{part} " if part < whole else match.group(0)


#: A round count of cards followed by its exact figure in brackets ("1000卡⟨gpu⟩（1024张）").
_EXACT_AFTER = re.compile(
    r"(?<![\d.])(\d+)(\s*(?:张|块)?\s*(?:卡|gpus?\b|cards?\b))([^（()]{0,20}?)"
    r"[（(]\s*(?:共|即|实际|=|~|约)?\s*(\d+)\s*(?:张|块|卡|gpus?\b|cards?\b)?\s*[）)]"
)


def _exact(match: re.Match[str]) -> str:
    """The bracketed count in place of the round one, when the two are close (0.5-2x)."""
    rough, exact = float(match.group(1)), float(match.group(4))
    if not (rough and 0.5 <= exact / rough <= 2.0):
        return match.group(0)
    padding = " " * (len(match.group(0)) - len(match.group(4) + match.group(2) + match.group(3)))
    return match.group(4) + match.group(2) + match.group(3) + padding


def _own_card(text: str) -> bool:
    """One card someone has ("colab's free T4", "the T4 on my instance"), not a plural."""
    return any(
        not _OWN_CARD_NOT.match(text, m.end()) or "instance" in m.group(0)
        for m in _OWN_CARD.finditer(text)
    )


def _without_prices(text: str) -> str:
    """`text` with the amount of every price per GPU-hour or node-hour (and of a purchase
    price) blanked out (same
    length; the words around it, "4 nodes at $98/hour", still count)."""
    for pattern in (PRICE, *(p for p, _, _ in NODE_PRICES)):
        for match in list(pattern.finditer(text)):
            for group, value in enumerate(match.groups(), start=1):
                if value is not None and _AMOUNT.fullmatch(value):
                    start, end = match.span(group)
                    text = text[:start] + " " * (end - start) + text[end:]
    text = _MONEY_KUAI.sub(lambda m: " " * len(m.group(0)), text)  # "预算1万块": yuan, no cards
    return without_purchase_price(text)  # "H100 25万一张": no count of one card


_AMOUNT = re.compile(r"[-−]?\d+(?:\.\d+)?")
#: 块 as yuan, not as a card's classifier: "N块钱" always, and "N块" after a budget or money
#: spent ("预算1万块", "花了5千块"): never a count of cards.
_MONEY_KUAI = re.compile(
    r"\d+(?:\.\d+)?\s*块钱|(?<=预算)\s*(?:大概|大约|约|有|只有|是|为|在)?\s*\d+(?:\.\d+)?\s*块|"
    r"(?:(?<=花)|(?<=花了)|(?<=经费))\s*(?:大概|大约|约)?\s*\d+(?:\.\d+)?\s*块"
)


def _node_layout(text: str) -> tuple[Count | None, Count | None, list[tuple[int, int]]]:
    """Nodes, GPUs per node, and the spans that stated them (not total GPU counts)."""
    nodes: Count | None = None
    per_node: Count | None = None
    spans: list[tuple[int, int]] = []
    for pattern in _PER_NODE_PATTERNS:
        match = re.search(pattern, text, re.ASCII)
        if match:
            nodes, per_node = _whole(match.group(1)), _whole(match.group(2))
            spans.append(match.span())
            break
    for pattern in _PER_NODE_ONLY:
        match = re.search(pattern, text, re.ASCII)
        if match and per_node is None:
            per_node = _whole(match.group(1))
            spans.append(match.span())
            # "two 8-GPU servers", "a single 8-GPU H100 server" (a single → 1): the count of nodes
            ahead = re.search(NUMBER + r"\s+$", text[: match.start()], re.ASCII)
            if ahead and nodes is None:
                nodes = _whole(ahead.group(1))
    site = _SITE_NODES.search(text)
    if nodes is None and site:
        nodes = _whole(site.group(1))
        spans.append(site.span())
    named = _NAMED_NODES.search(text)
    if nodes is None and named:
        nodes = _whole(named.group(1))
        spans.append(named.span())
    if nodes is None:
        # "4-node training", "across 4 PCIe machines", "on 3 separate boxes"
        match = re.search(NUMBER + r"\s*-?\s*" + _NODE_KIND + _NODE, text, re.ASCII)
        if match:
            nodes = _whole(match.group(1))
        elif _ONE_NODE.search(text) or (
            per_node is not None and _ONE_SERVER.search(text) and not _HOW_MANY.search(text)
        ):
            nodes = 1  # "单机", "an 8 GPU server with H100" (not "需要几台8卡服务器")
    dgx = _DGX.search(text)
    if dgx and per_node is None:
        # "one DGX H100", "4 HGX H100s": DGX/HGX systems hold 8 GPUs (NVIDIA DGX H100 guide);
        # "a DGX pod" or "DGX cluster" says nothing about how many systems
        per_node = DEFAULT_GPUS_PER_NODE
        if nodes is None and (dgx.group(1) or not dgx.group(2)):
            nodes = _whole(dgx.group(1) or "1")
        spans.append(dgx.span())
    return nodes, per_node, spans
