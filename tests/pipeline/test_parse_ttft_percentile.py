"""A first-token target stated at a percentile ("p99 TTFT < 500ms", "首token p99 小于1秒",
"首字延迟P99不超过2秒") sets the target and its percentile; one without a percentile is a mean."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "seconds", "quantile"),
    [
        ("8张A100跑Llama-3-70B，100并发，首token p99 小于1秒，可以吗", 1.0, 0.99),
        ("p99 TTFT < 500ms for Llama-3.1-8B on one H100 with 16 users", 0.5, 0.99),
        ("8张A100跑Llama-3-70B，首字延迟P99不超过2秒", 2.0, 0.99),
        ("Llama-3.1-8B on H100, TTFT p95 under 300 ms", 0.3, 0.95),
        ("Llama-3.1-8B on H100, time to first token P99.9 below 2 seconds", 2.0, 0.999),
        # no percentile: the bound is judged as a mean
        ("8张A100跑Llama-3-70B，首token 1秒内最多多少并发", 1.0, None),
        ("Llama-3.1-8B on H100 with the first token under 800 ms", 0.8, None),
    ],
)
def test_first_token_percentile(question: str, seconds: float, quantile: float | None) -> None:
    s = parse(question).scenario
    assert s.target_first_token_seconds == pytest.approx(seconds)
    if quantile is None:
        assert s.first_token_quantile is None
    else:
        assert s.first_token_quantile == pytest.approx(quantile)
