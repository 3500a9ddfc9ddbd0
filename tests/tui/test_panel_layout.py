"""The side panel's layout: human labels in the interface language, key/value columns that
stay apart at any width, and wrapping that never splits a number or a word (no pipeline)."""

from __future__ import annotations

import re
from dataclasses import fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text
from textual.widgets import OptionList, TabbedContent

from assistant.i18n import catalog
from assistant.records import Check, Citation, Scenario
from assistant.tui.labels import figure_label, slot_label
from assistant.tui.widgets.side_panel import (
    HIDE_WHEN_ZERO,
    check_renderable,
    scenario_renderable,
    scenario_rows,
)
from assistant.tui.wrap import KeyValues, Row, wrap_text
from tests.tui.harness import Harness, assert_rows_fit, panels_built, screen_text
from tests.tui.samples import sample_answer, sample_passage

SLOT_NAMES = [f.name for f in fields(Scenario)]
FULL = Scenario(
    task="pretrain",
    method="lora",
    params=1e11,
    active_params=1e11,
    model="Llama-2-70B",
    gpu="A100 PCIe 80GB",
    gpu_count=8,
    nodes=1,
    gpus_per_node=8,
    gpu_memory_bytes=8e10,
    intra_link="PCIe Gen4",
    inter_link="25GbE",
    precision="bf16",
    tokens=2e12,
    deadline_seconds=90 * 86400.0,
    zero_stage=3,
    tensor_parallel=1,
    pipeline_parallel=1,
    context_length=4096,
    batch_size=977,
    site_profile="regional-single-node",
    price_per_gpu_hour=2.5,
    currency="CNY",
)
MEMORY = Check(
    kind="memory",
    verdict="fail",
    summary="每张 GPU 需要 310.7 GB (289.4 GiB)，可用 72.0 GB",
    figures={
        "required_bytes_per_gpu": 3.107e11,
        "available_bytes_per_gpu": 7.2e10,
        "memory_bytes": 8e10,
        "min_gpus": 32,
        "weights_bytes": 2.5e10,
        "gradients_bytes": 2.5e10,
        "kv_cache_bytes": 0.0,
        "overhead_bytes": 0.0,
        "offloaded_bytes": 0.0,
        "model_state_bytes_per_gpu": 2.0e11,
    },
    formula="per GPU = 2Ψ/d + 2Ψ/d + 12Ψ/d + fp32 logits 4sbv/t",
    inputs={"gpus": "8", "zero_stage": "3", "micro_batch_size": "1", "flash_attention": "True"},
)


def lines_of(renderable: RenderableType, width: int) -> list[str]:
    """The renderable as plain text rows, `width` cells wide, trailing spaces removed."""
    console = Console(width=width, color_system=None, legacy_windows=False)
    rows = console.render_lines(renderable, console.options.update(width=width), pad=False)
    return ["".join(segment.text for segment in row).rstrip() for row in rows]


def raw_names_in(text: str, names: list[str]) -> set[str]:
    """Which raw identifiers occur as whole words in `text`."""
    return {name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)}


# -- wrapping --------------------------------------------------------------------------------

MIXED = st.text(
    alphabet=st.sampled_from([*"显存不够每卡需要，。（）“”", *"ab1.,-/ ()", "✅", "❌"]),
    max_size=80,
)


@settings(max_examples=150, deadline=None)
@given(text=MIXED, width=st.integers(min_value=2, max_value=40))
def test_wrapped_lines_fit_and_keep_every_character(text: str, width: int) -> None:
    lines = [line.plain for line in wrap_text(Text(text), width)]
    assert all(cell_len(line) <= width for line in lines), lines
    # Only spaces at a line end may be dropped; nothing else is lost or reordered.
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


