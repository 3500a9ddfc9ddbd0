"""Questions written in traditional Chinese (繁体) read as the same question in simplified
(probeF): "兩台８卡Ｈ１００" was 8 cards on one node, "用8張A100訓練70B" inference on one card."""

from __future__ import annotations

import pytest

from assistant.hanzi import to_simplified
from assistant.parse import parse
from assistant.retrieval.tokenize import normalize


@pytest.mark.parametrize(
    ("traditional", "simplified"),
    [
        ("用8張A100訓練70B模型要多久", "用8张A100训练70B模型要多久"),
        ("兩臺8卡H800微調llama3-70b，顯存夠嗎", "两台8卡H800微调llama3-70b，显存够吗"),
        ("伺服器的記憶體與網路頻寬", "服务器的内存与网络带宽"),  # Taiwan words before characters
        ("昇腾910B推理", "昇腾910B推理"),  # already simplified: untouched
    ],
)
def test_to_simplified(traditional: str, simplified: str) -> None:
    assert to_simplified(traditional) == simplified


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "兩台８卡Ｈ１００能不能LoRA微調qwen2.5-72b？",
            {"gpu_count": 16, "nodes": 2, "method": "lora", "task": "finetune"},
        ),
        ("用8張A100訓練70B模型要多久", {"gpu_count": 8, "task": "pretrain"}),
        ("一張4090推理Qwen2.5-7B夠不夠", {"gpu_count": 1, "task": "inference"}),
        ("兩臺8卡H800全參微調llama3-70b，顯存夠嗎", {"gpu_count": 16, "method": "full"}),
    ],
)
def test_traditional_question_parses_as_simplified(question: str, expected: dict) -> None:
    scenario = parse(question).scenario
    assert {slot: getattr(scenario, slot) for slot in expected} == expected


def test_retrieval_folds_traditional_too() -> None:
    assert normalize("顯存與KV快取") == normalize("显存与KV快取")
