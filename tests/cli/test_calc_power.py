"""`gpu-advisor calc power`: the energy and electricity bill of N catalog GPUs for a time, in
both languages, JSON in SI units, and bad input refused with exit 2 in the user's language."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

H100_HOUR = ("calc", "power", "--gpu", "H100", "--gpus", "8", "--hours", "1")
#: Worked by hand: 8 H100 at the datasheet's 700 W, BLOOM's 237 W of host per GPU, PUE 1.58.
GPU_J = 8 * 700 * 3600
HOST_J = 8 * 237 * 3600
TOTAL_J = (GPU_J + HOST_J) * 1.58


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _json(*args: str) -> dict[str, Any]:
    result = _run(*args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_calc_lists_the_power_command() -> None:
    assert "power" in _run("calc", "--help").output
    assert "--price-kwh" in _run("calc", "power", "--help").output


def test_json_is_si_energy_worked_by_hand() -> None:
    data = _json(*H100_HOUR)
    assert data["gpu_energy_joules"] == pytest.approx(GPU_J)
    assert data["host_energy_joules"] == pytest.approx(HOST_J)
    assert data["energy_joules"] == pytest.approx(TOTAL_J)
    assert data["facility_overhead_joules"] == pytest.approx(TOTAL_J - GPU_J - HOST_J)
    assert data["average_power_watts"] == pytest.approx(TOTAL_J / 3600)
    assert data["kwh"] == pytest.approx(TOTAL_J / 3.6e6)
    assert (data["seconds"], data["pue"], data["tdp_watts"]) == (3600, 1.58, 700)
    assert "energy_cost" not in data  # no price given: none is invented
    assert data["formula"].startswith("E = n_gpus")
    assert any("Uptime Institute" in s for s in data["sources"])  # the PUE's source
    assert any(s.startswith("power:") and "H100" in s for s in data["sources"])  # the TDP's


def test_days_are_24_hours() -> None:
    days = _json("calc", "power", "--gpu", "H100", "--gpus", "8", "--days", "2")
    hours = _json("calc", "power", "--gpu", "H100", "--gpus", "8", "--hours", "48")
    assert days["energy_joules"] == pytest.approx(hours["energy_joules"])
    assert days["seconds"] == 2 * 86_400


def test_a_price_gives_the_bill_in_its_currency() -> None:
    data = _json(*H100_HOUR, "--price-kwh", "0.6", "--currency", "CNY")
    assert data["energy_cost"] == pytest.approx(TOTAL_J / 3.6e6 * 0.6)
    assert data["currency"] == "CNY"
    assert "11.84" not in data["message"]  # the bill is said as money, to the cent
    assert "7.11 CNY" in data["message"]
    assert "energy cost = kWh × price per kWh" in data["formula"]


def test_pue_scales_the_facility_energy() -> None:
    one = _json(*H100_HOUR, "--pue", "1.0")
    more = _json(*H100_HOUR, "--pue", "1.3")
    assert one["facility_overhead_joules"] == 0
    assert more["energy_joules"] == pytest.approx(1.3 * one["energy_joules"])
    assert more["facility_overhead_joules"] == pytest.approx(0.3 * one["energy_joules"])
    assert any("PUE 1.3" in said for said in more["assumptions"])


def test_utilization_scales_the_gpus_only() -> None:
    half = _json(*H100_HOUR, "--utilization", "0.5")
    assert half["gpu_energy_joules"] == pytest.approx(GPU_J / 2)
    assert half["host_energy_joules"] == pytest.approx(HOST_J)
    assert any("50% of TDP" in said for said in half["assumptions"])


def test_consumer_cards_at_a_desk_unless_a_host_overhead_is_given() -> None:
    args = ("calc", "power", "--gpu", "4090", "--gpus", "2", "--hours", "1")
    desk = _json(*args)
    assert desk["pue"] == 1.0  # a desktop: no data-centre PUE
    assert desk["average_power_watts"] == pytest.approx((2 * 450 + 175) / 0.90)
    assert any("Office/home" in said for said in desk["assumptions"])
    server = _json(*args, "--host-overhead", "100")
    assert server["host_energy_joules"] == pytest.approx(2 * 100 * 3600)
    assert server["pue"] == 1.58


def test_human_output_in_english_shows_kwh_formula_assumptions_and_sources() -> None:
    result = _run(*H100_HOUR, "--price-kwh", "0.6")
    assert result.exit_code == 0, result.output
    text = result.output
    for needle in (
        "8 × H100 SXM 80GB for 1 h use 11.8 kWh at PUE 1.58",
        "GPU energy",
        "5.6 kWh",  # 8 x 700 W for an hour
        "total energy (× PUE)",
        "11.8 kW",  # average power
        "energy cost",
        "formula: E = n_gpus",
        "assumption: Host overhead 237 W per GPU",
        "source: power: NVIDIA H100",
        "source: Uptime Institute",
        "At 0.6 per kWh the electricity costs 7.11.",
    ):
        assert needle in text, needle


def test_human_output_in_chinese_has_no_english_labels() -> None:
    text = _run(*H100_HOUR, "--price-kwh", "0.6", "--currency", "CNY", "--lang", "zh").output
    for needle in ("8 张 H100 SXM 80GB 运行", "GPU 电量", "总电量（含 PUE）", "平均功率", "电费"):
        assert needle in text, needle
    for needle in ("公式：", "假设：", "来源：", "按每 kWh 0.6 元计，电费约 7.11 元。"):
        assert needle in text, needle
    for leak in ("GPU energy", "total energy", "average power", "energy cost", "assumption:"):
        assert leak not in text, leak


def test_the_json_figures_do_not_depend_on_the_language() -> None:
    en, zh = _json(*H100_HOUR), _json(*H100_HOUR, "--lang", "zh")
    assert en["energy_joules"] == zh["energy_joules"]
    assert en["message"] != zh["message"]
    assert "张" in zh["message"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("--gpu", "H1000", "--gpus", "8", "--hours", "1"), "gpu"),  # not in the catalog
        (("--gpu", "H100", "--gpus", "8", "--hours", "-1"), "hours"),
        (("--gpu", "H100", "--gpus", "8", "--days", "0"), "days"),
        (("--gpu", "H100", "--gpus", "8", "--hours", "1", "--pue", "0.9"), "pue"),
        (("--gpu", "H100", "--gpus", "0", "--hours", "1"), "gpus"),
        (("--gpu", "H100", "--gpus", "8", "--hours", "1e999"), "hours"),  # inf
        (("--gpu", "H100", "--gpus", "8", "--days", "1e300"), "days"),  # finite, but absurd
        (("--gpu", "H100", "--gpus", str(10**40), "--hours", "1"), "gpus"),
        (("--gpu", "H100", "--gpus", "1e999", "--hours", "1"), "--gpus"),  # not a whole number
        (("--gpu", "H100", "--gpus", "8"), "hours"),  # no duration
        (("--gpu", "H100", "--gpus", "8", "--hours", "1", "--days", "1"), "hours"),  # two
        (("--gpu", "H100", "--gpus", "8", "--hours", "1", "--utilization", "1.5"), "utilization"),
        (("--gpu", "H100", "--gpus", "8", "--hours", "1", "--host-overhead", "1e308"), "host"),
        (("--gpu", "H100", "--gpus", "8", "--hours", "1", "--price-kwh", "-1"), "price_per_kwh"),
    ],
)
@pytest.mark.parametrize(("lang", "prefix"), [("en", "Error: "), ("zh", "错误：")])
def test_bad_input_exits_2_in_the_users_language(
    args: tuple[str, ...], field: str, lang: str, prefix: str
) -> None:
    result = CliRunner().invoke(cli, ["calc", "power", *args, "--lang", lang])
    assert result.exit_code == 2, result.output
    assert field in result.output
    assert prefix in result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # a refusal, not a crash


def test_the_readme_example_says_what_the_command_prints() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    example = "gpu-advisor calc power --gpu H100 --gpus 8 --days 30 --price-kwh 0.6 --currency CNY"
    assert example in readme
    text = _run(*shlex.split(example)[1:]).output
    for figure in ("8,527 kWh", "5,116 CNY"):  # as the README's line on `calc power` says
        assert figure in readme
        assert figure in text, figure
