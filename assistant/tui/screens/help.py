"""F1: example questions in both languages, and the key bindings."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from assistant.tui.i18n import LANGUAGE_CHOICE, t

EXAMPLES: tuple[str, ...] = (
    "吉林GPU服务器能训练千亿模型吗?",
    "8张A100-80G能全参微调70B模型吗?",
    "那用H100呢?",
    "两台8卡4090,25G以太网,能用LoRA微调Qwen2.5-72B吗?",
    "Can 8x RTX 4090 fine-tune a 70B model with QLoRA?",
    "How long would pre-training a 7B model on 1T tokens take on 64 H100s?",
    "What about 4-bit?",
    "Is 400G InfiniBand enough to train GPT-3 on 1024 GPUs?",
)

#: (keys, i18n key of what they do)
KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", "action.send"),
    ("↑ / ↓", "help.recall"),
    ("Ctrl+T", "help.multiline"),
    ("Esc", "help.cancel"),
    ("Ctrl+N", "cmd.new.help"),
    ("F3", "cmd.history.help"),
    ("Ctrl+S", "cmd.export.help"),
    ("F4", "cmd.copy.help"),
    ("Tab / Shift+Tab", "help.focus"),
    ("↑ / ↓", "help.select"),
    ("F5", "help.panel"),
    ("Enter / Esc", "help.citation"),
    ("F2", "cmd.language.help"),
    ("Ctrl+P", "help.palette"),
    ("F1", "cmd.help.help"),
    ("Ctrl+Q", "action.quit"),
)


def help_renderable(language: str) -> Group:
    """The help text in `language` (the examples always in both)."""
    examples = Text.styled(f"{t('help.examples', language)}\n", "bold underline")
    for example in EXAMPLES:
        examples.append(f"  • {example}\n")
    keys = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    keys.add_column(style="bold cyan", no_wrap=True)
    keys.add_column()
    for key, what in KEYS:
        keys.add_row(key, t(what, language, languages=LANGUAGE_CHOICE))
    title = Text.styled(f"{t('help.keys', language)}", "bold underline")
    footer = Text.styled(f"\n{t('help.close', language)}", "dim")
    return Group(examples, title, keys, footer)


class HelpScreen(ModalScreen[None]):
    """Example questions and key bindings."""

    BINDINGS = [Binding("escape,f1,q", "close", "Close")]

    def compose(self) -> ComposeResult:
        language = str(getattr(self.app, "ui_language", "en"))
        with VerticalScroll(id="help-box") as box:
            box.border_title = t("help.title", language)
            yield Static(help_renderable(language), id="help-body")

    def action_close(self) -> None:
        """Back to the chat."""
        self.dismiss()
