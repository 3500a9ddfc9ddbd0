"""Serving speed as deployed: HBM reads, tensor-parallel all-reduces over the real links,
pipeline hops and per-layer kernel overhead; prefill (time to first token) compute-bound.

One decode step of a replica (TP GPUs per stage, PP stages run one after another for a token):

    t_step = max(t_hbm, t_compute) + t_allreduce + t_pipeline + t_overhead
    t_hbm       = (weights read + KV read) / (TP · HBM bandwidth · η)         (Pope et al. 2022 §2)
    t_allreduce = 2 · L · allreduce(batch · h · 2 bytes over TP ranks, link)  (Megatron-LM §3)
    t_pipeline  = (PP − 1) · (latency + batch · h · 2 bytes / link bandwidth)
    t_overhead  = L · t_layer + L_moe · t_moe

The weights read are the dense part plus the routed experts that the batch's tokens touch:
E · (1 − (1 − k/E)^batch) experts of E with top-k uniform routing (k at batch 1, all E as the
batch grows). The pure roofline (no communication, no overhead) is kept beside the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators import _memory_parts as parts
from calculators.catalog.fabrics import typical_fabric
from calculators.catalog.hardware import DTYPE_BYTES, GPU, LINKS, Link
from calculators.catalog.models import ModelSpec, kv_cache_bytes_per_token, kv_cache_split
from calculators.collectives import allreduce_time, hierarchical_allreduce, transfer_time
from calculators.compute_time import DECODE_BANDWIDTH_EFFICIENCY, default_mfu
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_PROMPT_TOKENS,
)
from calculators.messages import Msg
from calculators.network import fabric_from_links
from calculators.validate import check_choice, check_count, check_fraction

__all__ = [
    "ACTIVATION_BYTES",
    "ALLREDUCES_PER_LAYER",
    "KERNEL_SECONDS_PER_LAYER",
    "MOE_GROUP_LIMITED_SECONDS_PER_LAYER",
    "MOE_SECONDS_PER_LAYER",
    "SOURCES",
    "ServingSpeed",
    "experts_touched",
    "moe_seconds_per_layer",
    "serving_speed",
]

#: Tensor-parallel all-reduces per layer in a forward pass: one after attention, one after the
#: MLP (Shoeybi et al. 2019, Megatron-LM, arXiv:1909.08053 §3, Fig. 3: "g" operators).
ALLREDUCES_PER_LAYER = 2
#: Activations cross the links in 16 bits (vLLM / TensorRT-LLM all-reduce in the model dtype).
ACTIVATION_BYTES = 2.0
#: Kernel launch and tail time of one transformer layer in a decode step at batch 1 (about ten
#: kernels: norms, QKV, attention, output, MLP), CUDA graphs on. Calibration: NVIDIA NeMo
#: Framework docs, "Llama-2 Results, Inference Performance" (TensorRT-LLM, 128 in / 20 out,
#: batch 1): Llama-2-7B on 1 x H100 takes 153.8 ms = ~7.3 ms per token against 5.0 ms of HBM
#: reads at 80%, i.e. ~70 us per layer; current vLLM/SGLang with CUDA graphs are faster, so
#: 40 us is taken (planning assumption, medium confidence).
KERNEL_SECONDS_PER_LAYER = 40e-6
#: Extra time of a MoE layer with plain top-k routing at small batch: router GEMM, softmax top-k,
#: token permutation and the fused expert kernels whose tiles are mostly empty. Calibration on
#: two public batch-1 figures, minus this module's HBM, all-reduce and per-layer kernel terms:
#: Mixtral-8x7B (8 experts, top-2, 32 MoE layers) in int8 on 1 x A100, TensorRT-LLM, one request,
#: 512 in / 128 out: 81 perceived tokens/s = 12.3 ms (Baseten blog, "Faster Mixtral inference
#: with TensorRT-LLM and quantization", Dec 2023) against 9.4 ms of the other terms: ~93 us;
#: Qwen3-30B-A3B (128 experts, top-8, 48 MoE layers) in bf16 on 1 x A100, vLLM, concurrency 1,
#: 128 in / 128 out: TPOT 9.6 ms (tenstorrent/tt-inference-server issue #340, Jul 2025) against
#: 6.0 ms: ~74 us. Top-2 of 8 and top-8 of 128 cost about the same, so neither the active nor
#: the routed expert count is used (planning assumption, low-medium confidence). Independent
#: check: Qwen's speed benchmark (qwen.readthedocs.io, "Speed Benchmark", SGLang 0.4.6.post1 on
#: 1 x H20, batch 1, bf16, 6,144 in / 2,048 out) gives Qwen3-30B-A3B 490.10 (prompt + output)
#: tokens/s, ~8 ms per output token against ~2 ms of HBM reads: small-active MoE decode at
#: batch 1 is bound by per-layer kernel time, not bandwidth; this module gives 453 (8% slower).
MOE_SECONDS_PER_LAYER = 85e-6
#: The same for group-limited (node-limited) routing, DeepSeek-V3's (arXiv:2412.19437 §2.1.2:
#: experts in groups, a token sent to at most 4 nodes; `ModelSpec.routed_nodes_max`), whose
#: small-batch layers are much slower. Calibration: the SGLang v0.4.1.post2 release
#: (sgl-project/sglang PR #2643, Dec 2024), DeepSeek-V3 FP8 on 8 x H200, TP=8, CUDA graphs,
#: 128 in / 256 out: batch 1 30.29 tokens/s = 33.0 ms a step, batch 8 206.32 tokens/s = 38.8 ms.
#: Minus this module's other terms for that set-up (HBM reads 1.4 / 6.0 ms, TP all-reduces
#: 5.1 / 5.2 ms, 61 layers x KERNEL_SECONDS_PER_LAYER = 2.4 ms) over 58 MoE layers: 415 us at
#: batch 1 and 434 us at batch 8; 420 us is taken. (The earlier 300 us was read off the same
#: kind of figures without subtracting the all-reduce and kernel terms, so the sum came out at
#: 26 ms, 38 tokens/s, faster than every public batch-1 figure: ~26 tokens/s in SGLang,
#: vllm-project/vllm issue #11539; DeepSeek-V3.2 at 30 tokens/s on 8 x H20 in vLLM, issue
#: #30832, which 420 us reproduces within 1%.) The excess may come from its MLA attention or
#: TP=8 as much as from its routing; the public figures cannot tell them apart (planning
#: assumption, low-medium confidence; at batch 32 it gives 661 tokens/s against SGLang's 760).
MOE_GROUP_LIMITED_SECONDS_PER_LAYER = 420e-6

SOURCES = (
    "Pope et al. 2022, Efficiently Scaling Transformer Inference (arXiv:2211.05102) §2: decode "
    "is memory-bandwidth-bound at small batch; 2N FLOPs per token",
    "Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053) §3: two all-reduces per layer in the "
    "forward pass under tensor parallelism",
    "Patarasuk & Yuan 2009 / NCCL tests PERFORMANCE.md: ring all-reduce 2(n-1)/n x S/B + "
    "2(n-1) x latency",
    "NVIDIA NeMo Framework docs, Llama-2 inference performance (TensorRT-LLM, batch 1-8, TP 1-8 "
    "on A100/H100): per-layer overhead calibration",
    "sgl-project/sglang PR #2643 (v0.4.1.post2): DeepSeek-V3 on 8 x H200, TP=8, batch 1 / 8: "
    "30.29 / 206.32 tokens/s; vllm-project/vllm issues #11539 and #30832: 26-30 tokens/s at "
    "batch 1 on 8 x H200 / 8 x H20 (group-limited MoE per-layer overhead calibration)",
    "Baseten blog, Faster Mixtral inference with TensorRT-LLM and quantization (Dec 2023): "
    "Mixtral-8x7B int8 on 1 x A100 at one request 81 tokens/s; tenstorrent/tt-inference-server "
    "issue #340: Qwen3-30B-A3B on A100 in vLLM at concurrency 1 TPOT 9.6 ms (plain top-k MoE "
    "per-layer overhead calibration)",
    "Qwen docs, Speed Benchmark (SGLang 0.4.6.post1, 1 x H20, batch 1): Qwen3-30B-A3B bf16 at "
    "6,144 in / 2,048 out 490.10 tokens/s (cross-check of the MoE per-layer overhead)",
)


@dataclass(frozen=True)
class ServingSpeed:
    """Decode and prefill speed of one serving replica, with each term of the step time.

    Attributes:
        decode_seconds_per_token: one decode step = the time between two tokens of a sequence.
        decode_tokens_per_s: batch_size / decode_seconds_per_token (one replica).
        first_token_seconds: prefill of ONE prompt of prompt_tokens, unloaded (time to first
            token without queueing).
        prefill_seconds: prefill of the whole batch's prompts.
        roofline_seconds_per_token: max(HBM, compute) alone: the old upper bound on speed.
        decode_bound: "memory", "compute", "communication" or "overhead": the largest term.
    """

    decode_seconds_per_token: float
    decode_tokens_per_s: float
    first_token_seconds: float
    prefill_seconds: float
    prefill_tokens_per_s: float
    roofline_seconds_per_token: float
    hbm_seconds: float
    compute_seconds: float
    allreduce_seconds: float
    pipeline_seconds: float
    overhead_seconds: float
    decode_bound: str
    bytes_per_decode_step: float
    flops_per_decode_step: float
    allreduce_bytes_per_step: float
    """Bytes one GPU sends in the step's tensor-parallel all-reduces."""
    inter_node_bytes_per_step: float
    """Bytes that leave a node per decode step (TP across nodes, or pipeline hops)."""
    experts_read: float
    """Routed experts per MoE layer the step reads (0 for dense models)."""
    batch_size: int
    tensor_parallel: int
    pipeline_parallel: int
    nodes: int
    compute_precision: str
    formula: Msg
    assumptions: tuple[Msg, ...]
    sources: tuple[str, ...] = SOURCES


