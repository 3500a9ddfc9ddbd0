"""At a requests/s target the checks under the answer are evaluated at the load the headline
states: the compute check's per-stream speed, tokens delivered and first token are the ones
at that rate (prefill sharing the GPUs), so the key figures cannot quote another operating
point. A stream slower than the tool's interactive bar also gets the GPUs that lift it."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.parse.sizes import read_batch_size
from assistant.records import Query, Scenario

_QWEN = {"model": "Qwen2.5-7B", "task": "inference", "prompt_tokens": 1000, "output_tokens": 200}


def _answer(gpu: str, qps: float, lang: str = "en", **slots: object):
    question = f"{qps:g} requests/s on {gpu}"
    scenario = Scenario(gpu=gpu, target_qps=qps, **_QWEN, **slots)  # type: ignore[arg-type]
    return calculate(Query(question=question, language=lang, scenario=scenario))


def _flag(result: object, key: str) -> object:
    """A compute figure as stored (booleans included)."""
    checks = result.checks  # type: ignore[attr-defined]
    return next(c.figures.get(key) for c in checks if c.kind == "compute")


def _speeds(pattern: str, text: str) -> list[float]:
    return [float(m.replace(",", "")) for m in re.findall(pattern, text)]


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("20 requests/sec, 1000 tokens in", None),  # a rate, read as QPS elsewhere
        ("20 requests per second", None),
        ("5 requests a minute", None),
        ("20 requests at once", 20),  # in flight together: a batch
        ("32 concurrent requests", 32),
        ("64 users", 64),
    ],
)
def test_a_request_rate_is_not_a_batch(text: str, batch: int | None) -> None:
    assert read_batch_size(text) == batch


@pytest.mark.parametrize(("gpu", "qps"), [("A10", 20.0), ("L40S 48GB", 20.0), ("L40S 48GB", 8.0)])
def test_key_figures_deliver_what_the_target_asks(gpu: str, qps: float) -> None:
    result = _answer(gpu, qps)
    # Little's law at the rate: every request's 200 tokens, not the batch decoding nonstop
    assert figure(result.checks, "compute", "delivered_tokens_per_s") == pytest.approx(qps * 200)
    assert figure(result.checks, "compute", "request_rate") == qps
    assert _flag(result, "overloaded") is False


def test_headline_and_key_figures_quote_one_operating_point() -> None:
    result = _answer("L40S 48GB", 20.0)
    head = result.focus or ""
    step = figure(result.checks, "compute", "seconds_per_token")
    loaded = figure(result.checks, "compute", "loaded_seconds_per_token")
    assert isinstance(step, float)
    assert isinstance(loaded, float)
    assert loaded > step  # prefill takes its share of each replica's GPU time
    said = _speeds(r"about ([\d.,]+) tokens/s per sequence", head)
    assert said
    assert said[0] == pytest.approx(1 / loaded, abs=0.06)
    first = figure(result.checks, "compute", "loaded_first_token_seconds")
    unloaded = figure(result.checks, "compute", "first_token_seconds")
    assert isinstance(first, float)
    assert isinstance(unloaded, float)
    assert first > unloaded


def test_power_per_token_counts_the_tokens_delivered() -> None:
    result = _answer("L40S 48GB", 20.0)
    watts = figure(result.checks, "power", "power_watts")
    per_million = figure(result.checks, "power", "kwh_per_million_tokens")
    assert isinstance(watts, float)
    assert isinstance(per_million, float)
    assert per_million == pytest.approx(watts / 4000 * 1e6 / 3.6e6, rel=1e-6)


def test_a_slow_stream_gets_the_count_that_makes_it_interactive() -> None:
    result = _answer("L40S 48GB", 20.0, lang="zh")
    head = result.focus or ""
    counts = [int(c) for c in re.findall(r"(\d+) 张 L40S 48GB", head)]
    assert "低于本工具按交互使用取的 10 token/s" in head
    # the count that gives every stream the bar leads, the fewest that hold the load after it
    faster = re.search(r"^在目标负载（[^）]+）下要让每路都不低于 10 token/s，需要 (\d+) 张", head)
    assert faster is not None
    assert int(faster.group(1)) == counts[0]
    fewest = re.search(r"只按显存与吞吐算：达到目标（[^）]+）需要 (\d+) 张", head)
    assert fewest is not None
    assert int(faster.group(1)) > int(fewest.group(1))
    assert result.verdict == "feasible"  # no per-stream speed was asked: the bar only informs


def test_a_fast_enough_stream_gets_no_interactive_count() -> None:
    head = _answer("L40S 48GB", 2.0).focus or ""
    assert "this tool takes as interactive" not in head
    assert "For every stream to get" not in head


def test_stated_gpus_short_of_the_rate_say_they_fall_behind() -> None:
    result = _answer("L40S 48GB", 20.0, gpu_count=1)
    assert result.verdict == "infeasible"
    assert _flag(result, "overloaded") is True
    assert figure(result.checks, "compute", "delivered_tokens_per_s") is None
