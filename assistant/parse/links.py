"""Links read from question text: the intra-node link (NVLink, PCIe) and the inter-node fabric
(InfiniBand, RoCE, Ethernet), and what a card's own NVLink or PCIe sibling is.

The readers return candidate spellings; the caller looks them up in the link catalog
(`link_alias_index()`), whose aliases decide which one exists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from assistant.parse.asks import FABRIC_QUESTION
from assistant.parse.numbers import NUMBER, to_float
from calculators.messages import Msg

__all__ = [
    "names_bare_nvlink",
    "nvlink_note",
    "nvlink_of",
    "pcie_variant",
    "read_links",
    "read_nics_per_node",
]


_NVLINK_GENERATION = re.compile(
    r"nvlink\s*(?:gen\s*)?([1-5])(?:\.0)?(?![\d.])|第([一二三四五])代\s*nvlink"
)
#: "RoCE v2 200G", "IB 400G": the fabric named before its speed.
_SPEED_AFTER = re.compile(
    r"(?:\bib\b|infiniband|roce|rdma|以太网|ethernet)(?:\s*v2)?\s*"
    + NUMBER
    + r"\s*(?:gbps|gbit|gb/s|gbe|gb|g)(?![a-z])",
    re.ASCII,
)
_NO_NVLINK = re.compile(
    r"(?:no|without|无|没有|不带|不支持|缺少)\s*nvlink|pcie[- ]?only|只有pcie|仅pcie", re.ASCII
)
#: "do I need NVLink", "is NVLink required", "需要NVLink吗": a question about NVLink, which
#: states no link the hardware has
_ASKS_FOR_NVLINK = re.compile(
    r"(?:need|require|necessary|essential|matter|important|worth)\w*\s+(?:an?\s+|the\s+)?nvlink"
    r"|nvlink\s+(?:is\s+)?(?:needed|required|necessary|essential|worth|matter|a must)"
    r"|(?:是否|要不要|需不需要|需要|必须)\s*(?:用|有|上)?\s*nvlink|nvlink\s*(?:有必要|必要|重要|吗)",
    re.ASCII,
)


def nvlink_note(plain: str, found: Mapping[str, object]) -> Msg | None:
    """For "do I need NVLink …" on a named card, the link the card is evaluated over, so the
    answer's Network line answers it (the question states no link). A card with no NVLink named
    "with NVLink" is noted where the link is resolved (`parse.scenario._family_nvlink`)."""
    gpu = found.get("gpu")
    if not gpu or "intra_link" in found or "nvlink" not in plain:
        return None
    from calculators.catalog.hardware import GPUS

    card = GPUS.get(str(gpu))
    if card is None:
        return None
    if _ASKS_FOR_NVLINK.search(plain):
        # a card with no NVLink at all (RTX 4090, L40S): the question's answer is that it has none
        key = "parse.nvlink_question" if nvlink_of(str(gpu)) else "parse.nvlink_question_none"
        return Msg(key, gpu=str(gpu), link=card.intra_link)
    return None


def read_links(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Candidate names for the intra-node link and the inter-node fabric, most specific first.

    The names are looked up in the link catalog by the caller; several spellings are offered
    because the catalog's aliases decide which one exists.
    """
    intra: list[str] = []
    if _NO_NVLINK.search(text):
        intra += ["pcie gen4", "pcie4", "pcie"]
    elif "nvlink" in text and not _ASKS_FOR_NVLINK.search(text):
        generation = _NVLINK_GENERATION.search(text)
        if generation is not None:
            number = generation.group(1) or str("一二三四五".index(generation.group(2)) + 1)
            intra += [f"nvlink {number}"]
        intra += ["nvlink"]
    elif re.search(r"\bpcie\b", text, re.ASCII):
        intra += ["pcie gen4", "pcie4", "pcie"]
    return tuple(intra), _inter_candidates(text)


