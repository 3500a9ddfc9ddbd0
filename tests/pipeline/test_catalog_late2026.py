"""Questions about the cards and models added for late 2026, through parse and calculate: each
names its catalog entry (no "not in the catalog", no stand-in card) and the figures follow the
entry's architecture, worked out by hand below."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _memory(question: str) -> dict[str, float]:
    outcome = calculate(parse(question))
    return next(c for c in outcome.checks if c.kind == "memory").figures


def test_full_deepseek_r1_on_h20_needs_one_node_of_eight() -> None:
    # DeepSeek-R1 is released in FP8: 671e9 x 1 B + the two 16-bit embedding tables
    # (2 x 129,280 x 7,168 = 1.85e9 params, +1 B each) = 672.9 GB; 0.9 x 96 GB = 86.4 GB usable
    # per H20: 672.9 / 86.4 = 7.8 -> 8 cards, one node.
    question = "满血版DeepSeek-R1需要几张H20"
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.model == "DeepSeek-R1"
    assert outcome.scenario.gpu == "H20 96GB"
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("至少需要 8 张 H20 96GB")
    memory = _memory(question)
    assert memory["weights_bytes_total"] == pytest.approx(671e9 + 1.85e9, rel=0.01)
    assert memory["min_gpus"] == 8


def test_qwen3_8b_in_4_bit_fits_an_rtx_3060() -> None:
    # Qwen3-8B: 8.19e9 params, 1.245e9 of them in the two embedding tables (kept 16-bit):
    # 6.946e9 x (0.5 + 2/128) B = 3.58 GB + 1.245e9 x 2 B = 2.49 GB -> 6.07 GB weights; KV at
    # 4,096 tokens: 2 x 36 layers x 8 KV heads x 128 x 2 B x 4096 = 0.60 GB; under 0.9 x 12 GB.
    question = "Can an RTX 3060 run Qwen3-8B in 4-bit?"
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert (outcome.scenario.model, outcome.scenario.gpu) == ("Qwen3-8B", "RTX 3060 12GB")
    assert outcome.verdict == "feasible"
    memory = _memory(question)
    assert memory["weights_bytes"] == pytest.approx(6.07e9, rel=0.02)
    assert memory["kv_cache_bytes"] == pytest.approx(2 * 36 * 8 * 128 * 2 * 4096, rel=1e-6)
    assert memory["available_bytes_per_gpu"] == pytest.approx(0.9 * 12e9)


def test_gemma_2_27b_for_8_users_on_one_rtx_6000_ada_needs_8_bit_weights() -> None:
    # Gemma-2-27B in BF16: 27.23e9 x 2 B = 54.5 GB > 0.9 x 48 = 43.2 GB; the format was left
    # open, so FP8 (the card has FP8 tensor cores) is a change that needs no new hardware:
    # 27.2 GB + KV for 8 x 4,096 tokens (2 x 46 x 16 x 128 x 2 B = 376,832 B/token) 12.3 GB.
    question = "Gemma-2-27B on one RTX 6000 Ada for 8 users"
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu == "RTX 6000 Ada 48GB"
    assert outcome.verdict == "conditional"
    memory = _memory(question)
    assert memory["weights_bytes"] == pytest.approx(27.23e9 * 2, rel=0.005)
    assert memory["kv_cache_bytes"] == pytest.approx(8 * 4096 * 376_832, rel=1e-6)
    assert "FP8" in outcome.suggestions[0].change


@pytest.mark.parametrize(
    ("question", "model", "gpu", "count"),
    [
        ("deepseek-r1:32b on a 3090", "DeepSeek-R1-Distill-Qwen-32B", "RTX 3090 24GB", 1),
        ("R1-Distill-32B 单卡4090能跑吗", "DeepSeek-R1-Distill-Qwen-32B", "RTX 4090 24GB", 1),
        ("DeepSeek-R1 671B 推理需要几张H100", "DeepSeek-R1", "H100 SXM 80GB", None),
        ("Llama 3.3 70B on 2 A100", "Llama-3.3-70B", "A100 SXM 80GB", 2),
        ("H100 NVL 两张能跑 Llama-3.3-70B 吗", "Llama-3.3-70B", "H100 NVL 94GB", 2),
        ("Can I run Qwen3-30B-A3B on a 4060 Ti 16GB?", "Qwen3-30B-A3B", "RTX 4060 Ti 16GB", 1),
        ("gpt-oss:20b on a 4080 super", "gpt-oss-20b", "RTX 4080 SUPER 16GB", 1),
        ("Kimi K2 需要几张H20", "Kimi-K2", "H20 96GB", None),
    ],
)
def test_new_names_in_questions(question: str, model: str, gpu: str, count: int | None) -> None:
    query = parse(question)
    assert query.unknown_names == ()
    assert (query.scenario.model, query.scenario.gpu) == (model, gpu)
    assert query.scenario.gpu_count == count


@pytest.mark.parametrize("question", ["R1 on 8 H100 in fp8", "Qwen3能在4090上跑吗"])
def test_a_bare_family_word_is_never_read_as_one_model(question: str) -> None:
    # "R1" alone could be the 671B model or any distill; "Qwen3" is eight models
    assert parse(question).scenario.model is None


@pytest.mark.parametrize(
    ("question", "unknown", "params"),
    [
        # the 1.5B distill and its Ollama tag: never the 671B model they start with
        ("DeepSeek-R1-Distill-Qwen-1.5B on a 3060", "DeepSeek-R1-Distill-Qwen-1.5B", 1.5e9),
        ("deepseek-r1:1.5b on a 3060", "deepseek-r1:1.5b", 1.5e9),
        ("Phi-4-mini on a 3060", "Phi-4-mini", None),  # 3.8B, not the 14B Phi-4
        ("Llama-3.3-8B on a 4090", "Llama-3.3-8B", 8e9),  # Llama 3.3 has only the 70B
    ],
)
def test_a_size_or_sibling_after_a_catalog_name_is_another_model(
    question: str, unknown: str, params: float | None
) -> None:
    query = parse(question)
    assert query.scenario.model is None
    assert query.unknown_names == (unknown,)
    assert query.scenario.params == params


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Qwen2.5-7B-Instruct on a T4", "Qwen2.5-7B"),  # a checkpoint suffix, same model
        ("Llama-2-7B-4bit on a T4", "Llama-2-7B"),  # a format, not a size
        ("Qwen3-30B-A3B-FP8 on a 4090", "Qwen3-30B-A3B"),
        ("Mistral Nemo-12B on a 4090", "Mistral-Nemo-12B"),  # the sized spelling wins
    ],
)
def test_suffixes_that_keep_the_model(question: str, model: str) -> None:
    assert parse(question).scenario.model == model


def test_an_approximate_shape_is_said_in_the_assumptions() -> None:
    # gpt-oss: MXFP4 experts read as int4 (weights ~9% under the 13.7 GB checkpoint) and
    # alternating 128-token sliding windows counted as full attention (KV overestimated)
    outcome = calculate(parse("gpt-oss-20b 单卡4060Ti 16G能跑吗"))
    said = " ".join(outcome.assumptions)
    assert "MXFP4" in said
    assert "滑动窗口" in said
    plain = calculate(parse("Can an RTX 3060 run Qwen3-8B in 4-bit?"))
    assert not any("sliding" in a or "MXFP4" in a for a in plain.assumptions)


@pytest.mark.parametrize(
    ("question", "slot", "value"),
    [
        # a bare GeForce number with a magnitude or a unit after it is a quantity
        ("用8张A100训练7B模型，3080亿token需要多久", "tokens", 308e9),
        ("serve llama-3.1-70b on 8 H100 with prompts of 4080 tokens", "prompt_tokens", 4080),
        ("用4090训练7B，3090亿token", "tokens", 309e9),
    ],
)
def test_a_geforce_number_followed_by_a_unit_is_a_quantity(
    question: str, slot: str, value: float
) -> None:
    scenario = parse(question).scenario
    assert getattr(scenario, slot) == value
    assert scenario.gpu in {"A100 SXM 80GB", "H100 SXM 80GB", "RTX 4090 24GB"}


@pytest.mark.parametrize(
    ("question", "gpu"),
    [("一张3060能跑7B吗", "RTX 3060 12GB"), ("4090卡能跑7B吗", "RTX 4090 24GB")],
)
def test_a_geforce_number_as_a_card(question: str, gpu: str) -> None:
    assert parse(question).scenario.gpu == gpu
