"""Hardware options compared in one question ("8×H20 vs 8×910B for 70B inference").

The masked text is cut at the words that separate options ("vs", "versus", "还是", "对比",
"or", "和", "与", a 比 between two cards); each piece that names hardware (a GPU mark or a
GPU count) is one option.
An option holds only its hardware slots: the job (model, task, precision, load) is the
question's, in `Query.scenario`, and an answer evaluates `replace(scenario, **option)`.

Examples:
    >>> hardware_options("8x ⟨gpu⟩ vs 8x ⟨gpu⟩ for 70b inference", ("H20 96GB", "Ascend 910B 64GB"))
    ({'gpu': 'H20 96GB', 'gpu_count': 8}, {'gpu': 'Ascend 910B 64GB', 'gpu_count': 8})
"""

from __future__ import annotations

import re

from assistant.parse import hardware as hw
from assistant.parse.prices import PRICE, read_price

__all__ = ["hardware_options"]

_SPLIT = re.compile(
    r"\bvs\.?(?![a-z])|\bversus\b|还是|对比|相比|比较|\bor\b|\band\b|和|与|跟|,|，|、|/|"
    # "H100比A100快多少": 比 between two cards (not in 比例, 对比 or 比较)
    r"(?<=⟨gpu⟩)\s*比(?=\s*(?:\d+\s*(?:张|块|x)?\s*)?⟨gpu⟩)"
)
_MAX_OPTIONS = 3
#: A count that is every option's ("A100、H100、910B 各8张", "8 cards each").
_EACH = re.compile(r"各|\beach\b|\bapiece\b")
#: A count said after the job, in the last option's piece ("… vs DGX B200 for pretraining a
#: 70B on 2T tokens on 64 GPUs"): the job's count, every option's.
_JOB_COUNT = re.compile(
    r"\b(?:for|to)\s+(?:pre-?train|train|fine-?tun|finetun|serv|run|infer|deploy)\w*\b.*?"
    r"\b(?:on|with|using|across)\s+(\d+)\s*(?:x\s*)?(?:gpus?|cards?|accelerators?)\b"
)
_AMOUNT = r"(?:[$¥￥]\s*)?\d+(?:\.\d+)?\s*(?:元|美元|dollars?|usd|rmb|cny)?"
_AMOUNTS = r"(" + _AMOUNT + r"(?:\s*(?:、|,|，|/|和|与|\band\b)\s*" + _AMOUNT + r")+)"
_PER_GPU_HOUR = r"(?:每(?:张)?卡(?:每)?(?:小)?时|卡时|每小时|(?:per\s+)?gpu[- ]?hours?|per\s+hour)"
_LIST_SEPARATOR = r"(?:、|,|，|和|与|\band\b|\bvs\.?|\bversus\b|\bor\b|对比)"
#: One option's price per hour with its sign and unit ("$1.00/hr", "¥12/卡时").
_HOURLY = r"[$¥￥]\s*\d+(?:\.\d+)?\s*/\s*(?:gpu[- ]?)?(?:hr|h|hour|卡时|小时)\b"
#: Prices listed in the options' order: "每卡时分别15元、30元、12元",
#: "$2, $4 and $1.5 per GPU-hour respectively".
_RESPECTIVE_PRICES = (
    re.compile(
        _PER_GPU_HOUR + r"\s*(?:的?(?:价格|费用|单价|租金)|prices?)?\s*(?:分别|respectively)"
        r"\s*(?:为|是|:|：)?\s*" + _AMOUNTS
    ),
    re.compile(
        r"(?:分别|respectively)\s*(?:为|是|:|：)?\s*"
        + _AMOUNTS
        + r"\s*(?:/|per|每)?\s*"
        + _PER_GPU_HOUR
    ),
    re.compile(_AMOUNTS + r"\s*(?:/|per|每)\s*" + _PER_GPU_HOUR + r",?\s*respectively"),
    re.compile(r"分别\s*(?:为|是)?\s*" + _PER_GPU_HOUR + r"\s*(?:为|是)?\s*" + _AMOUNTS),
    # with no "respectively", a list in the options' order: "at $2.5, $3.5 and $3 per GPU-hour"
    re.compile(r"(?=[$¥￥])" + _AMOUNTS + r"\s*(?:/|per|每)\s*" + _PER_GPU_HOUR),
    # each amount per hour: "at $1.00/hr vs $0.80/hr", "$2.5/hr, $3.5/hr and $3.0/hr per GPU"
    re.compile(r"(" + _HOURLY + r"(?:\s*" + _LIST_SEPARATOR + r"\s*" + _HOURLY + r")+)"),
    # the unit said once, after the last: "at $2.5 vs $1.3/hr", "$2 or $1.2 per gpu-hr"
    re.compile(
        r"(?=[$¥￥])(" + _AMOUNT + r"(?:\s*" + _LIST_SEPARATOR + r"\s*" + _AMOUNT + r")+)"
        r"\s*(?:/|per|an?)\s*(?:gpu[- ]?)?(?:hr|h|hour)s?\b"
    ),
)


