"""Answers built from the records, for widget tests that do not need the pipeline."""

from __future__ import annotations

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
