"""`gpu-advisor kb eval`: recall@1/3/5, MRR and no-passage accuracy on the golden set."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from assistant.cli.edge import error_boundary

if TYPE_CHECKING:
    from rich.console import Console

    from assistant.evaluation.calibration import SweepPoint
    from assistant.evaluation.retrieval import EvaluationReport
    from assistant.records import Language


@click.command("eval")
@click.option(
    "--golden",
    type=click.Path(path_type=Path),
    default=None,
    help="A golden .jsonl file or a folder of them (default: tests/retrieval/golden/).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--misses", is_flag=True, help="List the questions each system got wrong.")
@click.option(
    "--direct",
    is_flag=True,
    help="Build both lanes in memory from the documents instead of opening the index.",
)
@click.option(
    "--sweep",
    "do_sweep",
    is_flag=True,
    help="Search the fusion thresholds on the golden set and print the best settings.",
)
def kb_eval(golden: Path | None, as_json: bool, misses: bool, direct: bool, do_sweep: bool) -> None:
    """Score dense-only, BM25-only and hybrid retrieval side by side on the golden set."""
    with error_boundary():
        from assistant.config import Settings
        from assistant.evaluation.calibration import sweep
        from assistant.evaluation.retrieval import evaluate, load_golden, open_lanes

        questions = load_golden(golden)
        lanes = open_lanes(Settings(), direct=direct)
        if do_sweep:
            _print_sweep(sweep(questions, lanes), as_json)
            return
        report = evaluate(questions, lanes)
        if as_json:
            click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
            return
        _print_report(report, misses)


def _print_report(report: EvaluationReport, show_misses: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    from assistant.evaluation.retrieval import CUTOFFS

    kinds = ", ".join(f"{kind} {count}" for kind, count in report.by_kind.items())
    table = Table(title=f"{report.queries} questions ({kinds}) over {report.passages} passages")
    table.add_column("system")
    for k in CUTOFFS:
        table.add_column(f"recall@{k}", justify="right")
    table.add_column("MRR", justify="right")
    table.add_column("no-passage acc.", justify="right")
    table.add_column("section@3", justify="right")
    for m in report.systems:
        table.add_row(
            m.name,
            *(f"{m.recall[k]:.3f}" for k in CUTOFFS),
            f"{m.mrr:.3f}",
            f"{m.no_passage_accuracy:.3f}",
            f"{m.section_recall3:.3f}",
        )
    console = Console()
    console.print(table)
    _print_breakdown(console, report)
    alone = ", ".join(f"{name} > {value:.3f}" for name, value in report.lane_thresholds.items())
    console.print(
        f"Lanes alone answer only above the best find-nothing score in that lane ({alone}); "
        "hybrid uses the calibrated fusion thresholds.",
        highlight=False,
    )
    if show_misses:
        for m in report.systems:
            for miss in m.misses:
                console.print(
                    f"[bold]{m.name}[/] {miss.query!r}: expected {miss.expected_doc}, "
                    f"got {list(miss.returned) or 'nothing'}",
                    markup=True,
                    highlight=False,
                )


def _print_breakdown(console: Console, report: EvaluationReport) -> None:
    from assistant.config import Settings
    from assistant.i18n import text
    from calculators.messages import Msg

    settings = Settings()
    language = settings.language if settings.language != "auto" else settings.ui_language
    lang: Language = "zh" if language == "zh" else "en"
    console.print(text(Msg("retrieval.eval.breakdown_title"), lang), highlight=False)
    for b in report.breakdown:
        row = Msg(
            "retrieval.eval.breakdown_row",
            part=b.part,
            lang=b.lang,
            recall=b.recall3,
            answerable=b.answerable,
            silent=b.silent,
            answered=b.answered,
            unanswerable=b.unanswerable,
        )
        console.print("  " + text(row, lang), highlight=False)


def _print_sweep(points: Sequence[SweepPoint], as_json: bool) -> None:
    if as_json:
        rows = [
            {
                **p.options,
                "recall@3": p.metrics.recall[3],
                "mrr": p.metrics.mrr,
                "no_passage_accuracy": p.metrics.no_passage_accuracy,
                "margin": p.margin,
            }
            for p in points
        ]
        click.echo(json.dumps(rows, indent=2))
        return
    for p in points:
        settings = " ".join(f"{name}={value:.2f}" for name, value in p.options.items())
        m = p.metrics
        click.echo(
            f"{settings}  recall@1={m.recall[1]:.3f} recall@3={m.recall[3]:.3f} "
            f"MRR={m.mrr:.3f} no-passage={m.no_passage_accuracy:.3f} margin={p.margin:+.3f}"
        )
