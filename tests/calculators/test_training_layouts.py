"""Training layout choice and the time it is charged: the faster layout wins, and a slow NVLink
pays its extra tensor-parallel time (H800/A800), while NVLink 4 cards keep the MFU default."""

from __future__ import annotations

import pytest

from assistant.calculate.defaults import resolve
from assistant.calculate.layouts import evaluate_best, to_plan
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.network import expert_params
from calculators.planner import run_checks
from calculators.planner.checks import step_estimate
from calculators.planner.compute import compute_facts, tp_excess_seconds
from calculators.planner.plan import Plan

LLAMA_70B = lookup_model("Llama-3.1-70B")


def _plan(gpu: str, **changes: object) -> Plan:
    fields: dict[str, object] = {
        "task": "pretrain",
        "model": LLAMA_70B,
        "gpu": lookup_gpu(gpu),
        "gpus": 128,
        "tokens": 2e12,
        "inter_link": lookup_link("InfiniBand NDR"),
        "nics_per_node": 8,
        "zero_stage": 1,
        "recompute": "selective",
        "tensor_parallel": 8,
    }
    fields.update(changes)
    return Plan(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("gpu", ["H100", "H200", "H20"])
def test_nvlink4_cards_pay_no_tensor_parallel_excess(gpu: str) -> None:
    plan = _plan(gpu)
    assert tp_excess_seconds(plan, 1e3, peak=1e15, mfu=0.38) == 0.0
    # the time is the MFU default's alone: 6ND + attention over n x peak x MFU
    facts = compute_facts(plan)
    assert facts.network_efficiency == 1.0


@pytest.mark.parametrize(("gpu", "reference"), [("H800", "NVLink 4"), ("A800", "NVLink 3")])
def test_a_slow_nvlink_adds_the_tensor_parallel_time_the_reference_did_not_pay(
    gpu: str, reference: str
) -> None:
    plan = _plan(gpu)
    facts = compute_facts(plan)
    assert facts.tokens is not None
    assert facts.total_flops is not None
    args = {
        "peak_flops_per_s": facts.peak_flops_per_s,
        "mfu": facts.mfu,
        "total_tokens": None,
        "flops_per_token": facts.total_flops / facts.tokens,  # 6N + attention, as the time
    }
    own = step_estimate(plan, **args)  # type: ignore[arg-type]
    ref = step_estimate(plan.replace(intra_link=lookup_link(reference)), **args)  # type: ignore[arg-type]
    assert own is not None
    assert ref is not None
    # 200 GB/s per direction against 450 (H100) or 300 (A100): bandwidth-bound TP all-reduces
    # take longer in proportion, less the shared latency part
    assert own.tp_seconds_per_step > ref.tp_seconds_per_step
    excess = own.tp_seconds_per_step - ref.tp_seconds_per_step
    compute = own.compute_seconds_per_step
    assert facts.network_efficiency == pytest.approx(compute / (compute + excess), rel=1e-3)
    said = [str(m.key) for m in run_checks(plan)[1].assumptions]
    assert "assume.compute.tp_excess" in said


def test_a_user_given_mfu_is_measured_on_their_own_links() -> None:
    assert compute_facts(_plan("H800", mfu=0.35)).network_efficiency == 1.0


def _best(gpu: str) -> Plan:
    scenario = Scenario(task="pretrain", model="Llama-3.1-70B", gpu=gpu, gpu_count=128, tokens=2e12)
    resolved = resolve(scenario, None, "en").scenario
    return evaluate_best(resolved, "en", None)[0].plan


def test_the_faster_layout_is_chosen_over_one_with_fewer_tight_checks() -> None:
    """128 x H800, 70B: ZeRO-3 + full recompute passes every check comfortably but runs the
    extra forward (8ND); ZeRO-1 + TP=8 is only 'tight' on the 400 GB/s NVLink and still
    faster, so an engineer takes it."""
    best = _best("H800")
    assert (best.zero_stage, best.tensor_parallel) == (1, 8)
    stated = Scenario(
        task="pretrain", model="Llama-3.1-70B", gpu="H800", gpu_count=128, tokens=2e12
    )
    full = to_plan(resolve(stated, None, "en").scenario, zero_stage=3, recompute="full")
    chosen, slower = compute_facts(best).seconds, compute_facts(full).seconds
    assert chosen is not None
    assert slower is not None
    assert chosen < slower


def test_h100_keeps_its_layout() -> None:
    best = _best("H100")
    assert (best.zero_stage, best.tensor_parallel, best.recompute) == (1, 8, "selective")
    assert compute_facts(best).network_efficiency == 1.0


@pytest.mark.parametrize(
    ("gpu", "link", "ports"),
    [
        ("910B", "200GbE RoCE", 8),  # Atlas 800T A2: one 200GE RoCE port per NPU
        ("Ascend 910", "100GbE RoCE", 8),  # Atlas 800 (model 9000): 8 x 100GE
        ("A800", "InfiniBand HDR", 8),  # HGX A800 as DGX A100: 8 x HDR 200G
        ("A100", "InfiniBand HDR", 8),
        ("H800", "InfiniBand NDR", 8),  # DeepSeek-V3: 50 GB/s IB per GPU
        ("H20", "InfiniBand NDR", 8),  # HGX H20, a Hopper HGX board: as DGX H100
        ("H100", "InfiniBand NDR", 8),
        ("V100", "InfiniBand EDR", 4),  # DGX-1: 4 EDR ports for 8 GPUs
        ("4090", "25GbE RoCE", 1),  # GeForce box: one Ethernet port
    ],
)
def test_an_unstated_fabric_is_the_one_the_cards_clusters_have(
    gpu: str, link: str, ports: int
) -> None:
    scenario = Scenario(task="pretrain", params=7e9, gpu=gpu, gpu_count=16, tokens=1e11)
    resolved = resolve(scenario, None, "en")
    assert resolved.scenario.inter_link == link
    assert any(link in note and "not stated" in note for note in resolved.assumptions)
    plan = to_plan(resolved.scenario)
    assert plan.inter_link is not None
    assert (plan.inter_link.name, plan.nics_per_node) == (link, ports)


def test_a_stated_fabric_is_kept_and_cabled_as_stated() -> None:
    """'over 100G RoCE' on A100 SXM nodes: one port per GPU, as rail-optimised clusters (and
    as 100G InfiniBand would be; was one per node before the IB/RoCE rule was made one); on
    Atlas nodes RoCE is the parameter plane, one port per NPU; a stated count wins."""
    for gpu, nics, ports in (("A100", None, 8), ("910B", None, 8), ("A100", 1, 1)):
        scenario = Scenario(
            task="pretrain",
            params=7e9,
            gpu=gpu,
            gpu_count=32,
            inter_link="100GbE RoCE",
            nics_per_node=nics,
        )
        plan = to_plan(resolve(scenario, None, "zh").scenario)
        assert plan.inter_link is not None
        assert (plan.inter_link.name, plan.nics_per_node) == ("100GbE RoCE", ports)


@pytest.mark.parametrize(
    ("model", "gpus", "method", "expected"),
    [
        ("Mixtral-8x7B", 8, "full", 8),  # 8 experts over the node's 8 data-parallel ranks
        ("Qwen2-57B-A14B", 16, "full", 16),  # 64 experts: 16-way over two nodes
        ("DeepSeek-V2-Lite", 8, "full", 8),
        ("Mixtral-8x7B", 8, "lora", None),  # the frozen base is held whole
        ("Llama-3.1-8B", 8, "full", None),  # dense: nothing to split
    ],
)
def test_full_fine_tuning_splits_the_experts_as_pretraining_does(
    model: str, gpus: int, method: str, expected: int | None
) -> None:
    from assistant.calculate.layouts import _layouts

    scenario = Scenario(task="finetune", model=model, gpu="H100", gpu_count=gpus, method=method)
    resolved = resolve(scenario, None, "en").scenario
    data_parallel_layouts = [  # pipeline layouts (multi-node) split what their stages leave
        x
        for x in _layouts(resolved)
        if x["tensor_parallel"] is None and "pipeline_parallel" not in x
    ]
    assert {x["expert_parallel"] for x in data_parallel_layouts} == {expected}


def test_expert_parallel_shards_a_full_fine_tunes_expert_states() -> None:
    """ZeRO-1 keeps the bf16 weights and gradients whole on every GPU unless the experts are
    split: with EP=8 each GPU holds 1/8 of Mixtral's routed experts."""
    scenario = Scenario(task="finetune", model="Mixtral-8x7B", gpu="H100", gpu_count=8)
    resolved = resolve(scenario, None, "en").scenario
    split = to_plan(resolved, zero_stage=1, recompute="full", expert_parallel=8)
    whole = to_plan(resolved, zero_stage=1, recompute="full")
    need = {
        p.expert_parallel: float(run_checks(p)[0].figures["required_bytes_per_gpu"])  # type: ignore[arg-type]
        for p in (split, whole)
    }
    # bf16 weights + gradients (4 bytes) of 7/8 of the routed experts are no longer held;
    # the Adam states were already sharded by ZeRO-1 (the same either way)
    experts = expert_params(lookup_model("Mixtral-8x7B"))
    assert need[1] - need[8] == pytest.approx(4 * experts * 7 / 8, rel=0.02)


@pytest.mark.parametrize(
    ("gpu", "link", "said_ports"),
    [
        ("A100", "100GbE RoCE", "100GbE RoCE between nodes, one port per GPU (8 per node)"),
        ("910B", "100GbE RoCE", "100GbE RoCE between nodes, one port per GPU (8 per node)"),
        ("A100", "25GbE RoCE", "25GbE RoCE between nodes, assumed 1 port(s) per node"),
    ],
)
def test_a_stated_ethernet_link_says_its_ports(gpu: str, link: str, said_ports: str) -> None:
    scenario = Scenario(task="pretrain", params=7e9, gpu=gpu, gpu_count=32, inter_link=link)
    said = " ".join(resolve(scenario, None, "en").assumptions)
    assert said_ports in said


def test_when_nothing_fits_the_closest_layout_is_evaluated() -> None:
    """72B full fine-tune on 16 x H800: fully sharded with full recompute it is ~74 GB per GPU
    (just over 72 GB usable), not the 166 GB of ZeRO-3 with selective recompute."""
    scenario = Scenario(
        task="finetune", model="Qwen2.5-72B", gpu="H800", gpu_count=16, method="full"
    )
    evaluation, _ = evaluate_best(resolve(scenario, None, "en").scenario, "en", None)
    need = float(evaluation.check("memory").figures["required_bytes_per_gpu"])  # type: ignore[arg-type]
    states = 72.7e9 * 16 / 16  # 16 B of model state per parameter, sharded over 16 GPUs
    assert states < need < 1.1 * states
    assert evaluation.plan.recompute == "full"
