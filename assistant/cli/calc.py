"""`gpu-advisor calc ...`: run one calculator directly, human tables by default, `--json` for SI.

Examples:
  gpu-advisor calc train --params 100e9 --gpu "A100 80GB PCIe" --gpus 8 --inter-link 25GbE
  gpu-advisor calc finetune --model llama-2-70b --method qlora --gpu 4090 --gpus 8
  gpu-advisor calc infer --model llama-2-70b --gpu H100 --gpus 2 --batch 8 --context 4096
  gpu-advisor calc network --model gpt-3 --gpu A100 --gpus 1024 --tp 8 --pp 16 --inter-link HDR
  gpu-advisor calc serve --model deepseek-v3 --gpu H20 --nodes 4 --price-kwh 0.6
  gpu-advisor calc max-concurrency --model llama-2-70b --gpu "A100 80GB" --gpus 8
  gpu-advisor calc gpus-for --model llama-2-70b --gpu H100 --tokens-per-s 10000 --tpot-ms 50
  gpu-advisor calc largest-model --gpu 4090 --gpus 8 --task finetune --method qlora
  gpu-advisor calc budget --budget 1e6 --price 2.5 --gpu H100 --gpus 1024
  gpu-advisor calc power --gpu H100 --gpus 8 --days 30 --price-kwh 0.6 --currency CNY
  gpu-advisor calc gpus 4090    gpu-advisor calc models    gpu-advisor calc links
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import click

from assistant.cli.calc_options import (
    build_plan,
    catalog_options,
    lookup_gpu_field,
    plan_options,
    resolve_model,
    serving_options,
)
from assistant.cli.calc_power import power_command
from assistant.cli.calc_serving import register as register_solvers
from assistant.cli.edge import error_boundary


def _console() -> Any:
    from assistant.sanitize import SafeConsole

    return SafeConsole(soft_wrap=False)


def _emit(payload: Any, as_json: bool, render: Callable[[Any], None]) -> None:
    from assistant.render.calc import jsonable, record_json

    if as_json:
        data: Any
        if isinstance(payload, list):
            data = [record_json(item) for item in payload]
        elif dataclasses.is_dataclass(payload) and not isinstance(payload, type):
            data = record_json(payload)
        else:
            data = jsonable(payload)
        from assistant.sanitize import json_text

        click.echo(json_text(json.dumps(data, ensure_ascii=False, indent=2)))
    else:
        render(payload)


@click.group()
def calc() -> None:
    """Run a calculator directly (memory, time, network, power, catalogs)."""
    from assistant.locations import user_documents_dir
    from assistant.retrieval.cards import load_user_cards

    with contextlib.suppress(OSError):  # no usable home: the shipped catalogs only
        load_user_cards(user_documents_dir())  # GPUs and models added with `kb add`


def _evaluate_command(task: str, options: dict[str, Any]) -> None:
    from assistant.render.calc import evaluation_json, render_evaluation, zh_or_en
    from calculators.planner import evaluate

    language = options.get("lang") or "en"
    with error_boundary(language):
        evaluation = evaluate(build_plan(task, options))
        if options["as_json"]:
            from assistant.sanitize import json_text

            dumped = json.dumps(
                evaluation_json(evaluation, zh_or_en(language)), ensure_ascii=False, indent=2
            )
            click.echo(json_text(dumped))
        else:
            render_evaluation(_console(), evaluation, language)


@calc.command()
@plan_options
def train(**options: Any) -> None:
    """Pretraining: memory, time to the token budget, network, energy and cost."""
    _evaluate_command("pretrain", options)


@calc.command()
@plan_options
@click.option(
    "--method",
    type=click.Choice(["full", "lora", "qlora"]),
    default="full",
    show_default=True,
    help="Fine-tuning method.",
)
def finetune(**options: Any) -> None:
    """Fine-tuning (full, LoRA or QLoRA): memory, time, network, energy and cost."""
    _evaluate_command("finetune", options)


@calc.command()
@serving_options
@click.option(
    "--batch",
    "batch_size",
    type=int,
    default=1,
    show_default=True,
    help="Concurrent sequences across the whole deployment (split over replicas).",
)
@click.option("--weight-dtype", default=None, help="bf16, fp8, int8, int4 [default: precision].")
@click.option(
    "--kv-dtype",
    default=None,
    help="KV-cache format (default: a 16-bit precision, else the GPU's 16-bit default).",
)
def infer(**options: Any) -> None:
    """Serving (`calc infer` = `calc serve`): memory, decode speed over the real links, time
    to first token, network, power and, with --price-kwh, the energy bill; served as deployed
    by default (released precision, TP inside a node, PP across nodes)."""
    _evaluate_command("inference", options)


calc.add_command(infer, "serve")
register_solvers(calc)
calc.add_command(power_command)


@calc.command()
@plan_options
def network(**options: Any) -> None:
    """Communication of one training step: all-reduce, TP, PP, efficiency, bandwidth for 90%."""
    from calculators.planner import network_only

    language = options.get("lang") or "en"
    with error_boundary(language):
        check = network_only(build_plan("pretrain", options))
        _emit(check, options["as_json"], lambda c: _render_one(c, language))


def _render_one(check: Any, language: str) -> None:
    from assistant.render.calc import _render_check

    _render_check(_console(), check, language)


@calc.command()
@catalog_options
def gpus(name: str | None, as_json: bool, lang: str) -> None:
    """List the GPU catalog, or show one GPU with its sources."""
    from assistant.render.calc import catalog_table, gpu_row
    from calculators.catalog.hardware import GPUS

    with error_boundary(lang):
        if name:
            gpu = lookup_gpu_field(name, "gpu")
            _emit(gpu, as_json, lambda g: _show_record(g, lang=lang))
            return
        columns = [
            "GPU",
            "memory",
            "HBM bandwidth",
            "BF16/FP16 dense",
            "FP8 dense",
            "intra-node link",
            "TDP",
        ]
        rows = [gpu_row(g) for g in GPUS.values()]
        _emit(
            list(GPUS.values()),
            as_json,
            lambda _: _console().print(catalog_table("GPU catalog", columns, rows, lang)),
        )


@calc.command()
@catalog_options
def models(name: str | None, as_json: bool, lang: str) -> None:
    """List the model catalog, or show one model's architecture and sources."""
    from assistant.render.calc import catalog_table
    from calculators.catalog.models import MODELS

    with error_boundary(lang):
        if name:
            model = resolve_model(name, None)
            _emit(
                model,
                as_json,
                lambda m: _show_record(
                    m, extra={"params": m.params, "active_params": m.active_params}, lang=lang
                ),
            )
            return
        rows = [
            [
                m.name,
                f"{m.params / 1e9:.2f}B",
                f"{m.active_params / 1e9:.2f}B",
                str(m.layers),
                str(m.hidden),
                f"{m.heads}/{m.kv_heads}",
            ]
            for m in MODELS.values()
        ]
        columns = ["model", "params", "active", "layers", "hidden", "heads/KV heads"]
        _emit(
            list(MODELS.values()),
            as_json,
            lambda _: _console().print(catalog_table("Model catalog", columns, rows, lang)),
        )


