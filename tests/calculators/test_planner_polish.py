"""Planner suggestions as users read them: no failing duplicates, realistic layouts and fabrics,
consistent text in both languages, another GPU with the count it needs."""

from __future__ import annotations

import re

import pytest

from assistant.i18n import text as in_words
from calculators._memory_parts import SEARCHED_TENSOR_PARALLEL, frozen_base_text
from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import generic_model, lookup_model
from calculators.errors import CalculatorInputError
from calculators.messages import Msg
from calculators.planner import evaluate, run_checks
from calculators.planner.evaluation import _keep_useful
from calculators.planner.fabrics import fabric_links
from calculators.planner.plan import DAY, Outcome, Plan, PlanChange
from calculators.planner.suggestions import deadline_remark

GPT3 = lookup_model("GPT-3 175B")  # 96 heads: TP=3 and TP=6 split them
LLAMA2_70B = lookup_model("Llama-2-70B")


def _founding() -> Plan:
    return Plan(
        task="pretrain",
        model=generic_model(params=100e9),
        gpu=lookup_gpu("A100 80GB PCIe"),
        gpus=8,
        inter_link=lookup_link("25GbE"),
    )


SCENARIOS = {
    "founding": _founding(),
    "qlora-3x4090": Plan(
        task="finetune",
        method="qlora",
        model=GPT3,
        gpu=lookup_gpu("RTX 4090"),
        gpus=3,
        gpus_per_node=3,
    ),
    "lora-1x4090": Plan(
        task="finetune",
        method="lora",
        model=LLAMA2_70B,
        gpu=lookup_gpu("RTX 4090"),
        gpus=1,
        gpus_per_node=1,
    ),
    "910b-70b": Plan(
        task="pretrain",
        model=LLAMA2_70B,
        gpu=lookup_gpu("910B"),
        gpus=16,
        inter_link=lookup_link("25GbE"),
    ),
    "4090-7b": Plan(
        task="pretrain", model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("RTX 4090"), gpus=8
    ),
    "h100-405b": Plan(
        task="pretrain",
        model=lookup_model("Llama-3.1-405B"),
        gpu=lookup_gpu("H100"),
        gpus=64,
        inter_link=lookup_link("IB"),
    ),
    "a100-70b-full-ft": Plan(
        task="finetune", model=LLAMA2_70B, gpu=lookup_gpu("A100 80GB"), gpus=8
    ),
    "h20-dsv3-serve": Plan(
        task="inference", model=lookup_model("DeepSeek-V3"), gpu=lookup_gpu("H20"), gpus=8
    ),
    "v100-13b": Plan(
        task="pretrain",
        model=lookup_model("Llama-2-13B"),
        gpu=lookup_gpu("V100"),
        gpus=16,
        precision="fp16",
        inter_link=lookup_link("100GbE"),
    ),
}


@pytest.fixture(scope="module")
def evaluations() -> dict[str, object]:
    return {name: evaluate(plan) for name, plan in SCENARIOS.items()}


def _suggestions(evaluations: dict[str, object], name: str) -> tuple[PlanChange, ...]:
    return evaluations[name].suggestions  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_only_working_changes_or_one_partial_one(evaluations: dict[str, object], name: str) -> None:
    changes = _suggestions(evaluations, name)
    failing = [c for c in changes if not c.evaluation_after.works]
    assert not failing or len(changes) == 1
    clusters = [
        (c.kind, c.new_plan.gpu.name, c.new_plan.gpus) for c in changes if c.kind in ("gpus", "gpu")
    ]
    assert len(clusters) == len(set(clusters)), "the same cluster offered twice"
    for change in changes:  # every suggestion is still its plan's fresh evaluation
        fresh = run_checks(change.new_plan, with_min_gpus=False)
        assert change.evaluation_after.failing == tuple(
            c.kind for c in fresh if c.verdict == "fail"
        )


def test_founding_scale_out_is_offered_once_and_works(evaluations: dict[str, object]) -> None:
    # Before: "Scale to 1,760 x A100" with a fabric (works) and without it (still fails:
    # network). Only the working one stays.
    scale = [c for c in _suggestions(evaluations, "founding") if c.kind == "gpus"]
    assert len(scale) == 1
    assert scale[0].evaluation_after.works
    assert scale[0].new_plan.inter_link is not None


