"""`ask` refuses an MFU above 100% or at most 0% as bad input: exit 2, the message in the
question's language naming the MFU as stated, nothing on stdout (no answer at the default)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("question", "told"),
    [
        (
            "How long to pretrain a 7B model on 1T tokens with 8x H800 at 150% MFU?",
            "Error: MFU 150%: must be more than 0% and at most 100%",
        ),
        (
            "8张H800训练7B模型，1T token，算力利用率150%，要多久",
            "错误：MFU 150%：必须大于 0% 且不超过 100%",
        ),
    ],
)
def test_an_impossible_mfu_exits_2(kb_home: Path, question: str, told: str) -> None:
    result = CliRunner().invoke(cli, ["ask", "--independent", question])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(told), result.stderr
    assert result.stdout == ""
    assert "38%" not in result.output


def test_mfu_as_a_fraction_is_answered(kb_home: Path) -> None:
    question = "How long to train a 7B model on 1T tokens with 8x H100 at MFU 0.45?"
    result = CliRunner().invoke(cli, ["ask", "--independent", question])
    assert result.exit_code == 0, result.output
    assert "45%" in result.stdout
