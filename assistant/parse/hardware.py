"""Hardware mentions: catalog names (GPUs, models, sites), GPU and node counts, links, memory.

Catalog names are matched against the alias indexes the calculators publish
(`gpu_alias_index()`, `model_alias_index()`, `link_alias_index()`) and against the site
profiles of the knowledge base. Matched names are replaced by a placeholder so the digits inside
them ("4090", "A100") are never read as counts or sizes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from assistant.parse.asks import FABRIC_QUESTION
from assistant.parse.numbers import NUMBER, to_float
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

__all__ = [
    "CatalogMatch",
    "Counts",
    "find_aliases",
    "mask",
    "nvlink_note",
    "read_counts",
    "read_links",
    "read_memory",
]

GPU_MARK = " ⟨gpu⟩ "
MODEL_MARK = " ⟨model⟩ "


@dataclass(frozen=True)
class CatalogMatch:
    """One catalog name found in the text."""

    name: str
    """The canonical catalog name (or site id)."""
    alias: str
    start: int
    end: int


# A colon before a digit separates too: Ollama tags spell a size that way ("deepseek-r1:32b" is
# the 32B distill, never the 671B "deepseek-r1" with a stray "32b").
_SEP = r"(?:[\s\-_./·()（）]|:(?=\d))*"


_SEP_CHARS = re.compile(_SEP)
_GB_AFTER_DIGIT = re.compile(r"(?<=[0-9])gb")


def _prefix(key: str) -> str:
    """The part of `key` every match contains verbatim once separators are removed.

    `_alias_regex` lets "gb" after a digit also read "g" or "gib", so the key is cut there.
    """
    cut = _GB_AFTER_DIGIT.search(key)
    return key[: cut.start()] if cut else key


@functools.lru_cache(maxsize=4096)
def _alias_regex(key: str) -> re.Pattern[str]:
    """A pattern for a normalised alias key that tolerates the separators people type."""
    parts: list[str] = []
    i = 0
    while i < len(key):
        if key.startswith("gb", i) and i and key[i - 1].isdigit():
            parts.append("g(?:ib|b)?")
            i += 2
            continue
        parts.append(re.escape(key[i]))
        i += 1
    seps = [_SEP] * (len(parts) - 1)
    if len(key) > 1 and key[0].isalpha() and key[1].isdigit():
        seps[0] = ""  # "a10", "h20", "t4": never across a space ("train a 10^30 …")
    body = parts[0] + "".join(sep + part for sep, part in zip(seps, parts[1:]))
    # Word edges only where the alias itself starts or ends with a Latin letter or digit:
    # "吉林" must match in "吉林gpu服务器", "a100" must not match inside "a1000".
    # "8xh100": a count glued to the name with "x" still leaves the name a name.
    head = r"(?:(?<![a-z0-9])|(?<=[0-9]x))" if key[0].isascii() and key[0].isalnum() else ""
    tail = r"(?:s|es)?(?![a-z0-9])" if key[-1].isascii() and key[-1].isalnum() else ""
    if key[-1].isdigit():
        tail += r"(?!\.\d)"  # "gpt3.5" is not GPT-3: a number does not end before ".5"
    return re.compile(head + body + tail)


def find_aliases(text: str, index: Mapping[str, str]) -> list[CatalogMatch]:
    """Non-overlapping alias matches in `text` (longest alias first), in text order.

    `index` maps normalised alias keys (`calculators.catalog.names.normalize_name`) to canonical
    names. Keys shorter than two characters, or purely numeric ones shorter than four digits,
    are ignored as too ambiguous.
    """
    found: list[CatalogMatch] = []
    used = [False] * len(text)
    squashed = _SEP_CHARS.sub("", text)
    for key in sorted(index, key=len, reverse=True):
        if len(key) < 2 or (key.isdigit() and len(key) < 4):
            continue
        if _prefix(key) not in squashed:
            continue  # cannot match: skips compiling ~200 patterns per process (0.8 s)
        for match in _alias_regex(key).finditer(text):
            if any(used[match.start() : match.end()]) or _swallows_number(text, match):
                continue
            if key.isdigit() and _NUMBER_AFTER.match(text, match.end()):
                continue  # "3080亿 token", "prompts of 4080 tokens": a number, not a card
            used[match.start() : match.end()] = [True] * (match.end() - match.start())
            found.append(CatalogMatch(index[key], key, match.start(), match.end()))
    return sorted(found, key=lambda m: m.start)


#: What makes a number after a name a quantity of its own: more of the number ("3.5"), a count
#: word ("4卡", "2张", "8 GPUs") or a magnitude ("3万亿", "7b").
_QUANTITY_AFTER = re.compile(
    r"\.?\d|\s*(?:张|块|片|颗|个|卡|台|万|亿|千|百|[x×*](?![a-z])|%|gpus?\b|cards?\b|"
    r"nodes?\b|servers?\b|[kmbt](?![a-z]))"
)


#: What makes a bare GeForce number ("3060", "3080", "4090") a quantity instead of a card: a
#: magnitude or a unit right after it.
_NUMBER_AFTER = re.compile(
    r"\s*(?:万|亿|千|百|个|条|步|次|字|秒|[kmbt](?![a-z])|tokens?\b|steps?\b|samples?\b|"
    r"words?\b|seconds?\b)"
)


def _swallows_number(text: str, match: re.Match[str]) -> bool:
    """True when an alias ends in a digit group typed after a space that is really a number of
    its own: "910B 3.5万亿token" is the 910B and 3.5 trillion tokens, not the 910B3; "A100 SXM
    4卡" is four A100 SXM cards, not one A100 SXM4."""
    if not re.search(r"[a-z0-9]\s+\d+$", match.group(0)):
        return False
    return bool(_QUANTITY_AFTER.match(text, match.end()))


