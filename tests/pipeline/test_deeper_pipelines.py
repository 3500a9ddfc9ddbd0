"""A GPU count asked for users at a long context: the fewest GPUs that hold the load store the
weights fewer times, in fewer, deeper pipeline replicas, not in more replicas of the
fewest-stage layout (fixL). Asked in one sentence and as a follow-up that changes the context.

The hand figures: Llama-3.1-70B keeps 327,680 B of BF16 KV per token (80 layers x 8 KV heads x
128 x 2 x 2 B), 42.95 GB per 128k sequence; 32 of them (1,374 GB) + 141.1 GB of weights over
43.2 GB usable per L40S: at least 36. One TP8 x PP5 replica (16 of 80 layers a stage) holds
(141.1 + 1,374) / 8 / 5 = 37.9 GB per GPU: 40 L40S; PP4 needs 47.3 GB. Replicas of TP8 inside
a node hold 4 sequences each (17.6 + 4 x 5.37 GB): 8 replicas = 64.
"""

from __future__ import annotations

import re

from assistant.calculate import calculate
from assistant.parse import parse
from tests.pipeline.conversation import chain

_ASKED = "How many L40S to serve Llama-3.1-70B to 32 concurrent users at 128k context?"


def _first_count(lead: str) -> int:
    found = re.search(r"([\d,]+) × L40S 48GB", lead.split("\n")[0])
    assert found is not None, lead
    return int(found.group(1).replace(",", ""))


def test_the_count_that_holds_the_load_is_one_deeper_pipeline() -> None:
    outcome = calculate(parse(_ASKED))
    s = outcome.scenario
    assert s is not None
    assert outcome.verdict == "feasible"  # no speed was asked: the bar decides nothing
    assert _first_count(outcome.lead) == s.gpu_count == 40
    assert (s.tensor_parallel, s.pipeline_parallel) == (8, 5)
    memory = next(c for c in outcome.checks if c.kind == "memory")
    assert memory.verdict != "fail"


def test_a_follow_up_to_128k_context_is_sized_on_the_deeper_pipeline() -> None:
    query = chain(
        "How many L40S to serve Llama-3.1-70B to 32 concurrent users?",
        "What about 128k context instead?",
    )
    outcome = calculate(query)
    s = outcome.scenario
    assert s is not None
    assert s.context_length == 131_072
    assert s.concurrency == 32
    assert _first_count(outcome.lead) == s.gpu_count == 40
    assert (s.tensor_parallel, s.pipeline_parallel) == (8, 5)
