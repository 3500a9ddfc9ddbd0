"""The `ask --json` object as issue 5 specifies it: the one copy the tests check against."""

from __future__ import annotations

KEYS = frozenset(
    {
        "question",
        "language",
        "verdict",
        "binding_constraint",
        "answer",
        "assumptions",
        "scenario",
        "checks",
        "citations",
        "suggestions",
        "options",
        "scaling",
    }
)
SCENARIO_KEYS = frozenset(
    {
        "task",
        "method",
        "params",
        "active_params",
        "model",
        "gpu",
        "gpu_count",
        "nodes",
        "precision",
        "kv_dtype",
        "tokens",
        "deadline_seconds",
        "zero_stage",
        "context_length",
        "prompt_tokens",
        "output_tokens",
        "batch_size",
        "site_profile",
        "gpus_per_node",
        "gpu_memory_bytes",
        "intra_link",
        "inter_link",
        "nics_per_node",
        "tensor_parallel",
        "pipeline_parallel",
        "price_per_gpu_hour",
        "currency",
        "budget",
        "purchase_budget",
        "purchase_price",
        "purchase_unit",
        "price_per_kwh",
        "concurrency",
        "target_tokens_per_second",
        "target_qps",
        "target_first_token_seconds",
        "first_token_quantile",
        "target_seconds_per_token",
        "fastest_stream",
        "host_ram_bytes",
        "offload",
        "pue",
        "power_budget_watts",
        "hours_per_day",
        "mfu",
        "tokens_per_second_per_gpu",
        "gpu_hours",
        "recompute",
        "micro_batch",
        "pipeline_microbatches",
        "expert_parallel",
    }
)
CHECK_KEYS = frozenset({"kind", "verdict", "summary", "figures"})
CITATION_KEYS = frozenset({"id", "source", "title", "text", "score"})
SUGGESTION_KEYS = frozenset({"change", "effect"})
OPTION_KEYS = frozenset({"scenario", "verdict", "figures", "wins"})
#: A serving memory check's KV figures: logical sizes, the copies of each KV head (TP > KV heads
#: replicates them) and the total as stored on all GPUs (`kv_cache_bytes` x `kv_cache_copies`).
SERVING_KV_FIGURES = frozenset(
    {
        "kv_cache_bytes",
        "kv_cache_bytes_per_gpu",
        "kv_cache_bytes_per_sequence",
        "kv_cache_copies",
        "kv_cache_bytes_replicated",
    }
)