def mask(text: str, matches: Iterable[CatalogMatch], mark: str) -> str:
    """Replace each match with `mark` (right to left, so offsets stay valid)."""
    for match in sorted(matches, key=lambda m: m.start, reverse=True):
        text = text[: match.start] + mark + text[match.end :]
    return text


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
_NODE = r"(?:台|个节点|节点|个服务器|nodes?\b|machines?\b|servers?\b|boxes\b|hosts?\b)"
_TOTAL_PATTERNS = (
    # "8张H100", "8块二手4090" (二手 is normalised to "2手"), "4 used 3090s"
    NUMBER
    + r"\s*(?:[x×*]|张|块|片|颗|个)?\s*(?:2手|魔改|改装|全新|used\s+|refurbished\s+|modded\s+)?"
    + r"\s*(?:的)?\s*(?:nvidia\s*|英伟达\s*)?"
    + _G,
    # "4张魔改48G的4090", "8张24G的卡", "4 modded 48GB 4090s": the memory between count and card
    NUMBER
    + r"(?![\d.])\s*(?:[x×*]|张|块)?\s*(?:魔改|改装|国产|二手|modded|used)?\s*(?:版)?\s*"
    + r"\d+(?:\.\d+)?\s*(?:gib|gb|g)\s*(?:的|版|显存的)?\s*"
    + r"(?:"
    + _G
    + r"|显卡|卡|gpus?\b|cards?\b)",
    _G + r"\s*(?:gpus?|cards?|显卡|卡)?\s*(?:[x×*]|\bx)\s*(\d+)(?![\d.])",
    # "A100 8张"; not "A100一个月内" (个 of a time span, a node or a user is no card count)
    _G + r"\s*(?:gpus?|cards?|显卡|卡)?\s*" + NUMBER + r"\s*(?:张|块|片|卡|个" + _NOT_CARD + r")",
    NUMBER + r"\s*" + _CARD,
    # "如果有16张呢", "用32块的话": the card is understood
    NUMBER + r"\s*(?:张|块)(?=\s*(?:呢|吧|吗|的话|卡呢|\?|？|,|，|。|$))",
    # "Gaudi 3 with 128GB: can 8 of them serve …": the card named before
    r"⟨gpu⟩[^?？!！]{0,60}?(?<![\d.])" + NUMBER + r"\s*of\s+(?:them|those|these)\b",
)
_PER_NODE_PATTERNS = (
    NUMBER
    + r"\s*台\s*(?:服务器|机器|主机)?\s*(?:,|，)?\s*(?:每台)?\s*(?:有|配|装)?\s*"
    + NUMBER
    + r"\s*(?:张\s*卡?|块\s*卡?|卡|"
    + _G
    + ")",
    # "4x8 h100", "2×8卡", "2x 8xA100": nodes × GPUs per node (the second number follows an "x")
    NUMBER + r"\s*[x×*]\s*(\d+)(?![\d.])\s*[x×*]?\s*(?:张)?\s*(?:" + _G + r"|gpus?\b|卡)",
    # "two 8-GPU H100 nodes", "2 台 8 卡服务器": the node count, then the per-node size
    NUMBER
    + r"\s+(\d+)[- ]?(?:gpu|卡|card|way)s?\s*(?:"
    + _G
    + r"\s*)?(?:nodes?|servers?|machines?|boxes|服务器|机器|节点)",
    NUMBER
    + r"\s*"
    + _NODE
    + r"\s*(?:of|with|each with|,|，|each has|每台|x|×|\*)?\s*"
    + NUMBER
    + r"\s*[x×*]?\s*(?:"
    + _G
    + r"|gpus?\b|cards?\b|张|卡)\s*(?:gpus?|cards?|卡)?\s*(?:each|apiece|per node|每台|每个)?",
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
    NUMBER
    + r"[- ]?(?:gpu|卡|card|way)\s*(?:"
    + _G
    + r"\s*)?(?:nodes?|servers?|machines?|boxes|服务器|机器|节点)",
    r"(?:每台(?:机器|服务器)?|每个节点|每节点|单机|per node)\s*(?:只有|只|有|配了?|装了?)?\s*"
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
_HOW_MANY = re.compile(r"几|多少|how many|\bseveral\b|\bmultiple\b|\bsome\b", re.ASCII)


def _whole(raw: str) -> Count:
    """A count as typed: an int when whole, else the float ("2.5 H100", "1.5 nodes"), kept for
    validation to refuse (never truncated to a count the user did not give)."""
    value = to_float(raw)
    return int(value) if value.is_integer() else value


def read_counts(text: str) -> Counts:
    """GPU counts, node counts and GPUs per node from masked, normalised text."""
    # "1k H100", "2k GPUs": thousands of cards ("4k context" has no card after it)
    text = re.sub(
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*k\s+(?=" + _G + r"|gpus?\b|cards?\b)",
        lambda m: f"{float(m.group(1)) * 1000:g} ",
        text,
    )
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
    ):
        totals.append((0, 1))
    counts = tuple(dict.fromkeys(v for _, v in sorted(totals)))
    if nodes == 1 and per_node is None and len(counts) == 1:
        per_node = counts[0]
    return Counts(counts, nodes, per_node)


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
    if nodes is None:
        match = re.search(NUMBER + r"\s*" + _NODE, text, re.ASCII)
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


