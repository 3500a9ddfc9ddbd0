"""Training questions whose wording the trainF probe found misread (tests/golden/answers_trainF).

- A number format asked about ("can the T4 do bf16?", "910B能用FP8训练吗") is no stated format:
  the answer says the card lacks it, and a job that works in the format the card runs is
  conditional (it works after that change); a format stated for the job ("pretrain … in
  bf16" on a V100) still needs another card, infeasible as asked.
- GPU-hours spent ("278.8万H800 GPU小时") are no GPU count.
- "largest dense model" asks for the largest model, as "largest model" does.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        # asked: QLoRA 13B on a 16 GB T4 fits in FP16 (NF4 ~0.52 B x 13.0e9 = 6.8 GB + adapters)
        (
            "QLoRA fine-tuning Llama-2-13B on 4 T4s - does it fit, and can the T4 do bf16?",
            "conditional",
        ),
        # asked: 5.46e22 FLOPs / (64 x 313e12 x 0.30) = 105 days in BF16, no deadline stated
        ("910B能用FP8训练吗？64张910B预训练Llama-3.1-8B，1万亿token要多久？", "conditional"),
        # stated: the same job in a format the card lacks needs another card
        ("Can 16 V100 32GB GPUs pretrain Llama-2-7B in bf16 on 100B tokens?", "infeasible"),
        ("用64张910B做FP8训练，预训练Llama-3.1-8B，1万亿token要多久？", "infeasible"),
    ],
)
def test_a_format_asked_about_is_no_stated_format(question: str, verdict: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == verdict
    assert "FP8" in outcome.lead or "BF16" in outcome.lead  # the lack is said either way


@pytest.mark.parametrize(
    "question",
    [
        "DeepSeek-V3论文说训练用了278.8万H800 GPU小时，按每GPU小时2美元算成本是多少？",
        "DeepSeek-V3 used 2.788M H800 GPU-hours; what does that cost at $2 per GPU-hour?",
    ],
)
def test_gpu_hours_are_no_gpu_count(question: str) -> None:
    assert parse(question).scenario.gpu_count != pytest.approx(2.788e6)


@pytest.mark.parametrize(
    "question",
    [
        "What's the largest dense model I can pretrain compute-optimally on 128 H100 in 30 days?",
        "What is the biggest decoder-only LLM 64 A100 can pretrain in 60 days?",
    ],
)
def test_an_adjective_before_model_still_asks_the_largest_model(question: str) -> None:
    assert parse(question).asks[:1] == ("max_model",)


@pytest.mark.parametrize(
    "question",
    [
        "DeepSeek-V3论文说训练用了278.8万H800 GPU小时，按每GPU小时2美元算成本是多少？",
        "DeepSeek-V3 used 2.788M H800 GPU-hours; what does that cost at $2 per GPU-hour?",
    ],
)
def test_stated_gpu_hours_decide_the_cost(question: str) -> None:
    # 2.788e6 GPU-hours (DeepSeek-V3 report, arXiv:2412.19437, Table 1) x $2 = $5.576M
    query = parse(question)
    assert (query.scenario.gpu_hours, query.scenario.price_per_gpu_hour) == (2.788e6, 2.0)
    assert query.scenario.budget is None  # the price per GPU-hour is no budget
    cost = next(c for c in calculate(query).checks if c.kind == "cost").figures
    assert cost["gpu_hours"] == pytest.approx(2.788e6, rel=0.01)
    assert cost["cost"] == pytest.approx(5.576e6, rel=0.01)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Training took 50,000 A100 GPU-hours for a 7B model on 200B tokens. What MFU is that?",
            "Those GPU-hours are an MFU of about",
        ),
        ("7B模型训练2000亿token用了5万A100卡时，MFU是多少？", "这些 GPU 小时相当于约"),
    ],
)
def test_the_mfu_of_stated_gpu_hours(question: str, said: str) -> None:
    # 6 x 7e9 x 2e11 = 8.4e21 (+ attention at 4k ~ 9.7e21) / (5e4 x 3600 x 312e12) = 15-17%
    outcome = calculate(parse(question))
    mfu = next(c for c in outcome.checks if c.kind == "compute").figures["mfu"]
    assert mfu == pytest.approx(0.16, abs=0.015)
    assert said in outcome.lead


@pytest.mark.parametrize(
    ("question", "link"),
    [
        ("两台8卡4090 万兆，预训练Qwen2.5-1.5B，300亿token要多久？", "10GbE TCP"),
        ("两台8卡4090万兆互联，LoRA微调Qwen2.5-7B，1亿token要多久", "10GbE TCP"),
        ("4090千兆网能训练Qwen2.5-1.5B吗", "1GbE TCP"),
    ],
)
def test_a_link_after_a_bare_geforce_number_keeps_the_card(question: str, link: str) -> None:
    # 万兆 / 千兆 name Ethernet speeds, not 万 / 千 as magnitudes of "4090"
    s = parse(question).scenario
    assert (s.gpu, s.inter_link) == ("RTX 4090 24GB", link)


@pytest.mark.parametrize(
    ("question", "misses", "fits"),
    [
        # full 16 x 14.77e9 = 236 GB, LoRA 2 x 14.77e9 = 29.5 GB (+ activations) > 21.6 usable;
        # QLoRA ~0.52 B/param on the linear layers fits
        (
            "Full fine-tune vs LoRA vs QLoRA for Qwen2.5-14B on a single RTX 4090: which fit?",
            ("does not fit", 2),
            ("it fits", 1),
        ),
        # full 16 x 72.7e9 / 8 = 145 GB per GPU > 72; LoRA 2 x 72.7e9 / 8 = 18 GB fits
        ("8张A100微调Qwen2.5-72B，全参还是LoRA？", ("放不下", 1), ("放得下", 1)),
    ],
)
def test_methods_set_against_each_other_are_each_answered(
    question: str, misses: tuple[str, int], fits: tuple[str, int]
) -> None:
    lead = calculate(parse(question)).lead
    assert (lead.count(misses[0]), lead.count(fits[0])) == (misses[1], fits[1]), lead


def test_one_method_named_gets_no_side_by_side() -> None:
    lead = calculate(parse("Can I LoRA fine-tune Qwen2.5-14B on one RTX 4090?")).lead
    assert "With full fine-tuning" not in lead


def test_gpu_hours_asked_with_a_price_ask_the_cost_too() -> None:
    query = parse(
        "How many GPU-hours for Llama-3.1-8B on 15T tokens on H100, what's that at $2/hr?"
    )
    assert query.asks[:1] == ("gpu_hours",)
    assert "cost" in query.asks