def experts_touched(*, experts: int, active_experts: int, batch_size: int) -> float:
    """Expected distinct routed experts a batch touches in one MoE layer (uniform top-k).

    E · (1 − (1 − k/E)^B): k at batch 1, approaching all E as the batch grows.

    Examples:
        >>> experts_touched(experts=256, active_experts=8, batch_size=1)
        8.0
        >>> round(experts_touched(experts=8, active_experts=2, batch_size=16), 2)  # Mixtral
        7.92
    """
    check_count("experts", experts, maximum=10**6)
    check_count("active_experts", active_experts, maximum=experts)
    check_count("batch_size", batch_size, maximum=10**7)
    return experts * (1.0 - (1.0 - active_experts / experts) ** batch_size)


def moe_seconds_per_layer(model: ModelSpec) -> float:
    """Extra batch-1 decode time of one MoE layer of ``model`` (0 for a dense model).

    Plain top-k routing costs `MOE_SECONDS_PER_LAYER` whatever its expert counts; group-limited
    routing (``routed_nodes_max`` set, DeepSeek-V3) costs `MOE_GROUP_LIMITED_SECONDS_PER_LAYER`.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> [round(moe_seconds_per_layer(lookup_model(m)) * 1e6)
        ...  for m in ("Mixtral-8x7B", "DeepSeek-V3", "Llama-2-7B")]
        [85, 420, 0]
    """
    if not model.is_moe:
        return 0.0
    if model.routed_nodes_max:
        return MOE_GROUP_LIMITED_SECONDS_PER_LAYER
    return MOE_SECONDS_PER_LAYER


