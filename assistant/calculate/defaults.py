"""Open slots → stated defaults: every value the question did not give is chosen here and said.

The result is the *effective* scenario (what is evaluated) and the assumptions, in the answer's
language. Site profiles fill hardware the question names only by place ("吉林GPU服务器").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.calculate.batch_scale import DATA_PARALLEL_SEQUENCES, data_parallel_batch
from assistant.calculate.default_formats import link_defaults, precision_defaults, said
from assistant.i18n import t, text
from assistant.records import Language, Scenario, SiteProfile
from calculators.defaults import (
    CHINCHILLA_TOKENS_PER_PARAM,
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_DEADLINE_SECONDS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_INTER_LINK,
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    FINETUNE_BATCH_SEQUENCES,
    FINETUNE_TOKENS,
    PRETRAIN_BATCH_TOKENS,
)
from calculators.messages import Msg
from calculators.power import DEFAULT_PUE

if TYPE_CHECKING:
    pass

__all__ = [
    "site_hardware",
    "DEFAULT_CONTEXT",
    "DEFAULT_DEADLINE_SECONDS",
    "DEFAULT_INTER_LINK",
    "TYPICAL_INFERENCE_SETUPS",
    "TYPICAL_SETUPS",
    "names_own_run",
    "Resolved",
    "resolve",
    "say",
    "typical_setups",
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


def typical_setups(
    s: Scenario, *, training: bool, counted: bool
) -> list[tuple[str, int | None, int | None]]:
    """The set-ups tried when the question names no GPU: the usual GPUs at a stated count
    ("千卡集群"), else the typical set-ups; a card with no tensor mode for a stated precision
    (fp8 on an A100) is skipped, not refused as bad input."""
    setups: list[tuple[str, int | None, int | None]] = (
        [(gpu, s.nodes, s.gpus_per_node) for gpu in ("A100 SXM 80GB", "H100 SXM 80GB")]
        if counted
        else list(TYPICAL_SETUPS if training else TYPICAL_INFERENCE_SETUPS)
    )
    return [x for x in setups if _runs_precision(x[0], s.precision)] or setups


def _runs_precision(gpu: str, precision: str | None) -> bool:
    from calculators.catalog.hardware import GPUS, PRECISIONS

    card = GPUS.get(gpu)
    if card is None or precision is None or precision.lower() not in PRECISIONS:
        return True  # int4 is a weight format, not a tensor mode: any card dequantizes it
    return card.supports(precision)


def say(language: Language, zh: str, en: str) -> str:
    """Pick the sentence in the answer's language (older code; new text goes in the catalog)."""
    return zh if language == "zh" else en


@dataclass(frozen=True)
class Resolved:
    """The effective scenario and what was assumed to get there."""

    scenario: Scenario
    assumptions: tuple[str, ...]
    site: SiteProfile | None = None


