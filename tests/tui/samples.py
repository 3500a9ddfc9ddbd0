"""Answers built from the records, for widget, key and snapshot tests that need no pipeline."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import tomllib

from assistant.records import Answer, Check, Citation, Passage, Query, Scenario

HOSTILE = "[bold red]不是标记[/bold red] \x1b[31m红色\x1b[0m [link=http://x]x[/link]"
"""Rich markup and ANSI escapes that must be shown literally, never interpreted."""


def sample_passage(text: str = "ZeRO-3 把参数、梯度和优化器状态切分到所有 GPU 上。") -> Passage:
    """A knowledge-base passage with a Chinese title and heading."""
    return Passage(
        id="p-zero-3",
        doc_id="zero-fsdp",
        source="guides/zero-fsdp.zh.md",
        title="ZeRO 与 FSDP:切分模型状态",
        heading="ZeRO-3",
        text=text,
        lang="zh",
        score=0.8,
        anchor="stage-3",
    )


def sample_answer(
    *,
    question: str = "吉林GPU服务器能训练千亿模型吗?",
    verdict: str = "infeasible",
    text: str = "**不可行**:显存不足。\n\n- 需要 1.6 TB 显存,单机只有 640 GB。",
    passage_text: str | None = None,
    changed: tuple[str, ...] = (),
) -> Answer:
    """A Chinese answer with one memory check and one citation."""
    scenario = Scenario(task="pretrain", params=1e11, gpu="A100-80GB", gpu_count=8)
    query = Query(
        question=question,
        language="zh",
        scenario=scenario,
        changed_slots=changed,
        warnings=("把“千亿”理解为 1000 亿参数",),
    )
    check = Check(
        kind="memory",
        verdict="fail",
        summary="每卡需要 200 GB,只有 80 GB",
        figures={
            "required_bytes_per_gpu": 2.0e11,
            "available_bytes_per_gpu": 8.0e10,
            "min_gpus": 20,
        },
        formula="weights + gradients + optimizer = 16 B × params",
        inputs={"params": 1e11, "gpu_count": 8},
        assumptions=("bf16 混合精度 + Adam",),
        sources=("Rajbhandari et al. 2020",),
    )
    passage = sample_passage(passage_text) if passage_text else sample_passage()
    return Answer(
        question=question,
        language="zh",
        verdict=verdict,  # type: ignore[arg-type]
        binding_constraint="memory",
        text=text,
        query=query,
        checks=(check,),
        assumptions=("训练 token 数取 Chinchilla 最优 (20 × 参数量)",),
        citations=(Citation(passage=passage, claim="每卡需要 200 GB,只有 80 GB"),),
        scenario=Scenario(
            task="pretrain",
            params=1e11,
            gpu="A100-80GB",
            gpu_count=8,
            precision="bf16",
            tokens=2e12,
        ),
    )


# -- fixed answers for the snapshots (as the pipeline shapes them, but written down here, so
# that a wording change in the pipeline does not redraw the snapshots) ------------------------

SAMPLES = Path(__file__).with_name("sample-answers")
"""Fixed answer texts and passages (Markdown and TOML), written down like the pipeline's."""


def _citations(language: str) -> tuple[Citation, ...]:
    return tuple(
        Citation(
            passage=Passage(
                id=f"p{number}",
                doc_id=row["doc_id"],
                source=f"guides/{row['doc_id']}.{language}.md",
                title=row["title"],
                heading=row["heading"],
                text=row["text"],
                lang=language,  # type: ignore[arg-type]
                score=0.8,
            ),
            claim=row["text"],
        )
        for number, row in enumerate(_passages()[language], start=1)
    )


def _passages() -> dict[str, list[dict[str, str]]]:
    with (SAMPLES / "passages.toml").open("rb") as handle:
        return tomllib.load(handle)


def founding_answer() -> Answer:
    """The founding question's answer, in Chinese, with five citations."""
    return replace(
        sample_answer(text=(SAMPLES / "founding.zh.md").read_text("utf-8")),
        citations=_citations("zh"),
    )


def english_answer() -> Answer:
    """A conditional English answer (8 × H100, 70B fine-tuning), with five citations."""
    question = "Can 8x H100 fine-tune a 70B model?"
    scenario = Scenario(task="finetune", params=7e10, gpu="H100 SXM 80GB", gpu_count=8)
    query = Query(question=question, language="en", scenario=scenario)
    check = Check(
        kind="memory",
        verdict="fail",
        summary="Needs 231.8 GB per GPU, 72.0 GB available",
        figures={"required_bytes_per_gpu": 2.318e11, "available_bytes_per_gpu": 7.2e10},
        formula="16 B × params ÷ GPUs",
        inputs={"params": 7e10, "gpu_count": 8},
        assumptions=("bf16 mixed precision + Adam",),
        sources=("Rajbhandari et al. 2020",),
    )
    return Answer(
        question=question,
        language="en",
        verdict="conditional",
        binding_constraint="memory",
        text=(SAMPLES / "eight-h100.en.md").read_text("utf-8"),
        query=query,
        checks=(check,),
        assumptions=("Context (sequence) length 4096.",),
        citations=_citations("en"),
        scenario=replace(scenario, precision="bf16", tokens=1e8),
    )
