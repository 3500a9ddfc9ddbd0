"""`calc --json` gives each suggestion and remark in the output language and as a message
(key and parameters) from which the same words can be rendered again in either language."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from assistant.__main__ import cli
from assistant.i18n import catalog, text
from calculators.messages import Msg


def _message(data: dict[str, Any]) -> Msg:
    def param(value: Any) -> Any:
        if isinstance(value, dict):
            return _message(value)
        if isinstance(value, list):
            return tuple(param(v) for v in value)
        return value

    return Msg(data["key"], **{k: param(v) for k, v in data["params"].items()})


def _calc_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["calc", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_suggestions_and_remarks_are_messages_in_the_output_language() -> None:
    args = ("train", "--params", "100e9", "--gpu", "910B", "--gpus", "16", "--inter-link", "25GbE")
    zh, en = _calc_json(*args, "--lang", "zh"), _calc_json(*args)
    assert zh["suggestions"]
    assert zh["remarks"]
    for said_zh, said_en in zip(
        zh["suggestions"] + zh["remarks"], en["suggestions"] + en["remarks"]
    ):
        assert "description_en" not in said_zh
        assert "description_zh" not in said_zh
        message = _message(said_zh["message"])
        assert message.key in catalog()
        assert said_zh["message"] == said_en["message"]  # language-free
        shown_zh = said_zh.get("description", said_zh.get("text"))
        shown_en = said_en.get("description", said_en.get("text"))
        assert text(message, "zh") == shown_zh
        assert text(message, "en") == shown_en
        assert shown_zh != shown_en
