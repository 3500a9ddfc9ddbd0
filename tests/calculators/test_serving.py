"""Serving speed, layout, precision and the inverse solvers: tables, laws, published figures."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import ModelSpec, lookup_model
from calculators.serving import experts_touched, moe_seconds_per_layer, serving_speed
from calculators.serving_layout import serving_dtype, serving_layout
from calculators.serving_solvers import max_concurrency
from calculators.serving_target import gpus_for_target
from calculators.sizing import budget_compute, job_energy_cost, largest_model

FAST = settings(max_examples=40, deadline=None)


def _speed(model: str, gpu: str, tp: int = 1, pp: int = 1, dtype: str = "bf16", **extra: object):
    return serving_speed(
        model=lookup_model(model),
        gpu=lookup_gpu(gpu),
        tensor_parallel=tp,
        pipeline_parallel=pp,
        weight_dtype=dtype,
        kv_dtype=dtype,
        **extra,
    )  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("model", "gpu", "tp", "dtype", "low", "high"),
    [
        # The cases: the pure roofline said 647 and 245 tokens/s; real systems see tens.
        # vLLM issue #30832: DeepSeek-V3.2 on 8 x H20, TP=8, 30 tokens/s at one request.
        ("DeepSeek-V3", "H20", 8, "fp8", 15, 60),
        # vLLM issue #11539 (Jan 2025): DeepSeek-V3 on 8 x H200 in SGLang, batch 1: ~26 tok/s.
        ("DeepSeek-V3", "H200", 8, "fp8", 13, 52),
        # Baseten blog (Dec 2023): Mixtral-8x7B int8 on 1 x A100, TensorRT-LLM, one request: 81.
        ("Mixtral-8x7B", "A100 80GB", 1, "int8", 81 / 1.35, 81 * 1.35),
        # tenstorrent/tt-inference-server #340: Qwen3-30B-A3B on A100, vLLM, one request: 104.
        ("Qwen3-30B-A3B", "A100 80GB", 1, "bf16", 104 / 1.35, 104 * 1.35),
        # Qwen docs, Speed Benchmark: Qwen3-30B-A3B on 1 x H20 in SGLang, batch 1, 6,144 in /
        # 2,048 out: 490.10 (prompt + output) tokens/s = 16.7 s, ~0.5 s of it prefill: ~126
        # output tokens/s (~8 ms a token against ~2 ms of HBM reads: kernel-bound, not 450+).
        ("Qwen3-30B-A3B", "H20", 1, "bf16", 126 / 1.35, 126 * 1.35),
        # Mixtral over PCIe (RTX 4090 has no NVLink): "tens", not 245.
        ("Mixtral-8x7B", "RTX 4090", 8, "bf16", 10, 100),
        # NVIDIA NeMo docs, Llama-2 inference (TensorRT-LLM, 128 in / 20 out, batch 1):
        # 7B on 1 x A100 80GB 234.0 ms (~11 ms/token = ~90 tok/s), on 1 x H100 153.8 ms
        # (~7.3 ms = ~137 tok/s), on 8 x A100 136.5 ms (~6.3 ms = ~160 tok/s). Within 35%.
        ("Llama-2-7B", "A100 80GB", 1, "bf16", 90 / 1.35, 90 * 1.35),
        ("Llama-2-7B", "H100", 1, "bf16", 137 / 1.35, 137 * 1.35),
        ("Llama-2-7B", "A100 80GB", 8, "bf16", 160 / 1.35, 160 * 1.35),
    ],
)
def test_batch_one_speed_matches_published(
    model: str, gpu: str, tp: int, dtype: str, low: float, high: float
) -> None:
    s = _speed(model, gpu, tp, dtype=dtype, context_length=1024)
    assert low <= 1 / s.decode_seconds_per_token <= high
    assert s.decode_seconds_per_token > s.roofline_seconds_per_token


_MOE_MODELS = ("Mixtral-8x7B", "DeepSeek-V3", "Qwen3-30B-A3B", "Qwen1.5-MoE-A2.7B", "Kimi-K2")


@FAST
@given(
    name=st.sampled_from(_MOE_MODELS),
    fewer=st.integers(min_value=1, max_value=8),
    grouped=st.booleans(),
)
def test_fewer_active_experts_never_cost_more_per_moe_layer(
    name: str, fewer: int, grouped: bool
) -> None:
    model = replace(lookup_model(name), routed_nodes_max=4 if grouped else 0)
    less = replace(model, active_experts=min(fewer, model.active_experts))
    assert 0 < moe_seconds_per_layer(less) <= moe_seconds_per_layer(model)
    assert _decode_overhead(less) <= _decode_overhead(model)


def _decode_overhead(model: ModelSpec) -> float:
    return serving_speed(model=model, gpu=lookup_gpu("H100"), context_length=1024).overhead_seconds


def test_group_limited_routing_costs_more_than_plain_top_k() -> None:
    plain, grouped = lookup_model("Mixtral-8x7B"), lookup_model("DeepSeek-V3")
    assert moe_seconds_per_layer(lookup_model("Llama-2-7B")) == 0.0
    assert moe_seconds_per_layer(plain) < moe_seconds_per_layer(grouped)
    assert moe_seconds_per_layer(replace(plain, routed_nodes_max=4)) == moe_seconds_per_layer(
        grouped
    )


def test_mlperf_llama2_70b_offline_throughput_on_8_h100() -> None:
    # MLPerf Inference v4.0, Llama-2-70B offline, NVIDIA 8 x H100 SXM (TensorRT-LLM, FP8):
    # 21,806 tokens/s. Four TP=2 replicas at batch 128 (OpenOrca: ~1K tokens of context).
    s = _speed("Llama-2-70B", "H100", 2, dtype="fp8", batch_size=128, context_length=1024)
    assert 4 * s.decode_tokens_per_s == pytest.approx(21_806, rel=0.25)


@pytest.mark.parametrize(
    ("experts", "active", "batch", "expected"),
    [
        (256, 8, 1, 8.0),  # batch 1: exactly the active experts
        (8, 2, 1, 2.0),
        (8, 2, 100, 8.0),  # a large batch touches every expert (boundary: E)
        (8, 8, 3, 8.0),  # all experts active: dense
    ],
)
def test_experts_touched(experts: int, active: int, batch: int, expected: float) -> None:
    assert experts_touched(
        experts=experts, active_experts=active, batch_size=batch
    ) == pytest.approx(expected, rel=1e-6)


def test_pcie_and_cross_node_all_reduces_cost_more_than_nvlink() -> None:
    nvlink = _speed("Llama-2-70B", "H100", 8)
    pcie = _speed("Llama-2-70B", "H100", 8, intra_link=lookup_link("PCIe Gen4"))
    cross = _speed("Llama-2-70B", "H100", 16, gpus_per_node=8, inter_link=lookup_link("25GbE"))
    assert pcie.allreduce_seconds > nvlink.allreduce_seconds
    assert cross.allreduce_seconds > nvlink.allreduce_seconds
    assert cross.nodes == 2
    assert cross.inter_node_bytes_per_step > 0


def test_pipeline_across_nodes_adds_hops_over_the_fabric() -> None:
    one = _speed("Llama-3.1-405B", "H100", 8, 2, inter_link=lookup_link("NDR"))
    assert one.nodes == 2
    assert one.pipeline_seconds > 0
    assert one.inter_node_bytes_per_step > 0


@pytest.mark.parametrize(
    ("gpu", "link", "ports"),
    [
        ("910B", "200GbE RoCE", 8),  # Atlas 800T A2: 8 x 200GE, one per NPU
        ("A800", "InfiniBand HDR", 8),  # DGX/HGX A800: 8 x HDR
        ("H100", "InfiniBand NDR", 8),  # DGX H100: 8 x NDR
        ("RTX 4090", "25GbE RoCE", 1),  # GeForce server: one 25GbE port
    ],
)
def test_a_replica_across_nodes_with_no_fabric_given_uses_the_cards_typical_one(
    gpu: str, link: str, ports: int
) -> None:
    # the same default training uses (calculators.planner.fabrics.typical_fabric), said as such
    spoken = _speed("Llama-2-70B", gpu, 8, 2, gpus_per_node=8)
    stated = _speed(
        "Llama-2-70B", gpu, 8, 2, gpus_per_node=8, inter_link=lookup_link(link), nics_per_node=ports
    )
    assert spoken.pipeline_seconds == pytest.approx(stated.pipeline_seconds)
    note = next(m for m in spoken.assumptions if m.key == "assume.serving.default_inter_link")
    assert note["link"] == link
    assert note["ports"] == ports


@FAST
@given(batch=st.integers(1, 512), extra=st.integers(1, 512))
def test_bigger_batch_is_slower_per_token_but_faster_in_total(batch: int, extra: int) -> None:
    small = _speed("Mixtral-8x7B", "A100 80GB", 2, batch_size=batch)
    large = _speed("Mixtral-8x7B", "A100 80GB", 2, batch_size=batch + extra)
    assert large.decode_seconds_per_token >= small.decode_seconds_per_token
    assert large.decode_tokens_per_s >= small.decode_tokens_per_s * 0.999


@pytest.mark.parametrize(
    ("model", "gpu", "expected"),
    [
        ("DeepSeek-V3", "H20", "fp8"),  # released in FP8; H20 has FP8 tensor cores
        ("DeepSeek-V3", "A100 80GB", "bf16"),  # no FP8 on Ampere: the nearest it runs
        ("Llama-3.1-70B", "H100", "bf16"),
        ("Llama-2-70B", "A100 80GB", "fp16"),  # released float16
        ("Qwen2.5-7B", "V100 32GB", "fp16"),  # no BF16 on Volta (boundary)
    ],
)
def test_serving_dtype_is_the_release_where_supported(model: str, gpu: str, expected: str) -> None:
    assert serving_dtype(model=lookup_model(model), gpu=lookup_gpu(gpu)) == expected


@pytest.mark.parametrize(
    ("model", "gpu", "gpus", "dtype", "tp", "pp", "replicas"),
    [
        ("Llama-2-70B", "A100 80GB", 8, "bf16", 2, 1, 4),  # vLLM/TGI: TP=2 replicas
        ("DeepSeek-V3", "H100", 16, "fp8", 8, 2, 1),  # SGLang docs: 2 x 8 H100, TP in node
        ("DeepSeek-V3", "H20", 32, "bf16", 8, 3, 1),  # 1.4 TB: three nodes, never TP=1 PP=32
        ("DeepSeek-V3", "H20", 32, "fp8", 8, 1, 4),  # FP8 as released: one node per replica
        ("Llama-2-7B", "RTX 4090", 1, "bf16", 1, 1, 1),
    ],
)
def test_serving_layout_keeps_tp_inside_a_node(
    model: str, gpu: str, gpus: int, dtype: str, tp: int, pp: int, replicas: int
) -> None:
    lay = serving_layout(
        model=lookup_model(model),
        gpu=lookup_gpu(gpu),
        gpus=gpus,
        weight_dtype=dtype,
        kv_dtype=dtype,
    )
    assert lay is not None
    assert (lay.tensor_parallel, lay.pipeline_parallel, lay.replicas) == (tp, pp, replicas)


def _scan_stages(model: str, gpu: str, gpus: int, dtype: str, batch: int) -> int | None:
    """The fewest pipeline stages at TP = 8 that fit, by trying every count (the oracle)."""
    from calculators.gpu_memory import USABLE_FRACTION, inference_memory

    card = lookup_gpu(gpu)
    for stages in range(2, min(lookup_model(model).layers, gpus // 8) + 1):
        need = inference_memory(
            model=lookup_model(model),
            tensor_parallel=8,
            pipeline_parallel=stages,
            weight_dtype=dtype,
            kv_dtype=dtype,
            batch_size=batch,
            context_length=4096,
        ).total_bytes
        if need <= USABLE_FRACTION * card.memory_bytes:
            return stages
    return None


@pytest.mark.parametrize(
    ("model", "gpu", "gpus", "dtype", "batch"),
    [
        ("DeepSeek-V3", "H20", 64, "bf16", 1),
        ("DeepSeek-V3", "A100 80GB", 256, "bf16", 64),
        ("Llama-3.1-405B", "L20", 512, "bf16", 16),
        ("Llama-3.1-405B", "T4", 4096, "fp16", 64),
        # KV-bound: every one of the 126 layers on its own stage; a scan tried 125 counts
        ("Llama-3.1-405B", "T4", 4096, "fp16", 3000),
        ("Llama-3.1-405B", "T4", 4096, "fp16", 100_000),  # nothing fits: None
    ],
)
def test_pipeline_stages_are_bisected_not_scanned(
    model: str, gpu: str, gpus: int, dtype: str, batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import calculators.serving_layout as layout_module

    expected = _scan_stages(model, gpu, gpus, dtype, batch)
    calls: list[int] = []
    real = layout_module.inference_memory

    def counted(**kwargs: object) -> object:
        calls.append(1)
        return real(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(layout_module, "inference_memory", counted)
    lay = serving_layout(
        model=lookup_model(model),
        gpu=lookup_gpu(gpu),
        gpus=gpus,
        weight_dtype=dtype,
        kv_dtype=dtype,
        batch_size=batch,
    )
    assert (lay.pipeline_parallel if lay else None) == expected
    # 4 TP degrees, then doubling and bisecting over <= 126 stage counts, + the final fit
    assert len(calls) <= 4 + 2 * 7 + 2


def test_max_concurrency_matches_vidur_kv_capacity() -> None:
    # Vidur (Agrawal et al. 2024; Jaillet et al. 2025, arXiv:2504.07347): Llama-2-70B on
    # 2 x A100 80GB leaves a 16,492-token KV cache: four 4K-token sequences.
    c = max_concurrency(
        model=lookup_model("Llama-2-70B"),
        gpu=lookup_gpu("A100 80GB"),
        gpus=2,
        context_length=4096,
        weight_dtype="bf16",
    )
    assert c.sequences * c.context_length == pytest.approx(16_492, rel=0.05)


@FAST
@given(gpus=st.integers(1, 64), more=st.integers(1, 64), context=st.integers(512, 32768))
def test_more_gpus_never_lower_max_concurrency(gpus: int, more: int, context: int) -> None:
    kwargs = {
        "model": lookup_model("Llama-3.1-8B"),
        "gpu": lookup_gpu("L40S"),
        "context_length": context,
    }
    assert (
        max_concurrency(gpus=gpus + more, **kwargs).sequences  # type: ignore[arg-type]
        >= max_concurrency(gpus=gpus, **kwargs).sequences
    )  # type: ignore[arg-type]


@FAST
@given(target=st.floats(100, 1e5), factor=st.floats(1.0, 10.0))
def test_higher_target_never_needs_fewer_gpus(target: float, factor: float) -> None:
    kwargs = {
        "model": lookup_model("Llama-2-70B"),
        "gpu": lookup_gpu("H100"),
        "context_length": 2048,
    }
    low = gpus_for_target(target_tokens_per_second=target, **kwargs)  # type: ignore[arg-type]
    high = gpus_for_target(target_tokens_per_second=target * factor, **kwargs)  # type: ignore[arg-type]
    assert low.gpus is not None
    assert high.gpus is not None
    assert high.gpus >= low.gpus


def test_latency_targets() -> None:
    model, gpu = lookup_model("Llama-2-70B"), lookup_gpu("H100")
    loose = gpus_for_target(model=model, gpu=gpu, target_qps=10, target_seconds_per_token=0.1)
    tight = gpus_for_target(model=model, gpu=gpu, target_qps=10, target_seconds_per_token=0.03)
    assert loose.gpus is not None
    assert tight.gpus is not None
    assert tight.seconds_per_token <= 0.03
    assert tight.gpus >= loose.gpus
    # No layout decodes a 70B model in 1 ms per token: unreachable, and it says so.
    never = gpus_for_target(model=model, gpu=gpu, target_seconds_per_token=0.001)
    assert never.gpus is None
    assert never.message.key == "serving.target_unreachable"


@pytest.mark.parametrize(
    ("task", "gpu", "gpus", "low", "high"),
    [
        ("serve", "A100 80GB", 8, 250e9, 300e9),  # 576 GB usable at 2 bytes/param
        ("serve", "RTX 4090", 1, 8e9, 11e9),  # 21.6 GB usable: a 7-10B model in 16-bit
        ("finetune", "A100 80GB", 8, 25e9, 40e9),  # 16 B/param of model state under ZeRO-3
    ],
)
def test_largest_model(task: str, gpu: str, gpus: int, low: float, high: float) -> None:
    r = largest_model(gpu=lookup_gpu(gpu), gpus=gpus, task=task)  # type: ignore[arg-type]
    assert low < r.params < high
    assert r.limit == "memory"


def test_budget_and_energy_cost() -> None:
    b = budget_compute(
        budget=1000.0, price_per_gpu_hour=2.5, peak_flops_per_s=312e12, mfu=0.4, gpus=8
    )
    assert b.gpu_hours == 400
    assert b.seconds == pytest.approx(50 * 3600)
    c = job_energy_cost(gpus=8, tdp_watts=400, seconds=3600, price_per_kwh=1.0, pue=1.0)
    assert c.kwh == pytest.approx(8 * (400 + 237) / 1000)
    assert c.cost == pytest.approx(c.kwh)


@pytest.mark.parametrize(
    ("budget", "price", "seconds", "gpus"),
    [
        (500_000, 20, 30 * 86400, 34),  # 25,000 GPU-hours / 720 h = 34.7: whole GPUs only
        (14_400, 20, 30 * 86400, 1),  # exactly one GPU for the month (boundary)
        (14_399, 20, 30 * 86400, 0),  # a cent short of one
        (30_000, 2.5, 3600, 12_000),  # one hour: the GPU-hours themselves
    ],
)
def test_budget_gpus_is_the_gpu_hours_over_the_period_rounded_down(
    budget: float, price: float, seconds: float, gpus: int
) -> None:
    from calculators.sizing import budget_gpus, budget_hours

    assert budget_gpus(budget=budget, price_per_gpu_hour=price, seconds=seconds) == gpus
    # the same division budget_compute makes (one home for GPU-hours = budget / price)
    hours = budget_hours(budget=budget, price_per_gpu_hour=price)
    assert (
        hours
        == budget_compute(
            budget=budget, price_per_gpu_hour=price, peak_flops_per_s=1e15, mfu=0.4
        ).gpu_hours
    )


@pytest.mark.parametrize(("budget", "price"), [(0, 2.0), (-5, 2.0), (100, 0), (100, float("nan"))])
def test_budget_hours_refuses_what_is_not_money(budget: float, price: float) -> None:
    from calculators.errors import CalculatorInputError
    from calculators.sizing import budget_hours

    with pytest.raises(CalculatorInputError):
        budget_hours(budget=budget, price_per_gpu_hour=price)


@pytest.mark.parametrize(
    ("batch", "measured"),
    [
        (1, 30.29),  # SGLang v0.4.1.post2 (PR #2643): DeepSeek-V3, 8 x H200, TP=8, 128 in/256 out
        (8, 206.32),  # the same release, batch 8: tokens/s of the whole batch
    ],
)
def test_deepseek_v3_decode_on_8_h200_matches_sglang(batch: int, measured: float) -> None:
    s = _speed(
        "DeepSeek-V3",
        "H200",
        8,
        dtype="fp8",
        batch_size=batch,
        context_length=256,
        prompt_tokens=128,
    )
    assert s.decode_tokens_per_s == pytest.approx(measured, rel=0.05)


def test_deepseek_r1_decode_on_8_h20_is_no_faster_than_published() -> None:
    # vLLM issue #30832: DeepSeek-V3.2 (the same 671B/37B-active MoE and MLA) on 8 x H20 at
    # TP=8 runs 30 tokens/s for one request; the estimate must not promise much more.
    s = _speed("DeepSeek-R1", "H20 96GB", 8, dtype="fp8", context_length=1280, prompt_tokens=1024)
    assert 25.0 <= s.decode_tokens_per_s <= 33.0
