"""A rental period stated beside a job ("rent a DGX H100 for ~2 weeks … to fine-tune …: the
bill?") is billed whole: GPUs x period x price, the job's own share said after it; a time to
finish in ("within 30 days") is no rental period, so the bill is the job's own."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.spending import rents_for_period
from tests.pipeline.checks import lead_and_figures

_DAY = 86_400


@pytest.mark.parametrize(
    ("question", "gpus", "seconds", "price", "share"),
    [
        (
            "We'll rent a DGX H100 for ~2 weeks at $3/GPU-hr to fine-tune Llama-3.1-8B. "
            "What's the rental bill?",
            8,
            14 * _DAY,
            3.0,
            "The job itself uses about",
        ),
        (
            "Renting 16x A100 80G for 3 months at $1.8/GPU-hr to pretrain a 3B on 300B tokens, "
            "what will the rent cost?",
            16,
            90 * _DAY,
            1.8,
            "The job itself uses about",
        ),
        (
            "租一台8卡H100服务器一个月，每卡每小时15元，用来微调Qwen2.5-7B，租金多少？",
            8,
            30 * _DAY,
            15.0,
            "其中任务本身约用",
        ),
    ],
)
def test_a_rental_period_is_billed_whole(
    question: str, gpus: int, seconds: float, price: float, share: str
) -> None:
    lead, figures = lead_and_figures(question)
    assert figures["cost"] == pytest.approx(gpus * seconds / 3600 * price)
    assert share in lead
    assert lead.index(share) > 0  # the bill first, then the job's share of it


def test_a_time_to_finish_in_is_no_rental_period() -> None:
    question = "Rent 64 H100 at $2/hr to pretrain a 7B on 1T tokens within 30 days: cost?"
    assert not rents_for_period(question)
    lead, figures = lead_and_figures(question)
    assert figures["cost"] < 64 * 30 * 24 * 2.0  # the run's own hours, under 30 days
    assert "The job itself" not in lead


@pytest.mark.parametrize(
    ("question", "is_cost"),
    [
        (
            "We booked 32 H200 for 6 weeks at $3.5/GPU-hr to fine-tune Llama-3.1-70B; "
            "what do we pay?",
            True,
        ),
        ("How much would I pay to fine-tune Llama-3.1-8B on 8 H100 at $2/hr?", True),
        ("Is pay-as-you-go on 8 H100 fine for fine-tuning Llama-3.1-8B?", False),
    ],
)
def test_what_we_pay_asks_thelead_and_figures(question: str, is_cost: bool) -> None:
    assert (parse(question).asks[:1] == ("cost",)) is is_cost
