"""What the first paint does not wait for: modules only answers need, footer rebuilds per
binding change, and the hidden tabs' contents (issue 13: first paint <= 0.5 s)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from textual.widgets import OptionList, Static

from assistant.config import Settings
from assistant.tui.app import AssistantApp
from assistant.tui.i18n import t
from assistant.tui.widgets.key_footer import KeyFooter
from assistant.tui.widgets.side_panel import SidePanel
from tests.tui.harness import Harness, panels_built
from tests.tui.samples import sample_answer

#: Imported by an answer, not by the empty screen: markdown-it (the bubble's Markdown) and
#: the calculators' catalogs (the panel's figures), together ~60 ms of start-up.
LATER = ("markdown_it", "assistant.render.calc", "calculators.catalog.hardware")


def test_the_app_module_leaves_answer_modules_for_later() -> None:
    code = "import sys, assistant.tui.app; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert "assistant.tui.screens.chat" in loaded
    assert not [name for name in LATER if name in loaded]


@pytest.mark.asyncio
async def test_a_burst_of_binding_changes_rebuilds_the_footer_once() -> None:
    footer = KeyFooter()
    app = Harness(footer)
    async with app.run_test(size=(100, 10)) as pilot:
        await pilot.pause()
        rebuilds = 0
        recompose = footer.recompose

        async def counted() -> None:
            nonlocal rebuilds
            rebuilds += 1
            await recompose()

        footer.recompose = counted  # type: ignore[method-assign]
        for _ in range(5):  # focus changes and relabels each refresh the bindings
            app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert rebuilds == 1


@pytest.mark.asyncio
async def test_hidden_tabs_are_built_after_the_first_paint_and_show_the_answer() -> None:
    panel = SidePanel()
    app = Harness(panel)
    async with app.run_test(size=(100, 32)) as pilot:
        panel.show(sample_answer())  # shown before the hidden tabs exist: they catch up
        await panels_built(pilot)  # bounded: a panel that never builds fails below
        assert panel.built
        assert app.query_one("#sources-list", OptionList).option_count == 1


class _NoLoader(AssistantApp):
    """The app with its knowledge base still loading (the loader never starts)."""

    def load_retriever(self) -> None:  # type: ignore[override]
        return None


@pytest.mark.asyncio
@pytest.mark.parametrize("language", ["zh", "en"])
async def test_the_load_state_is_shown_at_once_and_follows_changes(language: str) -> None:
    app = _NoLoader(Settings(ui_language=language))  # type: ignore[arg-type]
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        status = app.chat.query_one("#load-status", Static)
        assert t("status.loading", language) in str(status.render())
        app.load_detail = "正在重建知识库索引…"
        await pilot.pause()
        assert "正在重建知识库索引…" in str(status.render())
        app.load_state = "ready"
        await pilot.pause()
        assert t("status.ready", language) in str(status.render())
        assert status.has_class("-ready")
