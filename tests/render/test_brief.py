"""The terminal answer fits a screen: formulas dropped, lists cut, one short line per source."""

from __future__ import annotations

from assistant.render.brief import brief_markdown

ANSWER = """**Not feasible**: Too slow.

### Key figures
- ❌ **Memory**: 310.7 GB per GPU. [1]
  - Formula: `per GPU = 16Ψ/d`

### Sources
1. GPU memory for training, fine-tuning and inference › Training: weights, gradients and \
optimizer states (`gpu-memory`, id `gpu-memory-3`): Mixed-precision Adam keeps 16 bytes …
2. Typical regional single-node GPU server (`regional-single-node`, id `rsn-0`): One node …
"""


def test_terminal_sources_are_named_by_section_and_document_only() -> None:
    lines = brief_markdown(ANSWER, short_sources=True).splitlines()
    assert lines[-2] == "1. Training: weights, gradients and optimizer states (`gpu-memory`)"
    assert lines[-1] == "2. Typical regional single-node GPU server (`regional-single-node`)"
    assert not any("Formula" in line for line in lines)


def test_the_chat_app_keeps_the_document_title() -> None:
    lines = brief_markdown(ANSWER).splitlines()
    assert lines[-2].startswith("1. GPU memory for training, fine-tuning and inference › Training")
    assert lines[-2].endswith("(`gpu-memory`)")
