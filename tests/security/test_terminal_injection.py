"""Hostile documents, questions and options never reach a real terminal as escape sequences.

Each command runs as a subprocess on a pseudo-terminal (so Rich and the progress bar behave as
for a person), and the raw bytes it wrote are checked for the dangerous sequences.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli
from assistant.sanitize import SafeConsole, clean, json_text, markup, one_line

ROOT = Path(__file__).resolve().parents[2]
ESC = "\x1b"
HOSTILE = (
    f"title {ESC}]0;PWNED\x07 clip {ESC}]52;c;ZXZpbA==\x07 "
    f"link {ESC}]8;;file:///etc/passwd\x07here{ESC}]8;;\x07 clear {ESC}[2J "
    "bidi \u202eevil\u202c c1 \x9b2J"
)
#: Byte sequences that must never reach the terminal from untrusted text.
FORBIDDEN = (
    b"\x1b]0;",
    b"\x1b]52;",
    b"\x1b]8;;file",
    b"\x1b[2J",
    b"\x07",
    b"\xc2\x9b",
    "\u202e".encode(),
)
PAD = "InfiniBand bandwidth matters for multi-node training across racks. " * 20


def run_on_pty(args: list[str], home: Path, timeout: float = 240) -> bytes:
    """Run `gpu-advisor ARGS` with stdout and stderr on a pseudo-terminal; the raw bytes."""
    main, secondary = pty.openpty()
    env = {
        **os.environ,
        "GPU_ADVISOR_HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm-256color",
        "COLUMNS": "100",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "assistant", *args],
        stdin=subprocess.DEVNULL,
        stdout=secondary,
        stderr=secondary,
        env=env,
        cwd=ROOT,
    )
    os.close(secondary)
    out = bytearray()
    while True:
        ready, _, _ = select.select([main], [], [], timeout)
        if not ready:
            proc.kill()
            pytest.fail(f"{args} timed out")
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=30)
    os.close(main)
    return bytes(out)


def assert_inert(output: bytes) -> None:
    for sequence in FORBIDDEN:
        assert sequence not in output, (sequence, output[:2000])


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (f"a{ESC}]0;t\x07b", "a␛]0;t␇b"),  # OSC: window title
        (f"{ESC}[2J", "␛[2J"),  # CSI: clear screen
        ("x\x9b2J", "x\ufffd2J"),  # C1 CSI in one code point
        ("ab\u202ecd\u2066", "ab\ufffdcd\ufffd"),  # bidi override, isolate
        ("tab\tand\nnewline", "tab\tand\nnewline"),  # kept
        ("cr\r del\x7f", "cr␍ del␡"),
    ],
)
def test_clean_makes_controls_visible(raw: str, expected: str) -> None:
    assert clean(raw) == expected


def test_one_line_markup_and_json() -> None:
    assert one_line("a\nb\tc") == "a␤b␉c"
    assert markup("[link=file:///etc/passwd]x") == "\\[link=file:///etc/passwd]x"
    data = {"t": "a\x9bb\u202ec\x1b"}
    dumped = json_text(json.dumps(data, ensure_ascii=False))
    assert json.loads(dumped) == data  # lossless
    for unsafe in ("\x9b", "\u202e", "\x1b"):
        assert unsafe not in dumped


def test_safe_console_drops_links_and_escapes() -> None:
    from rich.markdown import Markdown

    console = SafeConsole(force_terminal=True, width=80, record=False, file=_Sink())
    console.print("[link=file:///etc/passwd]x[/]", Markdown(f"[a](file:///etc/passwd) {HOSTILE}"))
    written = console.file.data.encode()
    assert b"\x1b]8;" not in written
    assert_inert(written)


class _Sink:
    def __init__(self) -> None:
        self.data = ""

    def write(self, text: str) -> int:
        self.data += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_escapes_in_toml_front_matter_are_refused(tmp_path: Path) -> None:
    from assistant.errors import DocumentError
    from assistant.retrieval.documents import parse_document

    raw = b'+++\ntitle = "Evil\\u001b]0;pwned\\u0007"\n+++\n# x\n\nbody\n'
    with pytest.raises(DocumentError, match="control"):
        parse_document(raw, path=tmp_path / "e.md", source="e.md", key="documents/e.md")
    aliases = b'+++\nkind = "site"\n[site]\naliases = ["a\\u202eb"]\n+++\nbody\n'
    with pytest.raises(DocumentError, match="site.aliases"):
        parse_document(aliases, path=tmp_path / "s.md", source="s.md", key="documents/s.md")


def test_calc_currency_markup_is_shown_not_interpreted() -> None:
    result = CliRunner().invoke(
        cli,
        [
            "calc",
            "train",
            "--params",
            "7e9",
            "--gpu",
            "H100",
            "--gpus",
            "8",
            "--price",
            "2",
            "--currency",
            "[link=file:///etc/passwd]x",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "[link=file:///etc/passwd]x" in result.output


def test_hostile_document_on_a_real_terminal(kb_home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    name = f"evil{ESC}]0;x\x07.md"  # a hostile file name too
    (folder / name).write_text(f"# Evil {HOSTILE}\n\n{HOSTILE} {PAD}\n", "utf-8")
    added = run_on_pty(["kb", "add", str(folder)], kb_home)
    assert b"added" in added, added
    assert_inert(added)
    for args in (
        ["kb", "search", "InfiniBand racks clip", "-k", "3"],
        ["kb", "list"],
        ["kb", "search", "InfiniBand racks", "--json"],
        ["kb", "list", "--json"],
    ):
        output = run_on_pty(args, kb_home)
        assert b"Evil" in output, (args, output[-500:])
        assert_inert(output)


def test_hostile_question_on_a_real_terminal(kb_home: Path) -> None:
    output = run_on_pty(["ask", f"{HOSTILE} Can 8 H100 train a 7B model?"], kb_home)
    assert b"H100" in output
    assert_inert(output)


SITE = """+++
id = "evil-site"
kind = "site"
title = "Evil [link=file:///etc/passwd]click[/link] [reverse]r[/]"
[site]
aliases = ["Zorblax cluster"]
nodes = 2
gpus_per_node = 8
gpu = "A100-80G"
+++
# Evil site {hostile}

