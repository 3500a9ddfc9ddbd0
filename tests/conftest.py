"""Shared fixtures: tests never touch the network or the user's real home."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point GPU_ADVISOR_HOME at a temporary folder and keep model hubs offline."""
    home = tmp_path / "home"
    monkeypatch.setenv("GPU_ADVISOR_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.delenv("GPU_ADVISOR_DEBUG", raising=False)
    return home
