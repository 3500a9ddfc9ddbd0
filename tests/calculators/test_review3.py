"""Issue 10 (expert review of full answers): figures that disagreed with each other."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.messages import Msg
from calculators.planner import run_checks
from calculators.planner.plan import Plan


def _qlora_70b_on_a_4090(*, offload: bool = False) -> Plan:
    """QLoRA of Llama-3.1-70B on one RTX 4090 with ZeRO-3 and full recompute (three tests)."""
    return Plan(
        task="finetune",
        method="qlora",
        model=lookup_model("Llama-3.1-70B"),
        gpu=lookup_gpu("RTX 4090"),
        gpus_per_node=1,
        zero_stage=3,
        recompute="full",
        offload=offload,
    )


def _checks(plan: Plan) -> dict[str, dict[str, object]]:
    return {c.kind: dict(c.figures) for c in run_checks(plan)}


@pytest.mark.parametrize(
    "plan",
    [
        # LoRA skips the weight gradients: 4·N + attention per token, not 6·N
        Plan(
            task="finetune",
            method="lora",
            model=lookup_model("Llama-3.1-70B"),
            gpu=lookup_gpu("H100"),
            gpus=32,
            tensor_parallel=8,
            tokens=2e9,
            inter_link=lookup_link("InfiniBand NDR"),
            nics_per_node=8,
        ),
        # full pre-training: 6·N + 12·L·h·s (the attention term is 12% of Llama-3.1-8B's)
        Plan(
            task="pretrain",
            model=lookup_model("Llama-3.1-8B"),
            gpu=lookup_gpu("H100"),
            gpus=64,
            tokens=1e12,
            inter_link=lookup_link("InfiniBand NDR"),
            nics_per_node=8,
        ),
    ],
)
def test_network_step_compute_is_the_compute_checks(plan: Plan) -> None:
    # 'Gradient sync 1.6 ms per step vs 9.2 s of compute' for LoRA on 32 H100 while the run
    # took 14.5 h = 7,629 steps x 6.85 s: the network check priced a step at 6·N_active
    checks = _checks(plan)
    net, compute = checks["network"], checks["compute"]
    per_step = float(net["compute_seconds_per_step"])  # type: ignore[arg-type]
    steps = float(net["steps"])  # type: ignore[arg-type]
    assert per_step * steps == pytest.approx(float(compute["compute_seconds"]), rel=1e-6)  # type: ignore[arg-type]


def test_lora_compute_formula_says_4n() -> None:
    # the LoRA answer showed 'C = 6·N_active·D + attention' beside a total of 4·N·D + attention
    base = Plan(
        task="finetune", model=lookup_model("Llama-3.1-8B"), gpu=lookup_gpu("H100"), tokens=1e8
    )
    formulas = {
        method: next(c for c in run_checks(base.replace(method=method)) if c.kind == "compute")
        for method in ("lora", "full")
    }
    assert formulas["lora"].formula is not None
    assert formulas["full"].formula is not None
    assert formulas["lora"].formula.key == "formula.compute.training_adapters"
    assert formulas["full"].formula.key == "formula.compute.training"


@pytest.mark.parametrize(
    ("lang", "per_hour"), [("en", "per hour of serving"), ("zh", "每服务 1 小时")]
)
def test_serving_gpu_hours_without_a_price_say_per_hour(lang: str, per_hour: str) -> None:
    # 'Cost: 4 GPU-hours.' for 4 H100 serving Llama-3.1-70B: 4 GPU-hours of what? One hour
    from assistant.calculate.summaries import summarize

    plan = Plan(
        task="inference", model=lookup_model("Llama-3.1-70B"), gpu=lookup_gpu("H100"), gpus=4
    )
    cost = next(c for c in run_checks(plan) if c.kind == "cost")
    said = summarize("cost", cost.verdict, cost.figures, lang, "H100")  # type: ignore[arg-type]
    assert per_hour in said


def test_lora_offload_names_the_frozen_base() -> None:
    # QLoRA of Llama-3.1-70B on one 4090: 'offload gradients and optimizer states to CPU memory'
    # took the GPU from 51.9 GB to 10.9 GB, yet LoRA's gradients and Adam states are a few
    # hundred MB: what moved was the 39.9 GB frozen base (FSDP CPUOffload)
    from calculators.planner import evaluate

    plan = _qlora_70b_on_a_4090()
    offloads = [s for s in evaluate(plan).suggestions if s.kind == "offload"]
    assert offloads
    assert offloads[0].description.key == "suggest.offload_base"
    full = plan.replace(method="full", model=lookup_model("Llama-3.2-1B"))
    assert {s.description.key for s in evaluate(full).suggestions if s.kind == "offload"} <= {
        "suggest.offload"
    }


def test_stated_zero2_keeps_its_stage_with_tp_and_offload() -> None:
    # '8张H100用ZeRO-2全参微调Llama-3.1-70B' was infeasible: every memory fix changed the stated
    # stage or the method. ZeRO-2 + TP8 + ZeRO-Offload keeps it: 2 B x 70.55e9 / 8 = 17.6 GB of
    # weights per GPU, (2 + 12) B x 70.55e9 = 988 GB of gradients and Adam states on the host
    from calculators.planner import evaluate

    plan = Plan(
        task="finetune",
        method="full",
        model=lookup_model("Llama-3.1-70B"),
        gpu=lookup_gpu("H100"),
        gpus=8,
        zero_stage=2,
        tokens=1e8,
    )
    kept = [
        s
        for s in evaluate(plan, max_suggestions=10).suggestions
        if s.evaluation_after.works
        and s.new_plan.zero_stage == 2
        and not s.hardware
        and s.new_plan.method in (None, "full")
    ]
    assert kept
    assert kept[0].new_plan.offload
    assert kept[0].new_plan.tensor_parallel == 8


@pytest.mark.parametrize(
    ("lang", "per_node", "tp_words"),
    [("en", "per node", "tensor-parallel all-reduces"), ("zh", "每节点", "张量并行 all-reduce")],
)
def test_network_summary_says_per_node_and_the_tp_traffic(
    lang: str, per_node: str, tp_words: str
) -> None:
    # 'inter-node bandwidth 400.0 GB/s' is 8 NDR ports of 50 GB/s: a node's, not a link's; and
    # a TP=8 layout showed only 'gradient sync 1.6 ms per step' beside 1.6 s of TP all-reduces
    from assistant.calculate.summaries import summarize

    plan = Plan(
        task="finetune",
        method="lora",
        model=lookup_model("Llama-3.1-70B"),
        gpu=lookup_gpu("H100"),
        gpus=32,
        tensor_parallel=8,
        tokens=2e9,
        inter_link=lookup_link("InfiniBand NDR"),
        nics_per_node=8,
    )
    net = next(c for c in run_checks(plan) if c.kind == "network")
    said = summarize("network", net.verdict, net.figures, lang, "H100")  # type: ignore[arg-type]
    assert per_node in said
    assert tp_words in said


def test_weights_total_of_an_offloaded_frozen_base_is_the_whole_copy() -> None:
    # 'QLoRA fine-tune Llama-3.1-70B on one RTX 4090 with CPU offload': weights_bytes_total was
    # 1.4 GB (the two layers gathered on the GPU), not the 39.9 GB 4-bit base in host RAM
    from assistant.calculate.totals import one_copy
    from calculators.planner.memory import memory_breakdown

    kept = _qlora_70b_on_a_4090()
    offloaded = kept.replace(offload=True)
    on_gpu = memory_breakdown(offloaded).weights_bytes
    assert on_gpu < memory_breakdown(kept).weights_bytes / 10  # the gathered layers only
    whole = one_copy(kept, memory_breakdown(kept).weights_bytes)
    assert whole == pytest.approx(39.9e9, rel=0.02)
    assert one_copy(offloaded, on_gpu) == pytest.approx(whole)


@pytest.mark.parametrize(("lang", "words"), [("en", "compute alone"), ("zh", "仅按算力")])
def test_gpus_for_the_deadline_say_they_count_compute_only(lang: str, words: str) -> None:
    # '8张A100全参数微调Qwen2.5-14B': 'at least 4 × A100' for memory, then in the compute line
    # '90 天内完成需要 1 张 A100': one card is what the time needs, not what the job needs
    from assistant.calculate.summaries import summarize

    figures = {"total_flops": 1e19, "seconds": 1e4, "mfu": 0.4, "gpus_for_deadline": 1}
    said = summarize("compute", "ok", {**figures, "deadline_seconds": 90 * 86400.0}, lang, "A100")  # type: ignore[arg-type]
    assert words in said


def test_serving_json_has_the_kv_of_one_sequence() -> None:
    # the headline says '13 concurrent sequences ... 10.7 GB of KV cache per sequence'; the
    # JSON had only the 139.6 GB of all 13 and the 34.9 GB per GPU
    plan = Plan(
        task="inference",
        model=lookup_model("Llama-3.1-70B"),
        gpu=lookup_gpu("H100"),
        gpus=4,
        tensor_parallel=4,
        batch_size=13,
        sequence_length=32768,
    )
    memory = _checks(plan)["memory"]
    # 2 x 80 layers x 8 KV heads x 128 x 2 B = 327,680 B per token x 32,768
    assert memory["kv_cache_bytes_per_sequence"] == pytest.approx(327_680 * 32_768)
    assert memory["kv_cache_bytes"] == pytest.approx(13 * 327_680 * 32_768)


def test_an_offloaded_frozen_base_is_no_cpu_adam_work() -> None:
    # QLoRA 70B on a 4090 with the base offloaded: 'CPU offload puts 42.0 GB of gradients and
    # optimizer states in host RAM; the CPU Adam step takes about 1.4 s' priced Adam over
    # 42 GB / 14 B = 3.0e9 parameters; it updates only the ~0.2e9 adapter parameters
    from calculators.planner.memory import offload_host_ram, trainable_params

    plan = _qlora_70b_on_a_4090(offload=True)
    host = offload_host_ram(plan)
    assert host is not None
    adapters = trainable_params(plan)
    assert adapters is not None
    assert host.cpu_step_seconds == pytest.approx(adapters * 28.0 / 60e9, rel=0.5)  # desktop
    assert host.cpu_step_seconds < 0.2
    assert host.message["what"] == Msg("training.offloaded_base")


@pytest.mark.parametrize("gpu", ["RTX 4090", "L40S", "H100", "A100"])
def test_assumed_host_ram_is_said_in_chinese(gpu: str) -> None:
    # '主机内存按 desktop/workstation board 假设为 128.0 GB（planning assumption: 4 x 32 GB …）'
    from assistant.i18n import text
    from calculators.planner.memory import offload_host_ram

    plan = Plan(
        task="finetune",
        method="full",
        model=lookup_model("Llama-3.1-8B"),
        gpu=lookup_gpu(gpu),
        gpus_per_node=1,
        offload=True,
    )
    host = offload_host_ram(plan)
    assert host is not None
    said = text(host.message, "zh")
    assert "board" not in said
    assert "planning assumption" not in said
    assert "server" not in said
