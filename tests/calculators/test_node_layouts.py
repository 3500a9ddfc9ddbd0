"""One-node training layouts and what the network check counts: TP over NVLink is in the MFU
(no warning), TP only as far as memory needs, and no TP across PCIe when ZeRO data parallel
fits."""

from __future__ import annotations

import pytest

from assistant.calculate.defaults import resolve
from assistant.calculate.layouts import evaluate_best
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import generic_model, lookup_model
from calculators.planner import run_checks
from calculators.planner.plan import Plan


def _best(**fields: object) -> Plan:
    scenario = Scenario(**fields)  # type: ignore[arg-type]
    return evaluate_best(resolve(scenario, None, "en").scenario, "en", None)[0].plan


def _network(plan: Plan) -> tuple[str, dict[str, object]]:
    check = next(c for c in run_checks(plan) if c.kind == "network")
    return check.verdict, dict(check.figures)


def test_tp_over_nvlink_4_is_in_the_mfu_and_warns_of_nothing() -> None:
    # 13B with TP=8 on 8 x H100: ~27% of compute in TP all-reduces, all paid by the Llama 3
    # MFU (measured on H100 NVLink 4); counted, they made the check "tight" (ratio > 0.25)
    plan = Plan(
        task="pretrain",
        model=generic_model(params=13e9),
        gpu=lookup_gpu("H100"),
        gpus=8,
        tokens=2e12,
        zero_stage=1,
        recompute="selective",
        tensor_parallel=8,
    )
    verdict, figures = _network(plan)
    assert figures["tp_in_mfu_seconds_per_step"] == pytest.approx(figures["tp_seconds_per_step"])
    assert figures["comm_compute_ratio"] > 0.25  # the raw figure is still reported
    assert verdict == "ok"


def test_tp_over_pcie_is_exposed_traffic() -> None:
    # the consumer default measures no TP: the same TP=8 on 8 x RTX 4090 stays a warning
    plan = Plan(
        task="finetune",
        model=lookup_model("Llama-3.1-8B"),
        gpu=lookup_gpu("4090"),
        gpus=8,
        zero_stage=1,
        recompute="selective",
        tensor_parallel=8,
    )
    verdict, figures = _network(plan)
    assert figures["tp_in_mfu_seconds_per_step"] == 0.0
    assert figures["tp_outside_time_seconds_per_step"] == figures["tp_seconds_per_step"]
    assert verdict == "tight"


def test_13b_on_one_h100_node_is_zero3_data_parallel_not_tp8() -> None:
    # ZeRO-2: 2 + 14/8 B x 13e9 = 48.8 GB + 28.5 GB activations > 72; ZeRO-3: 26 + 28.5 fits,
    # at the same speed as TP=8, so no TP (Narayanan et al. 2021: only as far as memory needs)
    plan = _best(task="pretrain", params=13e9, gpu="H100", gpu_count=8, tokens=2e12)
    assert (plan.zero_stage, plan.tensor_parallel) == (3, 1)


@pytest.mark.parametrize("gpu", ["4090", "4090D"])
def test_full_fine_tune_on_pcie_cards_shards_with_zero3(gpu: str) -> None:
    # 8B x 16 B / 8 = 16.1 GB + full-recompute activations fit 21.6 GB; TP=8 over PCIe would
    # spend ~37% of a step in exposed all-reduces
    plan = _best(task="finetune", method="full", model="Llama-3.1-8B", gpu=gpu, gpu_count=8)
    assert (plan.zero_stage, plan.tensor_parallel) == (3, 1)


def test_a_small_pcie_tp_split_that_warns_of_nothing_is_kept() -> None:
    # LoRA 8B on 2 x 4090: TP=2 costs ~7% of a step (network ok) and saves the 1.5x of full
    # recompute, so it stays the faster layout
    plan = _best(
        task="finetune", method="lora", model="Llama-3.1-8B", gpu="4090", gpu_count=2, tokens=5e8
    )
    assert plan.tensor_parallel == 2
