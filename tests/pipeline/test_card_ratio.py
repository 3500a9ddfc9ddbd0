"""Two cards compared for a task with no model named: the answer says by how much, first.

"H800和A800训同一个模型，速度能差多少？" was answered with a checklist passage ("准确的 GPU
型号和形态…") although the catalog holds what decides it: training is compute bound (16-bit
dense peak x default MFU), one stream's decode bound by memory bandwidth.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "winner", "loser", "ratio"),
    [
        # 989.4 x 0.38 / (312 x 0.4) = 3.01
        ("H800和A800训同一个模型，速度能差多少？", "H800 SXM 80GB", "A800 SXM 80GB", "3.01"),
        # 313 x 0.3 / (148 x 0.38) = 1.67
        ("Is the H20 or the 910B faster for training?", "Ascend 910B 64GB", "H20 96GB", "1.67"),
        # decode: 2.039 / 0.864 TB/s = 2.36
        ("L20和A800做推理，哪个生成更快？", "A800 SXM 80GB", "L20 48GB", "2.36"),
        # a why-question of speed: 4.0 / 1.6 TB/s = 2.5
        ("为什么910B跑大模型推理比H20慢？", "H20 96GB", "Ascend 910B 64GB", "2.5"),
    ],
)
def test_the_faster_card_and_its_ratio_lead(
    question: str, winner: str, loser: str, ratio: str
) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"  # no job: no verdict
    said = outcome.focus
    assert -1 < said.find(winner) < said.find(loser)
    assert ratio in said


def test_one_card_or_no_task_gets_no_ratio() -> None:
    assert calculate(parse("H800是什么卡？")).focus == ""
    assert calculate(parse("H800和A800有什么区别？")).focus == ""  # no task to rate them on
