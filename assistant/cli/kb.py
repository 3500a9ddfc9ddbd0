"""`gpu-advisor kb …`: manage and search the knowledge base.

Long operations show a progress bar on a terminal and stay quiet when piped; notices go
to stderr so that `kb search --json` output stays clean.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from assistant.cli.edge import error_boundary
from assistant.i18n import Language, t, text
from assistant.sanitize import clean, json_text, one_line
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.retrieval.index import BuildReport, Progress

_LAZY = {"eval": ("assistant.cli.kb_eval", "kb_eval", "Score retrieval on the golden set.")}
_CJK = re.compile(r"[\u3400-\u9fff]")


class KbGroup(click.Group):
    """The `kb` group; `eval` is imported only when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_LAZY])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _LAZY:
            module, attribute, _ = _LAZY[cmd_name]
            try:
                command: click.Command = getattr(importlib.import_module(module), attribute)
            except (ImportError, AttributeError):
                return None
            return command
        return super().get_command(ctx, cmd_name)


def _language(ctx: click.Context, text: str = "") -> Language:
    chosen = (ctx.find_object(dict) or {}).get("lang", "auto")
    if chosen in ("zh", "en"):
        return "zh" if chosen == "zh" else "en"
    return "zh" if _CJK.search(text) else "en"


def _chosen(ctx: click.Context) -> Language | None:
    """The language `--lang` chose (None for auto: notices then follow the settings)."""
    chosen = (ctx.find_object(dict) or {}).get("lang", "auto")
    return chosen if chosen in ("zh", "en") else None


def _say(ctx: click.Context, key: str, *, err: bool = False, **params: Any) -> None:
    """Echo catalog message `key`; string parameters are untrusted and shown on one line."""
    safe = {k: one_line(v) if isinstance(v, str) else v for k, v in params.items()}
    click.echo(t(key, _language(ctx), **safe), err=err)


def _echo_json(data: Any) -> None:
    click.echo(json_text(json.dumps(data, ensure_ascii=False, indent=2)))


