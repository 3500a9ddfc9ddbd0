"""Verdict and check names in both languages, read from the catalog (`common.verdict.*`,
`common.check.*`): the calculate stage words its leads with them and render shows them as
headings, so the two can never disagree ("Not feasible" in one place, "Infeasible" in another).

Examples:
    >>> CHECK_LABELS["compute"]["zh"], VERDICT_LABELS["infeasible"]["en"]
    ('算力与时间', 'Not feasible')
"""

from __future__ import annotations

from assistant.i18n import LANGUAGES, t

__all__ = ["CHECK_KINDS", "CHECK_LABELS", "VERDICTS", "VERDICT_LABELS"]

VERDICTS = ("feasible", "conditional", "infeasible", "unknown")
CHECK_KINDS = ("memory", "compute", "network", "power", "cost")

#: verdict → language → label ("infeasible" → "zh" → "不可行").
VERDICT_LABELS: dict[str, dict[str, str]] = {
    v: {lang: t(f"common.verdict.{v}", lang) for lang in LANGUAGES} for v in VERDICTS
}
#: check kind → language → label ("compute" → "en" → "Compute and time").
CHECK_LABELS: dict[str, dict[str, str]] = {
    k: {lang: t(f"common.check.{k}", lang) for lang in LANGUAGES} for k in CHECK_KINDS
}
