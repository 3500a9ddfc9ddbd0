"""`gpu-advisor calc power`: the energy and electricity bill of N catalog GPUs for a time.

Examples:
  gpu-advisor calc power --gpu H100 --gpus 8 --days 30
  gpu-advisor calc power --gpu 4090 --gpus 2 --hours 10 --price-kwh 0.6 --currency CNY --lang zh
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from assistant.cli.calc_serving import solver_options
from assistant.cli.edge import error_boundary
from calculators.defaults import DAY
from calculators.messages import Msg
from calculators.power import DEFAULT_PUE, HOST_WATTS_PER_GPU, OFFICE_PUE, TDP_SHARE

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU
    from calculators.planner.plan import CheckResult

__all__ = ["power_command"]

HOUR = 3_600.0
#: Longest run priced: a century (past it an electricity bill means nothing, and the energy
#: of 10^7 GPUs stays a finite float).
MAX_HOURS = 100 * 365.25 * 24
#: Largest non-GPU power per GPU accepted, in watts (a whole rack per GPU is 100 kW).
MAX_HOST_WATTS = 1e5
#: Largest electricity price per kWh accepted (as `calculators.sizing.job_energy_cost`).
MAX_PRICE_PER_KWH = 1e4


@click.command("power")
@solver_options
@click.option("--gpus", type=int, required=True, help="Total GPUs.")
@click.option("--hours", type=float, default=None, help="How long they run (or --days).")
@click.option("--days", type=float, default=None, help="How long they run (or --hours).")
@click.option(
    "--utilization",
    type=float,
    default=TDP_SHARE,
    show_default=True,
    help="Average GPU power as a share of TDP, in (0, 1] (1 = TDP, an upper bound).",
)
@click.option(
    "--pue",
    type=float,
    default=None,
    help=f"Facility PUE [default: {DEFAULT_PUE} (Uptime Institute 2023 average); "
    f"{OFFICE_PUE} for 1-4 consumer cards at a desk].",
)
@click.option(
    "--host-overhead",
    "host_watts_per_gpu",
    type=float,
    default=None,
    help=f"Non-GPU power per GPU in W, as in a server [default: {HOST_WATTS_PER_GPU:.0f} W "
    "(BLOOM); 1-4 consumer cards: a desktop or workstation box].",
)
@click.option(
    "--price-kwh",
    "price_per_kwh",
    type=float,
    default=None,
    help="Your electricity price per kWh (no price is ever invented).",
)
@click.option("--currency", default=None)
def power_command(**options: Any) -> None:
    """Energy (GPUs, hosts, PUE), average power and, with --price-kwh, the electricity bill."""
    from assistant.render.calc import power_json, render_power
    from calculators.catalog.hardware import lookup_gpu

    with error_boundary(options["lang"]):
        gpu = lookup_gpu(options["gpu_name"])
        check, headline = _power_check(gpu, options)
        if options["as_json"]:
            from assistant.sanitize import json_text

            data = power_json(check, headline, options["lang"])
            click.echo(json_text(json.dumps(data, ensure_ascii=False, indent=2)))
        else:
            from assistant.sanitize import SafeConsole

            render_power(SafeConsole(soft_wrap=False), check, headline, options["lang"])


def _power_check(gpu: GPU, options: dict[str, Any]) -> tuple[CheckResult, Msg]:
    """The job's energy as a `power` check (SI figures) and its one-sentence headline."""
    from calculators.planner.energy import energy_run_check

    seconds = _seconds(options["hours"], options["days"])
    gpus, host, price = _checked_amounts(options)
    check = energy_run_check(
        gpu=gpu,
        gpus=gpus,
        seconds=seconds,
        gpus_per_node=options["gpus_per_node"],
        pue=options["pue"],
        host_watts_per_gpu=host,
        utilization=options["utilization"],
        price_per_kwh=price,
        currency=options["currency"],
    )
    return check, _headline(gpu.name, check)


def _seconds(hours: float | None, days: float | None) -> float:
    """The run's duration in seconds from exactly one of --hours and --days."""
    from calculators.validate import check_positive, fail

    if (hours is None) == (days is None):
        fail("hours", hours if days is None else days, Msg("invalid.hours_or_days"))
    if hours is not None:
        return check_positive("hours", hours, maximum=MAX_HOURS) * HOUR
    return check_positive("days", days or 0.0, maximum=MAX_HOURS / 24) * DAY


def _checked_amounts(options: dict[str, Any]) -> tuple[int, float | None, float | None]:
    """GPUs, host watts and price within the bounds that keep every figure finite."""
    from calculators.planner.validate import MAX_GPUS
    from calculators.validate import check_count, check_positive, non_negative

    gpus = check_count("gpus", options["gpus"], maximum=MAX_GPUS)
    host, price = options["host_watts_per_gpu"], options["price_per_kwh"]
    if host is not None:
        non_negative("host_watts_per_gpu", host)
        if host:
            check_positive("host_watts_per_gpu", host, maximum=MAX_HOST_WATTS)
    if price is not None:
        check_positive("price_per_kwh", price, maximum=MAX_PRICE_PER_KWH)
    return gpus, host, price


def _headline(gpu_name: str, check: CheckResult) -> Msg:
    """What the run uses, in one sentence; and what it costs when a price was given."""
    f = check.figures
    run = Msg(
        "solve.power_run",
        gpus=check.inputs["gpus"],
        gpu=gpu_name,
        seconds=check.inputs["seconds"],
        joules=f["energy_joules"],
        gpu_joules=f["gpu_energy_joules"],
        host_joules=f["host_energy_joules"],
        pue=check.inputs["pue"],
        watts=f["average_power_watts"],
    )
    if f.get("energy_cost") is None:
        return run
    said = Msg("solve.power_cost", price=f["price_per_kwh"], cost=f["energy_cost"])
    if f.get("currency") is not None:
        said = Msg("solve.power_cost_currency", **dict(said.items()), currency=f["currency"])
    return Msg("solve.power_run_priced", run=run, cost=said)
