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


@pytest.mark.parametrize(
    "question",
    [
        "Llama-2-7B on 4 nodes of 8 A100 over 25GbE: how badly does the network hurt scaling?",
        "What scaling efficiency will we see for a 13B model on 2 nodes of 8 H100 over 100GbE?",
        "How much will 10GbE slow down pretraining a 7B model on 2 nodes of 8 A100?",
        "How well does pretraining a 7B model scale across 4 nodes of 8 A100 on 25GbE?",
        "4台8卡A100用25G以太网训练13B，网络对扩展效率有多大影响？",
        "两台8卡H100训练7B，万兆网会拖慢多少？",
        "4台8卡A800训练Qwen2.5-14B，扩展效率大概多少",
    ],
)
def test_how_much_the_network_costs_the_scaling_is_the_network_ask(question: str) -> None:
    from assistant.parse.asks import asks_about_scaling

    assert main_ask(parse(question)) == "network"
    assert asks_about_scaling(question.lower())


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        ("What is scaling efficiency?", "concept"),
        ("扩展效率是什么意思", "concept"),
        ("How much does it cost to pretrain a 7B model on 8 H100?", "cost"),
        ("按90%扩展效率算，8张H100训练7B要多久", "duration"),
    ],
)
def test_a_scaling_word_alone_is_no_network_question(question: str, ask: str) -> None:
    assert main_ask(parse(question)) == ask


_SCALING = (
    "Pretraining Llama-2-7B on 4 nodes of 8 A100 over 25GbE: how badly does the network hurt "
    "scaling?"
)


def test_the_scaling_answer_leads_with_the_efficiency_and_no_deadline() -> None:
    # Llama-2-7B grads 13.5 GB; 4 nodes: 2 x 3/4 x 13.5 GB = 20 GB per node over 3.125 GB/s:
    # ~6.5 s per step against ~45 s of compute (a ~4M-token batch on 32 A100 at 40% MFU)
    outcome = calculate(parse(_SCALING))
    first = outcome.lead.split(". ")[0]
    assert first.startswith("The scaling efficiency over 25GbE TCP is about 100%")
    assert "per step against" in first
    assert "deadline" not in outcome.lead
    assert "the network is tight" not in outcome.lead  # stated once, up front, with the caveat
    assert "NCCL over plain TCP sockets reaches only in part" in outcome.lead


def test_a_tight_network_line_gives_both_efficiencies_the_lead_gives() -> None:
    import re

    outcome = calculate(parse(_SCALING))
    network = next(c for c in outcome.checks if c.kind == "network")
    assert network.verdict == "tight"  # plain TCP between the nodes
    shown = re.search(
        r"scaling efficiency (\d+)% with the sync overlapped \((\d+)% without\)", network.summary
    )
    said = re.search(
        r"about (\d+)% with the gradient sync overlapped .* and (\d+)% if nothing", outcome.lead
    )
    assert shown is not None
    assert said is not None
    assert shown.groups() == said.groups()
    assert int(shown.group(2)) < int(shown.group(1))
    assert "at line rate" in network.summary


def test_a_yes_no_bottleneck_question_keeps_its_yes_or_no() -> None:
    outcome = calculate(parse("4台8卡A100用25G以太网预训练7B，网络会成为瓶颈吗？"))
    assert outcome.lead.startswith("网络（25GbE TCP）不是瓶颈")
    assert "网络偏紧" not in outcome.lead
    assert "只要达到线速的" in outcome.lead
