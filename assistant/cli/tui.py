"""`gpu-advisor tui` (and `gpu-advisor` alone): open the chat app."""

from __future__ import annotations

import click

from assistant.cli.edge import error_boundary


@click.command()
def tui() -> None:
    """Open the chat app."""
    with error_boundary():
        from assistant.config import Settings
        from assistant.tui.app import make_app

        make_app(Settings()).run()
