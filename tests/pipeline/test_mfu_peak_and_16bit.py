"""A stated MFU is measured against the peak of the precision stated, else the dense BF16
peak (also for a model whose published run trained in FP8), and a 16-bit format the card
has no tensor mode for is a verdict with its reason, not a refusal."""

from __future__ import annotations

import pytest

from assistant.config import Settings
from assistant.pipeline import answer
from assistant.render.serialize import answer_to_json
from calculators.catalog.hardware import lookup_gpu


def _json(question: str) -> dict[str, object]:
    return answer_to_json(answer(question, settings=Settings(), retriever=None))


def _compute(data: dict[str, object], key: str) -> float:
    checks = data["checks"]
    assert isinstance(checks, list)
    found = next(c for c in checks if c["kind"] == "compute")
    return float(found["figures"][key])


def test_stated_mfu_without_precision_is_against_the_bf16_peak() -> None:
    data = _json(
        "DeepSeek-V3 pretraining on 14.8T tokens on 2048 H800 at 35% MFU: how many GPU-hours?"
    )
    h800 = lookup_gpu("H800")
    flops = _compute(data, "total_flops")
    hours = flops / (h800.dense_flops_per_s("bf16") * 0.35) / 3600
    assert _compute(data, "gpu_hours") == pytest.approx(hours, rel=0.02)
    assert "BF16 peak" in str(data["answer"]).split("\n", 1)[0]


def test_stated_fp8_puts_the_mfu_against_the_fp8_peak() -> None:
    data = _json(
        "DeepSeek-V3 pretraining in fp8 on 14.8T tokens on 2048 H800 at 35% MFU: "
        "how many GPU-hours?"
    )
    h800 = lookup_gpu("H800")
    hours = _compute(data, "total_flops") / (h800.dense_flops_per_s("fp8") * 0.35) / 3600
    assert _compute(data, "gpu_hours") == pytest.approx(hours, rel=0.02)


@pytest.mark.parametrize(
    ("question", "card"),
    [
        ("Can 4x V100 32GB serve Llama-2-13B in bf16?", "Volta"),
        ("8张T4用bf16做LoRA微调Llama-2-7B可以吗", "Turing"),
    ],
)
def test_a_16bit_format_the_card_lacks_is_infeasible_with_fp16_instead(
    question: str, card: str
) -> None:
    data = _json(question)
    assert data["verdict"] == "infeasible"
    lead = str(data["answer"]).split("\n", 1)[0]
    assert card in lead, lead
    assert "BF16" in lead, lead
    assert "FP16" in lead, lead
    assert data["checks"], "the FP16 evaluation's figures are given"
