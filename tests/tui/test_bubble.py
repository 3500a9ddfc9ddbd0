"""An answer bubble says each thing once, in the words `ask` uses, and points to the panel;
the Sources tab tells tables as prose (fixed sample answers: no pipeline needed)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.widgets import OptionList, TabbedContent

from assistant.i18n import t as catalog_t
from assistant.render.answer import verdict_label
from assistant.tui.i18n import t
from assistant.tui.widgets.side_panel import SidePanel
from assistant.tui.widgets.transcript import Transcript
from tests.tui.harness import Harness, assert_rows_fit, panels_built, screen_text
from tests.tui.samples import english_answer, founding_answer, sample_answer

SIZE = (100, 32)
pytestmark = pytest.mark.asyncio

ESTIMATE = "**估算**：Llama-3.1-8B 推理约需 18.4 GB 显存。\n\n主要瓶颈：显存\n"
"""An estimate as the pipeline words it: figures computed, no hardware named, no verdict."""

TABLE = (
    "At 40 % MFU:\n\n| GPUs | time |\n|---|---|\n| 8 × V100 | ≈ 95 days |\n| 64 × H100 | ≈ 3 days |"
)


@pytest.mark.parametrize(("language", "label"), [("zh", "估算"), ("en", "Estimate")])
async def test_an_estimate_is_labelled_as_ask_labels_it(language: str, label: str) -> None:
    answer = sample_answer(verdict="unknown", text=ESTIMATE)  # one check: figures computed
    transcript = Transcript()
    app = Harness(transcript, language=language)
    async with app.run_test(size=SIZE) as pilot:
        transcript.add_answer(answer, "12:00")
        await pilot.pause()
        text = screen_text(app)
        assert verdict_label(answer, language) == label  # type: ignore[arg-type]
        assert f" ≈ {label} " in text  # an estimate's own icon, not "?"
        assert "无法判断" not in text
        assert "Unknown" not in text
        assert "Cannot tell" not in text
        transcript.relabel("en" if language == "zh" else "zh")  # the badge follows the UI
        await pilot.pause()
        other = verdict_label(answer, "en" if language == "zh" else "zh")
        assert f" {other} " in screen_text(app)


async def test_an_answer_with_no_figures_cannot_be_told() -> None:
    answer = replace(sample_answer(verdict="unknown", text="**无法判断**：缺少模型。\n"), checks=())
    transcript = Transcript()
    app = Harness(transcript)
    async with app.run_test(size=SIZE) as pilot:
        transcript.add_answer(answer, "12:00")
        await pilot.pause()
        assert screen_text(app).count("无法判断") == 1


@pytest.mark.parametrize(
    ("answer", "language", "binding", "verdict"),
    [
        (founding_answer(), "zh", "主要瓶颈", "不可行"),
        (english_answer(), "en", "Binding constraint", "Conditionally feasible"),
    ],
)
async def test_a_bubble_says_verdict_and_binding_constraint_once(
    answer: object, language: str, binding: str, verdict: str
) -> None:
    transcript = Transcript()
    app = Harness(transcript, language=language)
    async with app.run_test(size=(100, 60)) as pilot:
        transcript.add_answer(answer, "12:00")  # type: ignore[arg-type]
        await pilot.pause()
        text = screen_text(app)
        assert text.count(binding) == 1, text
        assert text.count(verdict) == 1, text
        assert_rows_fit(app)


@pytest.mark.parametrize("language", ["zh", "en"])
async def test_a_shortened_list_points_to_the_panel_not_the_cli(language: str) -> None:
    answer = english_answer() if language == "en" else founding_answer()
    heading = "Assumptions" if language == "en" else "假设"
    items = "".join(f"- assumption {n}\n" for n in range(1, 7))
    answer = replace(answer, text=answer.text + f"\n### {heading}\n{items}")
    transcript = Transcript()
    app = Harness(transcript, language=language)
    async with app.run_test(size=(100, 80)) as pilot:
        transcript.add_answer(answer, "12:00")
        await pilot.pause()
        text = screen_text(app)
        assert "assumption 4" in text
        assert "assumption 5" not in text
        tab = t("tab.scenario", language)
        assert catalog_t("tui.bubble.more", language, n=2, tab=tab) in text  # type: ignore[arg-type]
        assert "--full" not in text
        assert "gpu-advisor" not in text


async def test_sources_tell_a_table_as_prose_in_the_list_and_the_passage() -> None:
    panel = SidePanel()
    app = Harness(panel, language="en")
    async with app.run_test(size=SIZE) as pilot:
        panel.show(sample_answer(passage_text=TABLE))
        await panels_built(pilot)
        await pilot.pause()
        app.query_one(TabbedContent).active = "tab-sources"
        await pilot.pause()
        listed = screen_text(app)
        assert "At 40 % MFU: 8 × V100: time ≈ 95 days." in listed
        assert "|---|" not in listed
        assert "| GPUs |" not in listed
        options = app.query_one("#sources-list", OptionList)
        options.highlighted = 0
        options.focus()
        await pilot.press("enter")
        await pilot.pause()
        opened = screen_text(app).splitlines()
        assert any(line.strip().endswith("8 × V100: time ≈ 95 days.") for line in opened)
        assert any(line.strip().endswith("64 × H100: time ≈ 3 days.") for line in opened)
        assert not any("|" in line.split("▏")[-1] for line in opened)
        assert_rows_fit(app)
