"""Planner suggestions: sane deadline bound, ranking by size, single-node network, TP for LoRA."""

from __future__ import annotations

import pytest

from assistant.i18n import text
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import generic_model, lookup_model
from calculators.gpu_memory import finetune_memory
from calculators.planner import evaluate, run_checks
from calculators.planner.checks import SINGLE_NODE_NOTE
from calculators.planner.plan import DAY, Plan
from calculators.planner.suggestions import MAX_DEADLINE_DAYS

LLAMA2_70B = lookup_model("Llama-2-70B")


def _founding() -> Plan:
    # 吉林GPU服务器能训练千亿模型吗: 100B, one node of 8 x A100 80GB PCIe, 25 GbE (decades)
    return Plan(
        task="pretrain",
        model=generic_model(params=100e9),
        gpu=lookup_gpu("A100 80GB PCIe"),
        gpus=8,
        inter_link=lookup_link("25GbE"),
    )


def test_decades_long_runs_get_no_deadline_suggestion_but_a_remark() -> None:
    e = evaluate(_founding())
    assert e.check("compute").figures["days"] > MAX_DEADLINE_DAYS  # type: ignore[operator]
    assert all(s.kind != "deadline" for s in e.suggestions)
    deadline = [r for r in e.remarks if "impractical" in text(r, "en")]
    assert len(deadline) == 1
    assert "不现实" in text(deadline[0], "zh")


def test_a_modest_overrun_gets_a_deadline_suggestion_within_two_years() -> None:
    plan = Plan(
        task="pretrain",
        model=lookup_model("Llama-2-7B"),
        gpu=lookup_gpu("H100"),
        gpus=8,
        zero_stage=1,
        tokens=2e11,
        deadline_seconds=10 * DAY,
    )
    e = evaluate(plan)
    deadline = [s for s in e.suggestions if s.kind == "deadline"]
    assert deadline
    assert deadline[0].evaluation_after.works
    assert 10 * DAY < deadline[0].new_plan.deadline_seconds <= MAX_DEADLINE_DAYS * DAY
    assert not any("impractical" in text(r, "en") for r in e.remarks)


def test_lossless_tensor_parallel_ranks_before_quantization() -> None:
    # Llama-2-70B BF16 on 2 x A100 80GB without TP: each GPU would hold all 138 GB. Splitting
    # the layers (TP=2, what vLLM/TGI deployments do) is the smallest change; 8-bit before 4-bit.
    plan = Plan(task="inference", model=LLAMA2_70B, gpu=lookup_gpu("A100 80GB"), gpus=2)
    e = evaluate(plan)
    kinds = [s.kind for s in e.suggestions]
    assert kinds[0] == "tensor_parallel"
    quantized = [s.new_plan.weight_dtype for s in e.suggestions if s.kind == "quantization"]
    assert quantized == ["int8", "int4"]


