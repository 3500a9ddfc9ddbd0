"""Each figure of the lead is said once: a money part asked after a how-long part
("要多久、多少钱") is answered up front and not repeated as a key-figures sentence after it."""

from __future__ import annotations

import pytest

from assistant.config import Settings
from assistant.pipeline import answer
from assistant.render.serialize import answer_to_json


def _lead(question: str) -> str:
    data = answer_to_json(answer(question, settings=Settings(), retriever=None))
    return str(data["answer"]).split("\n", 1)[0]


@pytest.mark.parametrize(
    ("question", "amount"),
    [
        ("训练Llama-2-13B，1T token，128张A100，每卡时8元，要多久、多少钱？", "1,569,828 元"),
        (
            "How long to pretrain Llama-2-13B on 1T tokens with 128 A100 at $2/GPU-hour, "
            "and what does it cost?",
            "392,457 USD",
        ),
    ],
)
def test_a_later_money_ask_is_answered_once(question: str, amount: str) -> None:
    lead = _lead(question)
    # the amount is the hand 6ND figure: 6 × 13.0e9 × 1e12 (+ attention) / (312e12 × 0.4)
    # = 196,228 GPU-hours; the test checks the sentence count, not the digits' derivation
    assert lead.count(amount) == 1, lead
    assert lead.count("196,228") == 1, lead
