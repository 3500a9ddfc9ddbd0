"""The first sentence answers what was asked (issue 10): the failing resource by its name, the
speed or run time asked kept beside a tight memory, a stated deadline first, the stored and
the plain weight size side by side, the KV cache total with its GiB after the phrase, and a
concept question answered by a sentence of the passage that names it."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import focus_sentence
from assistant.calculate.headline import headline
from assistant.compose.concept import answering_sentence as _answering_sentence
from assistant.parse import parse
from assistant.records import Check, Citation, Passage, Scenario
from calculators.catalog.models import lookup_model

DAY = 86400.0
#: GPU memory fits (27.2 of 72 GB) but the offloaded Adam states need 1,018 GB of host RAM per
#: node against 256 GB (80% of it usable: 204.8 GB): 1,018 / 204.8 = 5.0x over.
HOST_FAILS = Check(
    kind="memory",
    verdict="fail",
    summary="",
    figures={
        "required_bytes_per_gpu": 27.2e9,
        "available_bytes_per_gpu": 72e9,
        "host_ram_needed_bytes_per_node": 1017.9e9,
        "host_ram_bytes_per_node": 256e9,
    },
)
TIGHT = Check(
    kind="memory",
    verdict="tight",
    summary="",
    figures={"required_bytes_per_gpu": 70.7e9, "available_bytes_per_gpu": 72e9},
)
SPEED = Check(kind="compute", verdict="ok", summary="Decode about 34.0 tokens/s per sequence.")
FITS = Check(
    kind="memory",
    verdict="ok",
    summary="",
    figures={"required_bytes_per_gpu": 43.9e9, "available_bytes_per_gpu": 72e9},
)
IN_TIME = Check(
    kind="compute",
    verdict="ok",
    summary="",
    figures={"seconds": 28 * 3600.0, "deadline_seconds": 10 * DAY},
)


@pytest.mark.parametrize(
    ("language", "named", "absent"),
    [
        ("en", "Host RAM does not fit the offloaded states: 1.0 TB needed per node", "Fits in"),
        ("zh", "主机内存放不下卸载的状态：每节点需要 1.0 TB，256.0 GB 中可用 204.8 GB", "显存够："),
    ],
)
def test_a_host_ram_failure_is_named_not_called_a_fit(
    language: str, named: str, absent: str
) -> None:
    text = headline("infeasible", (HOST_FAILS,), "memory", None, language, "A100")  # type: ignore[arg-type]
    assert text.startswith(named)
    assert "5.0" in text  # 1,017.9 / 204.8 usable
    assert absent not in text


def test_a_tight_memory_keeps_the_speed_asked() -> None:
    text = headline("feasible", (TIGHT, SPEED), None, None, "en", "H100")
    assert text.startswith("Tight on memory: 70.7 GB of 72.0 GB")
    assert "speed: decode about 34.0 tokens/s" in text


def test_a_stated_deadline_is_answered_first() -> None:
    asked = headline("feasible", (FITS, IN_TIME), None, None, "en", "H100", deadline_asked=True)
    assert asked.startswith("In time: about 28 h against a deadline of 10 days")
    unasked = headline("feasible", (FITS, IN_TIME), None, None, "en", "H100")
    assert unasked.startswith("Fits in memory")  # a default deadline does not lead


def _weights(total: float, plain: float) -> tuple[Check, ...]:
    figures = {"weights_bytes": total, "weights_bytes_total": total, "weights_bytes_plain": plain}
    return (Check(kind="memory", verdict="ok", summary="", figures=figures),)


def test_quantized_weights_show_the_plain_product_beside_the_stored_size() -> None:
    # Llama-2-70B at int4: 68.98e9 x 0.5 B = 34.5 GB plain; stored 36.3 GB with a fp16 scale per
    # 128 weights and 16-bit embeddings/lm_head: 1.9 GB more
    params = lookup_model("Llama-2-70B").params
    checks = _weights(36_346_281_984, params * 0.5)  # the calculator's figure
    scenario = Scenario(precision="int4", params=params)
    zh = focus_sentence("weights", checks, scenario, "zh", Scenario())
    assert zh.startswith("int4 权重共 36.3 GB (33.9 GiB)：690亿参数 × 0.5 字节 = 34.5 GB")
    assert "量化 scale" in zh
    assert "1.9 GB" in zh
    en = focus_sentence("weights", checks, scenario, "en", Scenario())
    assert en.startswith("The int4 weights take 36.3 GB in total (33.9 GiB): 69B parameters")


def test_int8_weights_name_the_16_bit_embeddings_not_scales() -> None:
    # Qwen2.5-72B at int8: 72.7e9 x 1 B = 72.7 GB plain, 75.2 GB with 16-bit embeddings/lm_head
    checks = _weights(75.2e9, 72.7e9)
    text = focus_sentence("weights", checks, Scenario(precision="int8"), "en", Scenario())
    assert "72.7B parameters × 1 B = 72.7 GB, plus 2.5 GB for the embedding" in text
    assert "scales" not in text


def test_16_bit_weights_are_one_figure() -> None:
    checks = _weights(16.06e9, 16.06e9)
    text = focus_sentence("weights", checks, Scenario(precision="bf16"), "en", Scenario())
    assert text == "The weights take 16.1 GB in bf16 (15.0 GiB)."


def test_the_plain_weight_figure_is_in_the_json_figures() -> None:
    outcome = calculate(parse("Llama-2-70B 4-bit量化后权重有多大？"))
    memory = next(c for c in outcome.checks if c.kind == "memory")
    params = lookup_model("Llama-2-70B").params
    assert memory.figures["weights_bytes_plain"] == pytest.approx(params * 0.5)
    assert memory.figures["weights_bytes_total"] > memory.figures["weights_bytes_plain"]  # type: ignore[operator]


def test_kv_cache_total_reads_with_its_gib_after_the_phrase() -> None:
    # Llama-3.1-70B: 2 x 80 layers x 8 KV heads x 128 x 2 B = 327,680 B/token x 32,768 x 16
    total = 327_680 * 32_768 * 16
    figures = {"kv_cache_bytes": total, "kv_cache_bytes_per_gpu": total / 8}
    checks = (Check(kind="memory", verdict="ok", summary="", figures=figures),)
    scenario = Scenario(gpu_count=8, batch_size=16, context_length=32_768)
    text = focus_sentence("kv_cache", checks, scenario, "en", Scenario())
    assert "takes 171.8 GB in total (160.0 GiB), 10.7 GB (10.0 GiB) per sequence, 21.5 GB" in text
    assert text.endswith("21.5 GB (20.0 GiB) per GPU.")
    one = focus_sentence(
        "kv_cache", checks, Scenario(batch_size=16, context_length=32_768), "en", Scenario()
    )
    assert one.endswith("takes 171.8 GB in total (160.0 GiB), 10.7 GB (10.0 GiB) per sequence.")


def test_no_kv_cache_is_not_answered_as_zero_bytes() -> None:
    checks = (Check(kind="memory", verdict="ok", summary="", figures={"kv_cache_bytes": 0.0}),)
    assert focus_sentence("kv_cache", checks, Scenario(batch_size=64), "en", Scenario()) == ""


@pytest.mark.parametrize(
    "question",
    [
        "How much memory does the KV cache of Llama-3-8B take for 64 requests of 8k tokens?",
        "Llama-3-8B 64路并发，每路 8k token，KV cache 多大？",
    ],
)
def test_each_requests_length_is_a_context_not_a_token_budget(question: str) -> None:
    scenario = parse(question).scenario
    assert scenario.context_length == 8192
    assert scenario.tokens is None


def _passage(text: str, number: int = 0) -> Citation:
    passage = Passage(
        id=f"p{number}", doc_id="zero-fsdp", source="", title="", heading="", text=text, lang="en"
    )
    return Citation(passage=passage)


def test_a_concept_is_answered_by_a_sentence_that_names_it() -> None:
    citations = [
        _passage("Plain data parallelism keeps a full copy on every GPU.", 1),
        _passage("## FSDP\n\nPer GPU:\n\nFSDP shards parameters, like ZeRO-3. It is native.", 2),
    ]
    found = _answering_sentence("What is FSDP?", citations)
    assert found == ("FSDP shards parameters, like ZeRO-3.", 2)  # "Per GPU:" is a lead-in
    assert _answering_sentence("What is RoCE?", citations) is None


def test_a_concept_sentence_is_not_a_pointer_nor_only_a_generic_word() -> None:
    citations = [
        _passage("This guide explains NCCL and InfiniBand.", 1),
        _passage("Sharding with ZeRO-3 or FSDP: see the `zero-fsdp` guide.", 2),
        _passage(
            "在大模型训练领域，选择合适的计算资源是关键。NCCL_DEBUG=INFO 显示 NCCL 用的网卡。", 3
        ),
    ]
    assert _answering_sentence("4090能训练大模型吗", citations) is None  # "训练", "大模型" only
    assert _answering_sentence("ZeRO-3 和 FSDP 有什么区别？", citations) is None
    found = _answering_sentence("How do I check that NCCL uses InfiniBand?", citations)
    assert found == ("NCCL_DEBUG=INFO 显示 NCCL 用的网卡。", 3)


def test_how_much_power_is_answered_before_the_run_time() -> None:
    lead = calculate(parse("8张A100训练13B模型要多少电")).lead
    assert lead.startswith("电力：能耗约")
    assert lead.index("电力：") < lead.index("约需")  # the energy, then over how long
    assert lead.count("电力：") == 1


def test_power_asked_second_is_answered_up_front_too() -> None:
    lead = calculate(parse("8张H100训练7B模型要多少钱和多少电")).lead
    assert lead.index("GPU 小时") < lead.index("电力：能耗约") < lead.index("显存够")


def test_a_run_past_a_year_on_no_stated_deadline_is_impractical_not_a_stated_change() -> None:
    # 128 H100 PCIe for a 100B model: ~509 days against the assumed 90; the user gave no
    # deadline, so the longer horizon is no change of "what you stated", and past a year it
    # is impractical (infeasible), said in words
    outcome = calculate(parse("16台8卡H100 PCIe能训练千亿模型吗"))
    assert outcome.verdict == "infeasible"
    assert "只有接受超过一年的工期才行，这不现实" in outcome.lead
    assert "你给定的条件" not in outcome.lead
    stated = calculate(parse("16台8卡H100 PCIe能在90天内训练千亿模型吗"))
    assert "只有改变你给定的条件才行" in stated.lead


def test_a_count_served_in_16_bits_names_what_the_cards_8_bit_format_needs() -> None:
    # DeepSeek-V3 ships FP8; an A100 has no FP8, so the count is for BF16 (~1.34 TB of
    # weights), and the A100's INT8 (671 GB) would need about half: said, not decided
    outcome = calculate(parse("How many A100 80GB to serve DeepSeek-V3 to 20 concurrent users?"))
    assert "Served in INT8 weights instead" in outcome.lead
    assert outcome.scenario is not None
    assert outcome.scenario.precision == "bf16"
    # a card that runs the released FP8 gets no such sentence
    on_h20 = calculate(parse("How many H20 to serve DeepSeek-V3 to 20 concurrent users?"))
    assert "instead" not in on_h20.lead


def test_the_8_bit_count_beside_an_interactive_count_is_sized_for_the_bar_too() -> None:
    # 100 users on 910B: 32 cards hold the BF16 load at ~6 tok/s, 64 give each stream 10; the
    # INT8 sentence must not answer "16 would do" (memory only) beside that: 16 hold the load
    # and the count for the bar is said with it, more than the 16 that only hold it
    outcome = calculate(parse("DeepSeek-V3 100路并发8k上下文需要几张910B"))
    assert "64 张 Ascend 910B 64GB" in outcome.lead
    said = re.search(
        r"INT8 权重部署，16 张 Ascend 910B 64GB 即可承载这一负载，([0-9,]+) 张 Ascend 910B 64GB "
        r"可让每路都不低于 10",
        outcome.lead,
    )
    assert said is not None
    assert int(said.group(1).replace(",", "")) > 16
    assert "INT8 权重部署，16 张 Ascend 910B 64GB 即可。" not in outcome.lead


def test_a_memory_estimate_is_one_replicas_need_with_its_load_not_a_sum_of_replicas() -> None:
    # 16 users at 8k on 8 H100: TP=4 replicas, 8 sequences each; the KV of one replica is
    # 8 x 8,192 x 327,680 B = 21.5 GB beside one 141 GB copy of the weights
    outcome = calculate(
        parse("How much memory does Llama-3.1-70B need on 8 H100 for 16 users at 8k context?")
    )
    assert "Each replica needs about 163." in outcome.lead
    assert "21.5 GB" in outcome.lead
    assert "(8 × 8,192 tokens)" in outcome.lead
    assert "the 8 GPUs hold 2 replicas" in outcome.lead
    one = calculate(parse("Llama-3-8B 推理需要多少显存?"))
    assert "（1 路 × 4,096 token）" in one.lead
    assert "副本" not in one.lead


def test_fixes_that_keep_what_was_stated_come_first_and_undoing_ones_are_marked() -> None:
    # "全参" stated: ZeRO-Offload keeps it and leads the list; LoRA undoes it and says so
    outcome = calculate(parse("2台8卡H800，节点间25G以太网，全参微调Qwen2.5-72B可以吗？"))
    changes = [s.change for s in outcome.suggestions]
    assert "ZeRO-Offload" in changes[0]
    lora = [c for c in changes if c.startswith("改用 LoRA")]
    assert lora
    assert all(c.endswith("（改变了你给定的条件）") for c in lora)
    assert changes.index(lora[0]) > max(i for i, c in enumerate(changes) if "H20" in c)


@pytest.mark.parametrize(
    ("question", "count", "memory_note"),
    [
        # 14.77B x 16 B = 236 GB: 4 A800 by memory; 100M default tokens take hours, so the
        # default 90 days decide nothing and are not said (blindM-20)
        ("想用A800全参微调Qwen2.5-14B，最少要几张？", "至少需要 4 张", "按显存放得下的最少 4 张"),
        (
            "How many A100 80GB do I need to fully fine-tune Llama-3-8B?",
            "at least 2 ×",
            "the fewest that fit in memory",
        ),
    ],
)
def test_a_count_asked_with_no_deadline_says_no_default_deadline(
    question: str, count: str, memory_note: str
) -> None:
    outcome = calculate(parse(question))
    assert count in outcome.lead
    assert "期限" not in outcome.lead
    assert "deadline" not in outcome.lead
    assert any(memory_note in a for a in outcome.assumptions), outcome.assumptions


def test_a_count_asked_with_a_deadline_keeps_it() -> None:
    lead = calculate(parse("How many H100s to fine-tune Qwen2.5-7B in 2 days on 5B tokens?")).lead
    assert "against a deadline of 2 days" in lead


def test_a_training_memory_estimate_with_no_hardware_is_on_the_fewest_gpus_that_hold_it() -> None:
    # LoRA on Llama-3-8B: frozen bf16 base 16.06 GB + adapters = 16.7 GB of states, plus
    # 20.4 GB of activations (micro-batch 1 of 4,096 tokens) = 37.1 GB: one A100 holds it, so
    # the reference is one GPU, not eight that each hold a whole copy "split" over them
    outcome = calculate(parse("Llama-3-8B 用 LoRA 微调要多少显存？"))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 1
    assert "都在 1 张卡上" in outcome.lead
    assert "分到" not in outcome.lead
    # 13B full fine-tune: 208 GB of states; ZeRO-3 over 4 A100 fits (TP=8 was no constraint)
    full = calculate(parse("How much GPU memory to fully fine-tune Llama-2-13B?"))
    assert full.scenario is not None
    assert full.scenario.gpu_count == 4


def test_plain_data_parallel_gpus_each_hold_a_whole_copy_not_a_split() -> None:
    lead = calculate(
        parse("How much GPU memory does a LoRA fine-tune of Llama-3-8B need on 8 A100?")
    ).lead
    assert "each of the 8 GPUs holds a whole copy of the model states" in lead


def test_a_deadline_met_only_with_the_sync_overlapped_says_so() -> None:
    # 4 nodes on 25GbE: 12.6 s of gradient sync per 30.7 s step; 22 days overlapped, 22 / 0.71
    # = 31 days without, past the 30 stated: feasible, with the margin said
    outcome = calculate(
        parse(
            "4 nodes of 8x H100 linked by 25GbE: "
            "can we pretrain a 13B model on 260B tokens in 30 days?"
        )
    )
    assert outcome.verdict == "feasible"
    assert "holds only with the gradient sync overlapped" in outcome.lead
    assert re.search(r"without overlap it takes about 3[01] days", outcome.lead)
    # a run with room to spare says nothing of it
    easy = calculate(
        parse("4 nodes of 8x H100 on 400G InfiniBand: pretrain 13B on 260B tokens in 30 days?")
    )
    assert "overlapped" not in easy.lead
