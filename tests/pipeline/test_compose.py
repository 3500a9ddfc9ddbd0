"""Composition and rendering: verdict first, labelled units, per-check citations that fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.calculate import Outcome
from assistant.compose import TOPIC_DOCUMENTS, compose, topic_query
from assistant.records import Check, Language, Query, Scenario, SiteProfile, Suggestion
from assistant.render import fmt_bytes, fmt_count, fmt_seconds, render_markdown
from tests.conftest import open_test_retriever

SCENARIO = Scenario(
    task="pretrain",
    params=1e11,
    gpu="A100 PCIe 80GB",
    gpu_count=8,
    nodes=1,
    gpus_per_node=8,
    site_profile="regional-single-node",
)
MEMORY = Check(
    kind="memory",
    verdict="fail",
    summary="每张 GPU 需要 200.0 GB，可用 72.0 GB。",
    figures={"required_bytes_per_gpu": 2e11, "available_bytes_per_gpu": 72e9},
)
POWER = Check(
    kind="power", verdict="ok", summary="功率约 5.0 kW。", figures={"average_power_watts": 5e3}
)
SITE = SiteProfile(
    id="regional-single-node",
    title="典型地方单机 GPU 服务器",
    aliases=("吉林", "Jilin"),
    nodes=1,
    gpus_per_node=8,
    gpu="A100 80GB PCIe",
)


def outcome(*checks: Check) -> Outcome:
    return Outcome(
        verdict="infeasible",
        lead="按 1 台 × 8 张评估。",
        scenario=SCENARIO,
        binding="memory",
        checks=checks,
        suggestions=(Suggestion("增加到 24 张 GPU", "可行"),),
        assumptions=("bf16 混合精度 + Adam",),
        site=SITE,
    )


def query(language: str = "zh") -> Query:
    return Query(
        question="吉林GPU服务器能训练千亿模型吗?",
        language=language,  # type: ignore[arg-type]
        scenario=Scenario(params=1e11, site_profile="regional-single-node"),
    )


@pytest.mark.parametrize(
    ("value", "text"),
    [(80e9, "80.0 GB (74.5 GiB)"), (1.6e12, "1.6 TB (1.5 TiB)"), (512, "512 B")],
)
def test_bytes_are_labelled_decimal_and_binary(value: float, text: str) -> None:
    assert fmt_bytes(value) == text


@pytest.mark.parametrize(
    ("value", "language", "text"),
    [(1e11, "zh", "1000亿"), (1e11, "en", "100B"), (1.4e12, "en", "1.4T"), (7e10, "zh", "700亿")],
)
def test_counts(value: float, language: str, text: str) -> None:
    assert fmt_count(value, language) == text  # type: ignore[arg-type]


def test_seconds_in_chinese() -> None:
    assert fmt_seconds(34 * 86400, "zh") == "34 天"  # a whole number shows no ".0"
    assert fmt_seconds(34.5 * 86400, "zh") == "34.5 天"
    assert fmt_seconds(90 * 86400, "en") == "90 days"


@pytest.mark.parametrize("topic", ["memory", "compute", "network", "power", "cost"])
@pytest.mark.parametrize("language", ["zh", "en"])
def test_topic_queries_are_in_the_answer_language(topic: str, language: str) -> None:
    text = topic_query(topic, SCENARIO, language)  # type: ignore[arg-type]
    has_han = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert has_han is (language == "zh")


def test_without_retriever_nothing_is_cited_and_the_text_says_so() -> None:
    answer = compose(query(), outcome(MEMORY), None)
    assert answer.citations == ()
    assert answer.text.startswith("**不可行**：按 1 台 × 8 张评估。")
    assert "未找到可引用的段落" in answer.text
    assert (
        answer.text.index("关键数字")
        < answer.text.index("怎样才能做到")
        < answer.text.index("假设")
    )


def test_render_numbers_each_passage_once() -> None:
    answer = compose(query("en"), outcome(MEMORY), None)
    assert render_markdown(answer).startswith("**Not feasible**")


@pytest.mark.e2e
def test_each_check_cites_only_documents_on_its_topic(kb_home: Path) -> None:
    retriever = open_test_retriever()
    answer = compose(query(), outcome(MEMORY, POWER), retriever)
    by_claim: dict[str, set[str]] = {}
    for citation in answer.citations:
        by_claim.setdefault(citation.claim, set()).add(citation.passage.doc_id)
    allowed_site = {"jilin-gpu-server", "regional-single-node"}
    assert by_claim[MEMORY.summary] <= TOPIC_DOCUMENTS["memory"] | allowed_site
    assert by_claim[POWER.summary] <= TOPIC_DOCUMENTS["power"] | allowed_site
    assert "regional-single-node" in by_claim[answer.citations[0].claim]
    assert "jilin-gpu-server" in {c.passage.doc_id for c in answer.citations}
    for number in range(1, len({c.passage.id for c in answer.citations}) + 1):
        assert f"[{number}]" in answer.text


def test_rich_renderable_shows_the_verdict_banner() -> None:
    import io

    from rich.console import Console

    from assistant.render import answer_renderable

    answer = compose(query("en"), outcome(MEMORY), None)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(answer_renderable(answer))
    text = console.export_text()
    assert text.splitlines()[0] == "Not feasible"
    assert "200.0 GB" in text


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_terminal_shows_the_verdict_once(language: Language) -> None:
    """The coloured banner is the verdict; the headline under it no longer repeats it (it
    printed "Not feasible" then "Not feasible: Memory does not fit…")."""
    import io

    from rich.console import Console

    from assistant.render import VERDICT_LABELS, answer_renderable

    answer = compose(query(language), outcome(MEMORY), None)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(answer_renderable(answer))
    text = console.export_text()
    label = VERDICT_LABELS["infeasible"][language]
    assert text.splitlines()[0] == label
    assert text.count(label) == 1, text
    assert answer.text.startswith(f"**{label}**")  # the Markdown (exports, pipes) keeps it
