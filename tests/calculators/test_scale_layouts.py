"""Training at scale with the layout left open: pipeline stages across nodes, the published
FP8 + DualPipe recipe of DeepSeek-V3, and the default plans against published GPU-hours."""

from __future__ import annotations

import pytest

from assistant.calculate.defaults import resolve
from assistant.calculate.layouts import evaluate_best, to_plan
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.collectives import Fabric, make_step, moe_traffic
from calculators.network import NetworkEstimate
from calculators.planner.checks import step_estimate
from calculators.planner.compute import compute_facts
from calculators.planner.plan import Evaluation, Plan
from calculators.planner.schedule import dualpipe_bubble_fraction, uses_dualpipe


def _best(**slots: object) -> Evaluation:
    scenario = Scenario(task="pretrain", **slots)  # type: ignore[arg-type]
    return evaluate_best(resolve(scenario, None, "en").scenario, "en", None)[0]


def _hours(evaluation: Evaluation) -> float:
    return float(evaluation.check("compute").figures["gpu_hours"])  # type: ignore[arg-type]


def _days(evaluation: Evaluation) -> float:
    return float(evaluation.check("compute").figures["days"])  # type: ignore[arg-type]


def test_deepseek_v3_default_plan_reproduces_its_published_gpu_hours() -> None:
    # DeepSeek-V3 (arXiv:2412.19437) Table 1: 2,664K H800 GPU-hours of pre-training on 2,048
    # H800, FP8 (§3.3) with DualPipe (§3.2.1). Before: BF16 by default and the expert
    # all-to-all on the critical path, ~104 days (5.1M GPU-hours). Now ~3.2M (+21%): with
    # 34·sbh of activations per layer and DualPipe's second parameter copy only full
    # recompute fits (8ND executed); DeepSeek's own savings (FP8 activation caching, only
    # norms and MLA up-projections recomputed, §3.3) are not modelled. Its published layout
    # itself (test_realism RUN_ROWS) lands at -7%.
    e = _best(model="DeepSeek-V3", gpu="H800", gpu_count=2048, tokens=14.8e12)
    assert e.plan.precision == "fp8"
    assert e.plan.pipeline_parallel > 1
    assert uses_dualpipe(e.plan)
    assert _hours(e) == pytest.approx(2.664e6, rel=0.25)
    assert _hours(e) < 0.7 * 5.1e6  # the 104-day default before


def test_fp8_recipe_is_said_and_only_a_default() -> None:
    scenario = Scenario(task="pretrain", model="DeepSeek-V3", gpu="H800", gpu_count=2048)
    said = " ".join(resolve(scenario, None, "en").assumptions)
    assert "as in DeepSeek-V3's published run" in said
    bf16 = Scenario(
        task="pretrain", model="DeepSeek-V3", gpu="H800", gpu_count=2048, precision="bf16"
    )
    stated = resolve(bf16, None, "en").scenario
    assert stated.precision == "bf16"  # the user's precision is kept
    no_fp8 = Scenario(task="pretrain", model="DeepSeek-V3", gpu="A100", gpu_count=2048)
    assert resolve(no_fp8, None, "en").scenario.precision == "bf16"  # Ampere has no FP8
    dense = Scenario(task="pretrain", model="Llama-3.1-70B", gpu="H100", gpu_count=64)
    assert resolve(dense, None, "en").scenario.precision == "bf16"  # trained in BF16


def test_llama3_405b_default_plan_reproduces_its_published_gpu_hours() -> None:
    # Llama 3.1 model card: 30.84M H100 GPU-hours; Llama 3 (arXiv:2407.21783) §3.3.2: TP=8,
    # PP=16, CP and DP on 16K H100. The 1F1B bubble is paid on top of the 0.38 default.
    e = _best(model="Llama-3.1-405B", gpu="H100", gpu_count=16384, tokens=15.6e12)
    assert (e.plan.tensor_parallel, e.plan.pipeline_parallel > 1) == (8, True)
    assert _hours(e) == pytest.approx(30.84e6, rel=0.20)


def test_large_runs_pick_pipeline_stages_when_they_are_faster() -> None:
    # 10,000 H100 = 1,250 nodes: plain ZeRO-3 + TP8 data parallelism took ~264-275 days.
    slots = {"model": "Llama-3.1-405B", "gpu": "H100", "gpu_count": 10000, "tokens": 15.6e12}
    e = _best(**slots)
    assert e.plan.pipeline_parallel > 1
    resolved = resolve(Scenario(task="pretrain", **slots), None, "en").scenario  # type: ignore[arg-type]
    flat = to_plan(resolved, zero_stage=3, recompute="selective", tensor_parallel=8)
    flat_seconds = compute_facts(flat).seconds
    assert flat_seconds is not None
    assert _days(e) * 86_400 < 0.7 * flat_seconds
    assert 120 < _days(e) < 180  # 121.8 days of compute + a bubble under 20%


@pytest.mark.parametrize(("link", "pipelined"), [("10GbE", True), ("InfiniBand NDR", False)])
def test_slow_ethernet_sends_activations_not_sharded_gradients(link: str, pipelined: bool) -> None:
    # 70B on 4 x 8 H100: over 10GbE ZeRO-3 + TP8 moves ~317 GB per node per step (~146 days);
    # pipeline stages across the nodes send ~131 GB of activations, hidden (~88 days). On IB
    # both hide and the layout without a bubble wins.
    e = _best(
        model="Llama-3.1-70B",
        gpu="H100",
        gpu_count=32,
        gpus_per_node=8,
        inter_link=link,
        tokens=2e11,
    )
    assert (e.plan.pipeline_parallel > 1) is pipelined
    assert _days(e) == pytest.approx(88, rel=0.05)


