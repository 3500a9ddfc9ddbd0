"""The key bar at the bottom: Textual's `Footer`, rebuilt once per burst of binding changes.

Textual's footer recomposes (unmounts and mounts a widget per key) each time the screen's
bindings are refreshed: every focus change, every relabel. Start-up alone refreshes them eight
times before the first frame; this footer coalesces a burst into one rebuild after the next
refresh, reading the bindings as they are then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class KeyFooter(Footer):
    """A `Footer` that rebuilds at most once per refresh."""

    _rebuild_pending = False
    """A rebuild is scheduled for after the next refresh (later changes join it)."""

    def bindings_changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        """Schedule one rebuild for this and any further binding change before the refresh."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_pending = False
        await self.recompose()
