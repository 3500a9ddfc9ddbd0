"""User GPU and model cards: `kind = "gpu"` / `kind = "model"` documents, or a Hugging Face
config.json, added with `gpu-advisor kb add` like any document.

A card's `[gpu]` / `[model]` table has the fields and units of the shipped catalog
(`calculators/catalog/data/*.json`; templates: `gpu-advisor kb template gpu|model`). It is
checked when added (:func:`register`: unknown fields, missing or non-positive numbers, unknown
link names and names the catalog already uses are refused with the reason) and registered
with the calculators in every later process by :func:`load_user_cards`. A config.json is
stored as the Markdown card it describes (:func:`card_from_hf_config`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from assistant.errors import DocumentError
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = [
    "card_from_hf_config",
    "load_user_cards",
    "register",
    "stored_bytes",
    "stored_name",
    "template",
]

_CARD_KIND = re.compile(rb'^\s*kind\s*=\s*"(gpu|model)"', re.MULTILINE)
_LOADED: set[tuple[str, float]] = set()
_LOADED_FROM: list[Path | None] = [None]
_TEMPLATES = Path(__file__).resolve().parent.parent / "data"


def register(doc: Any) -> None:
    """Check a card document and make its GPU or model known to the calculators."""
    from calculators.catalog.extend import add_gpu, add_model

    if doc.card is None:
        table = f"[{doc.kind}]"
        raise DocumentError(doc.source, Msg("errors.doc.card_table", kind=doc.kind, table=table))
    try:
        (add_gpu if doc.kind == "gpu" else add_model)(doc.card)
    except CalculatorInputError as exc:
        raise DocumentError(doc.source, exc.message) from exc


def load_user_cards(documents_dir: Path) -> list[DocumentError]:
    """Register the cards among the user's documents (once per file version per process);
    the problems of cards that no longer pass (checked when added) are returned. Only files
    whose front matter says `kind = "gpu"` / `"model"` are parsed (start-up stays fast)."""
    from calculators.catalog.extend import forget_user_cards

    problems: list[DocumentError] = []
    if _LOADED_FROM[0] != documents_dir:  # another home: its own cards only
        forget_user_cards()
        _LOADED.clear()
        _LOADED_FROM[0] = documents_dir
    for path in _card_files(documents_dir):
        from assistant.retrieval.documents import read_document

        try:
            register(read_document(path, source=str(path), key="documents/" + path.name))
        except DocumentError as exc:
            problems.append(exc)
    return problems


def _card_files(documents_dir: Path) -> list[Path]:
    """Card files not registered yet: `kb add` keeps copies flat in the documents folder."""
    try:
        paths = sorted(documents_dir.iterdir()) if documents_dir.is_dir() else []
        found = []
        for path in paths:
            if path.suffix != ".md" or path.name.startswith(".") or path.is_symlink():
                continue
            stamp = (str(path), path.stat().st_mtime)
            if stamp not in _LOADED and _CARD_KIND.search(path.read_bytes()[:4096]):
                _LOADED.add(stamp)
                found.append(path)
    except OSError:  # an unreadable folder has no cards to offer
        return []
    return found


def stored_name(path: Path) -> str:
    """The name `kb add` keeps `path` under: a config.json is kept as its Markdown card."""
    return _card_name(path) + ".md" if path.suffix.lower() == ".json" else path.name


def stored_bytes(path: Path) -> bytes:
    """The bytes `kb add` keeps for `path` (a config.json: its Markdown card)."""
    raw = path.read_bytes()
    return card_from_hf_config(raw, path) if path.suffix.lower() == ".json" else raw


def _card_name(path: Path) -> str:
    """`models/Qwen2-7B/config.json` -> "Qwen2-7B"; `my-model.json` -> "my-model"."""
    return path.parent.name if path.stem == "config" and path.parent.name else path.stem


def card_from_hf_config(raw: bytes, path: Path) -> bytes:
    """The Markdown model card (TOML front matter) for a Hugging Face config.json."""
    from calculators.catalog.hf_config import model_row_from_hf_config

    try:
        config = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DocumentError(str(path), Msg("errors.doc.json", detail=str(exc))) from exc
    name = (
        str(config.get("_name_or_path") or "").rsplit("/", 1)[-1]
        if isinstance(config, dict)
        else ""
    )
    try:
        row = model_row_from_hf_config(config, name=name or _card_name(path))
    except CalculatorInputError as exc:
        raise DocumentError(str(path), exc.message) from exc
    return _markdown(row).encode("utf-8")


def _markdown(row: Mapping[str, Any]) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", str(row["name"]).lower()).strip("-") or "model"
    lines = [
        "+++",
        f'id = "model-{slug}"',
        'lang = "en"',
        f"title = {json.dumps('Model card: ' + str(row['name']) + ' (from config.json)')}",
        'kind = "model"',
        "",
        "[model]",
        *(f"{key} = {_toml(value)}" for key, value in row.items()),
        "+++",
        "",
        f"# {row['name']}",
        "",
        f"Model card read from {row['name']}'s config.json: {row['layers']} layers, hidden size "
        f"{row['hidden']}, {row['heads']} attention heads ({row['kv_heads']} key/value heads).",
        "",
    ]
    return "\n".join(lines)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value))  # a TOML basic string


def template(kind: str, lang: str) -> str:
    """The copy-me template of a `gpu` or `model` card."""
    return (_TEMPLATES / f"card-{kind}.{lang}.md").read_text(encoding="utf-8")