@contextlib.contextmanager
def _progress(ctx: click.Context) -> Iterator[Progress | None]:
    """A rich progress bar on a terminal, nothing when stderr is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    label = t("kb.progress", _language(ctx))
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _settings() -> Settings:
    from assistant.config import Settings

    return Settings()


def _notice(ctx: click.Context) -> Any:
    return lambda message: click.echo(clean(message), err=True)


@click.group(cls=KbGroup)
@click.option(
    "--lang",
    type=click.Choice(["auto", "zh", "en"]),
    default="auto",
    show_default=True,
    help="Language of messages (auto: follow the query, else English).",
)
@click.pass_context
def kb(ctx: click.Context, lang: str) -> None:
    """Manage and search the knowledge base (shipped documents + your own)."""
    ctx.obj = {"lang": lang}


def _report_build(ctx: click.Context, report: BuildReport | None) -> None:
    if report is None:
        return
    _say(
        ctx,
        "kb.report",
        documents=report.documents,
        passages=report.passages,
        embedded=report.embedded,
        reused=report.passages - report.embedded,
        seconds=round(report.seconds, 1),
    )
    for skipped in report.skipped:
        _skipped(ctx, skipped.source, skipped.reason, err=True)


def _skipped(ctx: click.Context, source: str, reason: Msg, *, err: bool = False) -> None:
    _say(ctx, "kb.skipped", err=err, source=source, reason=text(reason, _language(ctx)))


@kb.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--recursive", "-r", is_flag=True, help="Also add files in sub-folders.")
@click.option(
    "--replace-alias",
    is_flag=True,
    help="Add a site profile even when it claims a name another profile has.",
)
@click.pass_context
def add(ctx: click.Context, paths: tuple[Path, ...], recursive: bool, replace_alias: bool) -> None:
    """Add documents (.md, .txt; GPU/model cards, a config.json): copied in and indexed."""
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.library import add_documents

    with error_boundary(_language(ctx)), _progress(ctx) as progress:
        settings = _settings()
        results, report = add_documents(
            settings,
            make_encoder(settings),
            list(paths),
            recursive=recursive,
            progress=progress,
            replace_alias=replace_alias,
        )
    language = _language(ctx)
    for r in results:
        status = t(f"kb.status.{r.status}", language)
        detail = one_line(text(r.detail, language))
        click.echo(f"{status:10} {one_line(r.path)}" + (f"  ({detail})" if detail else ""))
    _report_build(ctx, report)
    if any(r.status in ("skipped", "refused") for r in results):
        ctx.exit(2)


@kb.command()
@click.argument("kind", type=click.Choice(["gpu", "model", "site"]))
@click.option("--lang", "lang", type=click.Choice(["en", "zh"]), default=None)
@click.pass_context
def template(ctx: click.Context, kind: str, lang: str | None) -> None:
    """Print a copy-me card: a GPU or model for the catalogs, or a site profile."""
    from assistant.locations import shipped_knowledge_dir
    from assistant.retrieval.cards import template as card_template

    language = lang or _language(ctx)
    if kind == "site":
        path = shipped_knowledge_dir() / "sites" / f"template.{language}.md"
        click.echo(path.read_text(encoding="utf-8"), nl=False)
    else:
        click.echo(card_template(kind, language), nl=False)


@kb.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """List the indexed documents (and files that were skipped, with the reason)."""
    from assistant.retrieval.engine import open_retriever

    with error_boundary(_language(ctx)), _progress(ctx) as progress:
        retriever = open_retriever(
            _settings(), notify=_notice(ctx), progress=progress, language=_chosen(ctx)
        )
    documents = retriever.documents()
    if as_json:
        language = _language(ctx)
        skipped = [
            {"source": s.source, "reason": text(s.reason, language)} for s in retriever.data.skipped
        ]
        _echo_json({"documents": documents, "skipped": skipped})
        return
    if not documents:
        _say(ctx, "kb.empty")
    language = _language(ctx)
    rows = [[t(f"kb.column.{name}", language) for name in _LIST_COLUMNS]] if documents else []
    for d in documents:
        origin = t("kb.origin.user" if d["user"] else "kb.origin.shipped", language)
        rows.append(
            [one_line(d["doc_id"]), d["lang"], d["kind"], str(d["passages"]), origin]
            + [one_line(d["source"]), one_line(d["title"])]
        )
    for line in _aligned(rows):
        click.echo(line)
    for s in retriever.data.skipped:
        _skipped(ctx, s.source, s.reason)


_LIST_COLUMNS = ("document", "lang", "kind", "passages", "origin", "file", "title")


def _aligned(rows: list[list[str]]) -> list[str]:
    """Rows as lines of columns two spaces apart, padded to terminal cell width (a Chinese
    character takes two cells); the last column is not padded."""
    from rich.cells import cell_len

    if not rows:
        return []
    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join(cell + " " * (w - cell_len(cell)) for cell, w in zip(row, widths, strict=False))
        + "  "
        + row[-1]
        for row in rows
    ]


@kb.command()
@click.argument("target")
@click.pass_context
def remove(ctx: click.Context, target: str) -> None:
    """Remove one of your documents by id, file name or path."""
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.library import remove_document

    with error_boundary(_language(ctx, target)), _progress(ctx) as progress:
        settings = _settings()
        names, report = remove_document(settings, make_encoder(settings), target, progress=progress)
    for name in names:
        _say(ctx, "kb.removed", name=name)
    _report_build(ctx, report)


@kb.command()
@click.pass_context
def rebuild(ctx: click.Context) -> None:
    """Rebuild the whole index from the documents (atomic: the old index stays until done)."""
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import ensure_index

    with error_boundary(_language(ctx)), _progress(ctx) as progress:
        settings = _settings()
        _, report = ensure_index(settings, make_encoder(settings), progress=progress, force=True)
    _report_build(ctx, report)


@kb.command()
@click.pass_context
def verify(ctx: click.Context) -> None:
    """Check the index: vector count = metadata rows, ids and document hashes match."""
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import KnowledgePaths
    from assistant.retrieval.index import load_index, verify_index
    from assistant.retrieval.manifest import chunk_cap, collect_sources, expected_identity

    with error_boundary(_language(ctx)):
        settings = _settings()
        paths, encoder = KnowledgePaths.from_settings(settings), make_encoder(settings)
        sources = collect_sources(paths.knowledge_dir, paths.documents_dir)
        identity = expected_identity(encoder, chunk_cap(encoder))
        problems = verify_index(paths.index_dir, sources, identity)
        data = None if problems else load_index(paths.index_dir)
    if problems:
        for problem in problems:
            click.echo(one_line(text(problem, _language(ctx))), err=True)
        ctx.exit(1)
    assert data is not None
    _say(ctx, "kb.verify_ok", passages=len(data.passages), documents=len(data.documents))


@kb.command()
@click.argument("query")
@click.option(
    "-k", "k", type=click.IntRange(1, 50), default=5, show_default=True, help="How many passages."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@click.option(
    "--prefer",
    type=click.Choice(["zh", "en"]),
    default=None,
    help="Prefer passages in this language (translations are swapped in).",
)
@click.pass_context
def search(ctx: click.Context, query: str, k: int, as_json: bool, prefer: str | None) -> None:
    """Search the knowledge base (dense + keyword, fused)."""
    from assistant.retrieval.engine import open_retriever

    language = _language(ctx, query)
    with error_boundary(language), _progress(ctx) as progress:
        if not query.strip():
            from assistant.errors import UsageError

            raise UsageError(Msg("kb.query_empty"))
        retriever = open_retriever(
            _settings(), notify=_notice(ctx), progress=progress, language=_chosen(ctx)
        )
        passages = retriever.search(query, k, lang=prefer)  # type: ignore[arg-type]
    if as_json:
        _echo_json([asdict(p) for p in passages])
        return
    if not passages:
        click.echo(t("kb.no_results", language))
    for rank, p in enumerate(passages, 1):
        where = f"{p.title} > {p.heading}" if p.heading else p.title
        click.echo(f"{rank}. [{p.score:.3f}] ({p.lang}) {one_line(where)}")
        click.echo(f"   {one_line(p.source)}#{one_line(p.anchor or '')}  id={p.id}")
        click.echo("   " + clean(p.text).replace("\n", "\n   ") + "\n")
