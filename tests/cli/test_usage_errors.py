"""click's own usage errors through the real CLI, in the user's language with exit status 2.

The user's language is read from `--lang`, then `GPU_ADVISOR_LANGUAGE`, then Chinese text among
the arguments, then the system locale; `--help` stays English (documented in the README).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

CJK = re.compile(r"[\u4e00-\u9fff]")
#: click's English words: none may reach a Chinese user.
CLICK_ENGLISH = re.compile(r"Error|Usage|No such|Missing|Invalid|Try '|argument|option", re.I)


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE", "GPU_ADVISOR_LANGUAGE"):
        monkeypatch.delenv(name, raising=False)


def invoke(args: list[str], **env: str) -> Result:
    return CliRunner().invoke(cli, args, env=env, prog_name="gpu-advisor")


def chinese_error(result: Result) -> str:
    """The error line of a Chinese usage error, after checking the whole output is Chinese."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith("错误："), result.stderr
    said = result.stderr.replace("gpu-advisor", "")
    for name in re.findall(r"'[^']*'|\[OPTIONS\]|\[ARGS\]\.\.\.|\[QUESTION\]|COMMAND|QUERY", said):
        said = said.replace(name, "")  # option and command names are shown as typed
    assert not CLICK_ENGLISH.search(said), result.stderr
    return lines[-1]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["ask", "--lang", "zh", "--bogus", "hi"], {}),
        (["ask", "--bogus", "hi"], {"LANG": "zh_CN.UTF-8"}),
        (["ask", "--bogus", "hi"], {"GPU_ADVISOR_LANGUAGE": "zh"}),
        (["ask", "--bogus", "用8张H100训练7B模型需要多久"], {"LANG": "en_US.UTF-8"}),
        (["kb", "--lang", "zh", "list", "--bogus"], {}),
        (["--bogus"], {"LC_ALL": "zh_CN.UTF-8"}),
    ],
)
def test_a_chinese_user_with_an_unknown_option_is_told_in_chinese(
    args: list[str], env: dict[str, str]
) -> None:
    result = invoke(args, **env)
    assert chinese_error(result) == "错误：没有这个选项：'--bogus'。"
    assert result.stderr.startswith("用法：gpu-advisor"), result.stderr


def test_an_english_user_with_an_unknown_option_is_told_in_english() -> None:
    result = invoke(["ask", "--bogus", "hi"], LANG="en_US.UTF-8")
    assert result.exit_code == 2
    assert result.stderr.startswith("Usage: gpu-advisor ask"), result.stderr
    assert "Error: No such option: '--bogus'." in result.stderr
    assert not CJK.search(result.stderr), result.stderr


def test_lang_on_the_command_line_wins_over_the_setting_and_the_locale() -> None:
    result = invoke(["kb", "--lang", "en", "list", "--bogus"], LANG="zh_CN.UTF-8")
    assert result.exit_code == 2
    assert not CJK.search(result.stderr), result.stderr
    zh = invoke(["ask", "--lang", "zh", "--bogus", "hi"], GPU_ADVISOR_LANGUAGE="en")
    assert chinese_error(zh) == "错误：没有这个选项：'--bogus'。"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["kb", "templat"], "错误：没有这个命令：'templat'。你是不是想用 'template'？"),
        (["kb", "template"], "错误：缺少参数 'KIND'。可选：gpu、model、site。"),
        (["kb", "template", "cpu"], "错误：'KIND' 的取值无效：必须是 gpu、model、site 之一。"),
        (
            ["kb", "--lang", "fr", "list"],
            "错误：'--lang' 的取值 'fr' 无效：必须是 auto、zh、en 之一。",
        ),
        (["kb", "search", "-k", "0", "x"], "错误：'-k' 的取值 '0' 无效：必须在 1 到 50 之间。"),
        (["kb", "search", "-k", "abc", "x"], "错误：'-k' 的取值 'abc' 无效：必须是整数。"),
        (["ask", "--lang"], "错误：选项 '--lang' 需要一个取值。"),
        (["ask", "--json=yes", "hi"], "错误：选项 '--json' 不接受取值。"),
        (
            ["ask", "用8张H100", "训练7B模型"],
            '错误：多余的参数：训练7B模型。含空格的问题或名称请放在引号里（"…"）。',
        ),
        (
            ["calc", "train", "--gpu", "H100", "--gpus", "8", "--params", "7X"],
            "错误：'--params' 的取值 '7X' 无效：必须是数字（例如 70e9、70B、2T、千亿）。",
        ),
        (
            ["calc", "train", "--gpu", "H100", "--gpus", "eight", "--params", "7B"],
            "错误：'--gpus' 的取值 'eight' 无效：必须是整数。",
        ),
        (["calc", "serve", "--gpus", "8", "--params", "7B"], "错误：缺少选项 '--gpu'。"),
    ],
)
def test_each_kind_of_usage_error_is_chinese(args: list[str], expected: str) -> None:
    assert chinese_error(invoke(args, LANG="zh_CN.UTF-8")) == expected


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["kb", "template", "cpu"],
            "Error: Invalid value for 'KIND': must be one of gpu, model, site.",
        ),
        (
            ["kb", "search", "-k", "0", "x"],
            "Error: Invalid value '0' for '-k': must be from 1 to 50.",
        ),
        (["ask", "--lang"], "Error: Option '--lang' needs a value."),
        (
            ["calc", "train", "--gpu", "H100", "--gpus", "8", "--params", "7X"],
            "Error: Invalid value '7X' for '--params': must be a number (examples: 70e9, 70B, 2T).",
        ),
    ],
)
def test_the_same_errors_in_english(args: list[str], expected: str) -> None:
    result = invoke(args, LANG="en_US.UTF-8")
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == expected, result.stderr
    assert not CJK.search(result.stderr), result.stderr


def test_help_stays_english_and_a_group_without_a_command_shows_it() -> None:
    shown = invoke(["ask", "--help"], LANG="zh_CN.UTF-8")
    assert shown.exit_code == 0
    assert shown.output.startswith("Usage: gpu-advisor ask")
    bare = invoke(["kb"], LANG="zh_CN.UTF-8")  # click's help for a group called alone: as it is
    assert bare.exit_code == 2
    assert "Commands:" in bare.output


def test_a_refused_setting_does_not_hide_the_usage_error() -> None:
    result = invoke(["ask", "--bogus", "hi"], GPU_ADVISOR_TOP_K="0", LANG="zh_CN.UTF-8")
    assert chinese_error(result) == "错误：没有这个选项：'--bogus'。"


@pytest.mark.parametrize(("lang", "said"), [("zh", "已中止。"), ("en", "Aborted.")])
def test_an_interrupted_command_says_so_in_the_users_language(
    monkeypatch: pytest.MonkeyPatch, lang: str, said: str
) -> None:
    import assistant.cli.ask as ask

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ask, "_answer_all", interrupted)
    result = invoke(["ask", "--lang", lang, "hi"])
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == said, result.stderr
