"""The numeric format and the fabric between nodes a scenario runs at when the question leaves
them open (`defaults.resolve` calls these after the counts are known): the card's mixed
precision for training, a model's published FP8 recipe, a catalog model's released serving
format on cards that run it (else the nearest they have), and the usual fabric of the card's
servers. Every choice is said as an assumption, from the catalog's `default.*` messages."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Language, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE, DEFAULT_INTER_LINK
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU

__all__ = ["link_defaults", "precision_defaults", "said"]


def said(key: str, language: Language, **params: Param) -> str:
    """One assumption from the catalog (`default.*`), in the answer's language."""
    return text(Msg(key, **params), language)


def precision_defaults(s: Scenario, lang: Language, notes: list[str]) -> Scenario:
    """The training or serving format when the question leaves it open (the card's mixed
    precision, a model's published FP8 recipe, a model's released serving format), and the
    note on a stated format the task cannot use as stated; each choice is said in `notes`."""
    from calculators.catalog.hardware import lookup_gpu

    gpu = lookup_gpu(s.gpu) if s.gpu else None
    precision = gpu.default_training_precision() if gpu else "bf16"
    if s.precision == "fp8" and s.task != "inference" and gpu and not gpu.supports("fp8"):
        notes.append(said("default.no_fp8", lang, gpu=gpu.name, precision=precision))
        return replace(s, precision=precision)
    quantized = s.precision in ("int4", "int8")
    if quantized and s.task != "inference" and s.method != "qlora":
        notes.append(
            said("default.quantized_training", lang, quant=s.precision, precision=precision)
        )
        return replace(s, precision=precision)
    if s.precision == "fp8" and s.task != "inference":
        notes.append(said("default.fp8_training", lang))
        return s
    if s.precision is not None:
        if s.task == "inference" and s.precision in ("fp8", "int8") and s.kv_dtype is None:
            # vLLM kv_cache_dtype="auto": 16-bit beside 8-bit weights (f16 on Pascal: llama.cpp)
            kv = (gpu.default_cache_dtype() if gpu else "bf16").upper()
            notes.append(said("default.kv_16bit", lang, dtype=s.precision.upper(), kv=kv))
        return s
    recipe = _published_training_precision(s, gpu)
    if s.task == "inference":
        precision, kv = _serving_precision(s, gpu, lang, notes) or precision, precision
        kv = s.kv_dtype or (precision if precision in ("bf16", "fp16", "fp32") else kv)
        notes.append(said("default.serving_precision", lang, precision=precision, kv=kv))
    elif recipe is not None and s.mfu is not None:
        # a stated MFU with no precision is read against the 16-bit dense peak, as MFU is
        # quoted; evaluating the FP8 recipe at it would double the speed the user stated
        notes.append(
            said("default.fp8_recipe_mfu", lang, model=recipe, precision=precision.upper())
        )
    elif recipe is not None:
        precision = "fp8"
        notes.append(said("default.fp8_recipe", lang, model=recipe))
    elif s.task == "finetune" and s.method in ("lora", "qlora"):
        base = Msg("default.nf4") if s.method == "qlora" else precision
        notes.append(said("default.lora_precision", lang, base=base, precision=precision))
    else:
        notes.append(said("default.mixed_precision", lang, precision=precision))
    return replace(s, precision=precision)


def _published_training_precision(s: Scenario, gpu: GPU | None) -> str | None:
    """The model's name when pre-training a catalog model whose own published run trained in
    FP8 (DeepSeek-V3, `ModelSpec.training_recipe_source`) on a GPU with FP8 tensor cores and
    no precision stated; else None."""
    from calculators.catalog.models import lookup_model
    from calculators.errors import CalculatorInputError

    if s.task != "pretrain" or s.model is None or gpu is None or not gpu.supports("fp8"):
        return None
    try:
        model = lookup_model(s.model)
    except (CalculatorInputError, KeyError, LookupError):
        return None
    if model.training_precision != "fp8":
        return None
    return model.name


def _serving_precision(
    s: Scenario, gpu: GPU | None, lang: Language, notes: list[str]
) -> str | None:
    """A catalog model is served in its released format where the GPU runs it (DeepSeek-V3:
    FP8 on Hopper), else the nearest format the GPU has; None for a bare size."""
    from calculators.catalog.models import lookup_model
    from calculators.serving_layout import (
        approximation_messages,
        serving_dtype,
        serving_precision_message,
    )

    if s.model is None or gpu is None:
        return None
    model = lookup_model(s.model)
    notes.append(
        said("default.sentence", lang, sentence=serving_precision_message(model=model, gpu=gpu))
    )
    # what the catalog shape leaves out (sliding windows, a vision encoder, MXFP4), said beside
    # the format it is served in
    notes.extend(said("default.sentence", lang, sentence=m) for m in approximation_messages(model))
    return serving_dtype(model=model, gpu=gpu)


def link_defaults(s: Scenario, lang: Language, notes: list[str]) -> Scenario:
    """The fabric between nodes when a multi-node question names none (the card's usual
    servers' fabric), and the ports per node a stated fabric is counted with."""
    if (s.nodes or 1) <= 1:
        return s
    if s.inter_link is None:
        from calculators.catalog.hardware import lookup_gpu
        from calculators.planner.fabrics import typical_fabric

        gpu = lookup_gpu(s.gpu) if s.gpu else None
        if gpu is None:
            notes.append(said("default.inter_link", lang, link=DEFAULT_INTER_LINK))
            return replace(s, inter_link=DEFAULT_INTER_LINK)
        typical = typical_fabric(gpu)
        link = typical.link
        notes.append(
            said(
                "default.typical_inter_link",
                lang,
                link=link.name,
                gbits=link.bytes_per_s * 8 / 1e9,
                ports=s.nics_per_node or typical.ports(s.gpus_per_node or DEFAULT_GPUS_PER_NODE),
                gpu=gpu.name,
            )
        )
        return replace(s, inter_link=link.name)
    note = _ports_note(s, lang)
    notes.extend([note] if note else [])
    return s


def _ports_note(s: Scenario, lang: Language) -> str | None:
    """How many ports per node a stated fabric is counted with: as stated; one per GPU where
    the nodes are cabled rail-optimised (`calculators.planner.fabrics.ports_per_node`), said
    with the way to change it; else the count."""
    from calculators.catalog.hardware import lookup_gpu, lookup_link
    from calculators.planner.fabrics import ports_per_node

    link = lookup_link(str(s.inter_link))
    if s.nics_per_node:
        return said("default.link_ports_stated", lang, link=link.name, ports=s.nics_per_node)
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    if not s.gpu:  # no card: InfiniBand is one port per GPU, as DGX/HGX pods; else nothing said
        infiniband = link.kind == "infiniband"
        return (
            said("default.per_gpu_ports", lang, link=link.name, ports=per_node)
            if infiniband
            else None
        )
    ports = ports_per_node(lookup_gpu(s.gpu), link, per_node)
    key = "default.per_gpu_ports" if ports == per_node > 1 else "default.link_ports"
    return said(key, lang, link=link.name, ports=ports)