@pytest.mark.parametrize(
    ("text", "width", "whole"),
    [
        ("需要约 1,755 张 A100 PCIe 80GB", 12, "1,755"),  # no break after a thousands comma
        ("每卡需要 310.7 GB (289.4 GiB)", 16, "(289.4 GiB)"),  # short group stays together
        ("显存容量（规格）", 10, "（规格）"),
        ("12Ψ/d + fp32 logits 4sbv/t", 12, "4sbv/t"),  # short pieces around / stay together
        ("regional-single-node", 12, "single-"),  # long names break after the hyphen
    ],
)
def test_wrapping_keeps_units_and_groups_whole(text: str, width: int, whole: str) -> None:
    lines = [line.plain for line in wrap_text(Text(text), width)]
    assert any(whole in line for line in lines), lines


def test_closing_punctuation_never_starts_a_line() -> None:
    text = "显存不够，每卡需要（约）三百吉字节。再加上激活值，还是放不下。"
    for width in range(8, 30):  # narrower than a bracketed group, it has to be cut
        lines = [line.plain for line in wrap_text(Text(text), width)]
        assert all(line and line[0] not in "，。）" for line in lines), (width, lines)


@pytest.mark.parametrize("width", [24, 30, 37, 52])
def test_key_value_rows_are_aligned_and_separated(width: int) -> None:
    rows = [
        Row(
            Text(slot_label(name, "en")),
            Text("regional-single-node value " * 2),
            mark="·" if index % 2 else "",
        )
        for index, name in enumerate(SLOT_NAMES)
    ]
    layout = KeyValues(rows)
    key_width = layout.key_width(width, 3)
    lines = lines_of(layout, width)
    assert len(lines) >= len(rows)
    for line in lines:
        assert cell_len(line) <= width
        gap = line[key_width : key_width + 3] if cell_len(line[:key_width]) == key_width else None
        assert gap is not None, line  # the key column is the same width on every row
        assert gap.strip() in ("", "·"), line  # key and value never touch


# -- scenario tab ----------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_slot_has_a_label_in_both_languages(language: str) -> None:
    assert {f"tui.slot.{name}" for name in SLOT_NAMES} <= set(catalog())
    assert all(slot_label(name, language).strip() for name in SLOT_NAMES)


@pytest.mark.parametrize("width", [34, 37, 60])
def test_scenario_rows_show_labels_not_slot_names_in_chinese(width: int) -> None:
    answer = sample_answer()
    answer = replace(answer, scenario=FULL)
    lines = lines_of(scenario_renderable(answer, "zh"), width)
    text = "\n".join(lines)
    assert not raw_names_in(text, SLOT_NAMES), text
    rows, _ = scenario_rows(answer, "zh")
    table = KeyValues(rows)
    key_width = table.key_width(width, 3)
    for row in rows:
        label = row.key.plain
        line = next(line for line in lines if line.startswith(label))
        # Key, then at least one space (or the "·" column), then the value, on every row.
        cells = cell_len(label)
        assert line[len(label) :][: key_width - cells + 1].strip() == "", line
        assert line[len(label) :].strip(), line
    assert "预训练" in text  # word values in the interface language
    assert "regional-single-node" in text.replace("\n", "") or "regional-" in text


def test_scenario_in_english_uses_english_labels() -> None:
    answer = replace(sample_answer(), scenario=FULL)
    text = "\n".join(lines_of(scenario_renderable(answer, "en"), 40))
    for label in ("task", "parameters", "GPU count", "GPUs per node", "precision", "site"):
        assert label in text
    assert "任务" not in text
    assert not raw_names_in(text, [n for n in SLOT_NAMES if "_" in n]), text


def test_changed_slots_and_open_slots_are_labelled() -> None:
    answer = sample_answer(changed=("gpu", "gpu_count"))
    text = "\n".join(lines_of(scenario_renderable(answer, "zh"), 37))
    assert "• GPU 数" in text
    assert "未指定：" in text
    assert "方法" in text
    assert not raw_names_in(text, SLOT_NAMES), text


