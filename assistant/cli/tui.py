"""`gpu-advisor tui` (and `gpu-advisor` alone): open the chat app."""

from __future__ import annotations

import asyncio
import os
import sys

import click

from assistant.cli.edge import error_boundary


@click.command()
def tui() -> None:
    """Open the chat app."""
    with error_boundary():
        from assistant.config import Settings
        from assistant.tui.app import make_app

        app = make_app(Settings())
        # An explicit loop: `asyncio.run` would join the loader's thread before returning.
        loop = asyncio.new_event_loop()
        app.run(loop=loop)
        if app.load_state == "loading":
            # Quit while the index was still loading or being built: the worker thread cannot
            # be interrupted and would hold the process open for up to a minute. Index writes
            # are atomic (temporary generation + rename), so leaving now is safe; the next
            # start resumes. The terminal is already restored by `App.run`.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(app.return_code or 0)