# Host RAM ("512GB 内存", "host memory") is read elsewhere (parsing.load), never as GPU memory.
_MEMORY = re.compile(
    NUMBER + r"\s*(gib|gb|g)\s*(?:的)?\s*(?:显存|(?<!host )memory|vram|hbm|"
    r"(?:graphics )?cards?\b|gpus?\b|显卡|卡)"
    r"|(?:显存|vram|gpu memory)\s*(?:为|是|有|of|:)?\s*" + NUMBER + r"\s*(gib|gb|g)"
    # "32GB的MI50", "魔改48G的4090": the size typed before a card's mark
    r"|" + NUMBER + r"\s*(gib|gb|g)\s*(?:的|版)?\s*(?=" + GPU_MARK.strip() + ")"
    # "A800 40G" (no such catalog entry: the mark is the A800, the size is the user's), never a
    # link speed ("H100 100G RoCE", "25G以太网")
    r"|" + GPU_MARK.strip() + r"\s*(?:\(|（)?" + NUMBER + r"\s*(gib|gb|g)(?![a-z])"
    r"(?!\s*(?:roce|ib\b|infiniband|ethernet|以太网|网|nic))"
    # "4 MI325X with 256GB each", "MI325X, 256 GB apiece", "每张256G", "单卡 48GB": the size of
    # each card, never the host's ("with 512 GB of RAM")
    r"|"
    + GPU_MARK.strip()
    + r"\s*(?:,|，)?\s*(?:each\s+)?(?:with|having|of)\s+"
    + NUMBER
    + r"\s*(gib|gb|g)(?![a-z/])"
    r"(?!\s*(?:of\s+)?(?:host|system|cpu|ram|dram|内存|roce|ib\b|infiniband|ethernet|nic))"
    r"|" + NUMBER + r"\s*(gib|gb|g)\s*(?:each|apiece|per (?:card|gpu|device))\b"
    r"|(?:每张|每卡|单卡)\s*(?:显存)?\s*" + NUMBER + r"\s*(gib|gb|g)(?![a-z])"
    r"(?!\s*(?:内存|roce|ib\b|以太网|网))",
    re.ASCII,
)


def read_memory(text: str) -> float | None:
    """Per-GPU memory in bytes when stated ("24GB显存", "显存80G"); GB = 1e9, GiB = 2^30."""
    match = _MEMORY.search(text)
    if match is None:
        return None
    number = next(g for g in match.groups()[0::2] if g is not None)
    unit = next(g for g in match.groups()[1::2] if g is not None)
    return to_float(number) * (2**30 if unit == "gib" else 1e9)


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
    "with NVLink" is noted where the link is resolved (`parse.question._family_nvlink`)."""
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
    r"|(?:不带|没有|不用)\s*(?:rdma|roce|infiniband|ib\b)|" + FABRIC_QUESTION.pattern,
    re.ASCII,
)


def _inter_candidates(text: str) -> tuple[str, ...]:
    text = _UNSTATED_FABRIC.sub(" ", text)
    speed_match = re.search(
        NUMBER + r"\s*(?:gbps|gbit|gb/s|gbe|gb|g)\s*(?:的)?\s*"
        r"(ib|infiniband|以太网|ethernet|eth|gbe|roce|rdma|网卡|网络|nic)",
        text,
        re.ASCII,
    )
    if speed_match is None:  # "IB 200G", "RoCE 200G": the speed after the fabric
        speed_match = re.search(
            r"(?:\bib|infiniband|roce|rdma|以太网|ethernet|网卡|网络|机间|节点间)\s*(?:v2)?\s*"
            r"(?:网络)?\s*(?:是|为|用|走|:)?\s*"
            + NUMBER
            + r"\s*(?:gbps|gbit|gb/s|gbe|gb|g)(?![a-z])",
            text,
            re.ASCII,
        )
    if speed_match is None:
        speed_match = re.search(NUMBER + r"\s*gbe\b", text, re.ASCII) or _SPEED_AFTER.search(text)
    speed = int(to_float(speed_match.group(1))) if speed_match else None
    roce = "roce" in text or "rdma" in text
    if re.search(r"\bib\b|infiniband|\bndr\b|\bhdr\b|\bxdr\b", text, re.ASCII):
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
