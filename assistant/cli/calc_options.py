"""Options of `gpu-advisor calc` and how they become a `calculators.planner.plan.Plan`."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from calculators.catalog.hardware import GPU, lookup_gpu, lookup_link
from calculators.catalog.models import ModelSpec, generic_model, lookup_model
from calculators.defaults import DAY, DEFAULT_CONTEXT_TOKENS
from calculators.messages import Msg
from calculators.planner.plan import Plan
from calculators.serving_layout import serving_dtype, serving_layout
from calculators.serving_solvers import kv_format
from calculators.validate import fail

F = TypeVar("F", bound=Callable[..., Any])

_SUFFIXES = {
    "k": 1e3,
    "m": 1e6,
    "b": 1e9,
    "g": 1e9,
    "t": 1e12,
    "万亿": 1e12,
    "千亿": 1e11,
    "百亿": 1e10,
    "十亿": 1e9,
    "亿": 1e8,
    "万": 1e4,
}
_NUMBER = re.compile(
    r"^\s*([-+]?[0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)?\s*([a-z\u4e00-\u9fff]*)\s*$", re.IGNORECASE
)


class Number(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.3 on; we support 8.1
    """A float that also accepts size suffixes: 70B, 2T, 1.5e12, 千亿, 3万亿."""

    name = "number"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        match = _NUMBER.match(str(value))
        suffix = match.group(2).lower() if match else ""
        if match and (match.group(1) or suffix in _SUFFIXES) and suffix in ("", *_SUFFIXES):
            number = float(match.group(1) or 1) * _SUFFIXES.get(suffix, 1.0)
            if math.isfinite(number):
                return number
        from assistant.cli.usage import CatalogBadParameter

        raise CatalogBadParameter(Msg("cli.usage.reason.size"), ctx, param)


NUMBER = Number()


#: Options of the training commands only; `calc infer` / `serve` does not offer them (they
#: would be silently ignored there). Their values when absent:
TRAINING_DEFAULTS: dict[str, Any] = {
    "tokens": None,
    "deadline_days": 90.0,
    "zero_stage": 0,
    "recompute": None,
    "micro_batch_size": 1,
    "pp_microbatches": None,
    "expert_parallel": 1,
    "host_ram_bytes": None,
    "global_batch_tokens": None,
    "offload": False,
    "optimizer": "adam",
}


def plan_options(func: F) -> F:
    """The options of train / finetune / network: the shared ones and the training terms."""
    return _with_options(func, training=True)


def serving_options(func: F) -> F:
    """The options of infer / serve: the shared ones, no training terms."""
    return _with_options(func, training=False)


def _with_options(func: F, *, training: bool) -> F:
    shared = _shared_options()
    options = shared[:-2] + (_training_options() if training else []) + shared[-2:]
    for option in reversed(options):  # --lang and --json stay last
        func = option(func)
    return func


def _shared_options() -> list[Callable[[F], F]]:
    return [
        click.option("--model", default=None, help="Catalog model name, e.g. llama-2-70b."),
        click.option(
            "--params",
            type=NUMBER,
            default=None,
            help="Bare size instead of --model (70e9, 70B, 千亿): a generic shape.",
        ),
        click.option("--gpu", "gpu_name", required=True, help="Catalog GPU: H100, 'A100 80G'."),
        click.option("--gpus", type=int, default=None, help="Total GPUs [default: 1 node]."),
        click.option("--nodes", type=int, default=None, help="Nodes (gpus = nodes x per node)."),
        click.option("--gpus-per-node", type=int, default=8, show_default=True),
        click.option("--intra-link", default=None, help="Intra-node link [default: the GPU's]."),
        click.option("--inter-link", default=None, help="Inter-node link, e.g. '400G IB', 25GbE."),
        click.option("--nics-per-node", type=int, default=1, show_default=True),
        click.option(
            "--precision",
            default=None,
            help="bf16 (default where supported), fp16, fp8 (GPUs with FP8), fp32; "
            "serving: the model's released format where the GPU runs it.",
        ),
        click.option(
            "--tp",
            "tensor_parallel",
            type=int,
            default=None,
            help="Tensor parallel [default: 1; serving: the deployment layout, TP inside a node].",
        ),
        click.option(
            "--pp",
            "pipeline_parallel",
            type=int,
            default=None,
            help="Pipeline stages [default: 1; serving: one per node if needed].",
        ),
        click.option(
            "--seq-len",
            "--context",
            "sequence_length",
            type=int,
            default=DEFAULT_CONTEXT_TOKENS,
            show_default=True,
            help="Sequence (training) or context (inference) length.",
        ),
        click.option("--mfu", type=float, default=None, help="Model FLOPs utilisation (0-1]."),
        click.option(
            "--price",
            "price_per_gpu_hour",
            type=float,
            default=None,
            help="Your price per GPU-hour (no price is ever invented).",
        ),
        click.option("--currency", default=None),
        click.option(
            "--price-kwh",
            "price_per_kwh",
            type=float,
            default=None,
            help="Your electricity price per kWh: prices the energy (with PUE).",
        ),
        click.option(
            "--pue",
            type=float,
            default=None,
            help="Facility PUE [default: 1.58; 1.0 for 1-4 consumer cards at a desk].",
        ),
        click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True),
        click.option("--json", "as_json", is_flag=True, help="Print SI numbers as JSON."),
    ]


def _training_options() -> list[Callable[[F], F]]:
    return [
        click.option(
            "--tokens",
            type=NUMBER,
            default=None,
            help="Training tokens [default: Chinchilla 20/param; finetune 1e8].",
        ),
        click.option("--deadline-days", type=float, default=90.0, show_default=True),
        click.option(
            "--zero",
            "zero_stage",
            type=int,
            default=0,
            show_default=True,
            help="ZeRO stage 0-3 (3 = FSDP full shard).",
        ),
        click.option(
            "--recompute",
            type=click.Choice(["none", "selective", "full"]),
            default=None,
            help="[default: selective; full for fine-tuning]",
        ),
        click.option("--micro-batch", "micro_batch_size", type=int, default=1, show_default=True),
        click.option(
            "--pp-microbatches",
            type=int,
            default=None,
            help="Micro-batches per pipeline step (1F1B bubble (p-1)/(m+p-1)) "
            "[default: global batch / (DP x micro-batch), >= 4 x PP].",
        ),
        click.option(
            "--ep",
            "expert_parallel",
            type=int,
            default=1,
            show_default=True,
            help="MoE expert-parallel degree: experts split over EP of the DP ranks.",
        ),
        click.option(
            "--host-ram",
            "host_ram_bytes",
            type=NUMBER,
            default=None,
            help="Host RAM per node in bytes, e.g. 1T, 512G, for CPU offload "
            "[default: by server class, e.g. 1 TB for DGX A100].",
        ),
        click.option(
            "--batch-tokens",
            "global_batch_tokens",
            type=NUMBER,
            default=None,
            help="Global batch in tokens [default: 4M pretrain, 64 seq finetune].",
        ),
        click.option(
            "--offload",
            is_flag=True,
            help="Offload optimizer states (LoRA/QLoRA with ZeRO-3: also the frozen "
            "base) to CPU memory.",
        ),
        click.option("--optimizer", default="adam", show_default=True),
    ]


def catalog_options(func: F) -> F:
    """NAME argument and --json for the catalog listings."""
    func = click.option("--json", "as_json", is_flag=True, help="Print as JSON.")(func)
    func = click.option(
        "--lang",
        type=click.Choice(["en", "zh"]),
        default="en",
        show_default=True,
        help="Language of labels and messages.",
    )(func)
    return click.argument("name", required=False)(func)


def lookup_gpu_field(name: str, field: str) -> GPU:
    """A catalog GPU; an unknown name raises UnknownNameError with the closest names."""
    return lookup_gpu(name)


def resolve_model(name: str | None, params: float | None) -> ModelSpec:
    """A catalog model by name, or a generic shape for a bare parameter count."""
    if name:
        return lookup_model(name)
    if params is not None:
        return generic_model(params=params)
    fail("model", None, Msg("invalid.model_or_params"))


def _gpu_count(options: dict[str, Any]) -> int:
    per_node = options["gpus_per_node"]
    if options.get("nodes") is not None:
        if options["nodes"] < 1:
            fail("nodes", options["nodes"], Msg("invalid.at_least", minimum=1))
        return int(options["nodes"] * per_node)
    gpus = options.get("gpus")
    return int(gpus) if gpus is not None else max(1, int(per_node))


def build_plan(task: str, options: dict[str, Any]) -> Plan:
    """The Plan the options describe (validation of counts happens in `evaluate`)."""
    options = {**TRAINING_DEFAULTS, **options}
    gpu = lookup_gpu(options["gpu_name"])
    deadline = options["deadline_days"]
    extra: dict[str, Any] = {}
    for key in (
        "method",
        "batch_size",
        "weight_dtype",
        "kv_dtype",
        "pp_microbatches",
        "expert_parallel",
        "host_ram_bytes",
    ):
        if options.get(key) is not None:
            extra[key] = options[key]
    if options.get("pue") is not None:
        extra["pue"] = options["pue"]
    model = resolve_model(options.get("model"), options.get("params"))
    gpus = _gpu_count(options)
    precision = options.get("precision") or gpu.default_training_precision()
    tp, pp = options["tensor_parallel"], options["pipeline_parallel"]
    if task == "inference":
        precision = options.get("precision") or serving_dtype(model=model, gpu=gpu)
        if tp is None and pp is None:
            tp, pp = _deployment(model, gpu, gpus, options, precision)
    return Plan(
        task=task,  # type: ignore[arg-type]
        model=model,
        gpu=gpu,
        gpus=gpus,
        gpus_per_node=options["gpus_per_node"],
        intra_link=lookup_link(options["intra_link"]) if options.get("intra_link") else None,
        inter_link=lookup_link(options["inter_link"]) if options.get("inter_link") else None,
        nics_per_node=options["nics_per_node"],
        precision=precision,
        tokens=options.get("tokens"),
        deadline_seconds=deadline * DAY if deadline and deadline > 0 else deadline,
        zero_stage=options["zero_stage"],
        tensor_parallel=tp or 1,
        pipeline_parallel=pp or 1,
        recompute=options["recompute"],
        price_per_kwh=options.get("price_per_kwh"),
        micro_batch_size=options["micro_batch_size"],
        global_batch_tokens=options.get("global_batch_tokens"),
        sequence_length=options["sequence_length"],
        offload=options["offload"],
        optimizer=options["optimizer"],
        mfu=options.get("mfu"),
        price_per_gpu_hour=options.get("price_per_gpu_hour"),
        currency=options.get("currency"),
        **extra,
    )


def _deployment(
    model: ModelSpec, gpu: GPU, gpus: int, options: dict[str, Any], precision: str
) -> tuple[int, int]:
    """Serving layout as deployed (TP inside a node, PP across nodes); (1, 1) when nothing
    fits, so the memory check says so and suggests the fix."""
    weight = options.get("weight_dtype") or precision
    layout = serving_layout(
        model=model,
        gpu=gpu,
        gpus=gpus,
        gpus_per_node=min(gpus, options["gpus_per_node"]),
        weight_dtype=weight,
        kv_dtype=options.get("kv_dtype") or kv_format(weight, gpu),
        context_length=options["sequence_length"],
        batch_size=max(1, options.get("batch_size") or 1),
    )
    return (layout.tensor_parallel, layout.pipeline_parallel) if layout else (1, 1)