def _weights_read(model: ModelSpec, weight_dtype: str, batch_size: int) -> tuple[float, float]:
    """(bytes of weights one decode step reads over the whole model, experts read per layer)."""
    stage = parts.stage_layout(model, 1)[0]
    linear = parts.WEIGHT_STORAGE_BYTES[weight_dtype]
    total = stage.linear_params * linear + (stage.params - stage.linear_params) * max(linear, 2.0)
    if not model.is_moe:
        return total, 0.0
    touched = experts_touched(
        experts=model.experts, active_experts=model.active_experts, batch_size=batch_size
    )
    per_expert = model.ffn_matrices * model.hidden * model.moe_ffn_hidden * linear
    unread = (model.layers - model.dense_layers) * (model.experts - touched) * per_expert
    return total - unread, touched


@dataclass(frozen=True)
class _Links:
    intra: Link
    inter: Link | None
    nics_per_node: int
    gpus_per_node: int


def _allreduce_seconds(size: float, tp: int, links: _Links) -> tuple[float, float]:
    """(seconds, bytes leaving a node) of one all-reduce of ``size`` bytes over TP ranks."""
    if tp == 1:
        return 0.0, 0.0
    if tp <= links.gpus_per_node:
        return allreduce_time(
            size_bytes=size,
            ranks=tp,
            bandwidth_bytes_per_s=links.intra.bytes_per_s,
            latency_s=links.intra.latency_s,
        ), 0.0
    fabric = fabric_from_links(
        intra_link=links.intra, inter_link=links.inter, nics_per_node=links.nics_per_node
    )
    traffic = hierarchical_allreduce(
        size_bytes=size,
        ranks=tp,
        ranks_per_node=links.gpus_per_node,
        groups_per_node=1,
        fabric=fabric,
    )
    return traffic.seconds(fabric.inter_bytes_per_s), traffic.inter_bytes_per_node


