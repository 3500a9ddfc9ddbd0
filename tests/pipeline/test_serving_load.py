"""A stated GPU count that meets a serving target is judged at the load the target implies
(Little's law), with the request lengths as stated (issue 10)."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.i18n import text
from assistant.records import Query, Scenario
from calculators.messages import Msg

_70B = {"model": "Llama-3.1-70B", "gpu": "H100 SXM 80GB", "task": "inference"}


def _ask(question: str, lang: str = "en", **slots: object) -> Query:
    return Query(question=question, language=lang, scenario=Scenario(**slots))  # type: ignore[arg-type]


def _memory(outcome: object) -> dict[str, object]:
    checks = {c.kind: c for c in outcome.checks}  # type: ignore[attr-defined]
    return dict(checks["memory"].figures)


def test_a_stated_count_is_checked_at_the_sequences_in_flight() -> None:
    # 5 QPS on one TP4 replica: a 1,024-token prefill takes ~0.11 s, so prefill holds the GPUs
    # 56% of the time; a prompt waits ~0.07 s (TTFT ~0.2 s) and decode gets the other 44%
    # (a ~31 ms step every ~71 ms): 5 x (0.2 + 256 x 0.071) = ~92 in flight (Little's law);
    # the memory check holds them all, not one.
    outcome = calculate(
        _ask("Can 4 H100 serve Llama-3.1-70B at 5 QPS?", gpu_count=4, target_qps=5.0, **_70B)
    )
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert 80 <= outcome.scenario.batch_size <= 109
    assert _memory(outcome)["concurrent_sequences"] == outcome.scenario.batch_size
    assert any("Little's law" in a for a in outcome.assumptions)


def test_a_stated_batch_is_kept() -> None:
    outcome = calculate(
        _ask(
            "Can 4 H100 serve Llama-3.1-70B at 10 QPS with batch 8?",
            gpu_count=4,
            target_qps=10.0,
            batch_size=8,
            **_70B,
        )
    )
    assert outcome.scenario is not None
    assert outcome.scenario.batch_size == 8


def test_a_longer_output_keeps_more_in_flight() -> None:
    counts = []
    for output in (128, 512):
        outcome = calculate(
            _ask(
                "QPS 5",
                gpu_count=4,
                target_qps=5.0,
                output_tokens=output,
                prompt_tokens=1024,
                **_70B,
            )
        )
        assert outcome.scenario is not None
        counts.append(outcome.scenario.batch_size)
    assert counts[1] > 3 * counts[0]  # 4x the decode time per request, and a larger batch


def test_a_stated_prompt_sets_the_time_to_first_token() -> None:
    # prefill is compute-bound, 2·N FLOPs per prompt token: 4x the prompt is >= 4x the time
    times = []
    for prompt in (512, 2048):
        outcome = calculate(
            _ask(
                "TTFT?",
                gpu_count=1,
                prompt_tokens=prompt,
                model="Llama-3.1-8B",
                gpu="H100 SXM 80GB",
                task="inference",
            )
        )
        compute = {c.kind: c for c in outcome.checks}["compute"]
        times.append(float(compute.figures["first_token_seconds"]))  # type: ignore[arg-type]
    assert times[1] > 3.5 * times[0]


def test_one_sequence_is_singular() -> None:
    assert text(Msg("solve.concurrent_one", count=1), "en") == "1 concurrent sequence"
    assert text(Msg("solve.concurrent", count=8), "en") == "8 concurrent sequences"
    assert text(Msg("solve.concurrent", count=8), "zh") == "8 路并发"


def test_a_target_of_one_sequence_per_replica_reads_in_the_singular() -> None:
    from assistant.calculate.targets import _sized
    from calculators.serving_target import ServingTarget

    target = ServingTarget(2, 1, 2, 1, 1, 40.0, 0.15, 0.025, 0.2, 6.6, Msg("x"))
    said = text(_sized("solve.target_gpus", target, "H100", target=()), "en")
    assert "each replica serving 1 concurrent sequence at" in said
    assert "sequences" not in said


def test_a_serving_fix_says_the_speed_it_reaches() -> None:
    # 2 x 910B (57.6 GB usable each) hold no 141 GB of bf16 weights; int8 (open) halves them:
    # 35.3 GB per card read per token at 1.6 TB/s x 0.8 = ~28 ms + kernels: ~30 token/s.
    import re

    outcome = calculate(
        _ask(
            "2张910B跑Llama-3.1-70B每秒多少token？",
            "zh",
            gpu_count=2,
            model="Llama-3.1-70B",
            gpu="Ascend 910B 64GB",
            task="inference",
        )
    )
    assert outcome.verdict == "conditional"
    found = re.search(r"int8[^。]*。改后每路生成约 ([\d.]+) token/s", outcome.lead)
    assert found is not None, outcome.lead
    assert 20 < float(found.group(1)) < 40


def test_a_training_fix_says_no_speed() -> None:
    outcome = calculate(
        _ask(
            "Fine-tune Llama-3.1-70B on 8 A100",
            gpu_count=8,
            model="Llama-3.1-70B",
            gpu="A100 SXM 80GB",
            task="finetune",
        )
    )
    assert "tokens/s per sequence" not in outcome.lead


def test_a_site_is_judged_at_the_load_on_its_own_hardware() -> None:
    from tests.pipeline.test_calculate import JILIN

    # 2 QPS: two TP4 replicas of the site's 8 x A100 PCIe (0.53 s per 1,024-token prefill,
    # at most ~1.5 requests/s each with decode); 10 QPS would need 28 GPUs
    query = _ask(
        "吉林服务器跑Llama-3.1-70B，QPS 2够吗？",
        "zh",
        site_profile=JILIN.id,
        target_qps=2.0,
        model="Llama-3.1-70B",
        task="inference",
    )
    outcome = calculate(query, sites=(JILIN,))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu == "A100 PCIe 80GB"
    assert outcome.scenario.intra_link == "PCIe Gen4"  # the profile's, kept in the re-run
    assert outcome.scenario.batch_size > 1
    assert any("Little" in a for a in outcome.assumptions)
    assert not any("优先于档案" in a for a in outcome.assumptions)  # nothing was overridden


def test_the_speed_summary_gives_the_first_token_of_the_stated_prompt() -> None:
    outcome = calculate(
        _ask(
            "TTFT with 2k-token prompts?",
            gpu_count=1,
            prompt_tokens=2048,
            model="Llama-3.1-8B",
            gpu="H100 SXM 80GB",
            task="inference",
        )
    )
    compute = {c.kind: c for c in outcome.checks}["compute"]
    assert compute.figures["prompt_tokens"] == 2048
    assert "for a 2,048-token prompt" in compute.summary


def test_lengths_past_a_stated_context_are_said() -> None:
    outcome = calculate(
        _ask(
            "4k context, 8k-token prompts",
            gpu_count=1,
            context_length=4096,
            prompt_tokens=8192,
            model="Llama-3.1-8B",
            gpu="H100 SXM 80GB",
            task="inference",
        )
    )
    assert outcome.scenario is not None
    assert outcome.scenario.context_length == 4096  # stated: kept, not undone
    assert any("exceed the stated context of 4,096" in a for a in outcome.assumptions)


def test_open_lengths_are_said_as_defaults() -> None:
    outcome = calculate(
        _ask(
            "Llama-3.1-8B on one H100",
            gpu_count=1,
            model="Llama-3.1-8B",
            gpu="H100 SXM 80GB",
            task="inference",
        )
    )
    assert outcome.scenario is not None
    assert (outcome.scenario.prompt_tokens, outcome.scenario.output_tokens) == (1024, 256)
    assert outcome.scenario.context_length == 4096  # the default context, as before
    assert any("1,024-token prompt and 256 output tokens" in a for a in outcome.assumptions)


def test_headroom_labels_what_memory_holds_apart_from_the_latency_cap() -> None:
    # memory holds 237 per replica; a 10 ms per-token target caps the batch at 52: both said,
    # each labelled (the old sentence called the 52 what fits in memory)
    from dataclasses import replace

    from assistant.calculate.target_load import headroom
    from calculators.serving_target import ServingTarget

    capped = ServingTarget(2, 1, 2, 1, 52, 5000.0, 20.3, 0.0095, 0.03, 2.5, Msg("x"))
    capped = replace(capped, memory_sequences_per_replica=237)
    said = text(headroom(capped), "en")
    assert "memory holds up to 237 concurrent sequences per replica" in said
    assert "serves at most 52 concurrent sequences" in said
    assert "52 concurrent sequences per replica fit in memory" not in said
    assert "237" in text(headroom(capped, rate_said=True), "zh")
    uncapped = replace(capped, memory_sequences_per_replica=52)
    said = text(headroom(uncapped), "en")
    assert "up to 52 concurrent sequences per replica fit in memory" in said


def test_a_rate_verdict_says_the_request_lengths_it_assumed() -> None:
    # 20 QPS with no lengths: the defaults (1,024 in / 256 out) decide, so they are said with
    # the prompt tokens/s they imply; stated lengths leave nothing to say
    from assistant.calculate.target_load import assumed_lengths

    said = assumed_lengths(Scenario(target_qps=20.0))
    assert "1,024-token prompt and a 256-token reply" in text(said[0], "en")
    assert "20,480 prompt tokens/s" in text(said[0], "en")
    assert "20,480" in text(said[0], "zh")
    assert assumed_lengths(Scenario(target_qps=20.0, prompt_tokens=128, output_tokens=64)) == ()
    assert assumed_lengths(Scenario(target_tokens_per_second=500.0)) == ()


def test_two_l40s_short_of_20_qps_say_the_lengths_decide() -> None:
    outcome = calculate(
        _ask(
            "p99 TTFT under 1 s for Llama-3.1-8B at 20 QPS on 2 L40S?",
            "en",
            model="Llama-3.1-8B",
            gpu="L40S",
            gpu_count=2,
            target_qps=20.0,
            target_first_token_seconds=1.0,
        )
    )
    assert outcome.verdict == "infeasible"
    assert "rests on request lengths the question did not give" in outcome.focus


def test_memory_for_a_load_over_replicas_gives_the_whole() -> None:
    """Memory asked for a load the layout splits over replicas: each replica's need, then all
    the sequences with one copy of the weights (72.7 GB int8 weights + 32 x 2.68 GB of KV)."""
    from assistant.parse import parse

    outcome = calculate(
        parse("How much GPU memory does Llama-3.1-70B need in int8 for 32 users at 8k context?")
    )
    figures = _memory(outcome)
    assert figures["kv_cache_bytes"] == 32 * figures["kv_cache_bytes_per_sequence"]  # type: ignore[operator]
    assert "the 4 GPUs hold 2 replicas" in outcome.lead
    assert "All 32 sequences with one copy of the weights come to about 159.1 GB" in outcome.lead
