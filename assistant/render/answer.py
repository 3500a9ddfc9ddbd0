"""Answer → Markdown text and Rich renderables; the only place quantities become labels.

Bytes are shown in decimal units with the binary value beside them ("80.0 GB (74.5 GiB)"),
FLOPs in scientific notation, rates with SI prefixes; the number formatting itself comes from
:mod:`calculators.units`. Other stages call the `fmt_*` helpers here instead of formatting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.i18n import numbers, t, text
from assistant.i18n.labels import CHECK_LABELS, VERDICT_LABELS
from assistant.parse.asks import asks_sync_time
from assistant.records import Answer, Check, Language
from assistant.render.excerpt import excerpt
from calculators.messages import Msg

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = [
    "CHECK_LABELS",
    "CHECK_MARKS",
    "VERDICT_LABELS",
    "answer_renderable",
    "binding_label",
    "fmt_bytes",
    "fmt_count",
    "fmt_flops",
    "fmt_percent",
    "fmt_rate",
    "fmt_seconds",
    "is_estimate",
    "is_explanation",
    "is_few_sequences",
    "is_impractical",
    "render_markdown",
    "verdict_label",
    "without_banner",
]


def verdict_label(answer: Answer, language: Language | None = None) -> str:
    """The headline's label: the verdict, or "Estimate" for figures computed with no verdict
    (a quantity asked with no hardware named is not judged on a card the user never chose).

    In the answer's language unless `language` is given (the chat app's badge follows the
    interface language); every banner, badge and headline takes its label from here.
    """
    lang = language or answer.language
    if is_estimate(answer):
        return text(Msg("common.verdict.estimate"), lang)
    if is_explanation(answer):
        return text(Msg("concept.label"), lang)
    if is_impractical(answer):
        return text(Msg(f"common.verdict.{answer.verdict}_impractical"), lang)
    if is_few_sequences(answer):
        return text(Msg("common.verdict.feasible_few"), lang)
    return VERDICT_LABELS[answer.verdict][lang]


def is_few_sequences(answer: Answer) -> bool:
    """Whether a serving plan that works as asked holds fewer sequences than a minimal serving
    batch, no load stated (`serving_room.few_sequences`): "Feasible" alone would read as a
    deployment for many users."""
    from assistant.calculate.serving_room import few_sequences

    if answer.verdict != "feasible" or answer.scenario is None:
        return False
    return few_sequences(answer.checks, answer.query.scenario, answer.scenario) is not None


def is_impractical(answer: Answer) -> bool:
    """Whether a run that works as asked takes more than a year with no deadline stated: the
    year is no verdict of the user's ("8张A800训练13B、1T token要多久" runs), but the label says
    it is impractical, so "Feasible" never stands beside "over a year, impractical". A network
    question ("会不会卡在网络上") is labelled so too: its answer leads, but the job is no more
    practical for a network that keeps up. A per-step sync time asked with no data size
    ("每步梯度all-reduce要多少秒") is not: the run's length there is only a default's. A run used
    some hours a day is judged on its calendar time (`calculate.daily_use`)."""
    from calculators.defaults import PRACTICAL_SECONDS

    if answer.verdict not in ("feasible", "conditional") or answer.query.scenario.deadline_seconds:
        return False
    if answer.query.scenario.tokens is None and asks_sync_time(answer.query.question):
        return False  # "每步梯度同步要多久" with no data size: a per-step time, not the run's
    compute = next((c for c in answer.checks if c.kind == "compute"), None)
    if compute is None or compute.verdict == "n/a":  # judged on memory: the time is not judged
        return False
    # "每天只能用12小时": 186.5 days of training are 373 of calendar time (`calculate.daily_use`)
    seconds = compute.figures.get("calendar_seconds", compute.figures.get("seconds"))
    return isinstance(seconds, (int, float)) and seconds > PRACTICAL_SECONDS


def is_explanation(answer: Answer) -> bool:
    """Whether `answer` explains a concept from cited passages: nothing was evaluated, so it
    is labelled "Explanation", not "Cannot tell" (a new user would read "无法判断" first)."""
    return (
        answer.verdict == "unknown"
        and not answer.checks
        and answer.scenario is None
        and bool(answer.citations)
        and answer.query.in_domain
    )


def is_estimate(answer: Answer) -> bool:
    """Whether `answer` gives figures with no verdict (labelled "Estimate", not "Cannot tell")."""
    return answer.verdict == "unknown" and bool(answer.checks)


def binding_label(answer: Answer, language: Language | None = None) -> str | None:
    """The binding constraint's label ("Memory", "显存"), or None when there is none."""
    kind = answer.binding_constraint
    if not kind:
        return None
    return CHECK_LABELS.get(kind, {}).get(language or answer.language, kind)