def hardware_options(text: str, gpu_sequence: tuple[str, ...]) -> tuple[dict[str, object], ...]:
    """2–3 hardware options in `text` (masked, normalised), or () when fewer than two.

    `gpu_sequence` is the catalog name of every GPU mark in `text`, in order.
    """
    options: list[dict[str, object]] = []
    starts: list[int] = []  # where each option's piece starts in `text`
    # where each piece naming an option's GPU starts, with the option's index: a GPU named
    # again later ("…？H20每卡时8元，H100每卡时20元") owns the price stated after it
    anchors: list[tuple[int, int]] = []
    marks = 0
    each: object = None
    for start, piece in _pieces(text):
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
        elif counts.gpus_per_node is not None:  # "8 cards each": each option's count
            option["gpu_count"] = counts.gpus_per_node
        if counts.nodes is not None and counts.gpus_per_node is not None:
            option["nodes"], option["gpus_per_node"] = counts.nodes, counts.gpus_per_node
        if "gpu_count" in option and _EACH.search(piece):
            each = option["gpu_count"]
            if not count:
                continue  # "…, 8 cards each" is the options' count, not an option
        seen = [o.get("gpu") for o in options]
        if option and not ("gpu_count" not in option and option.get("gpu") in seen):
            options.append(option)  # a GPU named again with no count is not a new option
            starts.append(start)
            anchors.append((start, len(options) - 1))
        elif option.get("gpu") in seen:
            anchors.append((start, seen.index(option.get("gpu"))))
    if each is not None:
        options = [{**o, "gpu_count": o.get("gpu_count", each)} for o in options]
    options = _job_count(text, options)
    collapsed = _each(options)
    if _respective_prices(text, collapsed):
        options = collapsed
    else:  # each price to the GPU named before it, before "8 cards either way" is folded in
        if len(starts) == len(options):
            _prices(text, options, anchors)
        options = _each(options)
    if len(options) < 2:
        return ()
    return tuple(options[:_MAX_OPTIONS])


def _job_count(text: str, options: list[dict[str, object]]) -> list[dict[str, object]]:
    """Every option at the count said after the job in the last piece ("DGX H100 vs DGX B200
    for pretraining a 70B on 64 GPUs": 64 of each, 8 systems of 8), when it is the last
    option's and no other option states a count of its own (a DGX's 8 is its size)."""
    match = _JOB_COUNT.search(_pieces(text)[-1][1])
    if match is None or len(options) < 2:
        return options
    count = int(match.group(1))
    if options[-1].get("gpu_count") != count:
        return options
    if any("gpu_count" in o and "gpus_per_node" not in o for o in options[:-1]):
        return options  # "8 H100 vs B200 … on 64 GPUs": each its own count
    out = []
    for option in options:
        per_node = option.get("gpus_per_node")
        nodes = count // per_node if isinstance(per_node, int) and count % per_node == 0 else None
        out.append({**option, "gpu_count": count, **({"nodes": nodes} if nodes else {})})
    return out


def _pieces(text: str) -> list[tuple[int, str]]:
    """The text cut at the option separators, each piece with its start; a price's "/h"
    ("$1.5/h", "2元/卡时") is not a separator."""
    protected = [m.span() for m in PRICE.finditer(text)]
    cuts = [
        m.span() for m in _SPLIT.finditer(text) if not any(a <= m.start() < b for a, b in protected)
    ]
    pieces, at = [], 0
    for a, b in cuts:
        pieces.append((at, text[at:a]))
        at = b
    pieces.append((at, text[at:]))
    return pieces


def _prices(text: str, options: list[dict[str, object]], anchors: list[tuple[int, int]]) -> None:
    """Two or more prices per GPU-hour ("8 A100 at $1.5/h or 8 H100 at $2.5/h"): each is the
    option whose GPU is named last before it, also when named again after the list ("H100和
    H20…？H20每卡时8元，H100每卡时20元": 8 is the H20's). A single price stays the
    question's, for every option."""
    found = [(m.start(), read_price(m.group(0))) for m in PRICE.finditer(text)]
    if len(found) < 2:
        return
    for at, (price, currency) in found:
        owners = [i for start, i in anchors if start <= at]
        if owners and price is not None:
            options[owners[-1]]["price_per_gpu_hour"] = price
            options[owners[-1]]["currency"] = currency


def _respective_prices(text: str, options: list[dict[str, object]]) -> bool:
    """Prices per GPU-hour listed in the options' order, one per option; False when the text
    has no such list (or its length is not the number of options). An amount without a
    currency takes the one written in the list ("15、30、12元")."""
    for pattern in _RESPECTIVE_PRICES:
        match = pattern.search(text)
        if match is None:
            continue
        amounts = re.findall(r"([$¥￥])?\s*(\d+(?:\.\d+)?)\s*([a-z元美]*)", match.group(1))
        amounts = [(sign, value, unit) for sign, value, unit in amounts if value]
        if len(amounts) != len(options):
            return False
        written = [_MONEY.get(sign or unit.rstrip("s")) for sign, _, unit in amounts]
        fallback = next((c for c in reversed(written) if c), None)
        for option, (_, value, _), currency in zip(options, amounts, written, strict=True):
            option["price_per_gpu_hour"] = float(value)
            option["currency"] = currency or fallback
        return True
    return False


_MONEY = {"$": "USD", "usd": "USD", "dollar": "USD", "美元": "USD"} | dict.fromkeys(
    ("¥", "￥", "元", "rmb", "cny"), "CNY"
)


def _each(options: list[dict[str, object]]) -> list[dict[str, object]]:
    """A count with no GPU after GPUs with none ("H100 和 A100 …，各8张") is each one's count."""
    named = [o for o in options if "gpu" in o]
    counts = [o for o in options if "gpu" not in o and "gpu_count" in o]
    if named and counts and not any("gpu_count" in o for o in named):
        return [{**o, "gpu_count": counts[0]["gpu_count"]} for o in named]
    return options
