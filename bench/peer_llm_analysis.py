"""Side by side with a peer calculator: `llm-analysis` (PyPI, Cheng Li) on six configurations.

Install the peer (it is not a project dependency):
    .venv/bin/pip install --no-deps llm-analysis && .venv/bin/pip install fire

Run: .venv/bin/python bench/peer_llm_analysis.py
Prints, for each configuration, our figure, the peer's and the reason they differ. Without the
peer installed it prints our figures and a message, and exits 0.
"""

from __future__ import annotations

import contextlib
import io
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.compute_time import inference_speed, training_flops, training_time
from calculators.gpu_memory import inference_memory, training_memory
from calculators.units import format_bytes, format_seconds

Row = tuple[str, str, str, str]  # metric, ours, peer, reason
GB = 1e9


def _peer() -> Any | None:
    try:
        from llm_analysis import analysis
    except ImportError:
        return None
    logging.getLogger("llm_analysis").setLevel(logging.ERROR)
    return analysis


def _quiet(call: Callable[..., dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return call(log_level="ERROR", **kwargs)


def _gb(value: float | None) -> str:
    return "-" if value is None else f"{format_bytes(value)} ({format_bytes(value, binary=True)})"


def llama7b_training_memory(peer: Any | None) -> list[Row]:
    """Llama-2-7B, 8 x A100 80GB, ZeRO-3, seq 4096, micro-batch 1, no recompute, flash attn."""
    ours = training_memory(
        model=lookup_model("Llama-2-7B"),
        gpus=8,
        zero_stage=3,
        sequence_length=4096,
        micro_batch_size=1,
        recompute="none",
    )
    p = (
        _quiet(
            peer.train,
            model_name="NousResearch_Llama-2-7b-hf",
            gpu_name="a100-sxm-80gb",
            total_num_gpus=8,
            ds_zero=3,
            seq_len=4096,
            batch_size_per_gpu=1,
            global_batch_size=8,
            total_num_tokens=1e9,
            flash_attn=True,
            mlp_gated_linear_units=True,
        )
        if peer
        else {}
    )
    return [
        (
            "weights / GPU",
            _gb(ours.weights_bytes),
            _gb(p.get("weight_memory_per_gpu")),
            "peer counts 6.57e9 params (one shared embedding table); Llama-2 has an untied output "
            "layer: 6.74e9",
        ),
        (
            "gradients / GPU",
            _gb(ours.gradients_bytes),
            _gb(p.get("gradient_memory_per_gpu")),
            "peer keeps fp32 gradients (4 B/param); we count bf16 gradients (2 B) as ZeRO's 2+2+12",
        ),
        (
            "optimizer / GPU",
            _gb(ours.optimizer_bytes),
            _gb(p.get("optimizer_state_memory_per_gpu")),
            "same 12 B/param fp32 master + Adam moments; differs by the parameter count only",
        ),
        (
            "activations / GPU",
            _gb(ours.activations_bytes),
            _gb(p.get("activation_memory_per_gpu")),
            "peer keeps fp32 layernorm inputs and a 4h MLP; we use Korthikanti's 34·sbh with flash "
            "attention + fp32 logits 4sbv",
        ),
    ]


def gpt3_training_memory(peer: Any | None) -> list[Row]:
    """GPT-3 175B on 1024 A100 80GB, TP 8 x PP 16, ZeRO-0, full recompute, seq 2048."""
    ours = training_memory(
        model=lookup_model("GPT-3 175B"),
        gpus=1024,
        tensor_parallel=8,
        pipeline_parallel=16,
        sequence_length=2048,
        recompute="full",
    )
    p = (
        _quiet(
            peer.train,
            model_name="megatron-lm-175b",
            gpu_name="a100-sxm-80gb",
            total_num_gpus=1024,
            tp_size=8,
            pp_size=16,
            seq_len=2048,
            global_batch_size=1536,
            batch_size_per_gpu=1,
            total_num_tokens=300e9,
            achieved_tflops=140,
            activation_recomputation=2,
            flash_attn=False,
        )
        if peer
        else {}
    )
    return [
        (
            "model states / GPU",
            _gb(ours.model_state_bytes),
            _gb(p.get("(weight+op_state+grad)_memory_per_gpu")),
            "fp32 (peer) vs bf16 (ours) gradients: 4 vs 2 B/param on the 1/128 shard",
        ),
        (
            "activations / GPU",
            _gb(ours.activations_bytes),
            _gb(p.get("activation_memory_per_gpu")),
            "both keep 2·sbh per layer under full recompute; we add the first stage's p in-flight "
            "micro-batches (1F1B) and one layer's full activations during recompute",
        ),
    ]


def llama70b_inference_memory(peer: Any | None) -> list[Row]:
    """Llama-2-70B serving, 4 x A100 80GB (TP 4), batch 8 x 4096 tokens, fp16."""
    ours = inference_memory(
        model=lookup_model("Llama-2-70B"),
        weight_dtype="fp16",
        kv_dtype="fp16",
        batch_size=8,
        context_length=4096,
        tensor_parallel=4,
    )
    p = (
        _quiet(
            peer.infer,
            model_name="upstage_Llama-2-70b-instruct-v2",
            gpu_name="a100-sxm-80gb",
            tp_size=4,
            batch_size_per_gpu=8,
            seq_len=4096,
            num_tokens_to_generate=1,
        )
        if peer
        else {}
    )
    return [
        (
            "weights / GPU",
            _gb(ours.weights_bytes),
            _gb(p.get("weight_memory_per_gpu")),
            "peer's config has a two-matrix 4h MLP (55B params); Llama-2-70B has three SwiGLU "
            "matrices of 28672 (68.98B)",
        ),
        (
            "KV cache / GPU",
            _gb(ours.kv_cache_bytes),
            _gb(p.get("kv_cache_memory_per_gpu")),
            "both GQA-aware (8 KV heads, 327,680 B/token); peer adds the one generated token",
        ),
    ]


def llama7b_decode(peer: Any | None) -> list[Row]:
    """Llama-2-7B decode step, batch 1, 1024-token context, one A100 80GB, fp16."""
    ours = inference_speed(
        model=lookup_model("Llama-2-7B"),
        gpu=lookup_gpu("A100 SXM 80GB"),
        batch_size=1,
        context_length=1024,
        prompt_tokens=1024,
    )
    p = (
        _quiet(
            peer.infer,
            model_name="NousResearch_Llama-2-7b-hf",
            gpu_name="a100-sxm-80gb",
            batch_size_per_gpu=1,
            seq_len=1024,
            num_tokens_to_generate=1,
        )
        if peer
        else {}
    )
    theirs = p.get("decode_latency")
    return [
        (
            "decode s/token",
            format_seconds(ours.decode_seconds_per_token),
            format_seconds(theirs) if theirs else "-",
            "we read weights + KV at 80% of HBM bandwidth; the peer at 100% unless told otherwise "
            "and undercounts the output layer",
        ),
    ]


def gpt3_training_time(peer: Any | None) -> list[Row]:
    """GPT-3 175B, 300B tokens, 1024 A100 at 140 TFLOP/s (Narayanan et al. 2021 eq. 4)."""
    model = lookup_model("GPT-3 175B")
    flops = training_flops(
        active_params=model.active_params,
        tokens=300e9,
        recompute="full",
        model=model,
        sequence_length=2048,
    )
    ours = training_time(total_flops=flops, gpus=1024, peak_flops_per_s=312e12, mfu=140 / 312)
    p = (
        _quiet(
            peer.train,
            model_name="megatron-lm-175b",
            gpu_name="a100-sxm-80gb",
            total_num_gpus=1024,
            tp_size=8,
            pp_size=16,
            seq_len=2048,
            global_batch_size=1536,
            batch_size_per_gpu=1,
            total_num_tokens=300e9,
            achieved_tflops=140,
            activation_recomputation=2,
            flash_attn=False,
        )
        if peer
        else {}
    )
    theirs = p.get("total_training_latency")
    return [
        (
            "days",
            f"{ours.days:.1f}",
            f"{theirs / 86400:.1f}" if theirs else "-",
            "both 8ND + attention FLOPs at 140 TFLOP/s; the paper's 34 days omits attention",
        ),
    ]


def llama70b_gpu_hours(peer: Any | None) -> list[Row]:
    """Llama-2-70B, 2T tokens, 2048 A100 at 40% MFU (Llama 2 Table 2: 1,720,320 GPU-hours)."""
    model = lookup_model("Llama-2-70B")
    flops = training_flops(
        active_params=model.active_params,
        tokens=2e12,
        recompute="selective",
        model=model,
        sequence_length=4096,
    )
    ours = training_time(total_flops=flops, gpus=2048, peak_flops_per_s=312e12, mfu=0.4)
    p = (
        _quiet(
            peer.train,
            model_name="upstage_Llama-2-70b-instruct-v2",
            gpu_name="a100-sxm-80gb",
            total_num_gpus=2048,
            tp_size=8,
            pp_size=4,
            seq_len=4096,
            global_batch_size=1024,
            batch_size_per_gpu=1,
            total_num_tokens=2e12,
            flops_efficiency=0.4,
            activation_recomputation=1,
            flash_attn=True,
            mlp_gated_linear_units=True,
        )
        if peer
        else {}
    )
    theirs = p.get("gpu_hours")
    return [
        (
            "GPU-hours",
            f"{ours.gpu_hours:,.0f}",
            f"{theirs:,.0f}" if theirs else "-",
            "peer's 55B-parameter config (two-matrix MLP) needs fewer FLOPs; Meta reports "
            "1,720,320 GPU-hours",
        ),
    ]


CONFIGS = (
    llama7b_training_memory,
    gpt3_training_memory,
    llama70b_inference_memory,
    llama7b_decode,
    gpt3_training_time,
    llama70b_gpu_hours,
)


def main() -> int:
    """Print the comparison; exit 0 even without the peer."""
    peer = _peer()
    if peer is None:
        print(
            "llm-analysis is not installed: showing our figures only. Install it with\n"
            "  .venv/bin/pip install --no-deps llm-analysis && .venv/bin/pip install fire"
        )
    for config in CONFIGS:
        started = time.perf_counter()
        try:
            rows = config(peer)
        except Exception as exc:  # a peer failure must not hide our figures
            print(f"\n{config.__doc__}\n  peer failed: {type(exc).__name__}: {exc}")
            rows = config(None)
        print(f"\n{config.__doc__}  [{time.perf_counter() - started:.1f} s]")
        print(f"  {'metric':<20} {'gpu-advisor':<26} {'llm-analysis':<26} why")
        for metric, ours, theirs, reason in rows:
            print(f"  {metric:<20} {ours:<26} {theirs:<26} {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
