"""Open slots → stated defaults: every value the question did not give is chosen here and said.

The result is the *effective* scenario (what is evaluated) and the assumptions, in the answer's
language. Site profiles fill hardware the question names only by place ("吉林GPU服务器").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Language, Scenario, SiteProfile
from assistant.render import fmt_count
from calculators.defaults import (
    CHINCHILLA_TOKENS_PER_PARAM,
    DAY,
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_DEADLINE_SECONDS,
    DEFAULT_INTER_LINK,
    FINETUNE_BATCH_SEQUENCES,
    FINETUNE_TOKENS,
    PRETRAIN_BATCH_TOKENS,
)
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU

__all__ = [
    "DEFAULT_CONTEXT",
    "DEFAULT_DEADLINE_SECONDS",
    "DEFAULT_INTER_LINK",
    "TYPICAL_INFERENCE_SETUPS",
    "TYPICAL_SETUPS",
    "names_own_run",
    "Resolved",
    "resolve",
    "say",
]

DEFAULT_CONTEXT = DEFAULT_CONTEXT_TOKENS

#: Evaluated when the question names no hardware and no site: (GPU, nodes, GPUs per node).
TYPICAL_SETUPS: tuple[tuple[str, int, int], ...] = (
    ("A100 SXM 80GB", 1, 8),
    ("H100 SXM 80GB", 1, 8),
    ("H100 SXM 80GB", 8, 8),
    ("H100 SXM 80GB", 128, 8),
)
#: The same for serving: one card first (a workstation, then data-centre cards), then a node.
TYPICAL_INFERENCE_SETUPS: tuple[tuple[str, int, int], ...] = (
    ("RTX 4090 24GB", 1, 1),
    ("A100 SXM 80GB", 1, 1),
    ("H100 SXM 80GB", 1, 1),
    ("H100 SXM 80GB", 1, 2),
    ("H100 SXM 80GB", 1, 4),
    ("H100 SXM 80GB", 1, 8),
    ("H100 SXM 80GB", 2, 8),
)


def say(language: Language, zh: str, en: str) -> str:
    """Pick the sentence in the answer's language."""
    return zh if language == "zh" else en


@dataclass(frozen=True)
class Resolved:
    """The effective scenario and what was assumed to get there."""

    scenario: Scenario
    assumptions: tuple[str, ...]
    site: SiteProfile | None = None


def _with_site(s: Scenario, site: SiteProfile | None, lang: Language, notes: list[str]) -> Scenario:
    if site is None:
        return s
    changes: dict[str, object] = {}
    if s.gpu is None:
        changes["gpu"] = _canonical_gpu(site.gpu)
    if s.gpu_count is None and s.nodes is None:
        changes["nodes"] = site.nodes
    if s.gpus_per_node is None:
        changes["gpus_per_node"] = site.gpus_per_node
    for name in ("intra_link", "inter_link", "host_ram_bytes"):
        if getattr(s, name) is None and getattr(site, name):
            changes[name] = getattr(site, name)
    if s.gpu is not None and s.intra_link is None:
        changes.update(_fit_gpu_to_site(s.gpu, site, lang, notes))
    link_zh = f"，机间 {site.inter_link}" if site.inter_link else ""
    link_en = f", {site.inter_link} between nodes" if site.inter_link else ""
    notes.append(
        say(
            lang,
            f"硬件取自站点档案「{site.title}」："
            f"{site.nodes} 台 × {site.gpus_per_node} 张 {site.gpu}{link_zh}。",
            f"Hardware from the site profile ‘{site.title}’: {site.nodes} "
            f"{'node' if site.nodes == 1 else 'nodes'} × {site.gpus_per_node} {site.gpu}{link_en}.",
        )
    )
    overridden = [
        n
        for n in ("gpu", "gpu_count", "nodes", "gpus_per_node", "intra_link", "inter_link")
        # the question's GPU wins even when it is swapped for its PCIe card
        if getattr(s, n) is not None and (n not in changes or n == "gpu")
    ]
    if overridden:
        given = say(lang, "，", ", ").join(
            text(
                Msg(
                    "answer.slot_value",
                    slot=Msg(f"parse.slot.{n}"),
                    value=str(changes.get(n, getattr(s, n))),
                ),
                lang,
            )
            for n in overridden
        )
        notes.append(text(Msg("answer.question_over_profile", given=given), lang))
    return replace(s, **changes)  # type: ignore[arg-type]


