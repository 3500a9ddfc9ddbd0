"""A hostile document and question never reach a chat-app export or the F4 clipboard live.

The real app (USE-m, faiss, jieba, Textual) answers a question with escape sequences in it from
an index that holds a hostile document; Ctrl+S writes the conversation, F4 copies the answer.
Neither may carry ESC, BEL, C1 controls or bidi overrides, yet both show the hostile text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli
from tests.conftest import open_test_retriever
from tests.security.test_terminal_injection import ESC, HOSTILE
from tests.tui.conftest import fixed_clock, wait_until

pytestmark = [pytest.mark.asyncio, pytest.mark.e2e]

#: What must never be in an export or on the clipboard: C0 but tab/newline, DEL, C1, bidi.
LIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


async def test_export_and_copy_of_a_hostile_answer_are_inert(kb_home: Path, tmp_path: Path) -> None:
    from textual.widgets import Input

    from assistant.config import Settings
    from assistant.tui.app import make_app

    note = tmp_path / "evil.md"
    body = "The Zorblax cluster links its racks with InfiniBand NDR at 400 Gb/s per port. "
    note.write_text(f"# Evil racks {HOSTILE}\n\n{body}{HOSTILE} {body * 3}\n", "utf-8")
    added = CliRunner().invoke(cli, ["kb", "add", str(note)])
    assert added.exit_code == 0, added.output
    app = make_app(Settings(ui_language="en"), retriever=open_test_retriever(), clock=fixed_clock)
    question = f"{ESC}]0;PWNED\x07 How does the Zorblax cluster link its racks? \u202eevil"
    async with app.run_test(size=(120, 40)) as pilot:
        app.chat.query_one("#prompt-input", Input).value = question  # typed keys cannot hold ESC
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: app.chat.pending_turn is None and app.chat.last_answer is not None
        )
        await pilot.press("ctrl+s")
        await pilot.press("f4")
        await pilot.pause()
        (export,) = (app.settings.home / "exports").glob("*.md")
        written = export.read_text("utf-8")
        copied = app.clipboard
    assert "Evil racks" in written, written  # the hostile document was cited
    assert "PWNED" in written  # and the hostile question is there, made visible
    assert copied.strip()
    for text in (written, copied):
        assert LIVE.findall(text) == [], text[:2000]
