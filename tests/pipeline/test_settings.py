"""Settings from `GPU_ADVISOR_*` variables and keyword arguments, checked, with no pydantic."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import config
from assistant.config import Settings, SettingsError


def test_variables_are_read_and_keywords_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TOP_K", "12")
    monkeypatch.setenv("GPU_ADVISOR_MIN_SCORE", "0.25")
    monkeypatch.setenv("GPU_ADVISOR_UI_LANGUAGE", "zh")
    monkeypatch.setenv("GPU_ADVISOR_KNOWLEDGE_DIR", "~/docs")
    settings = Settings(ui_language="en")
    assert settings.top_k == 12
    assert settings.min_score == 0.25
    assert settings.ui_language == "en"  # the keyword argument wins over the variable
    assert settings.knowledge_dir == Path("~/docs").expanduser()
    assert settings.home == Path(os.environ["GPU_ADVISOR_HOME"])


def test_defaults() -> None:
    settings = Settings()
    assert (settings.encoder, settings.encoder_threads, settings.top_k) == ("use-m", 1, 5)
    assert (settings.min_score, settings.language, settings.ui_language) == (None, "auto", "auto")


@pytest.mark.parametrize(
    ("variable", "value", "reason"),
    [
        ("GPU_ADVISOR_TOP_K", "0", "from 1 to 50"),  # the bounds the README states
        ("GPU_ADVISOR_TOP_K", "51", "from 1 to 50"),
        ("GPU_ADVISOR_TOP_K", "2.5", "whole number"),
        ("GPU_ADVISOR_ENCODER_THREADS", "abc", "from 1 to 64"),
        ("GPU_ADVISOR_MIN_SCORE", "nan", "finite"),
        ("GPU_ADVISOR_MIN_SCORE", "", "finite"),
        ("GPU_ADVISOR_LANGUAGE", "fr", "one of auto, zh, en"),
    ],
)
def test_a_bad_variable_is_named_in_both_languages(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, reason: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as raised:
        Settings()
    assert raised.value.name == variable
    assert reason in str(raised.value)
    assert variable in raised.value.localized("zh")
    assert "设置无效" in raised.value.localized("zh")
    assert "must" not in raised.value.localized("zh")  # the reason is in Chinese too


def test_replace_checks_and_keeps_the_rest(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, top_k=3)
    changed = settings.replace(ui_language="zh")
    assert (changed.ui_language, changed.top_k, changed.home) == ("zh", 3, tmp_path)
    assert settings.ui_language == "auto"  # frozen: the original is unchanged
    with pytest.raises(SettingsError):
        settings.replace(top_k=-1)
    with pytest.raises(TypeError):
        Settings(top_kk=3)  # a misspelt setting in code is an error, not silently ignored


def test_settings_are_frozen_and_hashable() -> None:
    settings = Settings()
    with pytest.raises(AttributeError):
        settings.top_k = 9  # type: ignore[misc]
    assert hash(settings) == hash(Settings())


def test_start_up_imports_no_pydantic() -> None:
    """pydantic-settings cost 130 ms of CPU per start (chat app and `ask`)."""
    code = (
        "import sys, assistant.config, assistant.tui.app, assistant.cli.ask\n"
        "print(sorted(m for m in sys.modules if m.startswith('pydantic')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"


def test_docstring_examples() -> None:
    result = doctest.testmod(config)
    assert result.attempted > 0
    assert result.failed == 0
