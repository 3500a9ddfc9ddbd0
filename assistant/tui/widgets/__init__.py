"""Widgets of the chat app, grouped by screen region."""

from __future__ import annotations
