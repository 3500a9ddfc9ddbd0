"""Question kinds still misread (issue 10, qkinds3): the longest context in any wording and at
the stated concurrency, how much the network costs the scaling, and full-parameter training
over a pre-training-sized corpus."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import main_ask
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "一张H100跑Qwen2.5-14B，能撑多长的上下文",
        "两张4090跑Llama-3.1-8B，上下文能开多长",
        "一张A100部署Qwen2.5-7B，上下文长度的上限是多少",
        "一张L40S跑Llama-3.1-8B，最长能容纳多长的上下文",
        "one H100 with Qwen2.5-14B: how long can the context be?",
        "What context length can Llama-3.1-8B support on an RTX 4090?",
        "How many tokens of context fit for Qwen2.5-7B on one A10?",
    ],
)
def test_every_wording_of_the_longest_context_asks_for_it(question: str) -> None:
    assert main_ask(parse(question)) == "max_context"
    assert "duration" not in parse(question).asks  # "how long" is a length here, not a time
    assert "tokens" not in parse(question).asks  # nor a training budget


@pytest.mark.parametrize(
    "question",
    [
        "一张H100跑Llama-3.1-8B，32k上下文能跑多少tok/s",  # a stated context, a speed asked
        "一张H100跑Llama-3.1-8B，128k上下文要多少显存",
        "一张H100跑Llama-3.1-8B，32k上下文最多能开多少并发",
        "How long does fine-tuning Llama-3.1-8B take at 8k context on 8 H100?",
    ],
)
def test_a_stated_context_is_no_longest_context_ask(question: str) -> None:
    assert main_ask(parse(question)) != "max_context"


def _longest(question: str) -> int:
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    return outcome.scenario.context_length or 0


def test_the_longest_context_is_solved_at_the_stated_concurrency() -> None:
    # Qwen2.5-32B bf16 on one H100: 72 - 65.5 GB leaves ~6 GB for 262,144 B per token, about
    # 23k tokens for one sequence; four sequences share the same bytes: about a quarter each
    one = _longest("一张H100部署Qwen2.5-32B，bf16，能撑多长的上下文")
    four = _longest("一张H100部署Qwen2.5-32B，bf16，4路并发时能撑多长的上下文")
    assert 19_000 <= one <= 25_000
    assert abs(4 * four - one) <= 4 * 256 + 256  # the bisection's 256-token step
    lead = calculate(parse("一张H100部署Qwen2.5-32B，bf16，4路并发时能撑多长的上下文")).lead
    assert lead.startswith(f"4 路并发时，每路最长约 {four:,} token")


@pytest.mark.parametrize(
    ("question", "task", "method"),
    [
        # the stated corpus decides: 10B tokens or more of full-parameter training is pre-training
        ("8张H100全参训练Qwen2.5-7B，20B token，要多久", "pretrain", None),
        ("8张H100全参训练Qwen2.5-7B，10B token，要多久", "pretrain", None),  # the boundary
        ("8张H100全参训练Qwen2.5-7B，9B token，要多久", "finetune", "full"),  # just below it
        ("8张H100全参训练Qwen2.5-7B，要多久", "finetune", "full"),  # no corpus: a fine-tune
        ("full-parameter training of Llama-3.1-8B on 1T tokens with 64 H100", "pretrain", None),
        # named continued pre-training needs no token count
        ("64张H100全参增量预训练Llama-3.1-8B要多久", "pretrain", None),
        ("full-parameter continued pretraining of Qwen2.5-7B on 16 H100", "pretrain", None),
        # a fine-tune the user named stays one, at any token count
        ("8张H100全参微调Qwen2.5-7B，500B token，要多久", "finetune", "full"),
        ("full fine-tune of Qwen2.5-7B on 500B tokens with 64 H100", "finetune", "full"),
        ("LoRA training of Qwen2.5-7B on 500B tokens with 64 H100", "finetune", "lora"),
    ],
)
def test_full_parameter_training_of_a_pretraining_corpus_is_pretraining(
    question: str, task: str, method: str | None
) -> None:
    scenario = parse(question).scenario
    assert (scenario.task, scenario.method) == (task, method)


def test_continued_pretraining_says_so_and_takes_the_pretraining_batch() -> None:
    trained = parse("两台8卡H100全参训练Qwen2.5-14B，300B token，要多久")
    assert any("按继续预训练评估" in w for w in trained.warnings)
    tuned = parse("两台8卡H100全参微调Qwen2.5-14B，300B token，要多久")
    assert not any("继续预训练" in w for w in tuned.warnings)
    pretraining, finetuning = calculate(trained).scenario, calculate(tuned).scenario
    assert pretraining is not None
    assert finetuning is not None
    # pre-training's global batch is millions of tokens; a fine-tune's is a few dozen sequences
    assert (pretraining.batch_size or 0) > 4 * (finetuning.batch_size or 0)
    english = parse("Full-parameter training of Qwen2.5-14B on 300B tokens, 16 H100")
    assert any("continued pre-training" in w for w in english.warnings)