def _hops(size: float, tp: int, pp: int, links: _Links) -> tuple[float, float]:
    """(seconds, bytes leaving nodes) of the PP − 1 stage-to-stage sends of one step."""
    if pp == 1:
        return 0.0, 0.0
    stages_per_node = max(1, links.gpus_per_node // tp)
    crossings = (pp - 1) // stages_per_node if tp * pp > links.gpus_per_node else 0
    inside = pp - 1 - crossings
    seconds = inside * transfer_time(
        size_bytes=size,
        bandwidth_bytes_per_s=links.intra.bytes_per_s,
        latency_s=links.intra.latency_s,
    )
    if crossings:
        link = links.inter or links.intra
        bandwidth = link.bytes_per_s * (links.nics_per_node if links.inter else 1)
        seconds += crossings * transfer_time(
            size_bytes=size, bandwidth_bytes_per_s=bandwidth, latency_s=link.latency_s
        )
    return seconds, crossings * size


def _links(
    intra: Link | None, inter: Link | None, gpu: GPU, nics: int, per_node: int
) -> tuple[_Links, tuple[Msg, ...]]:
    """The replica's links; with no inter-node link given, the fabric ``gpu``'s clusters
    typically have (`calculators.catalog.fabrics.typical_fabric`: 200GE RoCE for Ascend 910B,
    HDR for A100/A800, NDR for Hopper, one 25GbE port for GeForce), as training assumes."""
    note: tuple[Msg, ...] = ()
    if inter is None:
        typical = typical_fabric(gpu)
        inter = typical.link
        nics = typical.ports(per_node)
        note = (
            Msg("assume.serving.default_inter_link", link=inter.name, gpu=gpu.name, ports=nics),
        )
    return _Links(intra or LINKS[gpu.intra_link], inter, nics, per_node), note


@dataclass(frozen=True)
class _Shape:
    model: ModelSpec
    gpu: GPU
    tp: int
    pp: int
    weight_dtype: str
    kv_dtype: str
    peak: float
    """Dense FLOP/s of ONE GPU at the compute precision."""
    mfu: float
    links: _Links

    @property
    def kv_split(self) -> int:
        """GPUs one layer's KV cache is split over (MLA's latent is replicated over TP)."""
        return kv_cache_split(self.model, tensor_parallel=self.tp)


def _decode(s: _Shape, batch: int, context: int, efficiency: float) -> dict[str, float]:
    """Every term of one decode step of ``batch`` sequences at ``context`` tokens.

    With pipeline stages the batch is split into up to PP micro-batches in flight at once, one
    per stage (vLLM schedules a batch per pipeline stage, its "virtual engines"; GPipe's
    micro-batching, Huang et al. 2019 §2.2): a step is one micro-batch's pass through every
    stage, reading all the weights but only its own sequences' KV cache, and every micro-batch
    gains a token per step. Without that overlap a 64-sequence batch at 128k on TP8 x PP9 would
    read all 64 sequences' KV in series, stage after stage (4 tok/s where vLLM gives ~25)."""
    micro = -(-batch // s.pp) if s.pp > 1 else batch
    passes = -(-batch // micro)  # micro-batches in flight, each a token per step
    t = _pass(s, micro, context, efficiency)
    return {**t, "bytes": t["bytes"] * passes, "flops": t["flops"] * passes}


def _pass(s: _Shape, batch: int, context: int, efficiency: float) -> dict[str, float]:
    """Every term of one pass of ``batch`` sequences through all the layers (`_decode`)."""
    m = s.model
    weights, experts = _weights_read(m, s.weight_dtype, batch)
    kv = batch * context * kv_cache_bytes_per_token(m, dtype_bytes=DTYPE_BYTES[s.kv_dtype])
    hbm = (weights / s.tp + kv / s.kv_split) / (s.gpu.memory_bandwidth_bytes_per_s * efficiency)
    flops = batch * (2.0 * m.active_params + 4.0 * m.layers * context * m.heads * m.head_dim)
    compute = flops / (s.tp * s.peak * s.mfu)
    size = batch * m.hidden * ACTIVATION_BYTES
    one, inter = _allreduce_seconds(size, s.tp, s.links)
    reduces = ALLREDUCES_PER_LAYER * m.layers
    hops, hop_bytes = _hops(size, s.tp, s.pp, s.links)
    moe_layers = m.layers - m.dense_layers if m.is_moe else 0
    overhead = m.layers * KERNEL_SECONDS_PER_LAYER + moe_layers * moe_seconds_per_layer(m)
    volume = 2.0 * (s.tp - 1) / s.tp * size * reduces if s.tp > 1 else 0.0
    return {
        "hbm": hbm,
        "compute": compute,
        "allreduce": one * reduces,
        "pipeline": hops,
        "overhead": overhead,
        "bytes": weights + kv,
        "flops": flops,
        "experts": experts,
        "allreduce_bytes": volume,
        "inter_bytes": inter * reduces + hop_bytes,
    }


def _prefill(s: _Shape, prompts: int, prompt_tokens: int) -> float:
    """Seconds to prefill ``prompts`` prompts of ``prompt_tokens`` (compute-bound)."""
    m = s.model
    tokens = prompts * prompt_tokens
    flops = prompts * (
        2.0 * m.active_params * prompt_tokens
        + 2.0 * m.layers * prompt_tokens**2 * m.heads * m.head_dim
    )
    one, _ = _allreduce_seconds(tokens * m.hidden * ACTIVATION_BYTES, s.tp, s.links)
    hops, _ = _hops(tokens * m.hidden * ACTIVATION_BYTES, s.tp, s.pp, s.links)
    overhead = m.layers * KERNEL_SECONDS_PER_LAYER
    return flops / (s.tp * s.peak * s.mfu) + ALLREDUCES_PER_LAYER * m.layers * one + hops + overhead


def serving_speed(
    *,
    model: ModelSpec,
    gpu: GPU,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    intra_link: Link | None = None,
    inter_link: Link | None = None,
    nics_per_node: int = 1,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    batch_size: int = 1,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    prompt_tokens: int = DEFAULT_PROMPT_TOKENS,
    prefill_mfu: float | None = None,
    bandwidth_efficiency: float = DECODE_BANDWIDTH_EFFICIENCY,
) -> ServingSpeed:
    """Decode and prefill speed of one replica (TP x PP GPUs) holding ``batch_size`` sequences.

    Links: ``intra_link`` defaults to the GPU's own (NVLink, or PCIe); a replica that spans
    nodes (TP x PP > gpus_per_node) uses ``inter_link`` (default the fabric ``gpu``'s clusters
    typically have, with their ports per node, stated in the assumptions) for TP all-reduces
    across nodes or pipeline hops.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> s = serving_speed(model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("H100"),
        ...                   context_length=1024)
        >>> ms = s.decode_seconds_per_token * 1000, s.roofline_seconds_per_token * 1000
        >>> tuple(round(x, 1) for x in ms)  # NeMo/TensorRT-LLM measured ~7.3 ms
        (6.5, 5.2)
    """
    weight_dtype = check_choice("weight_dtype", weight_dtype, parts.WEIGHT_STORAGE_BYTES)
    kv_dtype = check_choice("kv_dtype", kv_dtype, DTYPE_BYTES)
    tp, pp = (
        check_count("tensor_parallel", tensor_parallel, maximum=model.heads),
        check_count("pipeline_parallel", pipeline_parallel, maximum=model.layers),
    )
    check_count("gpus_per_node", gpus_per_node, maximum=1024)
    check_count("nics_per_node", nics_per_node, maximum=1024)
    batch = check_count("batch_size", batch_size, maximum=10**7)
    context = check_count("context_length", context_length, maximum=10**8)
    prompt = check_count("prompt_tokens", prompt_tokens, maximum=10**8)
    efficiency = check_fraction("bandwidth_efficiency", bandwidth_efficiency)
    # Prefill runs at the card's training MFU unless given: both are large compute-bound GEMMs,
    # and no public prefill-only utilisation per card is sourced in the catalog yet (the answer
    # says so, `assume.serving.hbm_prefill`); MoE prompts' small per-expert GEMMs run below it.
    mfu = (
        check_fraction("prefill_mfu", prefill_mfu)
        if prefill_mfu is not None
        else (default_mfu(gpu))
    )
    spans = tp * pp > gpus_per_node
    links, link_note = _links(intra_link, inter_link, gpu, nics_per_node, gpus_per_node)
    precision = (
        "fp8"
        if weight_dtype == "fp8" and gpu.supports("fp8")
        else (gpu.default_training_precision())
    )
    shape = _Shape(
        model, gpu, tp, pp, weight_dtype, kv_dtype, gpu.dense_flops_per_s(precision), mfu, links
    )
    t = _decode(shape, batch, context, efficiency)
    return _result(
        shape,
        t,
        batch=batch,
        context=context,
        prompt=prompt,
        precision=precision,
        notes=link_note if spans else (),
    )


def _bound(t: dict[str, float]) -> str:
    terms = {
        "memory": t["hbm"],
        "compute": t["compute"],
        "communication": t["allreduce"] + t["pipeline"],
        "overhead": t["overhead"],
    }
    return max(terms, key=lambda k: terms[k])


def _result(
    s: _Shape,
    t: dict[str, float],
    *,
    batch: int,
    context: int,
    prompt: int,
    precision: str,
    notes: tuple[Msg, ...],
) -> ServingSpeed:
    roofline = max(t["hbm"], t["compute"])
    step = roofline + t["allreduce"] + t["pipeline"] + t["overhead"]
    prefill = _prefill(s, batch, prompt)
    nodes = -(-s.tp * s.pp // s.links.gpus_per_node)
    return ServingSpeed(
        decode_seconds_per_token=step,
        decode_tokens_per_s=batch / step,
        first_token_seconds=_prefill(s, 1, prompt),
        prefill_seconds=prefill,
        prefill_tokens_per_s=batch * prompt / prefill,
        roofline_seconds_per_token=roofline,
        hbm_seconds=t["hbm"],
        compute_seconds=t["compute"],
        allreduce_seconds=t["allreduce"],
        pipeline_seconds=t["pipeline"],
        overhead_seconds=t["overhead"],
        decode_bound=_bound(t),
        bytes_per_decode_step=t["bytes"],
        flops_per_decode_step=t["flops"],
        allreduce_bytes_per_step=t["allreduce_bytes"],
        inter_node_bytes_per_step=t["inter_bytes"],
        experts_read=t["experts"],
        batch_size=batch,
        tensor_parallel=s.tp,
        pipeline_parallel=s.pp,
        nodes=nodes,
        compute_precision=precision,
        formula=Msg("formula.serving.step", allreduces=ALLREDUCES_PER_LAYER),
        assumptions=(
            Msg(
                "assume.serving.hbm_prefill",
                bandwidth=DECODE_BANDWIDTH_EFFICIENCY,
                mfu=s.mfu,
                precision=precision,
            ),
            Msg(
                "assume.serving.kernel_overhead",
                layer_us=KERNEL_SECONDS_PER_LAYER * 1e6,
                moe_us=(moe_seconds_per_layer(s.model) or MOE_SECONDS_PER_LAYER) * 1e6,
            ),
            Msg("assume.serving.links_nodes", intra=s.links.intra.name, inter=s.links.inter.name)
            if nodes > 1 and s.links.inter
            else Msg("assume.serving.links", intra=s.links.intra.name),
            Msg("assume.serving.context_routing", context=context),
            *notes,
        ),
    )