@pytest.mark.parametrize(
    "plan",
    [
        _founding(),
        Plan(task="inference", model=LLAMA2_70B, gpu=lookup_gpu("A100 80GB"), gpus=2),
        Plan(
            task="finetune",
            method="full",
            model=lookup_model("Llama-2-7B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=1,
        ),
    ],
)
def test_suggestions_are_verified_and_working_ones_come_first(plan: Plan) -> None:
    e = evaluate(plan)
    assert e.suggestions
    still = [len(s.evaluation_after.failing) for s in e.suggestions]
    assert still == sorted(still)
    for change in e.suggestions:
        fresh = run_checks(change.new_plan, with_min_gpus=False)
        assert change.evaluation_after.failing == tuple(
            c.kind for c in fresh if c.verdict == "fail"
        )


def test_full_finetune_suggests_zero_offload_before_lora() -> None:
    # ZeRO-Offload (arXiv:2101.06840) keeps a 7B full fine-tune on one 80 GB GPU (fp16 weights
    # on the GPU, gradients and Adam states on the host): same model, only slower. LoRA changes
    # what is trained, so it ranks after.
    e = evaluate(
        Plan(
            task="finetune",
            method="full",
            model=lookup_model("Llama-2-7B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=1,
        )
    )
    kinds = [s.kind for s in e.suggestions if s.evaluation_after.works]
    assert kinds.index("offload") < kinds.index("lora") < kinds.index("qlora")


def test_single_node_network_reports_inter_node_as_not_applicable() -> None:
    network = evaluate(_founding()).check("network")
    assert network.figures["nodes"] == 1
    for key in (
        "inter_node_bytes_per_second",
        "inter_node_bytes_per_step",
        "required_inter_node_bytes_per_second_for_90pct",
    ):
        assert network.figures[key] is None, key
    assert SINGLE_NODE_NOTE in network.assumptions
    two_nodes = evaluate(_founding().replace(gpus=16)).check("network")
    assert two_nodes.figures["inter_node_bytes_per_second"] == pytest.approx(25e9 / 8)
    assert SINGLE_NODE_NOTE not in two_nodes.assumptions


def test_lora_memory_splits_over_tensor_parallel_ranks() -> None:
    one = finetune_memory(model=LLAMA2_70B, method="lora", gpus=1)
    two = finetune_memory(model=LLAMA2_70B, method="lora", gpus=2, tensor_parallel=2)
    assert two.weights_bytes == pytest.approx(one.weights_bytes / 2)
    assert two.activations_bytes < one.activations_bytes
    assert (two.tensor_parallel, two.data_parallel) == (2, 1)


def test_lora_70b_on_a100s_can_be_fixed_by_tensor_parallel() -> None:
    # LoRA on a 138 GB BF16 base cannot sit on one 80 GB GPU; TP inside the node splits it.
    plan = Plan(
        task="finetune",
        method="lora",
        model=LLAMA2_70B,
        gpu=lookup_gpu("A100 80GB"),
        gpus=8,
        sequence_length=2048,
    )
    e = evaluate(plan)
    assert e.check("memory").verdict == "fail"
    tp = [s for s in e.suggestions if s.kind == "tensor_parallel"]
    assert tp
    assert tp[0].evaluation_after.works
    assert e.verdict == "conditional"


def test_a_change_a_training_network_only_paces_works() -> None:
    # After ZeRO-3 + full recompute + offload, 72B on 2 x 8 H800 over 25GbE fails only the
    # network check: the run time counts the wait, so the change works (a slower run) and it
    # is kept among the suggestions even when LoRA and new hardware rank ahead of it.
    from calculators.catalog.hardware import lookup_gpu, lookup_link
    from calculators.catalog.models import lookup_model
    from calculators.planner import evaluate
    from calculators.planner.plan import Plan

    plan = Plan(
        task="finetune",
        method="full",
        model=lookup_model("Qwen2.5-72B"),
        gpu=lookup_gpu("H800"),
        gpus=16,
        gpus_per_node=8,
        inter_link=lookup_link("25GbE"),
    )
    e = evaluate(plan)
    offloads = [c for c in e.suggestions if c.new_plan.offload and not c.hardware]
    assert offloads
    after = offloads[0].evaluation_after
    assert after.failing == ("network",)
    assert after.paced
    assert after.works
    assert after.verdict == "feasible"


def test_offload_from_plain_data_parallelism_is_zero_offload_at_stage_two() -> None:
    # ZeRO-Offload is built on ZeRO-2 (Ren et al. 2021, §4): plain DDP (stage 0) has no offload,
    # so the offload suggested moves the plan to stage 2 (which a stated ZeRO-0 then forbids).
    plan = Plan(
        task="finetune",
        method="full",
        model=lookup_model("Qwen2.5-7B"),
        gpu=lookup_gpu("H100 SXM 80GB"),
        gpus=16,
        gpus_per_node=8,
        inter_link=lookup_link("InfiniBand NDR"),
        zero_stage=0,
        tensor_parallel=1,
        pipeline_parallel=1,
    )
    offloads = [s for s in evaluate(plan).suggestions if s.kind == "offload"]
    assert offloads
    assert all(s.new_plan.offload and s.new_plan.zero_stage >= 2 for s in offloads)
