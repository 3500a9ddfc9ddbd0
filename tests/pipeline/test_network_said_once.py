"""A multi-node training answer that asks about the network says one thing about it: the
sentence up front and the network check use the same verdict word (the check's band) and the
same no-overlap efficiency (the planner's `network_efficiency_no_overlap`, which keeps the TP
excess the run time charges), the headline does not repeat the network as a warning, and the
run time is said once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.calculate import calculate
from assistant.parse import parse

_ZH = "4台8卡H800（400G IB）训练一个70B模型，2T token，要多久？网络会成为瓶颈吗"
_EN = (
    "4 nodes of 8x H800 with 400G InfiniBand: how long to train a 70B model on 2T tokens,"
    " and will the network be the bottleneck?"
)
_ZH_FIRST = "8台8卡H800，IB互联，预训练一个70B模型，2T token，网络会成为瓶颈吗？要多久？"


def _network(question: str) -> tuple[str, dict[str, object], str]:
    outcome = calculate(parse(question))
    check = next(c for c in outcome.checks if c.kind == "network")
    return outcome.lead, dict(check.figures), check.verdict


def test_no_overlap_is_the_run_times_efficiency_with_nothing_hidden() -> None:
    _, f, _ = _network(_ZH)
    compute = float(f["compute_seconds_per_step"])  # type: ignore[arg-type]
    traffic = sum(
        float(f[k])  # type: ignore[arg-type]
        for k in ("allreduce_seconds_per_step", "pp_seconds_per_step", "moe_seconds_per_step")
    )
    # the TP seconds the MFU does not pay (H800's 400 GB/s NVLink against NVLink 4)
    excess = float(f["tp_seconds_per_step"]) - float(f["tp_in_mfu_seconds_per_step"])  # type: ignore[arg-type]
    overlapped = compute / (max(compute, traffic) + excess)
    assert f["network_efficiency"] == pytest.approx(overlapped, rel=1e-6)
    assert f["network_efficiency_no_overlap"] == pytest.approx(
        compute / (compute + traffic + excess), rel=1e-6
    )
    assert f["network_efficiency_no_overlap"] <= f["network_efficiency"]  # type: ignore[operator]


@pytest.mark.parametrize("question", [_ZH, _ZH_FIRST, _EN])
def test_one_word_and_one_no_overlap_figure(question: str) -> None:
    lead, f, verdict = _network(question)
    plain = f"{round(100 * float(f['network_efficiency_no_overlap'])):d}%"  # type: ignore[arg-type]
    zh = question == _ZH or question == _ZH_FIRST
    words = (
        {"ok": "不是瓶颈", "tight": "还不算瓶颈", "fail": "是瓶颈"}
        if zh
        else {
            "ok": "is not the bottleneck:",
            "tight": "not the bottleneck at this batch, but with little margin",
            "fail": "is the bottleneck",
        }
    )
    assert words[verdict] in lead
    others = [w for v, w in words.items() if v != verdict and w not in words[verdict]]
    assert not any(w in lead for w in others)
    assert ("网络偏紧" if zh else "network is tight") not in lead  # no second network verdict
    if float(f["network_efficiency"]) - float(f["network_efficiency_no_overlap"]) >= 0.005:  # type: ignore[arg-type]
        assert plain in lead


@pytest.mark.parametrize("question", [_ZH, _EN, _ZH_FIRST])
def test_the_run_time_is_said_once(question: str) -> None:
    lead, _, _ = _network(question)
    took = re.findall(r"约需 [\d.]+ (?:年|天)|about [\d.]+ (?:years|days)", lead)
    assert len(took) == 1, lead


def test_the_key_figures_say_the_headlines_no_overlap_figure(kb_home: Path) -> None:
    from assistant.config import Settings
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings = Settings()
    got = answer(_ZH, settings=settings, retriever=open_test_retriever(settings))
    said = re.findall(r"不(?:能)?重叠[^%\d\n]*(\d+)%", got.text)
    assert len(said) >= 2, got.text  # the headline and the key figures
    assert len(set(said)) == 1, got.text