The Zorblax cluster has {hostile} InfiniBand racks.
"""


def test_hostile_site_profile_on_a_real_terminal(kb_home: Path, tmp_path: Path) -> None:
    """The profile's title (markup) and body (escapes) as `ask` names and cites it."""
    profile = tmp_path / "evil-site.md"
    profile.write_text(SITE.format(hostile=HOSTILE), "utf-8")
    assert_inert(run_on_pty(["kb", "add", str(profile)], kb_home))
    for args in (
        ["ask", "Can the Zorblax cluster train a 7B model?"],
        ["ask", "--json", "Can the Zorblax cluster train a 7B model?"],
        ["kb", "list"],
    ):
        output = run_on_pty(args, kb_home)
        assert b"[link=file:///etc/passwd]click[/link]" in output, (args, output[-800:])
        assert b"\x1b]8;" not in output  # the markup is shown, not made a hyperlink
        assert b"\x1b[7m" not in output  # nor reverse video
        assert_inert(output)


def test_escapes_in_toml_front_matter_are_refused_on_a_real_terminal(
    kb_home: Path, tmp_path: Path
) -> None:
    document = tmp_path / "escaped.md"
    document.write_bytes(b'+++\ntitle = "Evil\\u001b]0;PWNED\\u0007 \\u009b2J"\n+++\n# x\n\nbody\n')
    output = run_on_pty(["kb", "add", str(document)], kb_home)
    assert b"control" in output, output
    assert_inert(output)
    assert b"escaped.md" not in run_on_pty(["kb", "list"], kb_home)


def test_calc_currency_on_a_real_terminal(kb_home: Path) -> None:
    currency = f"[link=file:///etc/passwd]x{ESC}]0;PWNED\x07"
    args = ["calc", "train", "--params", "7e9", "--gpu", "H100", "--gpus", "8", "--price", "2"]
    output = run_on_pty([*args, "--currency", currency], kb_home)
    assert b"[link=file:///etc/passwd]x" in output, output[-800:]
    assert b"\x1b]8;" not in output
    assert_inert(output)


def test_a_hostile_setting_in_an_error_on_a_real_terminal(
    kb_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A setting with an escape sequence is refused, quoted inert (it used to reach the
    terminal raw through sentence-transformers' warnings and error); and any error message,
    whoever wrote it, passes the sanitiser at the edge."""
    from assistant.cli.edge import UserFacingError

    monkeypatch.setenv("GPU_ADVISOR_ENCODER", f"st:x{HOSTILE}")
    for args in (["kb", "search", "InfiniBand"], ["ask", "Can 8 H100 train a 7B model?"]):
        output = run_on_pty(args, kb_home)
        assert b"GPU_ADVISOR_ENCODER" in output, output
        assert_inert(output)
    assert_inert(UserFacingError(f"cannot load {HOSTILE}", 1).format_message().encode())