def without_banner(answer: Answer, body: str, *, binding: bool = False) -> str:
    """`body` (the answer's Markdown, maybe shortened) without what a banner above it already
    says: the leading verdict label, and with `binding` the "Binding constraint" line."""
    label = verdict_label(answer)
    for prefix in (f"**{label}**：", f"**{label}**: ", f"**{label}**"):
        if body.startswith(prefix):
            body = body.removeprefix(prefix).lstrip(" ")
            break
    what = binding_label(answer)
    if binding and what:
        lang = answer.language
        colon = "：" if lang == "zh" else ": "
        heading = text(Msg("answer.heading.binding"), lang)
        body = body.replace(f"\n\n{heading}{colon}{what}\n", "\n", 1)
    return body


#: One mark per check verdict. Each is a single code point that is East Asian Wide and shown as
#: an emoji by default, so terminals and Rich agree it takes two cells: no variation selector
#: (U+FE0F, which terminals draw one cell wider than Rich counts) and no joiner sequences.
CHECK_MARKS: dict[str, str] = {"ok": "✅", "tight": "🔶", "fail": "❌", "n/a": "➖"}
_CHECK_MARKS = CHECK_MARKS


def fmt_bytes(value: float) -> str:
    """Bytes as "80.0 GB (74.5 GiB)": decimal first, binary beside it, both labelled."""
    return numbers.bytes_text(value)


def fmt_seconds(value: float, language: Language = "en") -> str:
    """A duration in the largest convenient unit, in the answer's language."""
    return numbers.duration_text(value, language)


def fmt_flops(value: float) -> str:
    """A FLOP count ("3.14e23 FLOPs")."""
    return numbers.flops_text(value)


def fmt_rate(value: float, unit: str = "B/s") -> str:
    """A rate with an SI prefix ("312.0 TFLOP/s", "3.1 GB/s")."""
    return numbers.rate_text(value, unit)


def fmt_count(value: float, language: Language = "en") -> str:
    """A large count (parameters, tokens): "70B" / "1.4T", or "700亿" / "1.4万亿" in Chinese."""
    return numbers.count_text(value, language)


def fmt_percent(value: float) -> str:
    """A fraction as a percentage ("40%", "2.5%")."""
    return numbers.percent_text(value)


def _check_lines(answer: Answer, check: Check, refs: dict[str, list[int]]) -> list[str]:
    lang = answer.language
    label = CHECK_LABELS[check.kind][lang]
    cited = refs.get(check.summary, [])
    marks = " " + "".join(f"[{n}]" for n in cited) if cited else ""
    if not cited and check.verdict != "n/a":
        marks = f" _({t('answer.heading.none', lang)})_"
    colon = "：" if lang == "zh" else ": "
    lines = [f"- {_CHECK_MARKS[check.verdict]} **{label}**{colon}{check.summary}{marks}"]
    if check.formula:
        lines.append(f"  - {t('answer.heading.formula', lang)}{colon}`{check.formula}`")
    return lines


def _explanation(answer: Answer, facts: tuple[str, ...], ask: str) -> list[str]:
    """The body of an answer with nothing computed: the passages themselves, facts, what to ask."""
    lang = answer.language
    lines = ["", f"### {t('answer.heading.explain', lang)}"]
    unique = list({c.passage.id: c.passage for c in answer.citations}.values())
    for number, passage in enumerate(unique, start=1):
        quoted = [
            f"> {line}" if line.strip() else ">" for line in passage.text.strip().splitlines()
        ]
        quoted[-1] += f" [{number}]"
        lines += [*quoted, ""]
    if not unique:
        lines += [t("answer.heading.nothing", lang), ""]
    if facts:
        lines += [f"### {t('answer.heading.facts', lang)}", *[f"- {f}" for f in facts], ""]
    if ask:
        lines += [f"### {t('answer.heading.ask', lang)}", f"- {ask}"]
    return lines