def site_hardware(
    s: Scenario, site: SiteProfile, lang: Language
) -> tuple[Scenario, tuple[str, ...]]:
    """`s` on the site's hardware (GPU, counts, links; the question's own win) and the notes
    saying so, for a question with no job to resolve ("吉林GPU服务器一个月电费多少")."""
    notes: list[str] = []
    return _with_site(s, site, lang, notes), tuple(notes)


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
    link = Msg("default.site_link", link=site.inter_link) if site.inter_link else ""
    unit = Msg("default.unit.node" if site.nodes == 1 else "default.unit.nodes")
    notes.append(
        said(
            "default.site",
            lang,
            title=site.title,
            nodes=site.nodes,
            unit=unit,
            per_node=site.gpus_per_node,
            gpu=site.gpu,
            link=link,
        )
    )
    overridden = [
        n
        for n in ("gpu", "gpu_count", "nodes", "gpus_per_node", "intra_link", "inter_link")
        # the question's GPU wins even when it is swapped for its PCIe card
        if getattr(s, n) is not None and (n not in changes or n == "gpu")
    ]
    if overridden:
        given = t("default.list_separator", lang).join(
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
        notes.append(said("default.module_only", lang, gpu=gpu.name, link=gpu.intra_link))
        return {"intra_link": gpu.intra_link}
    card = min(pcie, key=lambda g: abs(g.memory_bytes - gpu.memory_bytes))
    notes.append(said("default.pcie_card", lang, title=site.title, family=family, card=card.name))
    return {"gpu": card.name}


def _canonical_gpu(name: str) -> str:
    from calculators.catalog.hardware import lookup_gpu

    return lookup_gpu(name).name


def _counts(s: Scenario, lang: Language, notes: list[str]) -> Scenario:
    per_node = s.gpus_per_node
    count = s.gpu_count
    nodes = s.nodes
    if count is None and nodes is not None:
        per_node = per_node or DEFAULT_GPUS_PER_NODE
        count = nodes * per_node
        if s.gpus_per_node is None:
            notes.append(said("default.per_node", lang, per_node=per_node))
    if count is None and per_node is not None:
        count = per_node  # "4卡4090服务器": one server of the GPUs per node it states
    if count is None:  # one replica of a stated split ("TP=2"), never fewer GPUs than it
        split = (s.tensor_parallel or 1) * (s.pipeline_parallel or 1)
        count = max(split, 1) if s.task == "inference" else max(split, DEFAULT_GPUS_PER_NODE)
        key = "default.gpu_count_one" if count == 1 else "default.gpu_count"
        notes.append(said(key, lang, count=count))
    if per_node is None:
        # A stated count with no server named ("4x H100") sits in one standard server: more
        # GPUs come as whole servers of the usual size, not as more boxes of the stated count.
        per_node = DEFAULT_GPUS_PER_NODE if nodes is None else max(1, -(-count // max(nodes, 1)))
    if nodes is None:
        nodes = max(1, -(-count // max(per_node, 1)))
    return replace(s, gpu_count=count, gpus_per_node=per_node, nodes=nodes)


def _workload(s: Scenario, lang: Language, notes: list[str], *, own_run: bool = False) -> Scenario:
    changes: dict[str, object] = {}
    if s.task is None:
        task = "pretrain" if (s.tokens or s.deadline_seconds) else "inference"
        changes["task"] = task
        notes.append(said("default.task", lang, task=Msg(f"default.task_name.{task}")))
    task = str(changes.get("task", s.task))
    if task == "finetune" and s.method is None:
        changes["method"] = "full"
        notes.append(said("default.finetune_method", lang))
    if task == "inference":
        changes.update(_lengths(s, lang, notes))
    if s.context_length is None and "context_length" not in changes:
        context = min(_model_context(s.model), DEFAULT_CONTEXT)
        changes["context_length"] = context
        notes.append(said("default.context", lang, context=context))
    if task != "inference":
        changes.update(_training_defaults(s, str(task), lang, notes, own_run=own_run))
    elif s.batch_size is None and s.concurrency is not None:
        changes["batch_size"] = s.concurrency  # "20 个并发": twenty sequences in flight
    elif s.batch_size is None:
        changes["batch_size"] = 1
        notes.append(text(Msg("answer.default_one_sequence"), lang))
    return replace(s, **changes)  # type: ignore[arg-type]


def _lengths(s: Scenario, lang: Language, notes: list[str]) -> dict[str, object]:
    """A serving request's prompt and output lengths, and the context they make.

    With either length stated, the other takes its default and, with no context stated, each
    sequence's KV context is prompt + output. With neither, prompt + output fit in the context
    (stated or default), and are said: they set the time to first token and the requests per
    second. A 1,024-token context holds a 768-token prompt and 256 output tokens, not the
    default 1,024 + 256 = 1,280, more than each sequence's KV cache was sized for."""
    stated = s.prompt_tokens is not None or s.output_tokens is not None
    if not stated:
        context = s.context_length or min(_model_context(s.model), DEFAULT_CONTEXT)
        output = min(DEFAULT_OUTPUT_TOKENS, max(1, context // 2))
        prompt = max(1, min(DEFAULT_PROMPT_TOKENS, context - output))
        notes.append(said("default.request_lengths", lang, prompt=prompt, output=output))
        return {"prompt_tokens": prompt, "output_tokens": output}
    prompt = s.prompt_tokens or DEFAULT_PROMPT_TOKENS
    output = s.output_tokens or DEFAULT_OUTPUT_TOKENS
    if s.prompt_tokens is None:
        notes.append(said("default.prompt_tokens", lang, prompt=prompt))
    if s.output_tokens is None:
        notes.append(said("default.output_tokens", lang, output=output))
    out: dict[str, object] = {"prompt_tokens": prompt, "output_tokens": output}
    if s.context_length is not None and prompt + output > s.context_length:
        notes.append(
            said(
                "default.lengths_over_context",
                lang,
                prompt=prompt,
                output=output,
                context=s.context_length,
            )
        )
    if s.context_length is None:
        out["context_length"] = prompt + output
        notes.append(
            said(
                "default.context_from_lengths",
                lang,
                prompt=prompt,
                output=output,
                context=prompt + output,
            )
        )
    return out


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
            notes.append(said("default.published_tokens", lang, model=s.model, tokens=published))
        elif task == "pretrain":
            # One rule with `calc`: 20 per ACTIVE parameter, MoE too
            # (calculators.compute_time.MOE_TOKENS_RULE).
            tokens = CHINCHILLA_TOKENS_PER_PARAM * params
            out["tokens"] = tokens
            moe = bool(s.active_params and s.params and s.active_params < s.params)
            notes.append(
                said(
                    "default.chinchilla_tokens",
                    lang,
                    per_param=CHINCHILLA_TOKENS_PER_PARAM,
                    parameter=Msg("default.active_parameter" if moe else "default.parameter"),
                    tokens=tokens,
                )
            )
        else:
            out["tokens"] = FINETUNE_TOKENS
            notes.append(said("default.finetune_tokens", lang, tokens=FINETUNE_TOKENS))
    if s.deadline_seconds is None:
        out["deadline_seconds"] = DEFAULT_DEADLINE_SECONDS
        notes.append(said("default.deadline", lang, deadline=DEFAULT_DEADLINE_SECONDS))
    if s.batch_size is None:
        context = s.context_length or DEFAULT_CONTEXT
        batch = (
            round(PRETRAIN_BATCH_TOKENS / context)
            if task == "pretrain"
            else FINETUNE_BATCH_SEQUENCES
        )
        grown = _pipeline_batch(s, batch) if task == "pretrain" else None
        wide = data_parallel_batch(s, batch) if task == "pretrain" and not grown else None
        out["batch_size"] = grown[0] if grown else wide or batch
        if wide:
            dp = wide // DATA_PARALLEL_SEQUENCES
            tokens = float(wide * context)
            notes.append(
                said(
                    "default.batch_grown_dp", lang, batch=wide, tokens=tokens, dp=dp, default=batch
                )
            )
        elif grown:
            sequences, dp, per_pipeline = grown
            notes.append(
                said(
                    "default.batch_grown_pp"
                    if s.tensor_parallel
                    else "default.batch_grown_pp_open_tp",
                    lang,
                    batch=sequences,
                    tokens=float(sequences * context),
                    pp=s.pipeline_parallel,
                    dp=dp,
                    microbatches=per_pipeline,
                    default=batch,
                )
            )
        else:
            if s.micro_batch:  # a stated micro-batch is the user's, said as such
                notes.append(said("default.batch", lang, batch=batch, micro=s.micro_batch))
            else:  # the layout picks it (`zero3_micro`), said with the layout
                notes.append(said("default.batch_open", lang, batch=batch))
    return out


def _pipeline_batch(s: Scenario, default: int) -> tuple[int, int, int] | None:
    """(sequences, data-parallel pipelines, micro-batches per pipeline) when a stated PP > 1
    needs a batch larger than the 4M-token default to keep its 1F1B bubble (p - 1) / (m + p - 1)
    small: at least MIN_MICROBATCHES_PER_STAGE x p micro-batches of one sequence on each
    data-parallel pipeline, as large runs grow the batch with the cluster (Llama 3 405B: 16M
    tokens on 16K H100s with PP=16, arXiv:2407.21783 §3.3.2/§3.4.1; DeepSeek-V3 up to 63M,
    arXiv:2412.19437 §4.2). The same rule as the open layouts' `pipeline_layouts`. TP is the
    stated one; when it is open, TP=1, the widest data-parallel degree the layouts try, so
    whichever split is chosen keeps at least that many micro-batches per stage (sized for
    the node's TP, TP=1 would run 8x fewer: 1,024 sequences on 2,048 GPUs at PP=16 are 8
    micro-batches per pipeline, a DualPipe/1F1B step mostly bubble). None: the default is
    enough."""
    from calculators.planner.compute import MIN_MICROBATCHES_PER_STAGE

    pp, gpus = s.pipeline_parallel or 1, s.gpu_count or 0
    if pp <= 1 or gpus < pp:
        return None
    tp = s.tensor_parallel or 1
    dp = max(1, gpus // (tp * pp))
    per_pipeline = MIN_MICROBATCHES_PER_STAGE * pp
    sequences = per_pipeline * dp
    return (sequences, dp, per_pipeline) if sequences > default else None


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
    s = precision_defaults(s, language, notes)
    s = link_defaults(s, language, notes)
    if s.pue is not None:
        notes.append(said("default.pue_stated", language, pue=s.pue, average=DEFAULT_PUE))
    return Resolved(s, tuple(notes), site)
