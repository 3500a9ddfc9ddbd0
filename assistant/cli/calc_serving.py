"""`gpu-advisor calc` inverse solvers: max-concurrency, gpus-for, largest-model, budget.

Examples:
  gpu-advisor calc max-concurrency --model llama-2-70b --gpu "A100 80GB" --gpus 8 --context 4096
  gpu-advisor calc gpus-for --model llama-2-70b --gpu H100 --tokens-per-s 10000 --tpot-ms 50
  gpu-advisor calc largest-model --gpu 4090 --gpus 8 --task finetune --method qlora
  gpu-advisor calc budget --budget 1e6 --price 2.5 --gpu H100 --gpus 1024
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import click

from assistant.cli.calc_options import NUMBER, resolve_model
from assistant.cli.edge import error_boundary
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.defaults import DEFAULT_CONTEXT_TOKENS

__all__ = ["register", "solver_options"]


def solver_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options every solver command shares: --gpu, --gpus-per-node, --lang, --json."""
    for option in reversed(
        [
            click.option("--gpu", "gpu_name", required=True, help="Catalog GPU: H100, 'A100 80G'."),
            click.option("--gpus-per-node", type=int, default=8, show_default=True),
            click.option(
                "--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True
            ),
            click.option("--json", "as_json", is_flag=True, help="Print SI numbers as JSON."),
        ]
    ):
        func = option(func)
    return func