# -- calculations tab ------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "verdict"), [("zh", "不满足"), ("en", "fail")])
def test_check_shows_labels_and_a_localised_verdict(language: str, verdict: str) -> None:
    lines = lines_of(check_renderable(MEMORY, language), 37)
    text = "\n".join(lines)
    assert f"✘ {verdict}" in text
    assert "FAIL" not in text
    assert not raw_names_in(text, list(MEMORY.figures) + list(MEMORY.inputs)), text
    assert figure_label("required_bytes_per_gpu", language) in text
    # Zero memory components are left out, non-zero ones stay.
    for key, value in MEMORY.figures.items():
        # A long label may wrap inside its column: look for its first part.
        shown = re.split(r"[（(\s]", figure_label(key, language))[0] in text
        assert shown == (not (key in HIDE_WHEN_ZERO and value == 0)), key


def test_check_figures_never_split_a_word_or_a_unit() -> None:
    lines = lines_of(check_renderable(MEMORY, "en"), 37)
    for key, value in MEMORY.figures.items():
        if key in HIDE_WHEN_ZERO and value == 0:
            continue
        for word in figure_label(key, "en").split():
            assert any(word in line for line in lines), (word, lines)
    assert any("(289.4 GiB)" in line for line in lines)


def test_unlabelled_figure_falls_back_to_a_readable_key() -> None:
    check = replace(MEMORY, figures={"odd_new_figure": 3})
    text = "\n".join(lines_of(check_renderable(check, "zh"), 37))
    assert "odd new figure" in text
    assert "odd_new_figure" not in text


# -- sources tab and transcript ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_sources_list_tells_passages_of_one_document_apart() -> None:
    from assistant.tui.widgets.side_panel import SidePanel

    first, second = sample_passage(), replace(sample_passage(), id="p2", heading="ZeRO-Offload")
    answer = replace(sample_answer(), citations=(Citation(first), Citation(second)))
    panel = SidePanel()
    app = Harness(panel)
    async with app.run_test(size=(100, 32)) as pilot:
        panel.show(answer)
        app.query_one(TabbedContent).active = "tab-sources"
        await panels_built(pilot)
        await pilot.pause()
        assert app.query_one("#sources-list", OptionList).option_count == 2
        text = screen_text(app)
        assert "› ZeRO-3" in text
        assert "› ZeRO-Offload" in text
        assert_rows_fit(app)


@pytest.mark.asyncio
async def test_emoji_marks_keep_transcript_rows_aligned() -> None:
    from assistant.tui.widgets.transcript import Transcript

    transcript = Transcript()
    app = Harness(transcript)
    marks = (
        "- ✅ **显存**：够\n- ❌ **网络**：不够\n- ➖ **成本**：未给价格\n- ⚠\ufe0f **算力**：偏紧"
    )
    async with app.run_test(size=(100, 32)) as pilot:
        transcript.add_answer(sample_answer(text=marks), "12:00")
        await pilot.pause()
        text = screen_text(app)
        assert "\ufe0f" not in text
        for mark in ("✅ 显存", "❌ 网络", "➖ 成本", "⚠ 算力"):
            assert mark in text
        assert_rows_fit(app)


def test_raw_slot_names_are_one_hover_away() -> None:
    from assistant.tui.widgets.side_panel import scenario_tooltip

    tip = scenario_tooltip(replace(sample_answer(), scenario=FULL), "zh")
    assert "任务 = task" in tip
    assert "每节点 GPU = gpus_per_node" in tip


def test_a_cited_site_profile_is_shown_by_its_title() -> None:
    site = replace(sample_passage(), doc_id="regional-single-node", title="吉林GPU服务器")
    answer = replace(sample_answer(), scenario=FULL, citations=(Citation(site),))
    lines = lines_of(scenario_renderable(answer, "zh"), 37)
    row = next(i for i, line in enumerate(lines) if line.startswith("站点"))
    assert "吉林GPU服务器" in lines[row]
    assert "regional-single-node" in lines[row + 1]  # the id stays, under the title