@calc.command()
@catalog_options
def links(name: str | None, as_json: bool, lang: str) -> None:
    """List the interconnect catalog (bandwidth per direction), or show one link."""
    from assistant.render.calc import catalog_table, figure_text
    from calculators.catalog.hardware import LINKS, lookup_link

    with error_boundary(lang):
        if name:
            _emit(lookup_link(name), as_json, lambda k: _show_record(k, lang=lang))
            return
        rows = [
            [
                k.name,
                k.kind,
                figure_text("link_bytes_per_s", k.bytes_per_s),
                f"{k.latency_s * 1e6:.0f} µs",
                figure_text("rdma", k.rdma, lang),
            ]
            for k in LINKS.values()
        ]
        columns = ["link", "kind", "per direction", "latency", "RDMA"]
        _emit(
            list(LINKS.values()),
            as_json,
            lambda _: _console().print(catalog_table("Interconnects", columns, rows, lang)),
        )


def _show_record(record: Any, extra: dict[str, Any] | None = None, lang: str = "en") -> None:
    from assistant.render.calc import catalog_table, figure_text

    rows = []
    for field in dataclasses.fields(record):
        value = getattr(record, field.name)
        if isinstance(value, tuple):
            value = "; ".join(map(str, value))
        text = (
            figure_text(field.name, value, lang)
            if isinstance(value, (int, float))
            else (str(value))
        )
        rows.append([field.name, text])
    for key, value in (extra or {}).items():
        rows.append([key, f"{value:,}"])
    _console().print(catalog_table(getattr(record, "name", ""), ["field", "value"], rows, lang))