def _change(kind: str, gpus: int, failing: tuple[str, ...]) -> PlanChange:
    plan = _founding().replace(gpus=gpus)
    return PlanChange(
        kind=kind,
        description=Msg("suggest.recompute"),
        new_plan=plan,
        evaluation_after=Outcome(verdict="infeasible" if failing else "feasible", failing=failing),
    )  # type: ignore[arg-type]


def test_keep_useful_drops_partial_changes_when_one_works() -> None:
    partial = _change("gpus", 64, ("network",))
    works = _change("gpus", 64, ())
    offload = _change("combined", 8, ("compute",))
    assert _keep_useful([offload, partial, works], 5) == (works,)
    # Nothing works: only the best partial change, which says what is still missing.
    assert _keep_useful([offload, partial], 5) == (offload,)
    assert _keep_useful([], 5) == ()


def test_no_odd_tensor_parallel_is_suggested(evaluations: dict[str, object]) -> None:
    # GPT-3's 96 heads split 3 ways, but frameworks run TP 1/2/4/8: 3 x 4090 shard with FSDP.
    changes = _suggestions(evaluations, "qlora-3x4090")
    assert changes
    for change in changes:
        assert change.new_plan.tensor_parallel in SEARCHED_TENSOR_PARALLEL
    for changes in (_suggestions(evaluations, n) for n in SCENARIOS):
        assert all(c.new_plan.tensor_parallel in SEARCHED_TENSOR_PARALLEL for c in changes)


def test_a_tensor_parallel_degree_the_user_sets_is_kept() -> None:
    plan = SCENARIOS["qlora-3x4090"].replace(tensor_parallel=3)
    e = evaluate(plan)
    assert str(e.check("memory").inputs["tensor_parallel"]) == "3"
    assert all(c.new_plan.tensor_parallel in (1, 2, 3, 4, 8) for c in e.suggestions)


