"""A GPU count asked for stated users: the count said first is the count the figures under it
are for, and the fewest that fit come from the same search as the interactive count said
after it (issue 10, serving7).

The hand figures: Llama-3.1-70B keeps 327,680 B of KV per token (80 layers x 8 KV heads x 128
x 2 x 2 B), 2.68 GB per 8k sequence; 141 GB of bf16 weights are 17.6 GB per GPU at TP8.
"""

from __future__ import annotations

import re

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.calculate.interactive import fewest_layout, fewest_serving
from assistant.calculate.targets import interactive_sizing
from assistant.parse import parse
from assistant.records import Scenario

NO_GPU = "How many GPUs for Llama-3.1-70B with 400 concurrent users at 8k context?"
L20 = "How many L20 GPUs to serve Llama-3.1-70B to 500 concurrent users at 8k context?"


def _first_count(text: str) -> int:
    # "You need at least N × …", or "N × … hold this load, but …" when each stream's decode
    # step is under the interactive bar (`interactive.Interactive.leads`)
    found = re.search(r"(?:at least )?(\d+) ×", text)
    assert found is not None, text
    return int(found.group(1))


def test_with_no_gpu_named_the_count_said_is_the_count_evaluated() -> None:
    outcome = calculate(parse(NO_GPU))
    assert outcome.scenario is not None
    assert _first_count(outcome.lead) == outcome.scenario.gpu_count
    memory = next(c for c in outcome.checks if c.kind == "memory")
    assert memory.verdict != "fail"  # not "at least N", then "memory does not fit" on fewer
    # 1,074 GB of KV + 141 GB of weights over 72 GB usable: at least 17 GPUs
    assert outcome.scenario.gpu_count >= 17


def test_one_deeper_pipeline_is_the_fewest_l20_that_hold_500_users() -> None:
    # 500 x 2.68 GB of KV + 141 GB of weights over 43.2 GB usable: at least 35 GPUs. One TP8 x
    # PP5 replica (16 of 80 layers a stage) holds (141 + 1,342) / 8 / 5 = 37.1 GB per GPU: 40;
    # PP4 (20 layers) needs 46.3 GB. 7 replicas of TP8 (76 sequences each) = 56 store the
    # weights 7 times; a power-of-two pipeline holding all 500 needs 64
    s = Scenario(model="Llama-3.1-70B", gpu="L20 48GB", concurrency=500, context_length=8192)
    found = fewest_serving(s)
    assert found is not None
    assert (found.gpus, found.replicas, found.tensor_parallel) == (40, 1, 8)
    assert found.pipeline_parallel == 5


def test_the_count_said_is_never_more_than_the_interactive_count() -> None:
    outcome = calculate(parse(L20))
    s = outcome.scenario
    assert s is not None
    count = _first_count(outcome.lead)
    assert count == s.gpu_count
    faster = interactive_sizing(parse(L20).scenario, s, 8)()
    assert faster is not None
    assert faster.gpus is not None
    assert count <= faster.gpus
    # evaluated on the split it was counted for: its figures are what the count gives
    assert (s.tensor_parallel, s.pipeline_parallel) == (8, 5)
    step = figure(outcome.checks, "compute", "seconds_per_token")
    assert step is not None
    assert step > 0


def test_a_stated_split_is_not_replaced() -> None:
    s = Scenario(model="Llama-3.1-70B", gpu="L20 48GB", concurrency=500, context_length=8192)
    assert (fewest_layout(s, 40).tensor_parallel, fewest_layout(s, 40).pipeline_parallel) == (8, 5)
    stated = Scenario(
        model="Llama-3.1-70B",
        gpu="L20 48GB",
        concurrency=500,
        context_length=8192,
        tensor_parallel=4,
    )
    assert fewest_layout(stated, 40).tensor_parallel == 4
    assert fewest_layout(s, 64).tensor_parallel is None  # not the count that search found
