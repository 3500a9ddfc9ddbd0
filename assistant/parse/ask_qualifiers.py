"""Side questions a sentence can ask beside its main one: whether a fabric between the nodes
is needed ("需要IB吗"), whether a money figure is the total ("总共要花多少钱"), and whether a
network question also asks if the job works ("能一起训练70B吗，会不会卡在通信上").
`asks.read_asks` reads the main ask; these only qualify it.
"""

from __future__ import annotations

import re

__all__ = [
    "FABRIC_QUESTION",
    "asks_about_fabric",
    "asks_rent_and_power",
    "asks_total",
    "yes_no_beside_network",
]

#: "do I need InfiniBand", "is RDMA required", "需要IB吗": a question about the fabric between
#: nodes, which states none (the set-up is evaluated on its stated or usual fabric)
FABRIC_QUESTION = re.compile(
    r"(?:need|require|necessary|worth|switch\s+to|upgrade\s+to)\w*\s+(?:an?\s+|the\s+)?"
    r"(?:rdma|roce|infiniband|ib\b)"
    r"|(?:rdma|roce|infiniband|\bib)\s+(?:is\s+)?(?:needed|required|necessary|worth)"
    r"|(?:需要|要不要|需不需要|必须)\s*(?:用|上)?\s*(?:rdma|roce|infiniband|ib\b)",
    re.ASCII | re.IGNORECASE,
)


def asks_about_fabric(text: str) -> bool:
    """True when the question asks whether InfiniBand / RDMA is needed between the nodes.

    Examples:
        >>> asks_about_fabric("Do I need InfiniBand to fine-tune 70B on 2 nodes?")
        True
        >>> asks_about_fabric("2 nodes over 200G IB: fine-tune 70B")
        False
    """
    return bool(FABRIC_QUESTION.search(text))


#: A total of money asked ("总共要花多少钱", "一共多少钱", "总费用", "what's the total cost",
#: "all-in cost", "how much altogether"): the sum of every part of the cost, not one of them.
_TOTAL_COST = re.compile(
    r"(?:总共|一共|总计|合计|加起来|全部|总体)\s*(?:要|得|需要|大概|大约|约)?\s*(?:花|要花|需要花)?\s*"
    r"(?:多少|几)\s*(?:钱|元|块|万|美元|费用)|"
    r"总(?:费用|成本|花费|开销|支出|价钱|价)|(?:费用|成本|花费)(?:总共|一共|合计|总计)|"
    r"\btotal (?:cost|bill|spend|price|expense)s?\b|\ball[- ]in\b|"
    r"\b(?:cost|spend|pay)\b[^.?!]{0,30}\b(?:in total|altogether|all told|overall)\b|"
    r"\boverall cost\b|\bgrand total\b|\bhow much (?:in total|altogether)\b|\btotal\s*[?？]"
)


def asks_total(text: str) -> bool:
    """True when the question asks for the total cost, all its parts summed.

    Examples:
        >>> asks_total("电价0.8元/度，总共要花多少钱？"), asks_total("what's the total cost?")
        (True, True)
        >>> asks_total("What's the all-in cost?"), asks_total("电费多少"), asks_total("要花多少钱")
        (True, False, False)
    """
    return bool(_TOTAL_COST.search(text.lower()))


#: The rent and the electricity asked side by side ("租金和电费分别是多少", "rent and power bill").
_RENT_AND_POWER = re.compile(
    r"租金?.{0,6}(?:和|与|跟|、|及|以及|还有).{0,4}电费|电费.{0,6}(?:和|与|跟|、|及|以及|还有).{0,4}租金?|"
    r"\brent(?:al)?\b.{0,25}\b(?:and|&|plus)\b.{0,15}\b(?:electricity|power|energy)\b|"
    r"\b(?:electricity|power|energy)\b.{0,25}\b(?:and|&|plus)\b.{0,15}\brent(?:al)?\b"
)


def asks_rent_and_power(text: str) -> bool:
    """True when the question asks for the rent and the electricity both (each, not a sum).

    Examples:
        >>> asks_rent_and_power("租金和电费分别是多少"), asks_rent_and_power("电费多少")
        (True, False)
        >>> asks_rent_and_power("what are the rent and the electricity bill?")
        True
    """
    return bool(_RENT_AND_POWER.search(text.lower()))


#: A yes/no about the job itself ("能一起训练70B吗", "can we train …"), not the network's.
_JOB_YES_NO = re.compile(
    r"能(?:否|不能)?[^，,。？?；;]{0,40}[吗么嘛]|可以[^，,。？?；;]{0,40}[吗么嘛]|可否|行不行|"
    r"\b(?:can|could)\s+(?:we|i|it|they|you|this|that|one|[0-9])\b",
    re.IGNORECASE,
)


def yes_no_beside_network(text: str) -> bool:
    """True when a network question also asks whether the job works ("能一起训练70B吗，会不会
    卡在通信上"); "will IB 200G be the bottleneck" asks only of the network.

    >>> yes_no_beside_network("能一起训练70b吗，会不会卡在通信上")
    True
    >>> yes_no_beside_network("will ib 200g be the bottleneck for training 70b?")
    False
    """
    from assistant.parse.asks import network_words  # it imports this module

    rest = network_words().sub(" ", text.lower())
    return bool(_JOB_YES_NO.search(rest))
