"""Errors become messages and exit codes at the edge of every command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli


@pytest.mark.parametrize(
    ("variable", "value", "args"),
    [
        ("GPU_ADVISOR_TOP_K", "0", ["ask", "吉林GPU服务器能训练千亿模型吗?"]),
        ("GPU_ADVISOR_ENCODER_THREADS", "abc", ["kb", "list"]),
        ("GPU_ADVISOR_LANGUAGE", "fr", ["ask", "What is ZeRO-3?"]),
    ],
)
def test_an_invalid_setting_is_a_usage_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, args: list[str]
) -> None:
    monkeypatch.setenv(variable, value)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert variable in result.output
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
