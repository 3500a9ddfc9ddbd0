"""Words the held-out questions used that had been dropped or misread: a deadline in seconds or
minutes, a GPU count in millions, a quadrillion parameters, pre-training said with "全参数", a
"what can I run" question, and the 16-bit KV cache beside 8-bit weights on a Pascal card."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.durations import read_deadline


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("一张h100能在1秒内训练完gpt-3吗", 1.0),
        ("can i train llama-7b in 10 minutes on 8 h100", 600.0),
        ("fine-tune 7b within 30 minutes", 1800.0),
        # a latency is never a deadline, nor is a rate
        ("qps 5 first token under 1 s", None),
        ("首token 1秒内，训练好的模型部署", None),
        ("用8张卡训练，每秒处理多少token", None),
    ],
)
def test_a_deadline_under_an_hour_is_read_for_training_only(
    text: str, seconds: float | None
) -> None:
    assert read_deadline(text) == seconds


def test_an_absurd_deadline_is_answered_with_the_gpus_it_would_take() -> None:
    # GPT-3's 3.14e23 FLOPs in one second: about 1.1 billion H100s, said, not "internal error"
    # and not the default 90 days
    outcome = calculate(parse("一张H100能在1秒内训练完GPT-3吗"))
    assert outcome.verdict == "infeasible"
    assert "期限 1 秒" in outcome.lead
    assert "90 天" not in outcome.lead


def test_a_deadline_suggestion_under_a_day_is_said_in_hours() -> None:
    outcome = calculate(parse("Can I fine-tune Llama-3-8B with LoRA in 10 minutes on one A100?"))
    assert "instead of 10 min" in outcome.lead
    assert "0.00694" not in outcome.lead


@pytest.mark.parametrize(
    ("question", "count", "params"),
    [
        ("Can 3 million H100s train a 10T model?", 3_000_000, 1e13),
        ("5 thousand A100 train 70B", 5000, 7e10),
        ("train a 3 million parameter model on 1 T4", 1, 3e6),
        ("a 1 quadrillion parameter model on 8 H100", 8, 1e15),
    ],
)
def test_a_magnitude_before_a_card_is_a_count(question: str, count: int, params: float) -> None:
    s = parse(question).scenario
    assert s.gpu_count == count
    assert s.params == params


def test_a_quadrillion_parameters_is_refused_as_implausible_not_read_as_millions() -> None:
    outcome = calculate(parse("Can 3 million H100s train a 1-quadrillion-parameter model?"))
    assert outcome.mode == "invalid"
    assert "implausibly large" in outcome.lead


@pytest.mark.parametrize(
    "question",
    ["全参数预训练Llama-3-8B需要多少卡", "full-parameter pretraining of a 13B model on 64 A100"],
)
def test_full_parameter_pretraining_is_pretraining(question: str) -> None:
    assert parse(question).scenario.task == "pretrain"


def test_full_parameter_training_of_a_small_set_stays_a_fine_tune() -> None:
    s = parse("全参训练Qwen2.5-7B 1000条数据").scenario
    assert (s.task, s.method) == ("finetune", "full")


def test_what_can_i_run_names_the_largest_model_in_each_format() -> None:
    # one 4090: 21.6 GB usable; ~9B in bf16, twice that in 8 bits, about four times in 4 bits
    outcome = calculate(parse("我有一张4090，能跑什么模型？"))
    assert "最多能部署约" in outcome.lead
    assert "4 位（INT4）约" in outcome.lead
    english = calculate(parse("What models can I run on a single RTX 3090?"))
    assert "The largest model that 1 × RTX 3090 24GB can serve in bf16" in english.lead
    assert "in 4-bit (INT4)" in english.lead


def test_a_pascal_kv_cache_beside_int8_weights_is_16_bit() -> None:
    # Qwen2.5-14B: 48 layers x 8 KV heads x 128 x 2 (K, V) x 2 B = 196,608 B per token;
    # 4,096 tokens = 805 MB in FP16 (llama.cpp's f16 cache), not 1.6 GB in FP32
    outcome = calculate(parse("P40能跑Qwen2.5-14B吗？int8量化"))
    memory = next(c for c in outcome.checks if c.kind == "memory")
    kv = memory.figures["kv_cache_bytes"] if "kv_cache_bytes" in memory.figures else None
    assert kv is not None
    assert kv == pytest.approx(4096 * 196_608, rel=0.01)
    assert any("FP16（16 位）" in a for a in outcome.assumptions)


def test_a_bare_how_many_after_a_named_card_asks_for_the_count() -> None:
    # "… on L4s. How many?" had been judged on one L4 (not feasible); it asks for the count
    outcome = calculate(
        parse("We want to serve Llama-3.1-8B to 200 concurrent users on L4s. How many?")
    )
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("You need at least 8 × L4 24GB")


def test_a_budget_at_a_price_says_the_gpu_hours_it_buys_beside_a_named_job() -> None:
    # $120,000 at $2.40 per GPU-hour buys 50,000 GPU-hours: the first half of the question
    outcome = calculate(
        parse(
            "We have $120,000 and rent H100s at $2.40 per GPU-hour. How many GPU-hours is "
            "that, and is it enough to pretrain a 7B model on 2T tokens?"
        )
    )
    assert outcome.verdict == "infeasible"
    assert "which buys 50,000 GPU-hours at 2.4 USD each" in outcome.lead


def test_rent_and_electricity_asked_side_by_side_are_both_answered() -> None:
    # 8 x 45 days x 24 h = 8,640 GPU-hours x 9 = 77,760 元 of rent, and the electricity
    outcome = calculate(
        parse("租8张A800，每卡时9元，连续跑45天，电价0.75元/度，租金和电费分别是多少？")
    )
    assert "77,760 元" in outcome.lead
    assert "电费：约" in outcome.lead


def test_a_batch_of_sequences_is_no_data_set() -> None:
    # "全局批大小1024条序列" had been read as 1,024 samples of 4,096 tokens (a 4.2M-token run)
    s = parse("用100万张H100训练10T模型，全局批大小1024条序列，要多久").scenario
    assert s.batch_size == 1024
    assert s.tokens is None
    assert parse("100000条对话数据微调7B").scenario.tokens == 100000 * 4096


@pytest.mark.parametrize(
    "question",
    [
        "Mixtral-8x22B 用8张H100推理，FP8，能支持多少路32k并发？",
        "how many 32k concurrent sequences fit on 8 H100 for Llama-3-70B",
    ],
)
def test_a_length_after_the_asked_count_is_the_context_not_32000_users(question: str) -> None:
    query = parse(question)
    assert query.scenario.context_length == 32768
    assert query.scenario.concurrency is None
    assert query.asks[0] == "max_concurrency"


def test_a_load_written_with_k_is_still_a_load() -> None:
    assert parse("2k并发需要几张H100").scenario.concurrency == 2000


def test_a_long_context_says_the_first_token_of_a_prompt_that_fills_it() -> None:
    # 70B on 8 H100 at 32k: a 1,024-token prompt's 69 ms hides a full prompt's ~2 s
    # (2 x 70e9 x 32.5k + attention ~ 5.9e15 FLOPs over 8 x 989 TFLOPS at ~35%)
    outcome = calculate(parse("8卡H100跑Llama-3-70B，32k上下文最多支持多少并发"))
    assert "占满上下文的 32,512 token 输入约 2." in outcome.lead
    short = calculate(parse("Can one H100 serve Llama-3.1-8B?"))
    assert "filling the context" not in short.lead


def test_most_sequences_across_nodes_takes_the_depth_holding_the_most() -> None:
    # 405B in FP8 on 4 x 8 H100 at 32k: as two TP8 x PP2 copies 2 x (16 x 72 - 406) / 17 = 86;
    # as one TP8 x PP4 copy (32 x 72 - 406) / 17 = 112 (blindAP-02's objection)
    outcome = calculate(
        parse(
            "How many concurrent 32k-context sequences can 4 nodes of 8x H100 hold "
            "when serving Llama-3.1-405B in FP8?"
        )
    )
    assert outcome.scenario is not None
    assert (outcome.scenario.tensor_parallel, outcome.scenario.pipeline_parallel) == (8, 4)
    assert outcome.lead.startswith("About 1")  # 109, not 86


def test_a_minus_before_the_currency_symbol_is_a_negative_budget_refused() -> None:
    # "-$3,000" had been dropped (no budget read), so "is that enough?" went unanswered
    from calculators.errors import CalculatorInputError

    with pytest.raises(CalculatorInputError, match="budget"):
        parse("My budget is -$3,000 for renting A100s to fine-tune Llama-3-8B. Is that enough?")
    fine = parse("My budget is $3,000 for renting A100s to fine-tune Llama-3-8B. Is that enough?")
    assert fine.scenario.budget == 3000


def test_a_generic_full_attention_kv_cache_says_what_gqa_would_change() -> None:
    # InternLM2.5-20B is not in the catalog: a generic 20B has 48 KV heads (Llama 2 style), so
    # 53 GB per 48k sequence where the real model's 8 KV heads need about a sixth
    outcome = calculate(
        parse("4张L20（48G）部署InternLM2.5-20B（bf16），48K上下文最多能撑多少并发？")
    )
    assert "每层 48 个 KV 头" in outcome.lead
    assert "约为这里的 1/6" in outcome.lead
    # training, or a generic shape already GQA (70B), says nothing of it
    assert "KV heads" not in calculate(parse("Can 8 H100 train FalconX-Ultra-13B?")).lead
    assert "KV heads" not in calculate(parse("FalconX-Ultra-70B on 4 H100, 32 users?")).lead


def test_another_layout_on_the_same_count_names_both_splits_and_the_mean_it_misses() -> None:
    # 50 users on 32 910B: TP8 x PP4 decodes at ~11.8 tok/s but averages ~9 with the others'
    # prefills; TP16 x PP2 on the same 32 meets 10. "1 个副本、每副本 32 张卡" alone read as the
    # layout evaluated, and "做不到" beside 11.8 tok/s read as a clash
    lead = calculate(parse("DeepSeek-V3 50路并发8k上下文需要几张910B")).lead
    assert "（TP=16 × PP=2）部署" in lead
    assert "评估的 TP=8 × PP=4 切分每路约" in lead
    assert "做不到" not in lead
