"""The terminal chat app (Textual): a thin adapter over `assistant.pipeline.answer`."""

from __future__ import annotations