#: "without RDMA", "or do I need InfiniBand?", "需要IB吗": a fabric asked about or ruled out,
#: which the set-up does not have ("100G Ethernet without RDMA" is plain TCP Ethernet)
_UNSTATED_FABRIC = re.compile(
    r"(?:\bno|without|w/o|non)[- ]?(?:rdma|roce|infiniband|ib\b)"
    # "25GbE instead of IB", "用25G而不是IB", "不用IB": the fabric replaced, not the one used
    r"|(?:instead of|rather than|in place of|replacing)\s+(?:the\s+)?(?:rdma|roce|infiniband|ib\b)"
    # "25GbE, not IB" (not "whether or not IB …", which asks about it)
    r"|(?<!or )\bnot\s+(?:over\s+|via\s+)?(?:rdma|roce|infiniband|ib\b)"
    r"|(?:而不是|代替|替代|换掉|不用)\s*(?:rdma|roce|infiniband|ib\b)"
    r"|(?:不带|没有|不用)\s*(?:rdma|roce|infiniband|ib\b)"
    # "IB换成25G", "replace IB with 25GbE", "swap the IB for 100G": the fabric being changed
    r"|(?:replace|swap)\s+(?:the\s+)?(?:rdma|roce|infiniband|ib\b)"
    r"|(?:把)?\s*(?:rdma|roce|infiniband|ib\b)\s*(?:换成|改成|改为|换为|替换为|替换成)|"
    + FABRIC_QUESTION.pattern,
    re.ASCII,
)
_GBIT = r"\s*(?:gbps|gbit|gb/s|gbe|gb|g)(?![a-z])"
_REPLACED = r"(?:the\s+)?(?:rdma|roce|infiniband|ib\b)"
#: A bare speed said to replace a fabric ("用25G而不是IB", "25G instead of IB", "不用IB，用25G",
#: "IB换成100G", "replace IB with 25GbE"): an Ethernet link of that speed, whatever follows.
_REPLACING_SPEED = (
    re.compile(
        NUMBER + _GBIT + r"\s*(?:的)?\s*(?:以太网|ethernet|网络|网卡)?\s*"
        r"(?:instead of|rather than|in place of|而不是|代替|替代|取代)\s*" + _REPLACED,
        re.ASCII,
    ),
    re.compile(
        r"(?:不用|换掉|without|not|instead of|rather than|replace|swap|把)?\s*" + _REPLACED + r"\s*"
        r"(?:,|，|;|；)?\s*(?:而是|改用|换成|改成|换为|改为|替换为|替换成|with|for|but|->|→)\s*"
        r"(?:用|走|use|a|an)?\s*" + NUMBER + _GBIT,
        re.ASCII,
    ),
    re.compile(
        r"(?:不用|without|no)\s*"
        + _REPLACED
        + r"\s*(?:,|，|;|；)\s*(?:用|走|改用|use|with)\s*"
        + NUMBER
        + _GBIT,
        re.ASCII,
    ),
)


def _inter_candidates(text: str) -> tuple[str, ...]:
    replacing = next((m for p in _REPLACING_SPEED if (m := p.search(text)) is not None), None)
    text = _UNSTATED_FABRIC.sub(" ", text)
    speed_match = re.search(
        NUMBER + r"\s*(?:gbps|gbit|gb/s|gbe|gb|g)\s*(?:的)?\s*"
        # "只有25G网", "25g的网": a bare 网 after a speed is the network too
        r"(ib|infiniband|以太网|ethernet|eth|gbe|roce|rdma|网卡|网口|光口|网络|网|nic)",
        text,
        re.ASCII,
    )
    if speed_match is None:  # "IB 200G", "RoCE 200G": the speed after the fabric
        speed_match = re.search(
            r"(?:\bib|infiniband|roce|rdma|以太网|ethernet|网卡|网口|光口|网络|机间|节点间)\s*(?:v2)?\s*"
            r"(?:网络)?\s*(?:是|为|用|走|:)?\s*"
            + NUMBER
            + r"\s*(?:gbps|gbit|gb/s|gbe|gb|g)(?![a-z])",
            text,
            re.ASCII,
        )
    if speed_match is None:
        speed_match = re.search(NUMBER + r"\s*gbe\b", text, re.ASCII) or _SPEED_AFTER.search(text)
    if speed_match is None:
        speed_match = replacing
    speed = int(to_float(speed_match.group(1))) if speed_match else None
    roce = "roce" in text or "rdma" in text
    if re.search(r"\bib\b|infiniband|\bndr\b|\bhdr\b|\bxdr\b|\bedr\b", text, re.ASCII):
        named = re.search(r"\b(hdr|ndr|xdr|edr)\b", text, re.ASCII)
        generation = (
            named.group(1)
            if named
            else {100: "edr", 200: "hdr", 400: "ndr", 800: "xdr"}.get(speed or 400, "ndr")
        )
        return (f"ib {generation}", f"infiniband {generation}", f"{speed or 400}g ib", "infiniband")
    if "万兆" in text:
        speed = 10
    elif "千兆" in text:
        speed = 1
    if speed is not None and (speed_match or "万兆" in text or "千兆" in text):
        if roce:
            return (f"roce {speed}g", f"{speed}g roce", f"{speed}gbe roce", f"{speed}gbe")
        return (f"{speed}gbe", f"{speed}g ethernet", f"ethernet {speed}g", f"{speed}g")
    if roce:
        return ("roce 100g", "100g roce", "roce")
    if re.search(r"以太网|ethernet|\btcp\b", text, re.ASCII):
        return ("25gbe", "25g ethernet", "ethernet")
    return ()


