"""Whether a question asks the advisor to pick the model or the hardware for a service.

"推荐用什么模型和几张卡", "what GPUs do I need for a chatbot", "想做个本地知识库，用什么卡" name
no model: they ask what to run and on how much, for a service (an assistant, a chatbot, a
knowledge base) or a head-count. Two cues must both be there: a choice asked (which model,
which card, how many GPUs) and a service or a load (a use word, or a count of users already
parsed). A question with a model named never reaches this reader (`calculate.recommend`).

Readers take the lower-cased question.

Examples:
    >>> asks_for_pick("我想在公司内网部署一个问答助手，推荐用什么模型和几张卡？", users=None)
    True
    >>> asks_for_pick("what gpus do i need for a chatbot", users=None)
    True
    >>> asks_for_pick("需要几张卡", users=20), asks_for_pick("需要几张卡", users=None)
    (True, False)
    >>> asks_for_pick("what is the difference between h100 and a100", users=None)
    False
"""

from __future__ import annotations

import re

__all__ = ["asks_for_pick"]

#: A choice asked: which model, which card, how many GPUs.
_CHOICE = re.compile(
    r"(?:什么|哪个|哪种|哪款|啥|哪些)(?:样的)?(?:大)?模型|选(?:个|一个|哪个)?模型|"
    r"推荐[^，,。？?]{0,8}(?:模型|卡|gpu|显卡|配置|服务器)|"
    # "需要什么GPU" asks for the hardware as "用什么卡" does
    r"(?:用|买|选|配|上|要)(?:什么|啥|哪种|哪款|哪个|哪些)(?:样的)?(?:卡|显卡|gpu|服务器|配置|硬件)|"
    r"(?:几|多少)(?:张|块|台)?(?:卡|显卡|gpu)|"
    r"\b(?:what|which)\s+(?:(?:size|kind|type)\s+of\s+)?(?:models?|llms?|gpus?|cards?|hardware)\b|"
    r"\bhow many\s+(?:\w+\s+)?(?:gpus?|cards?)\b|\brecommend\b|"
    r"\bwhat (?:do|should|would) (?:i|we) (?:need|use|buy|run)\b"
)

#: A service the choice is for (a serving job with people behind it).
_SERVICE = re.compile(
    r"问答|助手|知识库|客服|聊天|对话|部署|内网|上线|机器人|智能体|\brag\b|"
    r"chat ?bot|\bassistant\b|knowledge base|\bdeploy|\bserv(?:e|ing)\b|\binternal\b|"
    r"\busers?\b|\bpeople\b|\bcustomers?\b|\bemployees?\b|\bteam\b"
)


def asks_for_pick(question: str, *, users: int | None) -> bool:
    """Whether `question` (lower-cased) asks which model or how much hardware for a service;
    `users` is the load already parsed (a stated load is a service by itself)."""
    if not _CHOICE.search(question):
        return False
    return users is not None or bool(_SERVICE.search(question))