def _model_context(model: str | None) -> int:
    if model is None:
        return DEFAULT_CONTEXT
    from calculators.catalog.models import lookup_model

    return lookup_model(model).context_length or DEFAULT_CONTEXT


def _fit_gpu_to_site(
    gpu_name: str, site: SiteProfile, lang: Language, notes: list[str]
) -> dict[str, object]:
    """A GPU named in the question, placed in the site's servers: a PCIe server takes the PCIe
    card of that family (an SXM module needs an HGX board); with no PCIe card in the catalog,
    the site's PCIe link is not imposed on an NVLink part."""
    from calculators.catalog.hardware import GPUS, lookup_gpu, lookup_link

    if not site.intra_link or lookup_link(site.intra_link).kind != "pcie":
        return {}
    gpu = lookup_gpu(gpu_name)
    if lookup_link(gpu.intra_link).kind == "pcie":
        return {}
    family = gpu.name.split()[0]
    pcie = [
        g
        for g in GPUS.values()
        if g.name.split()[0] == family and lookup_link(g.intra_link).kind == "pcie"
    ]
    if not pcie:
        notes.append(
            say(
                lang,
                f"{gpu.name} 没有 PCIe 版，按其自带的 {gpu.intra_link} 计"
                "（需要换成 HGX 类服务器）。",
                f"{gpu.name} comes only as a module, so its own {gpu.intra_link} is used (it needs "
                "HGX-class servers).",
            )
        )
        return {"intra_link": gpu.intra_link}
    card = min(pcie, key=lambda g: abs(g.memory_bytes - gpu.memory_bytes))
    notes.append(
        say(
            lang,
            f"站点「{site.title}」是 PCIe 服务器，{family} 按其 PCIe 版（{card.name}）计。",
            f"The site ‘{site.title}’ is a PCIe server, so {family} is taken as its PCIe card "
            f"({card.name}).",
        )
    )
    return {"gpu": card.name}


def _canonical_gpu(name: str) -> str:
    from calculators.catalog.hardware import lookup_gpu

    return lookup_gpu(name).name


