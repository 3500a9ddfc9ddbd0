"""User cards: GPUs and models people add to the catalogs (`gpu-advisor kb add my-gpu.md`).

A card is a row with the same fields and units as ``data/gpus.json`` / ``data/models.json``.
:func:`check_gpu_row` and :func:`check_model_row` refuse unknown fields, missing required
ones, negative or non-finite numbers, unknown link names and names the shipped catalog already
uses, raising :class:`~calculators.errors.CalculatorInputError` that names the field.
:func:`add_gpu` / :func:`add_model` then make the card resolvable by ``lookup_gpu`` /
``lookup_model`` for the rest of the process. No I/O here: the caller reads the files.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from calculators.catalog import hardware, models
from calculators.catalog.names import build_alias_index, normalize_name
from calculators.errors import UnknownNameError
from calculators.messages import Msg
from calculators.validate import fail

__all__ = [
    "GPU_FIELDS",
    "MODEL_FIELDS",
    "add_gpu",
    "add_model",
    "catalog_generation",
    "check_gpu_row",
    "check_model_row",
    "forget_user_cards",
]

Check = Callable[[str, Any], Any]
_REQUIRED = object()
#: Names added by user cards (they may be re-added; shipped names may not be taken).
_USER_GPUS: set[str] = set()
_USER_MODELS: set[str] = set()
#: Bumped whenever the user cards change, so that derived indexes (the parser's) rebuild.
_GENERATION = [0]


def _text(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        fail(field, value, Msg("invalid.text"))
    return value.strip()


def _note(field: str, value: Any) -> str:
    if not isinstance(value, str):
        fail(field, value, Msg("invalid.note"))
    return value.strip()


def _number(field: str, value: Any, *, minimum: float = 0.0, strict: bool = True) -> float:
    finite = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not finite or not math.isfinite(value):
        fail(field, value, Msg("invalid.finite"))
    if value < minimum or (strict and value <= minimum):
        key = "invalid.greater_than" if strict else "invalid.at_least_number"
        fail(field, value, Msg(key, minimum=minimum))
    return float(value)


def _positive(field: str, value: Any) -> float:
    return _number(field, value)


def _count(field: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(field, value, Msg("invalid.whole"))
    if value < minimum:
        fail(field, value, Msg("invalid.at_least", minimum=minimum))
    return value


def _count0(field: str, value: Any) -> int:
    return _count(field, value, 0)


def _flag(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        fail(field, value, Msg("invalid.boolean"))
    return value


def _names(field: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        fail(field, value, Msg("invalid.text_list"))
    return tuple(v.strip() for v in value if v.strip())


def _sources(field: str, value: Any) -> Any:
    """A table {group: text} (as in gpus.json) or a list of text; never empty."""
    out: dict[str, str] | list[str]
    if isinstance(value, Mapping):
        out = {str(k): _text(f"{field}.{k}", v) for k, v in value.items()}
    else:
        out = list(_names(field, value))
    if not out:
        fail(field, value, Msg("invalid.sources"))
    return out


def _choice(*allowed: object) -> Check:
    def check(field: str, value: Any) -> Any:
        if value not in allowed:
            shown = ", ".join(map(str, allowed))
            fail(field, value, Msg("invalid.one_of_values", options=shown))
        return value

    return check


def _link(field: str, value: Any) -> str:
    try:
        return hardware.lookup_link(_text(field, value)).name
    except UnknownNameError as exc:
        if not exc.suggestions:
            fail(field, value, Msg("invalid.unknown_link_none"))
        fail(field, value, Msg("invalid.unknown_link", closest=", ".join(exc.suggestions)))


#: GPU card fields: check, default (_REQUIRED: must be given; None: the chip has no such mode).
GPU_FIELDS: Mapping[str, tuple[Check, Any]] = {
    "name": (_text, _REQUIRED),
    "vendor": (_text, "user"),
    "gpu_class": (_choice("datacenter", "workstation", "consumer", "npu"), "datacenter"),
    "architecture": (_text, "unknown"),
    "memory_GB": (_positive, _REQUIRED),
    "memory_bandwidth_TBps": (_positive, _REQUIRED),
    "bf16_dense_TFLOPS": (_positive, None),
    "fp16_dense_TFLOPS": (_positive, None),
    "fp8_dense_TFLOPS": (_positive, None),
    "int8_dense_TOPS": (_positive, None),
    "fp32_TFLOPS": (_positive, None),
    "intra_link": (_link, "PCIe Gen4 x16"),
    "pcie_gen": (_choice(3, 4, 5, 6), 4),
    "tdp_W": (_positive, _REQUIRED),
    "aliases": (_names, ()),
    "notes": (_note, "user card"),
    "confidence": (_choice("high", "medium", "low"), "medium"),
    "sources": (_sources, _REQUIRED),
}

#: Model card fields, as `ModelSpec` (integers are shapes from config.json).
MODEL_FIELDS: Mapping[str, tuple[Check, Any]] = {
    "name": (_text, _REQUIRED),
    "family": (_text, "user"),
    "layers": (_count, _REQUIRED),
    "hidden": (_count, _REQUIRED),
    "heads": (_count, _REQUIRED),
    "kv_heads": (_count, None),
    "head_dim": (_count, None),
    "ffn_hidden": (_count, _REQUIRED),
    "ffn_matrices": (_choice(2, 3), 3),
    "vocab": (_count, _REQUIRED),
    "tied_embeddings": (_flag, False),
    "position_embeddings": (_count0, 0),
    "norm": (_choice("rmsnorm", "layernorm"), "rmsnorm"),
    "qkv_bias": (_flag, False),
    "out_bias": (_flag, False),
    "mlp_bias": (_flag, False),
    "embedding_norm": (_flag, False),
    "context_length": (_count, 4096),
    "experts": (_count0, 0),
    "active_experts": (_count0, 0),
    "shared_experts": (_count0, 0),
    "shared_expert_gate": (_flag, False),
    "moe_ffn_hidden": (_count0, 0),
    "dense_layers": (_count0, 0),
    "attention": (_choice("standard", "mla"), "standard"),
    "q_lora_rank": (_count0, 0),
    "kv_lora_rank": (_count0, 0),
    "qk_rope_head_dim": (_count0, 0),
    "v_head_dim": (_count0, 0),
    "release_dtype": (_choice("bf16", "fp16", "fp8"), "bf16"),
    "release_dtype_source": (_note, ""),
    "params_published": (_positive, None),
    "active_params_published": (_positive, None),
    "training_tokens": (_positive, None),
    "training_tokens_source": (_note, ""),
    "training_precision": (_choice("bf16", "fp16", "fp8"), "bf16"),
    "pipeline_schedule": (_choice("1f1b", "dualpipe"), "1f1b"),
    "routed_nodes_max": (_count0, 0),
    "training_recipe_source": (_note, ""),
    "notes": (_note, ""),
    "aliases": (_names, ()),
    "sources": (_sources, _REQUIRED),
}


def _checked(
    row: Mapping[str, Any], fields: Mapping[str, tuple[Check, Any]], kind: str
) -> dict[str, Any]:
    unknown = sorted(set(row) - set(fields))
    if unknown:
        known = ", ".join(fields)
        fail(
            f"{kind}.{unknown[0]}",
            row[unknown[0]],
            Msg("invalid.unknown_field", known=known),
        )
    out: dict[str, Any] = {}
    for name, (check, default) in fields.items():
        if row.get(name) is not None:  # None (JSON null): not given
            out[name] = check(f"{kind}.{name}", row[name])
        elif default is _REQUIRED:
            fail(f"{kind}.{name}", None, Msg("invalid.required"))
        else:
            out[name] = default
    return out


def _free_names(
    row: Mapping[str, Any], index: Mapping[str, str], users: set[str], kind: str
) -> None:
    """Refuse a name or alias that a shipped entry (or another user card) already uses."""
    for alias in (row["name"], *row["aliases"]):
        owner = index.get(normalize_name(alias))
        if owner is not None and not (owner == row["name"] and owner in users):
            fail(
                f"{kind}.name",
                alias,
                Msg("invalid.name_taken", owner=owner),
            )


def check_gpu_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A GPU card's row with defaults filled in, in the units of gpus.json; raises on a bad one.

    Examples:
        >>> row = check_gpu_row({"name": "Lab X1 48GB", "memory_GB": 48,
        ...     "memory_bandwidth_TBps": 0.96, "bf16_dense_TFLOPS": 180, "tdp_W": 300,
        ...     "sources": {"memory": "vendor datasheet"}})
        >>> row["intra_link"], row["fp8_dense_TFLOPS"]
        ('PCIe Gen4 x16', None)
        >>> from calculators.errors import CalculatorInputError
        >>> try:
        ...     check_gpu_row({**row, "memory_GB": -4})
        ... except CalculatorInputError as bad:  # the reason: a key the catalog words
        ...     bad.field, bad.value, bad.reason
        ('gpu.memory_GB', -4, Msg('invalid.greater_than', minimum=0.0))
    """
    out = _checked(row, GPU_FIELDS, "gpu")
    if out["bf16_dense_TFLOPS"] is None and out["fp16_dense_TFLOPS"] is None:
        fail(
            "gpu.bf16_dense_TFLOPS",
            None,
            Msg("invalid.dense_peak"),
        )
    _free_names(out, hardware.gpu_alias_index(), _USER_GPUS, "gpu")
    return out


