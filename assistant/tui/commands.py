"""Command palette (Ctrl+P): the chat's actions, titled and matched in both languages.

Only these commands are offered (Textual's own system commands, English-only and one of them,
"Screenshot", failing, are not), and the palette's placeholder comes from the catalog too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider

from assistant.tui.i18n import LANGUAGE_CHOICE, other, t

#: (title key, help key, action name on the app/screen)
ENTRIES: tuple[tuple[str, str, str], ...] = (
    ("cmd.new.title", "cmd.new.help", "new_conversation"),
    ("action.history", "cmd.history.help", "history"),
    ("cmd.panel.title", "cmd.panel.help", "toggle_panel"),
    ("action.export", "cmd.export.help", "export_conversation"),
    ("action.export_answer", "cmd.export_answer.help", "export_answer"),
    ("cmd.copy.title", "cmd.copy.help", "copy_answer"),
    ("cmd.language.title", "cmd.language.help", "app.toggle_language"),
    ("action.help", "cmd.help.help", "app.help"),
    ("action.quit", "cmd.quit.help", "app.quit"),
)


def _nothing() -> None:
    """What choosing "no command matches" does."""


def palette(language: str) -> CommandPalette:
    """The command palette with its placeholder in `language`."""
    return CommandPalette(placeholder=t("palette.placeholder", language), id="--command-palette")


class AdvisorCommands(Provider):
    """The chat's actions: new conversation, history, panel, export, copy, language, help, quit."""

    def _entries(self) -> list[tuple[str, str, str, Callable[[], object]]]:
        language = str(getattr(self.app, "ui_language", "en"))
        rows: list[tuple[str, str, str, Callable[[], object]]] = []
        for title_key, help_key, action in ENTRIES:
            title = t(title_key, language)
            alias = t(title_key, other(language))
            help_text = t(help_key, language, languages=LANGUAGE_CHOICE)
            rows.append((title, alias, help_text, partial(self._run, action)))
        return rows

    async def _run(self, action: str) -> None:
        # Chat actions run on the chat screen even when another screen is on top.
        await self.app.run_action(action, getattr(self.app, "chat", self.app.screen))

    async def discover(self) -> Hits:
        for title, _alias, help_text, run in self._entries():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        found = False
        for title, alias, help_text, run in self._entries():
            score = max(matcher.match(title), matcher.match(alias))
            if score > 0:
                found = True
                yield Hit(score, matcher.highlight(title), run, help=help_text)
        if not found:  # instead of Textual's English "No matches found"
            language = str(getattr(self.app, "ui_language", "en"))
            shown = Text.styled(t("palette.no_match", language), "dim")
            yield Hit(0.0, shown, _nothing, text=shown.plain)
