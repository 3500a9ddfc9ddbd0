"""Overlapping the gradient sync with the backward pass can only help: the efficiency said for
"no overlap" is never above the overlapped one (blindN-12 said 85% overlapped, 99% not)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse

QUESTIONS = (
    "4台8卡H800，节点间RoCE 100G，训练Llama-2-70B，通信会是瓶颈吗",
    "4台8卡H800，节点间100G RoCE，训练Llama-2-70B，网络对扩展效率影响多大",
    "Two nodes of 8x A100 over 25GbE training a 13B model: how badly does the network hurt "
    "scaling?",
)


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_overlap_is_never_more_efficient(question: str) -> None:
    lead = calculate(parse(question)).lead
    zh = re.search(r"重叠时(?:扩展效率)? (\d+)%.{0,8}?不重叠(?:时|也有) (\d+)%", lead)
    en = re.search(r"(\d+)% with the (?:gradient )?sync overlapped.{0,60}?(\d+)% if nothing", lead)
    pair = zh or en
    if pair is None:  # one figure: the two are the same to the percent
        assert re.search(r"\d+%", lead), lead
        return
    overlapped, plain = (int(g) for g in pair.groups())
    assert plain <= overlapped, lead