def test_a_stated_batch_is_not_grown_for_the_pipeline() -> None:
    e = _best(model="Llama-3.1-405B", gpu="H100", gpu_count=10000, tokens=15.6e12, batch_size=512)
    assert e.plan.global_batch_tokens == 512 * 4096


def test_a_stated_pipeline_keeps_its_layout_and_a_fine_tune_pipelines_only_when_faster() -> None:
    e = _best(model="Llama-3.1-405B", gpu="H100", gpu_count=10000, pipeline_parallel=1)
    assert e.plan.pipeline_parallel == 1
    # Fine-tuning is offered the same pipeline layouts (test_finetune_pipeline); over the
    # H100's own InfiniBand the 64-sequence batch all-reduces in time, so ZeRO-3 + TP=8 with
    # no bubble stays the faster layout.
    scenario = Scenario(
        task="finetune", method="full", model="Qwen2.5-72B", gpu="H100", gpu_count=32
    )
    plan = evaluate_best(resolve(scenario, None, "en").scenario, "en", None)[0].plan
    assert plan.pipeline_parallel == 1


@pytest.mark.parametrize(
    ("stages", "micro", "recompute", "expected"),
    [
        (2, 8, True, 0.0),  # PP/2 - 1 = 0: no bubble at two stages
        (16, 64, False, 0.0),  # F&B + B - 3W = 0 with F = B = W
        (16, 64, True, 14 / 270),  # B = 2F: 7 x 2 / (64 x 4 + 14)
        (32, 128, True, 30 / 542),
    ],
)
def test_dualpipe_bubble_table(stages: int, micro: int, recompute: bool, expected: float) -> None:
    got = dualpipe_bubble_fraction(
        pipeline_parallel=stages, micro_batches=micro, full_recompute=recompute
    )
    assert got == pytest.approx(expected)


def test_node_limited_routing_caps_the_inter_node_copies() -> None:
    # EP=64 over 8 nodes, top-8: 8 x 56/64 = 7 copies of a token leave its node; limited to
    # 4 nodes (DeepSeek-V3 §2.1.2) at most 4 x 7/8 = 3.5 do: half the IB bytes.
    fabric = Fabric(intra_bytes_per_s=160e9, inter_bytes_per_s=400e9)
    step = make_step(2048, 8, 16, 128, 4e6, 4096)
    args = {"ep": 64, "tp": 1, "moe_layers_per_stage": 4, "top_k": 8, "hidden": 7168}
    free = moe_traffic(step, act_bytes=2.0, recompute=False, fabric=fabric, **args)
    limited = moe_traffic(
        step, act_bytes=2.0, recompute=False, fabric=fabric, routed_nodes_max=4, **args
    )
    assert limited.inter_bytes_per_node == pytest.approx(free.inter_bytes_per_node * 3.5 / 7)
    assert limited.intra_seconds == pytest.approx(free.intra_seconds)


def test_when_nothing_fits_lora_reports_the_closest_layout() -> None:
    # Qwen2.5-72B LoRA on 2 x A100 80GB: the frozen bf16 base sharded over both GPUs is
    # 72.7 GB each, plus ~5 GB of recomputed activations and fp32 logits: ~79-81 GB of 72.
    scenario = Scenario(
        task="finetune", method="lora", model="Qwen2.5-72B", gpu="A100", gpu_count=2
    )
    e = evaluate_best(resolve(scenario, None, "en").scenario, "en", None)[0]
    need = float(e.check("memory").figures["required_bytes_per_gpu"])  # type: ignore[arg-type]
    assert 72.7e9 < need < 1.15 * 72.7e9


def _step(**changes: object) -> NetworkEstimate:
    fields: dict[str, object] = {
        "task": "pretrain",
        "model": lookup_model("Llama-2-13B"),
        "gpu": lookup_gpu("A100"),
        "gpus": 32,
        "inter_link": lookup_link("10GbE"),
        "pipeline_parallel": 4,
        "zero_stage": 1,
    }
    fields.update(changes)
    est = step_estimate(Plan(**fields), peak_flops_per_s=312e12, mfu=0.4, total_tokens=None)  # type: ignore[arg-type]
    assert est is not None
    return est


def test_stages_across_nodes_keep_the_gradient_sync_inside_each_node() -> None:
    # TP=1, PP=4 on 4 x 8 GPUs. Megatron-LM's tp-pp-dp order puts the four stages in one node
    # and data parallel across the nodes (gradients over 10GbE); Megatron-Core's tp-dp-pp puts
    # the 8 data-parallel ranks of a stage in one node and the stages across nodes.
    inside, across = _step(), _step(stages_across_nodes=True)
    assert across.allreduce_seconds_per_step < 0.2 * inside.allreduce_seconds_per_step
    assert across.pp_seconds_per_step > inside.pp_seconds_per_step  # activations now cross


@pytest.mark.parametrize(("batch", "grown"), [(None, True), (512, False)])
def test_the_layout_note_says_when_the_batch_was_grown(batch: int | None, grown: bool) -> None:
    scenario = Scenario(
        task="pretrain", model="Llama-3.1-405B", gpu="H100", gpu_count=10000, batch_size=batch
    )
    _, notes = evaluate_best(resolve(scenario, None, "en").scenario, "en", None)
    assert "pipeline stages across nodes" in notes[0]
    assert ("the default batch grown" in notes[0]) is grown
