"""Prompt and output lengths of a serving request (issue 10): read as stated, never as the
context, and the context each sequence's KV cache holds is prompt + output."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.lengths import read_lengths


@pytest.mark.parametrize(
    ("question", "prompt", "output"),
    [
        ("Llama-3.1-8B on 1 H100 with 2k-token prompts and 256 output tokens", 2048, 256),
        ("H100单卡跑Llama-3.1-8B，输入2k输出512", 2048, 512),
        ("Serve Llama-3.1-8B on one H100, prompt 4096, generate 512", 4096, 512),
        ("平均输入长度3000 token，用1张H100跑Llama-3.1-8B行吗", 3000, None),
        ("prompts of 8k-token length, Qwen2.5-7B on one L4", 8192, None),
        ("Llama-3.1-8B on one H100, generate 256 tokens per request", None, 256),
        ("Qwen2.5-7B on an L4 with 1k-token inputs and 128-token outputs", 1024, 128),
        ("输入4k输出1k，2张H100跑Qwen2.5-32B", 4096, 1024),
        ("Llama-3.1-8B, prompt length: 1500, max output 300, on one A100", 1500, 300),
    ],
)
def test_lengths_are_read(question: str, prompt: int | None, output: int | None) -> None:
    scenario = parse(question).scenario
    assert (scenario.prompt_tokens, scenario.output_tokens) == (prompt, output)


@pytest.mark.parametrize(
    "question",
    [
        "Llama-3.1-8B on one H100, 16k-token sequences",  # a context, not a prompt
        "Llama-3.1-8B on one H100 at 50 tokens per second",  # a speed
        "Llama-3.1-8B on one H100, output 200 tok/s",  # a speed after an output word
        "每路输出 20 token/s，H100跑Llama-3.1-8B",  # a per-user speed
        "Llama-3.1-8B on one H100 for 2 prompts",  # a count, too short to be a length
    ],
)
def test_not_a_length(question: str) -> None:
    scenario = parse(question).scenario
    assert (scenario.prompt_tokens, scenario.output_tokens) == (None, None)


def test_a_prompt_length_is_no_context() -> None:
    """ "2k-token prompts" was read as context 2048; the context is left open, to be prompt +
    output."""
    scenario = parse("Llama-3.1-8B on 1 H100 with 2k-token prompts").scenario
    assert scenario.prompt_tokens == 2048
    assert scenario.context_length is None


def test_a_stated_context_stays_beside_the_lengths() -> None:
    scenario = parse("Llama-3.1-8B, 32k context, 2k-token prompts, 512 output tokens").scenario
    assert (scenario.context_length, scenario.prompt_tokens, scenario.output_tokens) == (
        32768,
        2048,
        512,
    )


def test_blanked_text_keeps_its_length() -> None:
    """The context reader reads the masked text at the same offsets as the original."""
    text = "2k-token prompts and 256 output tokens, 8 users"
    prompt, output, rest = read_lengths(text)
    assert (prompt, output, len(rest)) == (2048, 256, len(text))
    assert rest.endswith(", 8 users")
