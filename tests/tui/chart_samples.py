"""Fixed answers with the figures charts are drawn from (copied from real `ask --json` runs,
so the snapshots do not move when the calculators are retuned)."""

from __future__ import annotations

from assistant.records import (
    Answer,
    Check,
    Language,
    Option,
    Query,
    ScalePoint,
    Scaling,
    Scenario,
)

#: "用8张H100训练7B模型，1T token，30天内能完成吗？": the memory check's figures.
TRAINING_MEMORY = {
    "required_bytes_per_gpu": 57948408512.0,
    "available_bytes_per_gpu": 72000000000.0,
    "memory_bytes": 80000000000.0,
    "min_gpus": 2,
    "weights_bytes": 14036394240.0,
    "gradients_bytes": 14036394240.0,
    "optimizer_bytes": 10527295680.0,
    "activations_bytes": 19348324352.0,
    "kv_cache_bytes": 0.0,
    "overhead_bytes": 0.0,
}
#: The same question's series: 2 GPUs do not fit, 51 meet the 30-day deadline.
TRAINING_SCALING = Scaling(
    metric="seconds",
    points=(
        ScalePoint(gpu_count=2, value=None, memory_fits=False),
        ScalePoint(gpu_count=4, value=32417946.187482044, memory_fits=True),
        ScalePoint(gpu_count=8, value=16208973.093741022, memory_fits=True),
        ScalePoint(gpu_count=16, value=8104486.546870511, memory_fits=True),
        ScalePoint(gpu_count=51, value=2542584.0147044742, memory_fits=True),
    ),
    gpu_count=8,
    deadline_seconds=30 * 86400.0,
    assumed_inter_link="InfiniBand NDR",
)
#: "8张H100部署Llama-2-70B推理，32并发": memory per GPU with the KV cache and overhead.
SERVING_MEMORY = {
    "required_bytes_per_gpu": 40000000000.0,
    "available_bytes_per_gpu": 72000000000.0,
    "weights_bytes": 34488324096.0,
    "kv_cache_bytes": 42949672960.0,
    "kv_cache_bytes_per_gpu": 5368709120.0,
    "overhead_bytes": 122100000.0,
}

QUESTIONS = {
    "zh": "用8张H100训练7B模型，1T token，30天内能完成吗？",
    "en": "Can 8 H100s train a 7B model on 1T tokens within 30 days?",
}


def _query(language: Language, question: str, scenario: Scenario) -> Query:
    return Query(question=question, language=language, scenario=scenario)


def training_answer(language: Language = "zh") -> Answer:
    """A training answer with the memory breakdown and the time-against-GPU-count series."""
    scenario = Scenario(task="pretrain", params=7e9, gpu="H100 SXM 80GB", gpu_count=8, tokens=1e12)
    memory = Check(
        kind="memory", verdict="ok", summary="57.9 GB / 72.0 GB", figures=TRAINING_MEMORY
    )
    compute = Check(
        kind="compute",
        verdict="fail",
        summary="188 days > 30 days",
        figures={"seconds": 16208973.093741022, "deadline_seconds": 2592000.0},
    )
    question = QUESTIONS[language]
    return Answer(
        question=question,
        language=language,
        verdict="infeasible",
        binding_constraint="compute",
        text="**不可行**" if language == "zh" else "**Not feasible**",
        query=_query(language, question, scenario),
        checks=(memory, compute),
        scenario=scenario,
        scaling=TRAINING_SCALING,
    )


def comparison_answer(language: Language = "zh") -> Answer:
    """A comparison of two 8-GPU options ("8×A100 还是 8×H100 微调 13B?")."""
    a100 = Scenario(task="finetune", gpu="A100 SXM 80GB", gpu_count=8, params=13e9)
    h100 = Scenario(task="finetune", gpu="H100 SXM 80GB", gpu_count=8, params=13e9)
    options = (
        Option(a100, "feasible", {"seconds": 8830.28, "memory_share": 0.412}, ("memory",)),
        Option(h100, "feasible", {"seconds": 2931.12, "memory_share": 0.765}, ("speed",)),
    )
    question = "8×A100 还是 8×H100 微调 13B?" if language == "zh" else "8x A100 or 8x H100?"
    return Answer(
        question=question,
        language=language,
        verdict="feasible",
        binding_constraint=None,
        text="**可行**" if language == "zh" else "**Feasible**",
        query=_query(language, question, a100),
        checks=(),
        scenario=h100,
        options=options,
    )


def serving_check() -> Check:
    """The memory check of a serving answer (weights, KV cache, overhead)."""
    return Check(kind="memory", verdict="ok", summary="", figures=SERVING_MEMORY)