def test_a_single_card_scales_out_as_eight_gpu_servers(evaluations: dict[str, object]) -> None:
    scale = [c for c in _suggestions(evaluations, "lora-1x4090") if c.kind == "gpus"]
    assert scale
    assert all(c.new_plan.gpus_per_node == 8 for c in scale)
    assert all(c.new_plan.nodes == -(-c.new_plan.gpus // 8) for c in scale)


def test_the_plans_own_node_size_is_kept(evaluations: dict[str, object]) -> None:
    """More of the user's own GPUs keep their box size; another GPU comes in standard
    8-GPU servers (a 3-card workstation says nothing about how B200s are packaged)."""
    changes = _suggestions(evaluations, "qlora-3x4090")
    assert changes
    for change in changes:
        same_gpu = change.new_plan.gpu.name.startswith("RTX 4090")
        assert change.new_plan.gpus_per_node == (3 if same_gpu else 8)


def test_ascend_clusters_get_roce_not_infiniband(evaluations: dict[str, object]) -> None:
    changes = _suggestions(evaluations, "910b-70b")
    ascend = [c for c in changes if c.new_plan.gpu.name.startswith("Ascend")]
    assert ascend
    for change in ascend:
        link = change.new_plan.inter_link
        assert link is not None
        assert link.kind == "ethernet"
        assert link.rdma
        assert link.bytes_per_s <= 25e9  # 200GbE at most
        assert "RoCE" in in_words(change.description, "en")
        assert "InfiniBand" not in in_words(change.description, "en")
    remarks = evaluations["910b-70b"].remarks  # type: ignore[attr-defined]
    assert any(
        "Atlas 800T A2" in in_words(r, "en") and "规划假设" in in_words(r, "zh") for r in remarks
    )


@pytest.mark.parametrize(
    ("gpu", "allowed"),
    [
        ("910B", {"100GbE RoCE", "200GbE RoCE"}),
        ("RTX 4090", {"25GbE RoCE", "100GbE RoCE"}),
        # PCIe Gen4: no NDR, whose 50 GB/s outruns a Gen4 x16 slot (31.5 GB/s)
        ("A100 80GB PCIe", {"100GbE RoCE", "200GbE RoCE", "InfiniBand HDR"}),
        ("A800", {"100GbE RoCE", "200GbE RoCE", "InfiniBand HDR"}),
        ("H100", {"InfiniBand NDR", "400GbE RoCE"}),
        ("H800", {"InfiniBand NDR", "400GbE RoCE"}),
        ("B200", {"InfiniBand NDR", "InfiniBand XDR", "400GbE RoCE"}),
        ("V100", {"InfiniBand EDR", "100GbE RoCE"}),
    ],
)
def test_fabrics_are_realistic_for_the_generation(gpu: str, allowed: set[str]) -> None:
    assert {link.name for link in fabric_links(lookup_gpu(gpu))} == allowed


def test_geforce_scale_out_uses_ethernet_at_most_100g(evaluations: dict[str, object]) -> None:
    for change in _suggestions(evaluations, "4090-7b"):
        link = change.new_plan.inter_link
        if change.new_plan.gpu.gpu_class == "consumer" and link is not None:
            assert link.kind == "ethernet"
            assert link.bytes_per_s <= 12.5e9


def test_another_gpu_names_the_count_it_needs(evaluations: dict[str, object]) -> None:
    changes = _suggestions(evaluations, "founding")
    same = next(c for c in changes if c.kind == "gpus")
    other = [c for c in changes if c.kind == "gpu"]
    assert other
    for change in other:
        assert change.evaluation_after.works
        en, zh = in_words(change.description, "en"), in_words(change.description, "zh")
        assert f"{change.new_plan.gpus:,} × {change.new_plan.gpu.name}" in en
        assert f"{change.new_plan.gpus:,} 张 {change.new_plan.gpu.name}" in zh
        # A faster GPU is only worth naming when it needs fewer cards than scaling out.
        assert change.new_plan.gpus < same.new_plan.gpus


def test_big_pretraining_scale_out_uses_pipeline_stages_when_zero3_is_network_bound(
    evaluations: dict[str, object],
) -> None:
    # Llama 3.1 405B on H100: ZeRO-3 over thousands of GPUs is communication-bound on any
    # NDR fabric; Megatron-style pipeline stages (Llama 3 used PP=16) make it work.
    scale = [c for c in _suggestions(evaluations, "h100-405b") if c.kind == "gpus"]
    assert scale
    assert scale[0].evaluation_after.works
    assert scale[0].new_plan.pipeline_parallel > 1


def test_no_suggestion_beyond_the_gpu_limit_crashes() -> None:
    plan = Plan(
        task="pretrain",
        model=generic_model(params=1e13),
        gpu=lookup_gpu("A100 80GB PCIe"),
        gpus=64,
        inter_link=lookup_link("IB"),
    )
    e = evaluate(plan)  # used to raise CalculatorInputError for a 22-million-GPU candidate
    assert e.verdict == "infeasible"


_CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_description_text_is_consistent(evaluations: dict[str, object], name: str) -> None:
    for change in _suggestions(evaluations, name):
        en, zh = in_words(change.description, "en"), in_words(change.description, "zh")
        assert not re.search(r"\d x ", en + zh), en  # the multiplication sign is ×
        assert "） " not in zh
        assert "）," not in zh
        for english in ("recompute", "instead", "nodes linked", "Offload to", "Scale"):
            assert english not in zh, zh
        assert "完全重算" not in zh
        assert _CJK.search(zh), zh
        assert not _CJK.search(en), en
        if change.new_plan.recompute == "full" and "recompute" in en:
            assert "完全重计算" in zh


def test_deadline_remark_wording() -> None:
    remark = deadline_remark(_founding())
    assert remark is not None
    assert "超过规划器考虑的最长期限（两年，730 天）" in in_words(remark, "zh")
    assert "8 × A100" in in_words(remark, "en")


def test_frozen_base_bytes_are_said_once_when_equal() -> None:
    assert in_words(frozen_base_text(2.0), "en") == "2 bytes/param"
    assert "on linear layers, 2 on the rest" in in_words(frozen_base_text(0.516), "en")
    lora = evaluate(
        Plan(
            task="finetune",
            method="lora",
            model=lookup_model("Llama-2-7B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=1,
        )
    )
    formula = lora.check("memory").formula
    assert formula is not None
    assert "2 bytes/param on linear layers" not in in_words(formula, "en")
    assert "frozen base (2 bytes/param)" in in_words(formula, "en")


def test_a_short_deadline_still_gets_a_deadline_change() -> None:
    plan = Plan(
        task="pretrain",
        model=lookup_model("Llama-2-7B"),
        gpu=lookup_gpu("H100"),
        gpus=8,
        zero_stage=1,
        tokens=2e11,
        deadline_seconds=10 * DAY,
    )
    assert any(c.kind == "deadline" for c in evaluate(plan).suggestions)


def test_a_gpu_as_fast_as_the_plans_is_not_offered_for_a_deadline() -> None:
    # H200 has the H100's peak: for a compute-bound 70B run it needs as many cards as simply
    # scaling the H100s, so only genuinely faster chips (B200, MI300X) are named.
    plan = Plan(
        task="pretrain", model=LLAMA2_70B, gpu=lookup_gpu("H100"), gpus=8, deadline_seconds=30 * DAY
    )
    changes = evaluate(plan).suggestions
    same = next(c for c in changes if c.kind == "gpus")
    others = [c for c in changes if c.kind == "gpu"]
    assert others
    assert all(c.new_plan.gpus < same.new_plan.gpus for c in others)
    assert "H200 SXM 141GB" not in {c.new_plan.gpu.name for c in others}


def test_a_tensor_parallel_degree_that_cannot_split_the_heads_is_refused() -> None:
    # Llama-2-70B: 64 heads, 8 KV heads. TP=3 is impossible in Megatron-LM or vLLM.
    plan = Plan(
        task="finetune",
        method="qlora",
        model=LLAMA2_70B,
        gpu=lookup_gpu("RTX 4090"),
        gpus=3,
        gpus_per_node=3,
        tensor_parallel=3,
    )
    with pytest.raises(CalculatorInputError) as info:
        evaluate(plan)
    assert info.value.field == "tensor_parallel"
    assert "64" in str(info.value)
    evaluate(plan.replace(model=GPT3))  # 96 heads = 96 KV heads: a user-set TP=3 is allowed


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_suggestion_and_remark_texts_are_clean_at_the_source(
    evaluations: dict[str, object], name: str
) -> None:
    """The planner's texts are shown verbatim: no display-side patching is needed."""
    texts_zh = [in_words(c.description, "zh") for c in _suggestions(evaluations, name)]
    texts_en = [in_words(c.description, "en") for c in _suggestions(evaluations, name)]
    remarks = evaluations[name].remarks  # type: ignore[attr-defined]
    texts_zh += [in_words(r, "zh") for r in remarks]
    texts_en += [in_words(r, "en") for r in remarks]
    for text in texts_zh + texts_en:
        assert not re.search(r"\d x \S", text), text  # "×", not "x"
    for text in texts_zh:
        assert "full recompute" not in text, text
        assert "完全重算" not in text, text
        assert not re.search(r"）\s+[\u4e00-\u9fff]", text), text


@pytest.mark.parametrize("name", ["founding", "910b-70b", "h100-405b", "v100-13b", "4090-7b"])
def test_the_network_check_carries_the_efficiency_the_run_time_uses(name: str) -> None:
    # the key figure under "Network" must agree with the time: the compute check's
    # network_efficiency (overlapped traffic), which lies between the no-overlap bound and 1
    checks = {c.kind: c for c in run_checks(SCENARIOS[name])}
    network, compute = checks["network"].figures, checks["compute"].figures
    assert network["network_efficiency"] == compute["network_efficiency"]
    assert float(network["scaling_efficiency"]) <= float(network["network_efficiency"]) + 1e-9
    assert float(network["network_efficiency"]) <= 1.0


def test_an_eight_bit_kv_cache_on_pascal_names_an_engine_that_runs_there() -> None:
    # vLLM needs compute capability 7.0 or newer (its installation docs); a P40 is 6.1
    plan = Plan(
        task="inference",
        model=lookup_model("Qwen1.5-14B"),
        gpu=lookup_gpu("P40"),
        gpus=1,
        precision="fp16",
        weight_dtype="int8",
        sequence_length=8192,  # 6.7 GB of 16-bit KV beside 15.7 GB of weights: over 21.6 GB
    )
    said = [
        in_words(c.description, "en")
        for c in evaluate(plan).suggestions
        if c.kind == "kv_quantization"
    ]
    assert said
    assert all("llama.cpp" in s and "as vLLM and TensorRT-LLM offer" not in s for s in said)
