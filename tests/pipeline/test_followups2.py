"""Review gaps: follow-ups of concept questions, an off-topic turn inside a thread, small token
counts stated with "token", a bare "R1" and size words after a catalog name with a space."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.records import Answer
from assistant.render.serialize import answer_from_record, answer_to_record
from tests.pipeline.conversation import chain


@pytest.mark.parametrize(
    "turns",
    [
        ("What is FSDP?", "and how much memory does it save?"),
        ("What is tensor parallelism?", "is it faster than pipeline parallelism?"),
        ("What is MFU?", "what's a good value?"),
        ("ZeRO-3 是什么？", "它能省多少显存？"),
        ("什么是激活重计算？", "那它慢多少？"),
    ],
)
def test_an_elliptical_turn_after_a_concept_keeps_its_topic(turns: tuple[str, ...]) -> None:
    query = chain(*turns)
    assert query.in_domain
    assert query.followup
    assert query.context == parse(turns[0]).question  # searched together with the concept
    assert query.scenario.model is None
    assert query.scenario.params is None


@pytest.mark.parametrize(
    "turns",
    [
        ("What is FSDP?", "What is MFU?"),  # a concept of its own
        ("What is FSDP?", "What is the KV cache and how does it grow?"),
        ("ZeRO-3 是什么？", "KV cache 是什么？"),
    ],
)
def test_a_concept_of_its_own_stands_alone(turns: tuple[str, ...]) -> None:
    assert not chain(*turns).followup


@pytest.mark.parametrize(
    "turns",
    [
        ("What is FSDP?", "hello there"),
        ("What is MFU?", "tell me a joke"),
        ("ZeRO-3 是什么？", "4090玩黑神话能跑多少帧"),
    ],
)
def test_chit_chat_after_a_concept_is_still_off_topic(turns: tuple[str, ...]) -> None:
    assert not chain(*turns).in_domain


def test_a_job_after_a_concept_computes_its_own_job() -> None:
    query = chain("What is ZeRO-3?", "and can 8 H100 fully fine-tune Llama-3.1-8B with it?")
    assert query.scenario.model == "Llama-3.1-8B"
    assert query.scenario.gpu_count == 8
    assert query.scenario.task == "finetune"


@pytest.mark.parametrize(
    ("turns", "count"),
    [
        (("8张A100能全参微调Qwen2.5-7B吗", "4090玩黑神话能跑多少帧", "那用4张呢"), 4),
        (("Can 8 H100 serve Llama-3.1-70B?", "tell me a joke about GPUs", "what about 4?"), 4),
        (
            (
                "8 H100 train 13B",
                "best GPU for Cyberpunk 2077 at 4K?",
                "tell me a joke",
                "16 GPUs?",
            ),
            16,
        ),
    ],
)
def test_an_off_topic_turn_does_not_wipe_the_thread(turns: tuple[str, ...], count: int) -> None:
    query = chain(*turns)
    first = parse(turns[0])
    assert query.followup
    assert query.scenario.gpu_count == count
    assert query.scenario.model == first.scenario.model
    assert query.scenario.params == first.scenario.params


def test_the_thread_of_an_off_topic_turn_survives_the_store() -> None:
    off = chain("8张A100能全参微调Qwen2.5-7B吗", "4090玩黑神话能跑多少帧")
    assert off.thread is not None
    answer = Answer(
        question=off.question,
        language="zh",
        verdict="unknown",
        binding_constraint=None,
        text="…",
        query=off,
    )
    restored = answer_from_record(answer_to_record(answer)).query
    assert restored.thread == off.thread
    assert parse("那用4张呢", previous=restored).scenario.gpu_count == 4


@pytest.mark.parametrize(
    ("question", "tokens"),
    [
        ("用10万token的数据LoRA微调Llama-3.1-8B", 1e5),
        ("用一张H100微调Qwen2.5-7B，数据5万 token", 5e4),
        ("用三万个token微调7B模型", 3e4),
        ("fine-tune Qwen2.5-7B on 50000 tokens with one A100", 5e4),
        ("LoRA on 20000 词元 of data for Llama-3.1-8B", 2e4),
        ("每条1k token，二十万条数据微调Llama-3.1-8B", 200_000 * 1024),  # per-sample length
    ],
)
def test_a_small_count_followed_by_token_is_the_data(question: str, tokens: float) -> None:
    assert parse(question).scenario.tokens == pytest.approx(tokens)


@pytest.mark.parametrize(
    "question",
    [
        "8张H100部署Llama-3.1-70B，每个请求输出256 token",
        "Llama-3.1-8B 推理速度 50 token/s 够吗",
        "serve Llama-3.1-8B at 20 tokens per second on one L4",
        "8张H100推理70B，第1个token要多久",
        "serve Llama-3.1-8B with a prompt of 2000 tokens on one H100",
        "Llama-3.1-8B 推理，上下文 8192 token 的显存",
    ],
)
def test_lengths_and_rates_are_no_data_amount(question: str) -> None:
    assert parse(question).scenario.tokens is None


@pytest.mark.parametrize(
    "question",
    [
        "8张H200跑DeepSeek的R1",
        "满血 R1 推理要几张H100",
        "671B 的 R1 用几张 H200",
        "DeepSeek R1 on 8 H200",
    ],
)
def test_r1_beside_deepseek_words_is_deepseek_r1(question: str) -> None:
    query = parse(question)
    assert query.scenario.model == "DeepSeek-R1"
    assert query.unknown_names == ()


@pytest.mark.parametrize(
    "question", ["R1 推理需要多少显存", "Can 8 H200 serve R1?", "用4张4090部署R1行吗"]
)
def test_a_bare_r1_is_reported_with_the_r1_models(question: str) -> None:
    query = parse(question)
    assert query.scenario.model is None
    assert query.unknown_names == ("R1",)
    assert "DeepSeek-R1" in " ".join(query.warnings)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How much memory does Phi-4 mini need for inference?", "Phi-4 mini"),
        ("一张4090能跑Phi-4 small推理吗", "Phi-4 small"),
        ("Phi-4 medium on one L4", "Phi-4 medium"),
        ("Phi-4-mini 推理显存", "Phi-4-mini"),  # the hyphen form, as before
    ],
)
def test_a_size_word_after_a_catalog_name_is_another_model(question: str, name: str) -> None:
    query = parse(question)
    assert query.scenario.model is None
    assert query.unknown_names == (name,)


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Phi-3 medium inference on one L4", "Phi-3-medium"),  # a catalog alias
        ("Llama-3.1-8B small batch inference on one L4", "Llama-3.1-8B"),  # sized: an adjective
        ("Phi-4 推理 on 1 H100", "Phi-4"),
    ],
)
def test_catalog_names_with_their_own_size_words_still_match(question: str, model: str) -> None:
    query = parse(question)
    assert query.scenario.model == model
    assert query.unknown_names == ()


@pytest.mark.parametrize(
    ("turns", "language", "quoted"),
    [
        (("What is MFU?", "what's a good value?"), None, "What is MFU?"),
        (("ZeRO-3 是什么？", "它能省多少显存？"), None, "ZeRO-3 是什么?"),
        (("What is MFU?", "what's a good value?"), "zh", ""),  # answered in Chinese: not quoted
        (("什么是 KV cache？", "它会随什么变大？"), "en", ""),
    ],
)
def test_the_question_followed_is_quoted_only_in_its_own_language(
    turns: tuple[str, ...], language: str | None, quoted: str
) -> None:
    from assistant.parse.thread import quoted_context

    first = parse(turns[0])
    query = parse(turns[1], previous=first, language=language)  # type: ignore[arg-type]
    assert query.followup
    assert quoted_context(query) == quoted