def check_model_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A model card's row with defaults filled in; raises on a bad or inconsistent shape."""
    out = _checked(row, MODEL_FIELDS, "model")
    out["kv_heads"] = out["kv_heads"] or out["heads"]
    out["head_dim"] = out["head_dim"] or out["hidden"] // out["heads"]
    if out["heads"] % out["kv_heads"]:
        fail("model.kv_heads", out["kv_heads"], Msg("invalid.kv_heads"))
    _check_moe(out)
    spec = _spec(out)
    if spec.params > models.MAX_PARAMS:
        fail("model.layers", out["layers"], Msg("invalid.too_many_params"))
    _check_published(out, spec)
    _free_names(out, models.model_alias_index(), _USER_MODELS, "model")
    return out


def _check_moe(row: Mapping[str, Any]) -> None:
    if row["active_experts"] > row["experts"]:
        fail(
            "model.active_experts",
            row["active_experts"],
            Msg("invalid.active_experts"),
        )
    if row["experts"] > 1 and not (row["active_experts"] and row["moe_ffn_hidden"]):
        fail(
            "model.moe_ffn_hidden",
            row["moe_ffn_hidden"],
            Msg("invalid.moe_needs"),
        )
    if row["dense_layers"] >= row["layers"] and row["experts"] > 1:
        fail(
            "model.dense_layers",
            row["dense_layers"],
            Msg("invalid.dense_layers"),
        )
    if row["attention"] == "mla" and not row["kv_lora_rank"]:
        fail("model.kv_lora_rank", 0, Msg("invalid.mla_rank"))


