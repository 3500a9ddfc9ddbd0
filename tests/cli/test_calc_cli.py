"""`gpu-advisor calc`: human tables, JSON in SI units, and bad input (exit 2, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

FOUNDING = [
    "calc",
    "train",
    "--params",
    "千亿",
    "--gpu",
    "A100 80GB PCIe",
    "--gpus",
    "8",
    "--inter-link",
    "25GbE",
]


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_train_human_output_shows_verdict_units_formula_and_sources() -> None:
    result = _run(*FOUNDING)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "infeasible" in text
    assert " GB (" in text
    assert "GiB)" in text
    assert "formula:" in text
    assert "source:" in text
    assert "assumption:" in text
    assert "What would it take" in text


def test_train_json_is_si_numbers() -> None:
    result = _run(*FOUNDING, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "infeasible"
    checks = {c["kind"]: c for c in data["checks"]}
    memory = checks["memory"]["figures"]
    assert memory["required_bytes_per_gpu"] > memory["available_bytes_per_gpu"] == 72e9
    assert checks["compute"]["figures"]["deadline_seconds"] == 90 * 86400
    assert data["plan"]["gpu"] == "A100 PCIe 80GB"
    assert data["suggestions"][0]["evaluation_after"]["failing"] == []


def test_finetune_and_price() -> None:
    result = _run(
        "calc",
        "finetune",
        "--model",
        "llama-2-70b",
        "--method",
        "qlora",
        "--gpu",
        "4090",
        "--gpus",
        "8",
        "--zero",
        "3",
        "--price",
        "0.5",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "feasible"
    cost = next(c for c in data["checks"] if c["kind"] == "cost")["figures"]
    assert cost["cost"] == pytest.approx(0.5 * cost["gpu_hours"])


def test_infer_json_has_kv_cache_and_speed() -> None:
    result = _run(
        "calc",
        "infer",
        "--model",
        "Llama-2-70B",
        "--gpu",
        "H100",
        "--gpus",
        "2",
        "--tp",
        "2",
        "--batch",
        "4",
        "--context",
        "4096",
        "--json",
    )
    assert result.exit_code == 0, result.output
    checks = {c["kind"]: c for c in json.loads(result.output)["checks"]}
    # 327,680 bytes per token (FP16, GQA 8 KV heads) x 4 x 4096 tokens, split over TP = 2
    memory = checks["memory"]["figures"]
    assert memory["kv_cache_bytes_per_gpu"] == pytest.approx(327_680 * 4 * 4096 / 2)
    assert memory["kv_cache_bytes"] == pytest.approx(327_680 * 4 * 4096)  # all sequences
    assert checks["compute"]["figures"]["decode_tokens_per_s"] > 0


def test_network_command() -> None:
    result = _run(
        "calc",
        "network",
        "--model",
        "gpt-3",
        "--gpu",
        "A100",
        "--gpus",
        "1024",
        "--tp",
        "8",
        "--pp",
        "16",
        "--inter-link",
        "HDR",
        "--nics-per-node",
        "8",
        "--json",
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)["figures"]
    assert 0 < figures["scaling_efficiency"] <= 1
    assert figures["inter_node_bytes_per_second"] == 8 * 25e9


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["gpus"], "H800"),
        (["gpus", "昇腾910B"], "Ascend 910B"),
        (["models"], "DeepSeek-V3"),
        (["models", "llama2-70b"], "68,976,648,192"),
        (["links"], "InfiniBand NDR"),
        (["links"], "31.5 GB/s"),  # PCIe Gen4 x16 per direction, shown as a bandwidth
    ],
)
def test_catalog_listings(args: list[str], needle: str) -> None:
    result = _run("calc", *args)
    assert result.exit_code == 0, result.output
    assert needle in result.output


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["gpus", "H100"], "3.4 TB/s"),  # HBM3 3.35 TB/s (NVIDIA H100 datasheet)
        (["gpus", "H100"], "450.0 GB/s"),  # NVLink 4 per direction
        (["links"], "50.0 GB/s"),  # InfiniBand NDR 400 Gb/s per direction
    ],
)
def test_a_bandwidth_is_shown_in_one_unit(args: list[str], shown: str) -> None:
    """Before: "3.4 TB/s (26.8 Tb/s)", a bits figure beside the bytes one that read as a
    second, different bandwidth. Now bytes per second only, as the datasheets quote them."""
    result = _run("calc", *args)
    assert result.exit_code == 0, result.output
    assert shown in result.output
    assert "b/s" not in result.output.replace("B/s", "")


def test_catalog_json() -> None:
    data = json.loads(_run("calc", "gpus", "H100", "--json").output)
    assert data["memory_bytes"] == 80e9
    assert data["fp8_flops_per_s"] > data["bf16_flops_per_s"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--gpus", "0"], "gpus"),
        (["--gpus", "-8"], "gpus"),
        (["--tp", "3"], "tensor_parallel"),  # 72 heads but 8 KV heads: 3 cannot split them
        (["--tp", "4", "--pp", "3"], "gpus"),  # 8 GPUs are not a multiple of 4 × 3
        (["--deadline-days", "-5"], "deadline"),
        (["--price", "-1"], "price_per_gpu_hour"),
        (["--nodes", "0"], "nodes"),
        (["--params=-5"], "params"),  # a negative size is a bad value, not "not a number"
    ],
)
def test_bad_counts_exit_2_naming_the_field(args: list[str], field: str) -> None:
    result = CliRunner().invoke(cli, [*FOUNDING, *args])
    assert result.exit_code == 2, result.output
    assert field in result.output
    assert "Traceback" not in result.output


def test_absurd_parameter_count() -> None:
    result = CliRunner().invoke(cli, ["calc", "train", "--params", "1e30", "--gpu", "H100"])
    assert result.exit_code == 2
    assert "params" in result.output
    assert "Traceback" not in result.output


def test_unknown_gpu_suggests_closest_names() -> None:
    result = CliRunner().invoke(
        cli, ["calc", "train", "--model", "llama-2-7b", "--gpu", "A100 90GB"]
    )
    assert result.exit_code == 2
    assert "gpu" in result.output
    assert "A100" in result.output
    assert "closest" in result.output


def test_unknown_gpu_in_catalog_listing() -> None:
    result = CliRunner().invoke(cli, ["calc", "gpus", "H1000"])
    assert result.exit_code == 2
    assert "H100" in result.output


def test_chinese_error_message() -> None:
    result = CliRunner().invoke(cli, [*FOUNDING, "--gpus", "0", "--lang", "zh"])
    assert result.exit_code == 2
    assert "必须" in result.output


def test_not_a_number() -> None:
    result = CliRunner().invoke(cli, ["calc", "train", "--params", "lots", "--gpu", "H100"])
    assert result.exit_code == 2
    assert "--params" in result.output


def test_view_docstring_examples() -> None:
    import doctest

    from assistant.render import calc as calc_view

    assert doctest.testmod(calc_view).failed == 0


def test_help_lists_subcommands() -> None:
    result = _run("calc", "--help")
    assert result.exit_code == 0
    for name in ("train", "finetune", "infer", "network", "gpus", "models", "links"):
        assert name in result.output


def test_human_output_reads_like_prose_numbers() -> None:
    text = _run(*FOUNDING).output
    # 20 tokens/param x ~1e11 params (Chinchilla): a short form with the power of ten, no "e+12"
    assert "2.0 T tokens (2.0e12)" in text
    assert "e+" not in text
    assert "n/a (single node)" in text  # one node: no inter-node figures, not "0 B/s"
    assert "0.0 B/s" not in text
    assert "impractical" in text  # decades of compute: no deadline suggestion, a remark instead
    assert "Allow " not in text
    assert "needed per GPU" in text


def test_chinese_output_labels_and_messages() -> None:
    text = _run(*FOUNDING, "--lang", "zh").output
    for needle in (
        "预训练",
        "不可行",
        "显存",
        "每卡所需显存",
        "不适用（单节点）",
        "怎样才能做到",
        "放宽期限不现实",
        "判定",
        "假设：",
        "来源：",
        "年",
    ):
        assert needle in text, needle
    for leak in (
        "infeasible",
        "What would it take",
        "required_bytes_per_gpu",
        "still fails",
        "n/a (single node)",
    ):
        assert leak not in text, leak


def test_chinese_catalog_headings() -> None:
    text = _run("calc", "gpus", "--lang", "zh").output
    assert "GPU 目录" in text
    assert "显存" in text


def test_infer_on_two_a100_suggests_tensor_parallel_first() -> None:
    # Llama-2-70B BF16 is served on 2 x A100 80GB with TP=2 (vLLM/TGI practice).
    text = _run(
        "calc", "infer", "--model", "llama-2-70b", "--gpu", "A100 80GB", "--gpus", "2", "--tp", "1"
    )
    assert "1. Split each layer over 2 GPUs" in text.output
    # Without --tp/--pp, serving is laid out as deployed: TP=2 inside the node from the start.
    default = json.loads(
        _run(
            "calc", "serve", "--model", "llama-2-70b", "--gpu", "A100 80GB", "--gpus", "2", "--json"
        ).output
    )
    assert default["plan"]["tensor_parallel"] == 2
    assert default["plan"]["precision"] == "fp16"  # released float16 (config.json)
    with_tp = _run(
        "calc",
        "infer",
        "--model",
        "llama-2-70b",
        "--gpu",
        "A100 80GB",
        "--gpus",
        "2",
        "--tp",
        "2",
        "--json",
    )
    assert json.loads(with_tp.output)["verdict"] == "feasible"


def test_infer_batch_is_the_whole_deployment_and_power_is_a_rate() -> None:
    # 100 concurrent requests on 8 x A100 with TP=4: two replicas of 50 (vLLM data-parallel
    # serving: each replica holds its share of the requests in its own KV cache).
    result = _run(
        "calc",
        "infer",
        "--model",
        "Llama-2-70B",
        "--gpu",
        "A100 80GB",
        "--gpus",
        "8",
        "--tp",
        "4",
        "--batch",
        "100",
        "--context",
        "1024",
        "--json",
    )
    assert result.exit_code == 0, result.output
    checks = {c["kind"]: c for c in json.loads(result.output)["checks"]}
    memory, compute, power = (checks[k]["figures"] for k in ("memory", "compute", "power"))
    assert memory["batch_per_replica"] == compute["batch_per_replica"] == 50
    assert memory["kv_cache_bytes_per_gpu"] == pytest.approx(50 * 1024 * 327_680 / 4)
    assert memory["kv_cache_bytes"] == pytest.approx(100 * 1024 * 327_680)
    assert compute["decode_tokens_per_s_all_replicas"] == pytest.approx(
        100 / compute["seconds_per_token"]
    )
    assert power["kwh_per_hour"] == pytest.approx(power["power_watts"] / 1000)
    assert power["joules_per_token"] == pytest.approx(
        power["power_watts"] / compute["decode_tokens_per_s_all_replicas"]
    )


def test_infer_human_output_labels_serving_power() -> None:
    result = _run("calc", "infer", "--model", "Llama-2-7B", "--gpu", "A100 80GB", "--batch", "8")
    assert result.exit_code == 0, result.output
    assert "energy per output token" in result.output
    assert "J/token" in result.output
    assert "kWh per hour" in result.output


def test_fp8_training_runs_on_h100_and_is_refused_on_a100() -> None:
    # DeepSeek-V3 (arXiv:2412.19437) §3.3 trained in FP8 on H800 (Hopper); A100 has no FP8.
    ok = _run(
        "calc",
        "train",
        "--model",
        "llama-2-7b",
        "--gpu",
        "H100",
        "--gpus",
        "8",
        "--precision",
        "fp8",
        "--json",
    )
    assert ok.exit_code == 0, ok.output
    compute = next(c for c in json.loads(ok.output)["checks"] if c["kind"] == "compute")
    assert compute["figures"]["peak_flops_per_s"] == pytest.approx(1978.9e12)
    refused = CliRunner().invoke(
        cli, ["calc", "train", "--model", "llama-2-7b", "--gpu", "A100", "--precision", "fp8"]
    )
    assert refused.exit_code == 2
    assert "precision" in refused.output
    assert "bf16" in refused.output
    assert "Traceback" not in refused.output


def test_formulas_use_the_multiplication_sign_and_chinese_output_is_localized() -> None:
    english = _run(*FOUNDING).output
    formulas = [line for line in english.splitlines() if "formula:" in line]
    assert formulas
    assert all(" x " not in line for line in formulas)
    assert any("×" in line for line in formulas)
    chinese = _run(*FOUNDING, "--lang", "zh").output
    assert "费用 = GPU 小时数 × 每卡时价格" in chinese
    assert "未给出价格" in chinese
    assert "No price given" not in chinese
    # Suggestions: each scale-out once, with a realistic fabric, and no failing variant.
    suggestions = chinese.split("怎样才能做到", 1)[1]
    assert "InfiniBand XDR" not in suggestions.split("改用", 1)[0]
    assert "仍不满足" not in suggestions


def test_serve_defaults_to_release_precision_and_prices_energy() -> None:
    # DeepSeek-V3 is released in FP8 (config.json quantization_config); 4 nodes of 8 H20 serve
    # it with TP=8 inside each node and no 32-stage pipeline.
    out = _run(
        "calc",
        "serve",
        "--model",
        "deepseek-v3",
        "--gpu",
        "H20",
        "--nodes",
        "4",
        "--price-kwh",
        "0.5",
        "--json",
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["plan"]["precision"], data["plan"]["tensor_parallel"]) == ("fp8", 8)
    power = {c["kind"]: c for c in data["checks"]}["power"]["figures"]
    assert power["energy_cost"] == pytest.approx(power["kwh"] * 0.5)


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (
            ("max-concurrency", "--model", "llama-2-70b", "--gpu", "A100 80GB", "--gpus", "8"),
            "sequences",
        ),
        (
            ("gpus-for", "--model", "llama-2-70b", "--gpu", "H100", "--tokens-per-s", "10000"),
            "gpus",
        ),
        (("largest-model", "--gpu", "4090", "--gpus", "2"), "params"),
        (
            ("budget", "--budget", "1e5", "--price", "2", "--gpu", "H100", "--gpus", "8"),
            "gpu_hours",
        ),
    ],
)
def test_solver_commands_answer_in_json(args: tuple[str, ...], key: str) -> None:
    out = _run("calc", *args, "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data[key] > 0
    assert data["message"]


#: Plans whose checks carry every figure issue 14 added: the duration factors (PP bubble,
#: exposed communication), model vs hardware FLOPs (full recompute), host RAM for offload.
_LABELLED_RUNS = [
    (
        "train",
        "--params",
        "70B",
        "--gpu",
        "H100 PCIe",
        "--nodes",
        "16",
        "--inter-link",
        "25GbE",
        "--pp",
        "4",
        "--recompute",
        "full",
    ),
    ("finetune", "--model", "llama-2-70b", "--gpu", "A100", "--zero", "3", "--offload"),
    ("train", "--model", "mixtral-8x7b", "--gpu", "H100", "--zero", "1", "--ep", "8"),
]


@pytest.mark.parametrize("args", _LABELLED_RUNS, ids=lambda a: a[0])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_figure_shown_has_a_label_not_its_key(args: tuple[str, ...], lang: str) -> None:
    data = json.loads(_run("calc", *args, "--json").output)
    keys = {key for check in data["checks"] for key in check["figures"]}
    assert {"pipeline_bubble", "host_ram_needed_bytes_per_node", "expert_parallel"} & keys
    text = _run("calc", *args, "--lang", lang).output
    # An English label may be the key's own word ("days"); a snake_case key never is one.
    shown = [key for key in keys if lang == "zh" or "_" in key]
    leaked = sorted(key for key in shown if f"│ {key} " in text)
    assert not leaked, leaked


def test_duration_factors_are_percentages() -> None:
    text = _run("calc", *_LABELLED_RUNS[0]).output
    assert "pipeline bubble" in text
    bubble = next(line for line in text.splitlines() if "pipeline bubble" in line)
    assert "%" in bubble, bubble


#: Training terms that serving does not use; `calc serve` used to accept and ignore them.
_TRAINING_ONLY = ("--zero", "--recompute", "--pp-microbatches", "--offload", "--host-ram", "--ep")


@pytest.mark.parametrize("command", ["infer", "serve"])
def test_serving_offers_no_training_terms(command: str) -> None:
    shown = _run("calc", command, "--help").output
    assert "--batch" in shown
    assert "--kv-dtype" in shown
    for option in _TRAINING_ONLY:
        assert f"{option} " not in shown, option
    refused = CliRunner().invoke(
        cli, ["calc", command, "--model", "llama-2-7b", "--gpu", "H100", "--zero", "3"]
    )
    assert refused.exit_code == 2
    assert "No such option" in refused.output


@pytest.mark.parametrize("command", ["train", "finetune", "network"])
def test_training_commands_offer_the_issue_14_terms(command: str) -> None:
    shown = _run("calc", command, "--help").output
    for option in (*_TRAINING_ONLY, "--price-kwh", "--batch-tokens"):
        assert f"{option} " in shown, option


def test_moe_pretraining_reports_its_expert_parallel_degree() -> None:
    args = ("calc", "train", "--model", "mixtral-8x7b", "--gpu", "H100", "--zero", "1")
    memory = json.loads(_run(*args, "--ep", "8", "--json").output)["checks"][0]["figures"]
    assert memory["expert_parallel"] == 8
    dense = ("calc", "train", "--model", "llama-2-7b", "--gpu", "H100", "--json")
    assert "expert_parallel" not in json.loads(_run(*dense).output)["checks"][0]["figures"]


def test_calc_runs_without_a_usable_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # calc reads the user's GPU/model cards from the home; a home that cannot be created (a
    # file in its place) leaves the shipped catalogs, never a traceback.
    blocker = tmp_path / "home"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_HOME", str(blocker / "inner"))
    result = _run("calc", "gpus", "H100")
    assert result.exit_code == 0
    assert "H100 SXM 80GB" in result.output


def test_a_price_per_kwh_is_shown_as_money_not_energy() -> None:
    # "price per kWh │ 0.6 kWh" read as an amount of energy: the price is money per kWh.
    args = ("serve", "--model", "llama-2-7b", "--gpu", "H100", "--gpus", "1", "--price-kwh", "0.6")
    row = next(line for line in _run("calc", *args).output.splitlines() if "price per kWh" in line)
    assert [cell.strip() for cell in row.strip("│ ").split("│")][-1] == "0.6", row
