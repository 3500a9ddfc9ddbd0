"""Screens of the chat app, one per file."""

from __future__ import annotations