#: A stated parameter count may differ from the shape's by this much (rounded model-card sizes).
PUBLISHED_TOLERANCE = 0.05


def _check_published(row: Mapping[str, Any], spec: models.ModelSpec) -> None:
    """A wrong shape shows as a parameter count far from the published one."""
    for field, computed in (
        ("params_published", spec.params),
        ("active_params_published", spec.active_params),
    ):
        stated = row[field]
        if stated and abs(computed - stated) > PUBLISHED_TOLERANCE * stated:
            fail(
                f"model.{field}",
                stated,
                Msg("invalid.shape_params", computed=computed),
            )


def _source_lines(sources: Any) -> tuple[str, ...]:
    if isinstance(sources, Mapping):
        return tuple(f"{group}: {text}" for group, text in sources.items())
    return tuple(sources)


def _spec(row: Mapping[str, Any]) -> models.ModelSpec:
    values = {k: v for k, v in row.items() if k != "sources"}
    for field in ("params_published", "active_params_published"):
        values[field] = values[field] or 0.0
    return models.ModelSpec(**values, sources=_source_lines(row["sources"]))


def add_gpu(row: Mapping[str, Any]) -> hardware.GPU:
    """Check a GPU card and make it resolvable by ``lookup_gpu`` (its name and aliases)."""
    checked = check_gpu_row(row)
    if not isinstance(checked["sources"], Mapping):  # a list: numbered groups, as gpus.json
        checked["sources"] = {f"source {i}": s for i, s in enumerate(checked["sources"], 1)}
    gpu = hardware._gpu_from_row(checked, hardware.LINKS)
    _index(
        hardware._GPU_ALIASES,
        gpu.name,
        (*gpu.aliases, *hardware._name_permutations(gpu.name)),
        "GPU",
    )
    hardware._GPUS[gpu.name] = gpu
    _USER_GPUS.add(gpu.name)
    _GENERATION[0] += 1
    return gpu


def add_model(row: Mapping[str, Any]) -> models.ModelSpec:
    """Check a model card and make it resolvable by ``lookup_model``."""
    model = _spec(check_model_row(row))
    _index(models._MODEL_ALIASES, model.name, model.aliases, "model")
    models._MODELS[model.name] = model
    _USER_MODELS.add(model.name)
    _GENERATION[0] += 1
    return model


def _index(index: dict[str, str], name: str, aliases: tuple[str, ...], kind: str) -> None:
    """Add the card's names; names that normalise onto a shipped entry are left to it."""
    for key, owner in build_alias_index([(name, aliases)], kind).items():
        index.setdefault(key, owner)


def catalog_generation() -> int:
    """A number that changes whenever a user card is added or the user cards are forgotten."""
    return _GENERATION[0]


def forget_user_cards() -> None:
    """Drop every user card: the catalogs are the shipped ones again (another user's home)."""
    for names, table, index in (
        (_USER_GPUS, hardware._GPUS, hardware._GPU_ALIASES),
        (_USER_MODELS, models._MODELS, models._MODEL_ALIASES),
    ):
        for key in [k for k, owner in index.items() if owner in names]:
            del index[key]
        for name in names:
            table.pop(name, None)
        names.clear()
    _GENERATION[0] += 1