_NIC_COUNT = {"one": 1, "a": 1, "a single": 1, "single": 1, "two": 2, "four": 4, "eight": 8}
_NIC_COUNT.update({"一": 1, "单": 1, "两": 2, "二": 2, "四": 4, "八": 8})
_SPEED = r"(?:[\d.]+\s*(?:gbps|gbit|gb/s|gbe|gb|g)\s*)?"
_FABRIC = r"(?:(?:ib|infiniband|roce|rdma|ethernet|以太网|ndr|hdr|xdr|edr|v2)\s*)*"
#: "one 400G RoCE NIC per node", "2 x 200G ports per server", "每台一张200G IB网卡", "单口400G":
#: the ports a node has, when the question says; "per GPU" is the default and not read here
_NICS_PER_NODE = (
    re.compile(
        r"\b(one|a single|single|a|two|four|eight|[1-8])\s*(?:x\s*)?"
        + _SPEED
        + _FABRIC
        + r"(?:nics?|ports?|network cards?|adapters?|links?|hcas?)\s+"
        r"(?:(?:per|on each|for each|each)\s+(?:node|server|machine|host|box)"
        r"|each(?![ ]*(?:gpu|card)))",
        re.ASCII,
    ),
    re.compile(
        r"(?:每台|每个节点|每节点|每机|单机|单台)\s*(?:机器|服务器|节点)?\s*(?:只有|仅有|仅|各|配|有|用)?\s*"
        r"([一两二四八单1248])\s*(?:张|块|个|口)?\s*" + _SPEED + _FABRIC + r"(?:网卡|端口|nic)"
    ),
    re.compile(r"(?<![\d.])([一单1])\s*(?:张|块|个)?\s*" + _SPEED + _FABRIC + r"(?:网卡|nic\b)"),
)
#: "single-port 400G", "单口", "400 Gb/s per node": one port per node
_ONE_PER_NODE = re.compile(
    r"\bsingle[- ](?:port|nic)\b|单口|单端口|[\d.]+\s*(?:gbps|gbit|gb/s|gbe|g)\s*"
    + _FABRIC
    + r"per node"
)


def read_nics_per_node(text: str) -> int | None:
    """Inter-node NICs (ports) per node the question states, or None (cabled as the card's
    servers are: one per GPU on 8-GPU SXM/OAM nodes, `calculators.planner.fabrics`).

    Examples:
        >>> read_nics_per_node("4 nodes of 8x h100 with one 400g roce nic per node")
        1
        >>> read_nics_per_node("4台8卡a100，每台一张200g ib网卡")
        1
        >>> read_nics_per_node("单口400g roce")
        1
        >>> read_nics_per_node("8 nodes with a single 100g edr port each")
        1
        >>> read_nics_per_node("2 x 400g ports per server"), read_nics_per_node("8张h100 400g ib")
        (2, None)
    """
    for pattern in _NICS_PER_NODE:
        match = pattern.search(text)
        if match is not None:
            word = match.group(1)
            return _NIC_COUNT.get(word) or int(word)
    return 1 if _ONE_PER_NODE.search(text) else None


def pcie_variant(gpu: str) -> tuple[str, str | None]:
    """The PCIe card of the same chip and memory, and its PCIe link, for "PCIe-only" or "no
    NVLink" ("H100 SXM 80GB" → "H100 PCIe 80GB", "PCIe Gen5 x16"); a card with no PCIe sibling
    keeps its name and gets the PCIe generation it has."""
    from calculators.catalog.hardware import GPUS, link_alias_index

    card = GPUS.get(gpu)
    if card is None:
        return gpu, None
    if card.intra_link.lower().startswith("pcie"):
        return gpu, card.intra_link
    for other in GPUS.values():
        if (
            other.intra_link.lower().startswith("pcie")
            and other.architecture == card.architecture
            and other.memory_bytes == card.memory_bytes
            and other.name.split()[0] == card.name.split()[0]
        ):
            return other.name, other.intra_link
    link = f"PCIe Gen{card.pcie_gen} x16"
    return gpu, link_alias_index().get(link.lower().replace(" ", ""), None)


def names_bare_nvlink(text: str) -> bool:
    """True when the text says NVLink (or an NVLink bridge) without a generation or a speed;
    "do I need NVLink" asks about it and states no link (see `nvlink_note`)."""
    if "nvlink" not in text or _NVLINK_GENERATION.search(text) or _ASKS_FOR_NVLINK.search(text):
        return False
    return not re.search(r"nvlink\s*\d|(?:no|without|无|没有|不带|不支持|缺少)\s*nvlink", text)


def nvlink_of(gpu: str) -> str | None:
    """The NVLink a card has: its own (an SXM card's), or the one its NVLink bridge gives a PCIe
    card ("A100 PCIe 80GB" → "NVLink 3", "RTX 3090 24GB" → the GA102 bridge's 112.5 GB/s; the
    catalog's `bridge_for`); None for a card the catalog knows no NVLink for (an RTX 4090)."""
    from calculators.catalog.hardware import GPUS, LINKS, nvlink_bridge

    card = GPUS.get(gpu)
    if card is None:
        return None
    own = LINKS.get(card.intra_link)
    if own is not None and own.kind == "nvlink":
        return card.intra_link
    return nvlink_bridge(gpu)
