"""A training rate the user measured ("3000 tokens/s/GPU") turned into the run's MFU.

The rate sets the MFU: MFU = rate per GPU × FLOPs per token / dense peak per GPU (the FLOPs per
token and the peak are the compute check's own: 6 × N + attention, the GPU's datasheet rate;
Narayanan et al. 2021, §5.1; Chowdhery et al. 2022, PaLM, Appendix B). The question is then
evaluated at that MFU, so its run time, GPU-hours and cost follow from the stated rate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from assistant.calculate.focus import figure
from assistant.records import Query

__all__ = ["measured_mfu", "with_measured_mfu"]


def measured_mfu(rate_per_gpu: float, flops_per_token: float, peak_flops_per_s: float) -> float:
    """The MFU a measured rate means.

    >>> round(measured_mfu(3000, 5.46e10, 989.4e12), 3)
    0.166
    """
    return rate_per_gpu * flops_per_token / peak_flops_per_s


def with_measured_mfu(query: Query, run: Callable[[Query], object]) -> Query:
    """`query` with the MFU its stated training rate implies (unchanged when no rate is
    stated, an MFU is, or the job is inference). `run` evaluates a query; its compute check
    gives the FLOPs per token and the peak."""
    s = query.scenario
    if s.tokens_per_second_per_gpu is None or s.mfu is not None or s.task == "inference":
        return query
    outcome = run(query)
    checks = getattr(outcome, "checks", ())
    flops, tokens = figure(checks, "compute", "total_flops"), figure(checks, "compute", "tokens")
    peak = figure(checks, "compute", "peak_flops_per_s")
    if not (flops and tokens and peak):
        return query
    mfu = measured_mfu(s.tokens_per_second_per_gpu, flops / tokens, peak)
    return replace(query, scenario=replace(s, mfu=mfu))