def _model_options(func: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(
        [
            click.option("--model", default=None, help="Catalog model name, e.g. llama-2-70b."),
            click.option("--params", type=NUMBER, default=None, help="Bare size (70B): generic."),
            click.option(
                "--context",
                "context_length",
                type=int,
                default=DEFAULT_CONTEXT_TOKENS,
                show_default=True,
                help="Tokens per sequence (prompt + output): sizes the KV cache.",
            ),
            click.option(
                "--weight-dtype",
                default=None,
                help="[default: the model's released format where the GPU runs it]",
            ),
            click.option(
                "--kv-dtype", default=None, help="[default: 16-bit, whatever the weight format]"
            ),
        ]
    ):
        func = option(func)
    return func


def _show(result: Any, message: Any, options: dict[str, Any]) -> None:
    from assistant.i18n import text
    from assistant.render.calc import jsonable

    if options["as_json"]:
        data = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
        data["message"] = text(message, options["lang"])
        click.echo(json.dumps(jsonable(data), ensure_ascii=False, indent=2))
    else:
        click.echo(text(message, options["lang"]))


@click.command("max-concurrency")
@solver_options
@_model_options
@click.option("--gpus", type=int, required=True, help="Total GPUs.")
@click.option(
    "--tp",
    "tensor_parallel",
    type=int,
    default=None,
    help="[default: the deployment layout, TP inside a node]",
)
@click.option("--pp", "pipeline_parallel", type=int, default=None)
def max_concurrency_command(**options: Any) -> None:
    """Most concurrent sequences of --context tokens that fit the GPUs' memory."""
    from calculators.serving_solvers import max_concurrency

    with error_boundary(options["lang"]):
        result = max_concurrency(
            model=resolve_model(options["model"], options["params"]),
            gpu=lookup_gpu(options["gpu_name"]),
            gpus=options["gpus"],
            context_length=options["context_length"],
            gpus_per_node=options["gpus_per_node"],
            weight_dtype=options["weight_dtype"],
            kv_dtype=options["kv_dtype"],
            tensor_parallel=options["tensor_parallel"],
            pipeline_parallel=options["pipeline_parallel"],
        )
        _show(result, result.message, options)


@click.command("gpus-for")
@solver_options
@_model_options
@click.option(
    "--tokens-per-s",
    "target_tokens_per_second",
    type=NUMBER,
    default=None,
    help="Output tokens per second over all users.",
)
@click.option("--qps", "target_qps", type=float, default=None, help="Requests per second.")
@click.option("--tpot-ms", type=float, default=None, help="Max time per output token (ms).")
@click.option("--ttft-ms", type=float, default=None, help="Max time to first token (ms).")
@click.option("--prompt", "prompt_tokens", type=int, default=1024, show_default=True)
@click.option("--output", "output_tokens", type=int, default=256, show_default=True)
@click.option("--intra-link", default=None, help="Intra-node link [default: the GPU's].")
@click.option("--inter-link", default=None, help="Inter-node link for multi-node replicas.")
def gpus_for_command(**options: Any) -> None:
    """Fewest GPUs (replicas x TP x PP) for a tokens/s or QPS target within latency targets."""
    from calculators.serving_target import gpus_for_target

    with error_boundary(options["lang"]):
        tpot, ttft = options["tpot_ms"], options["ttft_ms"]
        result = gpus_for_target(
            model=resolve_model(options["model"], options["params"]),
            gpu=lookup_gpu(options["gpu_name"]),
            context_length=options["context_length"],
            prompt_tokens=options["prompt_tokens"],
            output_tokens=options["output_tokens"],
            target_tokens_per_second=options["target_tokens_per_second"],
            target_qps=options["target_qps"],
            target_seconds_per_token=tpot / 1000 if tpot else None,
            target_first_token_seconds=ttft / 1000 if ttft else None,
            gpus_per_node=options["gpus_per_node"],
            weight_dtype=options["weight_dtype"],
            kv_dtype=options["kv_dtype"],
            intra_link=lookup_link(options["intra_link"]) if options["intra_link"] else None,
            inter_link=lookup_link(options["inter_link"]) if options["inter_link"] else None,
        )
        _show(result, result.message, options)


@click.command("largest-model")
@solver_options
@click.option("--gpus", type=int, required=True, help="Total GPUs.")
@click.option(
    "--task",
    type=click.Choice(["serve", "pretrain", "finetune"]),
    default="serve",
    show_default=True,
)
@click.option(
    "--method",
    type=click.Choice(["full", "lora", "qlora"]),
    default="full",
    show_default=True,
    help="Fine-tuning method.",
)
@click.option("--weight-dtype", default="bf16", show_default=True, help="Serving weights.")
@click.option(
    "--context", "context_length", type=int, default=DEFAULT_CONTEXT_TOKENS, show_default=True
)
@click.option(
    "--deadline-days",
    type=float,
    default=None,
    help="Training must finish within this (pretrain: Chinchilla 20 tokens/param).",
)
@click.option("--tokens", type=NUMBER, default=None, help="Training tokens.")
def largest_model_command(**options: Any) -> None:
    """The largest (generic, Llama-like) model the GPUs can serve, fine-tune or pretrain."""
    from calculators.sizing import largest_model

    with error_boundary(options["lang"]):
        days = options["deadline_days"]
        result = largest_model(
            gpu=lookup_gpu(options["gpu_name"]),
            gpus=options["gpus"],
            task=options["task"],
            method=options["method"],
            gpus_per_node=options["gpus_per_node"],
            weight_dtype=options["weight_dtype"],
            context_length=options["context_length"],
            deadline_seconds=days * 86_400 if days else None,
            tokens=options["tokens"],
        )
        _show(result, result.message, options)


@click.command("budget")
@solver_options
@click.option("--budget", type=NUMBER, required=True, help="Total budget (your currency).")
@click.option(
    "--price",
    "price_per_gpu_hour",
    type=float,
    required=True,
    help="Price per GPU-hour (same currency).",
)
@click.option("--gpus", type=int, default=None, help="GPUs the run uses (for wall-clock time).")
@click.option("--mfu", type=float, default=None, help="[default: the GPU class's MFU]")
def budget_command(**options: Any) -> None:
    """GPU-hours, wall-clock time and the compute-optimal model a total budget buys."""
    from calculators.compute_time import default_mfu
    from calculators.sizing import budget_compute

    with error_boundary(options["lang"]):
        gpu = lookup_gpu(options["gpu_name"])
        result = budget_compute(
            budget=options["budget"],
            price_per_gpu_hour=options["price_per_gpu_hour"],
            peak_flops_per_s=gpu.dense_flops_per_s(gpu.default_training_precision()),
            mfu=options["mfu"] or default_mfu(gpu),
            gpus=options["gpus"],
        )
        _show(result, result.message(budget=options["budget"], gpus=options["gpus"]), options)


def register(group: click.Group) -> None:
    """Add the solver commands to the `calc` group."""
    for command in (
        max_concurrency_command,
        gpus_for_command,
        largest_model_command,
        budget_command,
    ):
        group.add_command(command)
