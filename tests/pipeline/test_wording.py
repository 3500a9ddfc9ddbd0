"""Wording: formulas keep their math and speak the answer's language; no mixed fragments."""

from __future__ import annotations

import re

import pytest

from assistant.calculate.formulas import local_formula
from assistant.render import fmt_seconds
from calculators._memory_parts import training_formula
from calculators.network import FORMULA as NETWORK_FORMULA

#: English prose words that must not be left inside a Chinese formula.
_PROSE = re.compile(
    r"\b(?:per|of|over|with|for|the|on|hierarchical|workspace|serving|deployment|concurrent|"
    r"replicas?|frozen|activations|weights|bytes|decode|prefill|cost|price|stage|layer|"
    r"micro-batch|boundary|group)\b"
)
FORMULAS = [
    NETWORK_FORMULA,
    training_formula((2.0, 2.0, 12.0), 3),
    training_formula((2.0, 2.0, 12.0), 1),
    "per GPU = frozen base (0.516 bytes/param on linear layers, 2 on the rest) + LoRA params "
    "r·Σ(d_in+d_out) × (2+2+12) bytes + activations (Korthikanti et al. 2022)",
    "per GPU = params × bytes(weight_dtype)/(t·p) + batch × context × "
    "2·layers·kv_heads·head_dim·bytes(kv_dtype)/(p·min(t, kv_heads)) + workspace "
    "(2,048-token prefill chunk × (4h + m·ffn) × 2 bytes / t)",
    "prefill = batch·(2·N_active·p + 2·L·p²·d) / (n·peak·MFU); decode step = "
    "max((weights + batch·context·kv_bytes) / (n·bandwidth·eff), batch·2·N_active / "
    "(n·peak·MFU)); deployment decode = concurrent sequences / step time of a replica holding "
    "ceil(sequences / replicas)",
    "E = n_gpus x (TDP x u + P_host_per_gpu) x t x PUE; kWh = E / 3.6e6; serving: P = n_gpus x "
    "(TDP + P_host) x PUE, kWh per hour = P / 1000, energy per token = P / deployment decode "
    "tokens/s",
    "cost = GPU-hours x price per GPU-hour",
    "C = 6·N_active·D (8 with full recompute) + attention; T = C / (n × peak × MFU)",
]


@pytest.mark.parametrize("formula", FORMULAS)
def test_chinese_formulas_have_no_english_prose(formula: str) -> None:
    zh = local_formula(formula, "zh")
    assert not _PROSE.search(zh), zh
    assert "每层 每微批" not in zh
    assert " x " not in zh
    assert re.search(r"[\u4e00-\u9fff]", zh) or "=" in zh


@pytest.mark.parametrize("formula", FORMULAS)
def test_formulas_keep_their_math(formula: str) -> None:
    en = local_formula(formula, "en")
    assert " x " not in en
    assert en.replace("×", "x") == formula.replace("×", "x")
    zh = local_formula(formula, "zh")
    for symbol in re.findall(r"\b[A-Za-z]+_[A-Za-z_]+\b|\d+(?:\.\d+)?Ψ", formula):
        assert symbol in zh, (symbol, zh)


def test_whole_durations_show_no_decimal() -> None:
    assert fmt_seconds(90 * 86400, "zh") == "90 天"
    assert fmt_seconds(12.6 * 86400, "en") == "12.6 days"