def render_markdown(
    answer: Answer,
    lead: str = "",
    facts: tuple[str, ...] = (),
    ask: str = "",
    remarks: tuple[str, ...] = (),
) -> str:
    """The answer as Markdown: verdict first, then figures, suggestions, assumptions, sources.

    An answer with nothing computed but cited passages or facts (a conceptual question) shows
    the passages themselves, the facts and what to add for a computed verdict instead.
    """
    lang = answer.language
    verdict = verdict_label(answer)
    colon = "：" if lang == "zh" else ": "
    numbers: dict[str, int] = {}
    refs: dict[str, list[int]] = {}
    for citation in answer.citations:
        number = numbers.setdefault(citation.passage.id, len(numbers) + 1)
        refs.setdefault(citation.claim, []).append(number)
    lead_refs = "".join(f"[{n}]" for n in refs.get(lead, [])) if lead else ""
    lines = [
        f"**{verdict}**"
        + (f"{colon}{lead}" if lead else "")
        + (f" {lead_refs}" if lead_refs else "")
    ]
    if answer.binding_constraint:
        label = CHECK_LABELS.get(answer.binding_constraint, {}).get(lang, answer.binding_constraint)
        lines += ["", f"{t('answer.heading.binding', lang)}{colon}{label}"]
    if answer.warnings:
        lines += ["", f"### {t('answer.heading.notes', lang)}"] + [
            f"- {w}" for w in answer.warnings
        ]
    if not answer.checks and (answer.citations or facts or ask):
        lines += _explanation(answer, facts, ask)
    if answer.checks:
        lines += ["", f"### {t('answer.heading.figures', lang)}"]
        for check in answer.checks:
            lines += _check_lines(answer, check, refs)
    if answer.suggestions or remarks:
        lines += ["", f"### {t('answer.heading.suggestions', lang)}"]
        lines += [f"- {s.change} → {s.effect}" for s in answer.suggestions]
        lines += [f"- _{r}_" for r in remarks]
    if answer.assumptions:
        lines += ["", f"### {t('answer.heading.assumptions', lang)}"] + [
            f"- {a}" for a in answer.assumptions
        ]
    if answer.citations:
        lines += ["", f"### {t('answer.heading.sources', lang)}"]
        unique = {c.passage.id: c.passage for c in answer.citations}
        quotes = _quotes(answer)
        for number, passage in enumerate(unique.values(), start=1):
            said = excerpt(passage.text, 160, around=quotes.get(passage.id, ""))
            where = f"{passage.title} › {passage.heading}" if passage.heading else passage.title
            lines.append(f"{number}. {where} (`{passage.doc_id}`, id `{passage.id}`): {said}")
    return "\n".join(lines) + "\n"


def _quotes(answer: Answer) -> dict[str, str]:
    """The sentence the answer quotes from each passage that has one (its excerpt's window)."""
    quotes: dict[str, str] = {}
    for citation in answer.citations:
        if citation.quote:
            quotes.setdefault(citation.passage.id, citation.quote)
    return quotes


def answer_renderable(answer: Answer, *, full: bool = False) -> RenderableType:
    """A Rich renderable for the terminal: a verdict banner over the Markdown body, shortened
    to a screen (:func:`~assistant.render.brief.brief_markdown`) unless `full`."""
    from rich.console import Group
    from rich.markdown import Markdown
    from rich.text import Text

    from assistant.render.brief import brief_markdown

    styles = {
        "feasible": "bold green",
        "conditional": "bold yellow",
        "infeasible": "bold red",
        "unknown": "bold blue",
    }
    label = verdict_label(answer)
    # The banner says the verdict in colour; the headline below it does not repeat it.
    brief = answer.text if full else brief_markdown(answer.text, short_sources=True)
    body = without_banner(answer, brief)
    return Group(Text(label, style=styles[answer.verdict]), Markdown(body))