def _counts(s: Scenario, lang: Language, notes: list[str]) -> Scenario:
    per_node = s.gpus_per_node
    count = s.gpu_count
    nodes = s.nodes
    if count is None and nodes is not None:
        per_node = per_node or 8
        count = nodes * per_node
        if s.gpus_per_node is None:
            notes.append(
                say(lang, f"假设每台 {per_node} 张 GPU。", f"Assumed {per_node} GPUs per node.")
            )
    if count is None:
        count = 1 if s.task == "inference" else 8
        notes.append(
            say(
                lang,
                f"未给出 GPU 数量，按 {count} 张计算。",
                f"No GPU count given; evaluated with {count} {'GPU' if count == 1 else 'GPUs'}.",
            )
        )
    if per_node is None:
        per_node = min(count, 8) if nodes is None else max(1, -(-count // max(nodes, 1)))
    if nodes is None:
        nodes = max(1, -(-count // max(per_node, 1)))
    return replace(s, gpu_count=count, gpus_per_node=per_node, nodes=nodes)


def _workload(s: Scenario, lang: Language, notes: list[str], *, own_run: bool = False) -> Scenario:
    changes: dict[str, object] = {}
    if s.task is None:
        task = "pretrain" if (s.tokens or s.deadline_seconds) else "inference"
        changes["task"] = task
        notes.append(
            say(
                lang,
                f"未说明任务，按{'预训练' if task == 'pretrain' else '推理'}评估。",
                f"No task stated; evaluated as {task}.",
            )
        )
    task = str(changes.get("task", s.task))
    if task == "finetune" and s.method is None:
        changes["method"] = "full"
        notes.append(
            say(
                lang,
                "未说明微调方式，按全参数微调评估（LoRA/QLoRA 见建议）。",
                "No fine-tuning method stated; evaluated as full fine-tuning "
                "(LoRA/QLoRA are among the suggestions).",
            )
        )
    if s.context_length is None:
        context = min(_model_context(s.model), DEFAULT_CONTEXT)
        changes["context_length"] = context
        notes.append(
            say(lang, f"上下文/序列长度按 {context} 计。", f"Context (sequence) length {context}.")
        )
    if task != "inference":
        changes.update(_training_defaults(s, str(task), lang, notes, own_run=own_run))
    elif s.batch_size is None and s.concurrency:  # "20个并发": the stated load is the batch
        changes["batch_size"] = s.concurrency
    elif s.batch_size is None:
        changes["batch_size"] = 1
        notes.append(text(Msg("answer.default_one_sequence"), lang))
    return replace(s, **changes)  # type: ignore[arg-type]


#: "GPT-3量级" / "a GPT-3-scale model" name a size, not the model's own training run.
_SCALE_WORDS = re.compile(
    r"量级|规模|级别|级的|同级|那么大|scale|class|sized|size of|like", re.IGNORECASE
)


def names_own_run(question: str) -> bool:
    """True when a question names a catalog model's own training run ("训练GPT-3要多久"),
    False when it only borrows the model as a size ("GPT-3量级的模型")."""
    return not _SCALE_WORDS.search(question)


def _published_tokens(model: str | None) -> float | None:
    """The named catalog model's own published training tokens (GPT-3: 300B), if any."""
    if model is None:
        return None
    from calculators.catalog.models import lookup_model
    from calculators.errors import CalculatorInputError

    try:
        return lookup_model(model).training_tokens
    except (CalculatorInputError, KeyError, LookupError):
        return None


def _training_defaults(
    s: Scenario, task: str, lang: Language, notes: list[str], *, own_run: bool = False
) -> dict[str, object]:
    out: dict[str, object] = {}
    params = s.active_params or s.params or 0.0
    if s.tokens is None:
        published = _published_tokens(s.model) if task == "pretrain" and own_run else None
        if published is not None:
            out["tokens"] = published
            notes.append(
                say(
                    lang,
                    f"训练数据按 {s.model} 公开的训练量：{fmt_count(published, lang)} token。",
                    f"Training tokens: {s.model}'s published run, {fmt_count(published, lang)}.",
                )
            )
        elif task == "pretrain":
            # One rule with `calc`: 20 per ACTIVE parameter, MoE too
            # (calculators.compute_time.MOE_TOKENS_RULE).
            tokens = CHINCHILLA_TOKENS_PER_PARAM * params
            out["tokens"] = tokens
            moe = bool(s.active_params and s.params and s.active_params < s.params)
            notes.append(
                say(
                    lang,
                    f"训练数据按 Chinchilla 最优 20 token/{'激活' if moe else ''}参数："
                    f"{fmt_count(tokens, lang)} token。",
                    f"Training tokens: Chinchilla-optimal 20 per {'active ' if moe else ''}"
                    f"parameter = {fmt_count(tokens, lang)}.",
                )
            )
        else:
            out["tokens"] = FINETUNE_TOKENS
            notes.append(say(lang, "微调数据按 1 亿 token 计。", "Fine-tuning data: 100M tokens."))
    if s.deadline_seconds is None:
        out["deadline_seconds"] = DEFAULT_DEADLINE_SECONDS
        notes.append(
            say(
                lang,
                f"期限按 {DEFAULT_DEADLINE_SECONDS / DAY:.0f} 天计。",
                f"Deadline: {DEFAULT_DEADLINE_SECONDS / DAY:.0f} days.",
            )
        )
    if s.batch_size is None:
        context = s.context_length or DEFAULT_CONTEXT
        batch = (
            round(PRETRAIN_BATCH_TOKENS / context)
            if task == "pretrain"
            else FINETUNE_BATCH_SEQUENCES
        )
        out["batch_size"] = batch
        notes.append(
            say(
                lang,
                f"全局批大小 {batch} 条序列，每卡微批 1。",
                f"Global batch {batch} sequences, micro-batch 1 per GPU.",
            )
        )
    return out


def _precision(s: Scenario, lang: Language, notes: list[str]) -> Scenario:
    from calculators.catalog.hardware import lookup_gpu

    gpu = lookup_gpu(s.gpu) if s.gpu else None
    precision = gpu.default_training_precision() if gpu else "bf16"
    if s.precision == "fp8" and s.task != "inference" and gpu and not gpu.supports("fp8"):
        notes.append(
            say(
                lang,
                f"{gpu.name} 没有 FP8 张量核心，fp8 训练无法使用，按 {precision} 评估。",
                f"{gpu.name} has no FP8 tensor mode, so fp8 training is not possible; "
                f"evaluated in {precision}.",
            )
        )
        return replace(s, precision=precision)
    quantized = s.precision in ("int4", "int8")
    if quantized and s.task != "inference" and s.method != "qlora":
        notes.append(
            say(
                lang,
                f"{s.precision} 量化只用于推理权重（或 QLoRA 的冻结基座）；"
                f"训练按 {precision} 评估。",
                f"{s.precision} quantization applies to inference weights (or QLoRA's frozen base);"
                f" training is evaluated in {precision}.",
            )
        )
        return replace(s, precision=precision)
    if s.precision == "fp8" and s.task != "inference":
        notes.append(
            say(
                lang,
                "fp8 混合精度训练（按问题所述）：算力按 FP8 稠密峰值；显存仍按每参数 16 字节"
                "（主权重与优化器状态保持高精度，DeepSeek-V3 报告 §3.3）。",
                "fp8 mixed-precision training (as asked): compute at the dense FP8 peak; memory "
                "still 16 bytes per parameter (master weights and optimizer states stay in higher "
                "precision, DeepSeek-V3 report §3.3).",
            )
        )
        return s
    if s.precision is not None:
        return s
    if s.task == "inference":
        precision = _serving_precision(s, gpu, lang, notes) or precision
        notes.append(
            say(
                lang,
                f"权重与 KV cache 按 {precision} 存放。",
                f"Weights and KV cache in {precision}.",
            )
        )
    elif s.task == "finetune" and s.method in ("lora", "qlora"):
        base_zh = "4 位 NF4" if s.method == "qlora" else precision
        base_en = "4-bit NF4" if s.method == "qlora" else precision
        notes.append(
            say(
                lang,
                f"冻结的基座权重按 {base_zh} 存放；只训练 LoRA 适配器（{precision} + Adam）。",
                f"Frozen base weights in {base_en}; only the LoRA adapters are trained "
                f"({precision} with Adam).",
            )
        )
    else:
        notes.append(
            say(
                lang,
                f"{precision} 混合精度 + Adam（每参数 16 字节的模型状态）。",
                f"{precision} mixed precision with Adam (16 bytes of model state per parameter).",
            )
        )
    return replace(s, precision=precision)


def _serving_precision(
    s: Scenario, gpu: GPU | None, lang: Language, notes: list[str]
) -> str | None:
    """A catalog model is served in its released format where the GPU runs it (DeepSeek-V3:
    FP8 on Hopper), else the nearest format the GPU has; None for a bare size."""
    from assistant.i18n import text
    from calculators.catalog.models import lookup_model
    from calculators.serving_layout import serving_dtype, serving_precision_message

    if s.model is None or gpu is None:
        return None
    model = lookup_model(s.model)
    notes.append(text(serving_precision_message(model=model, gpu=gpu), lang) + say(lang, "。", "."))
    return serving_dtype(model=model, gpu=gpu)


def _links(s: Scenario, lang: Language, notes: list[str]) -> Scenario:
    if (s.nodes or 1) <= 1:
        return s
    if s.inter_link is None:
        notes.append(
            say(
                lang,
                f"机间网络未说明，按 {DEFAULT_INTER_LINK}（400 Gb/s）计。",
                f"Inter-node network not stated; assumed {DEFAULT_INTER_LINK} (400 Gb/s).",
            )
        )
        s = replace(s, inter_link=DEFAULT_INTER_LINK)
    if "infiniband" in (s.inter_link or "").lower():
        notes.append(
            say(
                lang,
                "InfiniBand 按每张 GPU 一个端口计（DGX/HGX 集群的常见做法）。",
                "InfiniBand with one port per GPU (as in DGX/HGX clusters).",
            )
        )
    return s


def _model(s: Scenario) -> Scenario:
    from calculators.catalog.models import lookup_model

    if s.model is not None:
        spec = lookup_model(s.model)
        return replace(s, params=float(spec.params), active_params=float(spec.active_params))
    if s.params is not None and s.active_params is None:
        return replace(s, active_params=s.params)
    return s


def resolve(
    scenario: Scenario, site: SiteProfile | None, language: Language, *, own_run: bool = False
) -> Resolved:
    """Fill every open slot of `scenario`; hardware must be present (directly or via `site`).

    `own_run`: the question names the model's own training run ("训练GPT-3要多久"), so an
    open token count is that model's published one (see `names_own_run`).

    Raises:
        CalculatorInputError: a catalog name is unknown (UnknownNameError suggests the closest).
    """
    notes: list[str] = []
    s = _model(scenario)
    s = _with_site(s, site, language, notes)
    s = _workload(s, language, notes, own_run=own_run)
    s = _counts(s, language, notes)
    s = _precision(s, language, notes)
    s = _links(s, language, notes)
    return Resolved(s, tuple(notes), site)
