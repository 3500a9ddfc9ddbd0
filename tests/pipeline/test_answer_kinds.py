"""The answer side of the new question kinds, on Query values built by hand (parse fills them
from words): comparisons, max concurrency, budgets, names not in the catalog, how long."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.records import Query, Scenario


def _ask(question: str, lang: str = "en", **kwargs: object) -> Query:
    scenario = kwargs.pop("scenario", Scenario())
    return Query(question=question, language=lang, scenario=scenario, **kwargs)  # type: ignore[arg-type]


def test_comparison_gives_one_line_per_option_and_the_winner() -> None:
    query = _ask(
        "H100 vs A100 for pretraining 7B, 8 each",
        scenario=Scenario(params=7e9, task="pretrain", gpu_count=8),
        options=(Scenario(gpu="H100 SXM 80GB"), Scenario(gpu="A100 SXM 80GB")),
        asks=("compare",),
    )
    lead = calculate(query).lead
    assert lead.index("8 × H100 SXM 80GB:") < lead.index("8 × A100 SXM 80GB:")
    assert "8 × H100 SXM 80GB is faster" in lead


def test_max_concurrency_uses_one_replica_over_the_node() -> None:
    # 8 x 72 GB usable - 141 GB of weights = ~435 GB / 10.7 GB per 32k sequence = ~40
    query = _ask(
        "8卡H100跑Llama-3.1-70B，32k上下文最多支持多少并发",
        "zh",
        scenario=Scenario(
            model="Llama-3.1-70B",
            gpu="H100 SXM 80GB",
            gpu_count=8,
            context_length=32768,
            task="inference",
        ),
    )
    lead = calculate(query).lead
    assert lead.startswith("32,768 token 上下文下最多约 4")


def test_a_stated_budget_that_is_too_small_makes_it_infeasible() -> None:
    # 5.9e21 FLOPs on 8 A100 = ~1,600 h x 8 GPUs x 15 = ~196,000 > 50,000
    query = _ask(
        "预算5万元，每卡时15元，8张A100预训练7B模型能完成吗",
        "zh",
        scenario=Scenario(
            params=7e9,
            gpu="A100 SXM 80GB",
            gpu_count=8,
            task="pretrain",
            budget=50000.0,
            price_per_gpu_hour=15.0,
            currency="元",
        ),
    )
    outcome = calculate(query)
    assert outcome.verdict == "infeasible"
    assert "超出预算" in outcome.lead


def test_a_name_not_in_the_catalog_is_said_not_replaced() -> None:
    # "RTX 7090" does not exist; the RTX 5090 joined the catalog (see test_catalog_additions).
    query = _ask(
        "Can 8 RTX 7090 fine-tune a 13B model with LoRA?",
        scenario=Scenario(params=13e9, gpu_count=8, task="finetune", method="lora"),
        unknown_names=("RTX 7090",),
    )
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert outcome.lead.startswith("RTX 7090 is not in the catalog. Closest entries: RTX 5090")


def test_a_card_from_another_maker_is_named_not_replaced_by_a_default_gpu() -> None:
    # the MTT S4000 (Moore Threads) is not in the catalog: before, "MTT S4000" was not read as a
    # card name at all and the question was evaluated on an RTX 4090 as "no GPU given"
    from assistant.parse import parse

    outcome = calculate(parse("MTT S4000 能跑 Qwen2-7B 吗?"))
    assert outcome.verdict == "unknown"
    assert outcome.lead.startswith("MTT S4000 不在目录中")
    assert "gpu-advisor kb template gpu" in outcome.lead
    assert "kb add" in outcome.lead
    assert "RTX 4090" not in outcome.lead.split("最接近的条目")[0]


def test_stated_precision_is_not_a_condition() -> None:
    # 13B in fp16 = 26 GB > 21.6 GB usable on a 4090; int8 fits but fp16 was stated
    stated = Scenario(model="Llama-2-13B", gpu="RTX 4090 24GB", gpu_count=1, task="inference")
    assert calculate(_ask("q", scenario=stated)).verdict == "conditional"
    fixed = calculate(_ask("q", scenario=Scenario(**{**stated.__dict__, "precision": "fp16"})))
    assert fixed.verdict == "infeasible"


def test_how_long_without_a_count_names_the_practical_count() -> None:
    query = _ask(
        "How long to pretrain a 70B model on A800?",
        scenario=Scenario(params=7e10, gpu="A800 SXM 80GB", task="pretrain"),
    )
    lead = calculate(query).lead
    assert "impractical" in lead
    assert "With about" in lead


def test_largest_model_for_hardware_and_time() -> None:
    # 8 x 312e12 x ~0.4 x 30 days = ~2.6e21 FLOPs = 6 N (20 N) -> N = ~4.6e9
    query = _ask(
        "8张A100一个月内最大能训练多大的模型",
        "zh",
        scenario=Scenario(gpu="A100 SXM 80GB", gpu_count=8, deadline_seconds=30 * 86400.0),
    )
    outcome = calculate(query)
    assert outcome.lead.startswith("8 张 A100 SXM 80GB 在 30 天内最大能训练约 4")
    assert outcome.scenario is not None
    assert outcome.scenario.params is None


def test_a_slow_network_makes_a_how_long_run_slower_not_impossible() -> None:
    # 6 x 72.7e9 x 1e8 tokens + attention = 4.685e19 FLOPs over 32 x 989e12 x 0.38 = 3,894 s
    # of compute. Even Megatron's layout (TP=8 x PP=4 across the nodes, only activations
    # cross) sends 2 x 262,144 x 8192 x 2 B / 8 x 8 GPUs = 8.6 GB per node per step: 69 s over
    # 1GbE against 10.2 s of compute, so 3,894 s / (1 - 3/67) x 69 / 10.2 = ~7.6 h. No
    # deadline was stated, so the network's comm/compute bar decides nothing: the duration is
    # the answer, with how much a faster fabric (IB NDR, ~1.1 h) would save.
    from assistant.parse import parse

    question = "How long to fine-tune Qwen2.5-72B fully on 4 nodes of 8x H100 over 1GbE?"
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("It takes about 7.6 h on 32 × H100")
    assert "network-bound" in outcome.lead
    assert "would bring it down to about 1.1 h" in outcome.lead
    network = next(c for c in outcome.checks if c.kind == "network")
    assert network.verdict == "tight"  # paced: slower, not impossible


def test_pipeline_stages_keep_a_25gbe_fine_tune_off_the_network() -> None:
    # Over 25GbE the same 8.6 GB of activations take 2.75 s per step, hidden under 10.2 s of
    # compute: ~1.1 h, where data-parallel gradient sync alone stretched the run to ~11 h.
    from assistant.parse import parse

    question = "How long to fine-tune Qwen2.5-72B fully on 4 nodes of 8x H100 over 25GbE?"
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("It takes about 1.1 h on 32 × H100")
    assert "network-bound" not in outcome.lead


def test_comm_about_compute_in_moe_pretraining_is_no_infeasibility() -> None:
    # DeepSeek-V3 on 2,048 H800 (IB between nodes): the all-to-all is about as long as compute,
    # which DeepSeek hides with DualPipe; the run time already counts it, nothing was infeasible
    from assistant.parse import parse

    question = "Pre-train DeepSeek-V3 on 2048 H800 with 14.8T tokens: how long does it take?"
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("It takes about")


def test_a_serving_comparison_without_load_compares_one_sequence() -> None:
    # Llama-2-70B fp16 = 138 GB. One sequence's speed is compared, so each option runs on the
    # split with the least time per token on its 8 GPUs, TP=8 (a common TP=4 split left one
    # replica idle and read 59 tokens/s): H20 (4.0 TB/s) reads 17.3 GB per token per GPU,
    # ~4.3 ms + ~3.2 ms overhead + the TP=8 all-reduces (~7 ms) = ~15 ms = ~65 tokens/s
    from assistant.parse import parse

    lead = calculate(parse("Which is faster for Llama-2-70B inference, 8×H20 or 8×910B?")).lead
    assert lead.startswith("8 × H20 96GB is faster for one sequence at a time")
    speed = re.search(r"8 × H20 96GB: Feasible, about (\d+) tokens/s for one sequence \(TP=8", lead)
    assert speed is not None
    assert 55 <= int(speed.group(1)) <= 75
    assert "in total" not in lead


def test_stated_concurrent_users_are_the_serving_batch() -> None:
    # "20个并发" was read as the concurrency but served as 1 sequence (batch_size unset):
    # 20 sequences over 4 TP=2 replicas of H20 at ~37 tokens/s each = ~746 tokens/s in total
    from assistant.parse import parse

    outcome = calculate(parse("8张H20和8张910B推理Llama-2-70B，20个并发，哪个快？"))
    assert outcome.lead.startswith("8 张 H20 96GB 更快：生成吞吐是")
    assert "20 路并发合计约" in outcome.lead
    assert outcome.scenario is not None
    assert outcome.scenario.batch_size == 20


def test_a_stated_offload_is_evaluated_not_only_suggested() -> None:
    # 13B full fine-tune, ZeRO-3 over 2 cards: 13e9 x 16 B / 2 = 104 GB per GPU without
    # offload; with the optimizer states and fp32 master weights in host RAM (13e9 x 14 B =
    # ~182 GB < 256 GB) a card keeps its 13 GB bf16 shard and activations (~16 GB of 21.6 GB)
    from assistant.parse import parse

    question = (
        "Can I fully fine-tune Llama-2-13B on 2 RTX 4090 with ZeRO-3 CPU offload and 256 GB of RAM?"
    )
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    memory = next(c for c in outcome.checks if c.kind == "memory")
    assert memory.figures["host_ram_needed_bytes_per_node"] == pytest.approx(182e9, rel=0.05)


def test_a_stated_concurrency_is_the_number_of_sequences_served() -> None:
    # "20 个并发" at 2k context: Mixtral-8x7B's KV cache is 32 layers x 8 KV heads x 128 x 2
    # (K and V) x 2 bytes = 131,072 B per token, so 20 x 2,048 x 131,072 = 5.37 GB in all,
    # 2.68 GB on each of the 2 GPUs (it was evaluated at one sequence: 268 MB).
    query = _ask(
        "Mixtral-8x7B 在 2 张 A100 上推理，20 个并发，每个请求 2k 上下文，能跑吗？",
        lang="zh",
        scenario=Scenario(
            model="Mixtral-8x7B",
            gpu="A100 SXM 80GB",
            gpu_count=2,
            task="inference",
            context_length=2048,
            concurrency=20,
        ),
    )
    outcome = calculate(query)
    memory = next(c for c in outcome.checks if c.kind == "memory").figures
    assert memory["concurrent_sequences"] == 20
    assert memory["kv_cache_bytes"] == 20 * 2048 * 131_072
    assert "推理按 1 路并发计算。" not in outcome.assumptions


def test_how_long_with_no_gpu_named_is_an_estimate() -> None:
    # "How long to train GPT-3?" names no hardware: the advisor picks typical set-ups to give a
    # duration, and that choice of its own must not turn into a "Feasible" verdict.
    query = _ask(
        "How long does it take to train GPT-3?",
        scenario=Scenario(model="GPT-3", task="pretrain"),
        asks=("duration",),
    )
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert any(c.kind == "compute" and c.figures.get("seconds") for c in outcome.checks)
    assert "It takes about" in outcome.lead


def test_how_many_with_no_gpu_named_is_an_estimate() -> None:
    # "训练一个7B模型需要几张卡" names no card: the count is read off a typical set-up the
    # advisor chose itself, so it is an estimate with that set-up named, not "Feasible".
    query = _ask(
        "训练一个7B模型需要几张卡",
        lang="zh",
        scenario=Scenario(params=7e9, task="pretrain"),
        asks=("gpu_count",),
    )
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert "至少需要" in outcome.lead
    assert "参考配置" in outcome.lead
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count


def test_a_stated_precision_a_reference_card_lacks_skips_that_card() -> None:
    # "DeepSeek-V3 推理需要多少显存？fp8" names no card: the first reference set-up (A100) has no
    # FP8, which is the advisor's choice, not the user's input error; an FP8 card answers.
    query = _ask(
        "DeepSeek-V3 推理需要多少显存？fp8",
        lang="zh",
        scenario=Scenario(model="DeepSeek-V3", task="inference", precision="fp8"),
        asks=("memory",),
    )
    outcome = calculate(query)
    assert outcome.mode != "invalid"
    assert "输入有误" not in outcome.lead
    memory = next(c for c in outcome.checks if c.kind == "memory").figures
    assert memory["weights_bytes_total"] == pytest.approx(671e9, rel=0.05)  # 1 byte a parameter


def test_a_server_of_n_cards_is_those_n_cards() -> None:
    # "4卡4090服务器" states 4 GPUs per node and no node count: one server of 4 cards, not the
    # serving default of one card (Qwen2.5-32B int4, ~19 GB of weights, split over the 4)
    query = _ask(
        "4卡4090服务器推理Qwen2.5-32B int4",
        lang="zh",
        scenario=Scenario(
            model="Qwen2.5-32B",
            gpu="RTX 4090 24GB",
            gpus_per_node=4,
            task="inference",
            precision="int4",
        ),
    )
    outcome = calculate(query)
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 4
    assert "未给出 GPU 数量" not in " ".join(outcome.assumptions)


def test_offload_makes_a_full_fine_tune_on_a_slow_fabric_conditional() -> None:
    # Qwen2.5-72B full fine-tune on 2 x 8 H800 over 25GbE: 72.7e9 x 16 B of model states do
    # not fit 16 x 72 GB, but ZeRO-3 + full recompute + optimizer offload (12 B/param to host:
    # ~509 GB per node, DGX H800 has 2 TB) does, with no new hardware and the stated full
    # fine-tune kept. The 25GbE link only paces that run, so it is a condition, memory is the
    # binding constraint, and no network sentence speaks of a run time the lead never gave.
    from assistant.parse import parse

    query = parse("2台8卡H800通过25GbE互联，能全参数微调Qwen2.5-72B吗？")
    outcome = calculate(query)
    assert outcome.verdict == "conditional"
    assert outcome.binding == "memory"
    assert "Offload" in outcome.lead or "卸载" in outcome.lead
    assert "网络限制" not in outcome.lead


def test_an_estimate_names_its_reference_card_without_a_verdict() -> None:
    from assistant.parse import parse

    outcome = calculate(parse("Llama-3.1-8B 显存需要多少？"))
    assert outcome.verdict == "unknown"
    assert "参考配置" in outcome.lead
    assert "可行" not in outcome.lead
    assert "评估" not in outcome.lead


def test_three_cards_that_no_tensor_split_fills_serve_as_three_pipeline_stages() -> None:
    # Qwen2.5-72B in int4: ~41 GB of weights (bf16 embeddings and head) + 10.7 GB of bf16 KV
    # cache at 32k = ~52 GB > 21.6 GB usable on one 24 GB card. TP=3 cannot split 64 heads /
    # 8 KV heads, but 3 pipeline stages hold ~17-19 GB each: it fits on the 3 cards stated,
    # and the fewest cards reported is those 3 (not 4, the next power of two).
    query = _ask(
        "3张4090D跑Qwen2.5-72B的int4量化版，上下文32k，能行吗",
        lang="zh",
        scenario=Scenario(
            model="Qwen2.5-72B",
            gpu="RTX 4090D 24GB",
            gpu_count=3,
            task="inference",
            precision="int4",
            context_length=32768,
        ),
    )
    outcome = calculate(query)
    assert outcome.verdict == "feasible"
    memory = next(c for c in outcome.checks if c.kind == "memory").figures
    assert memory["min_gpus"] == 3
    assert memory["required_bytes_per_gpu"] <= memory["available_bytes_per_gpu"]
    assert outcome.scenario is not None
    assert outcome.scenario.pipeline_parallel == 3


def test_a_comparison_with_no_deadline_judges_no_option_on_the_default_one() -> None:
    # 7B on 140B tokens: 6.8e21 FLOPs / (8 x 148e12 x 0.38) = ~176 days on 8 H20, ~26 on 8 H800.
    # "Which is faster" states no deadline: the slow option still works (under a year), it is
    # not "conditional" on the 90-day default; a stated 30 days does decide it.
    def verdicts(question: str, deadline: float | None) -> list[str]:
        query = _ask(
            question,
            lang="zh",
            scenario=Scenario(params=7e9, task="pretrain", gpu_count=8, deadline_seconds=deadline),
            options=(Scenario(gpu="H20 96GB"), Scenario(gpu="H800 SXM 80GB")),
            asks=("compare",),
        )
        return [o.verdict for o in calculate(query).options]

    assert verdicts("H20和H800各8张，预训练7B，哪个快？", None) == ["feasible", "feasible"]
    assert verdicts("H20和H800各8张，30天内预训练7B，哪个行？", 30 * 86400.0) == [
        "infeasible",
        "feasible",
    ]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Full fine-tune Qwen2.5-72B on 4 nodes of 8x H100 over 10GbE: how long?",
            "4 pipeline stages across nodes",
        ),
        ("4台8卡H100，万兆网互联，全参微调 Llama-3.1-70B 要多久？", "跨节点 4 级流水线并行"),
    ],
)
def test_a_fine_tune_says_its_pipeline_stages_across_nodes(question: str, said: str) -> None:
    # One 1.25 GB/s port per node: TP=8 in the node x PP=4 over the nodes sends only
    # activations (8.6 GB per node per step, ~6.9 s); the layout note names the stages
    from assistant.parse import parse

    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert any(said in note for note in outcome.assumptions)


def test_lora_over_the_same_fabric_stays_data_parallel() -> None:
    # LoRA syncs only its adapters (~0.5 s per step over 10GbE against ~6.9 s of compute)
    # and the 140 GB base fits at TP=8 (17.6 GB per GPU): no stages, no bubble to pay
    from assistant.parse import parse

    question = "LoRA fine-tune Llama-3.1-70B on 4 nodes of 8x H100 over 10GbE: how long?"
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert not any("pipeline stages" in note for note in outcome.assumptions)
    assert any("TP=8 inside the node" in note for note in outcome.assumptions)


def test_the_practical_count_is_a_splittable_number_of_nodes() -> None:
    from assistant.calculate.sizing import practical_count

    # 192 GPUs x 850 days / 90 days = 1,813 GPUs = 227 nodes (a prime): 256 nodes instead
    assert practical_count(192, 850 * 86400.0, 8) == 256 * 8
    assert practical_count(8, 180 * 86400.0, 8) == 16  # up to four nodes: as scaled
    for gpus in (64, 200, 1000, 5000):
        nodes = practical_count(gpus, 400 * 86400.0, 8) // 8
        assert nodes <= 4 or nodes in {m * 2**k for k in range(15) for m in (1, 3)}


def test_deepseek_v3_cost_with_no_count_is_near_its_published_gpu_hours() -> None:
    # DeepSeek-V3 technical report (arXiv:2412.19437) Table 1: 2.664M H800 GPU-hours of
    # pre-training. Asked with no count, the run was evaluated on 227 nodes, where no
    # expert-parallel degree divides the count: network-bound, 8.1M GPU-hours.
    outcome = calculate(parse("deepseek-v3 训练一次要多少钱，H800每小时2美元"))
    hours = next(c.figures["gpu_hours"] for c in outcome.checks if c.kind == "compute")
    assert 0.8 * 2.664e6 <= float(hours) <= 1.4 * 2.664e6
