"""Scenario → defaults → calculator plan → checks: stated defaults, layout choice, bad values."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate, to_plan
from assistant.calculate.defaults import DEFAULT_DEADLINE_SECONDS, resolve
from assistant.parse import parse
from assistant.records import Query, Scenario, SiteProfile

JILIN = SiteProfile(
    id="regional-single-node",
    title="典型地方单机 GPU 服务器",
    aliases=("吉林", "Jilin"),
    nodes=1,
    gpus_per_node=8,
    gpu="A100 80GB PCIe",
    intra_link="PCIe Gen4",
    inter_link="25GbE",
    lang="zh",
)


def run(question: str, **kwargs: object):  # noqa: ANN201 - the calculate Outcome
    return calculate(parse(question, sites=[JILIN], **kwargs), sites=[JILIN])  # type: ignore[arg-type]


def test_every_open_slot_gets_a_stated_default() -> None:
    resolved = resolve(Scenario(task="pretrain", params=7e9, gpu="H100", gpu_count=8), None, "en")
    s = resolved.scenario
    assert s.tokens == pytest.approx(20 * 7e9)  # Chinchilla: 20 tokens per parameter
    assert s.deadline_seconds == DEFAULT_DEADLINE_SECONDS
    assert (s.precision, s.context_length, s.nodes, s.gpus_per_node) == ("bf16", 4096, 1, 8)
    text = " ".join(resolved.assumptions)
    for word in ("Chinchilla", "Deadline", "bf16", "4096"):
        assert word in text


def test_v100_defaults_to_fp16() -> None:
    resolved = resolve(Scenario(task="pretrain", params=1e9, gpu="V100", gpu_count=8), None, "zh")
    assert resolved.scenario.precision == "fp16"


@pytest.mark.parametrize(
    ("gpu", "expected"),
    [
        ("H100", "fp8"),  # Hopper has FP8 tensor cores: fp8 training is evaluated as asked
        ("A100", "bf16"),  # Ampere has none: fall back to bf16 and say why
    ],
)
def test_fp8_training_is_kept_only_where_the_chip_has_fp8(gpu: str, expected: str) -> None:
    scenario = Scenario(task="pretrain", params=7e9, gpu=gpu, gpu_count=8, precision="fp8")
    resolved = resolve(scenario, None, "en")
    assert resolved.scenario.precision == expected
    said = " ".join(resolved.assumptions)
    assert ("no FP8 tensor mode" in said) == (expected != "fp8")
    assert ("fp8 mixed-precision training" in said) == (expected == "fp8")


def test_site_profile_fills_hardware_and_question_values_win() -> None:
    site = resolve(Scenario(task="pretrain", params=1e11, site_profile=JILIN.id), JILIN, "zh")
    assert (site.scenario.gpu, site.scenario.gpu_count, site.scenario.inter_link) == (
        "A100 PCIe 80GB",
        8,
        "25GbE",
    )
    assert "站点档案" in site.assumptions[0]
    changed = resolve(
        Scenario(task="pretrain", params=1e11, gpu="H100", site_profile=JILIN.id), JILIN, "zh"
    )
    assert changed.scenario.gpu == "H100 PCIe 80GB"  # the PCIe card of the asked family
    assert any("优先" in a for a in changed.assumptions)


def test_founding_question_is_infeasible_with_three_checks() -> None:
    outcome = run("吉林GPU服务器能训练千亿模型吗?")
    assert outcome.verdict == "infeasible"
    kinds = {c.kind: c for c in outcome.checks}
    assert {"memory", "compute", "network", "power", "cost"} <= set(kinds)
    assert kinds["memory"].verdict == "fail"
    assert kinds["compute"].verdict == "fail"
    assert outcome.suggestions
    assert "万亿 token" in " ".join(outcome.assumptions)


def test_zero_stage_is_chosen_and_said() -> None:
    outcome = run("8张H100训练7B模型")
    assert outcome.scenario is not None
    assert outcome.scenario.zero_stage in (0, 1, 2, 3)
    assert any(f"ZeRO-{outcome.scenario.zero_stage}" in a for a in outcome.assumptions)
    assert next(c for c in outcome.checks if c.kind == "memory").verdict != "fail"


def test_a_stated_zero_stage_is_kept() -> None:
    outcome = run("ZeRO-2 on 8 A100 80GB to train a 7B model")
    assert outcome.scenario is not None
    assert outcome.scenario.zero_stage == 2


def test_inference_uses_the_smallest_tensor_parallel_split_that_fits() -> None:
    outcome = run("Llama-2-70B inference on 8 H100")
    assert outcome.verdict == "feasible"
    assert any("TP=2" in a or "TP=4" in a for a in outcome.assumptions)
    plan = to_plan(outcome.scenario, tensor_parallel=2)  # type: ignore[arg-type]
    assert plan.tensor_parallel == 2


def test_no_hardware_evaluates_typical_setups_and_says_which_works() -> None:
    outcome = run("Can I pretrain a 7B model in 30 days?")
    assert outcome.verdict == "feasible"
    assert "typical" in outcome.lead
    assert outcome.scenario is not None
    assert outcome.scenario.gpu is not None


@pytest.mark.parametrize(
    ("question", "field", "language_word"),
    [
        ("用-8张卡训练7B模型", "GPU 数量 -8", "必须"),
        ("用负8张H100训练7B模型可以吗", "GPU 数量 -8", "必须"),
        ("1.5张4090能跑Qwen2.5-7B吗", "GPU 数量 1.5", "整数"),
        ("Serve Qwen2.5-7B on 2.5 RTX 4090", "GPU count 2.5", "whole"),
        ("2.5台8卡H100训练7B", "节点数 2.5", "整数"),
        ("8张H100训练7B，数据负一万亿token", "数据量 -1000000000000", "正数"),  # not the default
        ("A100和H100各1.5张，预训练7B哪个快", "GPU 数量 1.5", "整数"),  # options too, no crash
        ("1.5张H100满载功耗多少", "GPU 数量 1.5", "整数"),  # no job: the energy path too
        ("负8张H100功耗多少", "GPU 数量 -8", "整数"),  # named in Chinese, not "gpus=-8"
        ("0 GPUs train a 7B model", "GPU count 0", "must"),
        ("train a 10^30 parameter model on 8 H100", "model size", "Invalid input"),
    ],
)
def test_absurd_values_become_unknown_naming_the_field(
    question: str, field: str, language_word: str
) -> None:
    outcome = run(question)
    assert outcome.verdict == "unknown"
    assert field in outcome.lead
    assert language_word in outcome.lead
    assert outcome.checks == ()


def test_off_topic_is_unknown_and_says_what_to_ask() -> None:
    outcome = calculate(Query(question="hi", language="en", scenario=Scenario(), in_domain=False))
    assert outcome.verdict == "unknown"
    assert "Try" in outcome.lead


def test_missing_model_size_asks_for_it() -> None:
    outcome = run("训练一个模型需要多少显卡")
    assert outcome.verdict == "unknown"
    assert "模型规模" in outcome.lead


def test_unknown_gpu_name_is_refused_with_suggestions() -> None:
    query = Query(
        question="x",
        language="en",
        scenario=Scenario(task="inference", params=7e9, gpu="Z9000", gpu_count=1),
    )
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert "Z9000" in outcome.lead


def test_more_gpus_never_lengthen_the_time() -> None:
    days = []
    for count in (8, 64, 512):
        outcome = run(f"{count} H100 pretrain a 13B model")
        compute = next(c for c in outcome.checks if c.kind == "compute")
        days.append(compute.figures["seconds"])
    assert days[0] >= days[1] >= days[2]


def test_4bit_on_pretraining_is_explained_not_silently_dropped() -> None:
    resolved = resolve(
        Scenario(task="pretrain", params=7e9, gpu="H100", gpu_count=8, precision="int4"), None, "en"
    )
    assert resolved.scenario.precision == "bf16"
    assert any("int4 quantization applies to inference" in a for a in resolved.assumptions)


def test_how_many_question_is_sized_and_answered() -> None:
    outcome = run("DeepSeek-V3 推理需要几张 H20")
    assert outcome.scenario is not None
    # Served in FP8 as released (config.json): 671 GB of weights on 8 x 86.4 GB usable is
    # tight (98%) but fits; in BF16 (1.34e12 B) it needed 16. SGLang's DeepSeek-V3 docs
    # recommend 2 x 8 H20 for FP8, for KV-cache room beyond one sequence.
    assert outcome.scenario.gpu_count is not None
    assert outcome.scenario.gpu_count >= 8
    assert outcome.scenario.precision == "fp8"
    assert f"至少需要 {outcome.scenario.gpu_count} 张" in outcome.lead


def test_how_long_question_gets_the_duration() -> None:
    outcome = run("100张H800训练一个650亿参数的模型，1.4万亿token，要多久")
    assert outcome.verdict != "unknown"  # 100 is not a multiple of 8: layouts adapt
    assert outcome.lead.startswith("在 100 张 H800 SXM 80GB 上约需")
    assert "天" in outcome.lead


@pytest.mark.parametrize(
    ("question", "gpu", "intra_link"),
    [
        # the regional server is a PCIe box: an H100 there is the PCIe card
        ("吉林GPU服务器用H100能训练千亿模型吗", "H100 PCIe 80GB", "PCIe Gen4"),
        # the H800 has no PCIe card in the catalog: its own NVLink, not the site's PCIe link
        ("吉林GPU服务器用H800能训练千亿模型吗", "H800 SXM 80GB", "H800 NVLink"),
        # a PCIe card stays as asked
        ("吉林GPU服务器用4090能训练千亿模型吗", "RTX 4090 24GB", "PCIe Gen4"),
    ],
)
def test_a_gpu_named_for_a_pcie_site_fits_its_servers(
    question: str, gpu: str, intra_link: str
) -> None:
    query = parse(question, sites=[JILIN])
    resolved = resolve(query.scenario, JILIN, "zh")
    assert (resolved.scenario.gpu, resolved.scenario.intra_link) == (gpu, intra_link)


@pytest.mark.parametrize("model", ["Mixtral-8x7B", "Qwen2-57B-A14B", "Llama-2-7B"])
def test_ask_and_calc_use_one_default_token_rule(model: str) -> None:
    # One rule (issue 14): a model's published run, else 20 tokens per ACTIVE parameter, MoE
    # included (Hoffmann et al. 2022 counts the parameters a token passes through).
    from calculators.catalog.models import lookup_model
    from calculators.compute_time import default_pretrain_tokens

    spec = lookup_model(model)
    scenario = Scenario(
        task="pretrain",
        model=spec.name,
        params=float(spec.params),
        active_params=float(spec.active_params),
        gpu="H100",
        gpu_count=64,
    )
    # `calc train --model X` and a question naming X's training ("pretrain X on 64 H100")
    resolved = resolve(scenario, None, "en", own_run=True)
    assert resolved.scenario.tokens == pytest.approx(default_pretrain_tokens(spec)[0])
    if spec.is_moe and not spec.training_tokens:
        assert "active parameter" in " ".join(resolved.assumptions)


def test_moe_pretraining_splits_the_experts_as_deployed() -> None:
    # DeepSeek-V3 (arXiv:2412.19437 §3.2, Table 1): 64-way expert parallelism over 8 nodes;
    # 2.664M H800 GPU-hours on 2,048 GPUs, about 54 days. Without EP the chosen layout was
    # ZeRO-3 over 2,048 ranks: 1,183 days, all of it gathering the 671B weights.
    out = run("How long to pretrain DeepSeek-V3 on 2048 H800?")
    assert any("EP=64" in a for a in out.assumptions)
    compute = next(c for c in out.checks if c.kind == "compute")
    assert 54 < float(compute.figures["days"]) < 2.5 * 54  # type: ignore[arg-type]
    network = next(c for c in out.checks if c.kind == "network")
    assert float(network.figures["moe_seconds_per_step"]) > 0  # type: ignore[arg-type]
    dense = run("How long to pretrain Llama-2-70B on 2048 H800?")
    assert not any("EP=" in a for a in dense.assumptions)
