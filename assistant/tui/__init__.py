"""The terminal chat app (Textual): a thin adapter over `assistant.pipeline.answer`.

Owns the app factory (`app`), its screens and widgets, the command palette, exports and the
display of figures in the side panel. Answers are computed by the pipeline in a worker; the
words of an answer come from `assistant.render` and `assistant.i18n`, never from the CLI.
"""

from __future__ import annotations
