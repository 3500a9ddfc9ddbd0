"""Building blocks of the memory calculator: byte tables, stage layout, activations (private)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from calculators.catalog.models import ModelSpec
from calculators.errors import CalculatorInputError
from calculators.messages import Msg
from calculators.validate import check_choice, check_count

# Bytes per parameter of the optimizer states, for 16-bit mixed precision (fp32 master weights
# included) and for pure fp32 training. ZeRO (arXiv:1910.02054) §3.1: mixed-precision Adam keeps
# an fp32 copy plus momentum and variance, K = 12. 8-bit Adam: Dettmers et al. 2022
# (arXiv:2110.02861) stores the two states in 1 byte each (block-wise quantized).
OPTIMIZER_BYTES_MIXED: Mapping[str, float] = MappingProxyType(
    {"adam": 12.0, "adamw": 12.0, "adam8bit": 6.0, "sgd": 4.0, "sgd_momentum": 8.0}
)
OPTIMIZER_BYTES_FP32: Mapping[str, float] = MappingProxyType(
    {"adam": 8.0, "adamw": 8.0, "adam8bit": 2.0, "sgd": 0.0, "sgd_momentum": 4.0}
)
TRAINING_PRECISIONS = ("bf16", "fp16", "fp32", "fp8")
#: FP8 mixed-precision training keeps the model states of 16-bit mixed precision: FP8 is the
#: GEMM input format only. Transformer Engine keeps the parameters in higher precision and casts
#: them to FP8 per GEMM (its FP8 weight copies are transient); DeepSeek-V3 (arXiv:2412.19437)
#: §3.3 keeps FP32 master weights and FP32 gradients, with BF16 AdamW moments (§3.3.4), ~14
#: bytes/param; Megatron's BF16 params + FP32 gradients take 18. We use the middle figure,
#: 2 + 2 + 12 = 16 bytes/param, as for BF16 (ZeRO arXiv:1910.02054 §3.1).
FP8_TRAINING_NOTE = Msg("assume.memory.fp8_training")
RECOMPUTE = ("none", "selective", "full")

# Stored bytes per weight for inference/frozen bases, scales included. int4: one fp16 scale per
# group of 128 (GPTQ/AWQ default group size); nf4: QLoRA (arXiv:2305.14314) §3 double
# quantization, 4 + 0.127 bits per parameter.
WEIGHT_STORAGE_BYTES: Mapping[str, float] = MappingProxyType(
    {
        "fp32": 4.0,
        "bf16": 2.0,
        "fp16": 2.0,
        "fp8": 1.0,
        "int8": 1.0,
        "int4": 0.5 + 2.0 / 128,
        "nf4": 4.127 / 8,
    }
)


SOURCES_TRAIN = (
    "Rajbhandari et al. 2020, ZeRO (arXiv:1910.02054) §3.1 and §5: mixed-precision Adam keeps "
    "2 + 2 + 12 bytes/param; stages 1/2/3 shard optimizer / +gradients / +weights over d GPUs",
    "Korthikanti et al. 2022, Reducing Activation Recomputation (arXiv:2205.05198) Table 2, "
    "§4.2.3 (1F1B keeps p micro-batches on the first stage), §4.3 (fp32 logits 4sbv/t)",
)
SOURCES_INFER = (
    "KV cache = 2 x layers x kv_heads x head_dim x bytes per token (GQA: Ainslie et al. 2023, "
    "arXiv:2305.13245); MLA caches its 512+64 latent (DeepSeek-V3, arXiv:2412.19437 §2.1.1)",
    "Int4 storage: one fp16 scale per group of 128 weights (GPTQ arXiv:2210.17323 / AWQ "
    "arXiv:2306.00978 default group size); embeddings and the output layer stay 16-bit",
)
SOURCES_LORA = (
    "Hu et al. 2021, LoRA (arXiv:2106.09685) §4: trainable r x (d_in + d_out) per adapted matrix",
    "Dettmers et al. 2023, QLoRA (arXiv:2305.14314) §3: NF4 base with double quantization "
    "= 4.127 bits/param; adapters on all linear layers (§4)",
)


@dataclass(frozen=True)
class Stage:
    """Parameters held by one pipeline stage, before tensor/ZeRO sharding."""

    params: float
    linear_params: float
    layers: int
    in_flight_micro_batches: int
    holds_output_layer: bool
    expert_params: float = 0.0
    """Routed-expert parameters among ``params`` (what expert parallelism splits)."""


def layer_param_list(model: ModelSpec) -> list[int]:
    """Parameters of each layer in order (MoE models start with ``dense_layers`` dense ones)."""
    dense = model.layers if not model.is_moe else model.dense_layers
    return [model.dense_layer_params] * dense + [model.layer_params] * (model.layers - dense)


def stage_layout(model: ModelSpec, pipeline_parallel: int) -> tuple[Stage, ...]:
    """The distinct pipeline stages of ``model`` split ``pipeline_parallel`` ways, remembered
    per (model, p): the layout searches of the planner ask for the same few thousands of
    times per question (see :func:`_stage_layout`)."""
    return _stage_layout(model, pipeline_parallel)


@lru_cache(maxsize=1024)
def _stage_layout(model: ModelSpec, pipeline_parallel: int) -> tuple[Stage, ...]:
    """The distinct pipeline stages, first stage first and last stage last (one stage when
    pipeline_parallel == 1).

    Stage i of p holds ceil(L/p) layers (the last the remainder) and, under 1F1B, the
    activations of p - i micro-batches (Korthikanti et al. 2022, arXiv:2205.05198 §4.2.3); the
    first also holds the input embedding, the last the output layer. Middle stages are listed
    too: with MoE models whose first layers are dense (DeepSeek-V3), a middle stage of MoE
    layers is the heaviest, which a first/last-only view missed (it let 8 x H100 hold FP8
    DeepSeek-V3 with PP=8, where SGLang needs 2 x 8 H100).
    """
    per_layer = layer_param_list(model)
    out_table = model.vocab * model.hidden  # untied output, or Megatron's copy of a tied one
    final_norm = model.hidden * (2 if model.norm == "layernorm" else 1)
    inputs = model.embedding_params - (0 if model.tied_embeddings else out_table)
    if pipeline_parallel == 1:
        linear = _linear(model, per_layer)
        whole = Stage(
            float(model.params),
            float(linear),
            model.layers,
            1,
            True,
            _routed(model, 0, model.layers),
        )
        return (whole,)
    size = math.ceil(model.layers / pipeline_parallel)
    last_n = max(model.layers - size * (pipeline_parallel - 1), 1)
    stages = []
    for i in range(pipeline_parallel - 1):
        layers = per_layer[i * size : (i + 1) * size]
        extra = inputs if i == 0 else 0
        stages.append(
            Stage(
                float(extra + sum(layers)),
                float(_linear(model, layers)),
                len(layers),
                pipeline_parallel - i,
                False,
                _routed(model, i * size, i * size + len(layers)),
            )
        )
    last_layers = per_layer[-last_n:]
    stages.append(
        Stage(
            float(out_table + final_norm + sum(last_layers)),
            float(_linear(model, last_layers)),
            last_n,
            1,
            True,
            _routed(model, model.layers - last_n, model.layers),
        )
    )
    return tuple(dict.fromkeys(stages))


def _routed(model: ModelSpec, first: int, end: int) -> float:
    """Routed-expert parameters of layers [first, end) (the first dense_layers are dense)."""
    if not model.is_moe:
        return 0.0
    moe_layers = max(0, end - max(first, model.dense_layers))
    return float(
        moe_layers * model.experts * model.ffn_matrices * model.hidden * model.moe_ffn_hidden
    )


def _linear(model: ModelSpec, layers: list[int]) -> int:
    norms = 2 * model.hidden * (2 if model.norm == "layernorm" else 1)
    return sum(size - norms for size in layers)


def activation_bytes_per_layer(
    model: ModelSpec,
    *,
    micro_batch_size: int,
    sequence_length: int,
    tensor_parallel: int,
    recompute: str,
    flash_attention: bool,
) -> float:
    """Korthikanti et al. 2022 (arXiv:2205.05198) Table 2, 16-bit activations of one layer.

    sbh(34 + 5as/h) with nothing recomputed; flash attention or selective recompute drop the
    5as/h attention-score term (34 sbh); full recompute keeps only the layer input (2 sbh).
    With tensor parallelism, sequence parallelism is assumed, dividing everything by t (§4.2.2).
    """
    s, b, h, a = sequence_length, micro_batch_size, model.hidden, model.heads
    if recompute == "full":
        coefficient = 2.0
    elif recompute == "selective" or flash_attention:
        coefficient = 34.0
    else:
        coefficient = 34.0 + 5.0 * a * s / h
    return s * b * h * coefficient / tensor_parallel


def logits_bytes(
    model: ModelSpec, *, micro_batch_size: int, sequence_length: int, tensor_parallel: int
) -> float:
    """fp32 logits kept for the cross-entropy loss: 4sbv/t (Korthikanti et al. 2022 §4.3)."""
    return 4.0 * sequence_length * micro_batch_size * model.vocab / tensor_parallel


def check_parallelism(
    model: ModelSpec, gpus: int, tensor_parallel: int, pipeline_parallel: int
) -> int:
    """Validate the layout; returns the data-parallel degree gpus / (t x p)."""
    check_count("gpus", gpus)
    check_count("tensor_parallel", tensor_parallel, maximum=model.heads)
    check_count("pipeline_parallel", pipeline_parallel, maximum=model.layers)
    if gpus % (tensor_parallel * pipeline_parallel):
        reason = Msg("invalid.tp_pp_multiple", product=tensor_parallel * pipeline_parallel)
        field = "gpus"
        raise CalculatorInputError(field, gpus, reason)
    return gpus // (tensor_parallel * pipeline_parallel)


def check_expert_parallel(model: ModelSpec, expert_parallel: int, data_parallel: int) -> int:
    """An expert-parallel degree that divides the data-parallel degree and the experts."""
    check_count("expert_parallel", expert_parallel, maximum=max(1, model.experts))
    if expert_parallel > 1 and (data_parallel % expert_parallel or model.experts % expert_parallel):
        reason = Msg("invalid.expert_divides", data_parallel=data_parallel, experts=model.experts)
        field = "expert_parallel"
        raise CalculatorInputError(field, expert_parallel, reason)
    return expert_parallel


def check_zero_stage(zero_stage: int | str) -> int:
    """0-3, or "fsdp" (= 3, PyTorch FSDP FULL_SHARD)."""
    if isinstance(zero_stage, str):
        text = zero_stage.strip().lower()
        if text in {"fsdp", "full_shard"}:
            return 3
        if text.isdigit():
            zero_stage = int(text)
    if isinstance(zero_stage, str):
        field = "zero_stage"
        raise CalculatorInputError(field, zero_stage, Msg("invalid.zero_stage"))
    return check_count("zero_stage", zero_stage, minimum=0, maximum=3)


def state_bytes_per_param(precision: str, optimizer: str) -> tuple[float, float, float]:
    """(weight, gradient, optimizer) bytes per parameter for training."""
    precision = check_choice("precision", precision, TRAINING_PRECISIONS)
    optimizer = check_choice("optimizer", optimizer, OPTIMIZER_BYTES_MIXED)
    if precision == "fp32":
        return 4.0, 4.0, OPTIMIZER_BYTES_FP32[optimizer]
    return 2.0, 2.0, OPTIMIZER_BYTES_MIXED[optimizer]  # bf16, fp16 and fp8 (FP8_TRAINING_NOTE)


def training_formula(per_param: tuple[float, float, float], zero: int) -> Msg:
    w, g, o = per_param
    shard = {0: ("", "", ""), 1: ("", "", "/d"), 2: ("", "/d", "/d"), 3: ("/d", "/d", "/d")}[zero]
    return Msg(
        "formula.memory.training",
        w=w,
        g=g,
        o=o,
        w_shard=shard[0],
        g_shard=shard[1],
        o_shard=shard[2],
    )


def training_assumptions(
    recompute: str, flash: bool, offload: bool, zero: int, precision: str = "bf16"
) -> tuple[Msg, ...]:
    notes = [
        Msg("assume.memory.activations_16bit"),
        Msg("assume.memory.activation_coefficient"),
        Msg("assume.memory.pipeline_1f1b"),
        Msg(
            "assume.memory.recompute_flash",
            recompute=recompute_words(recompute),
            flash=Msg("assume.flash.on" if flash else "assume.flash.off"),
        ),
    ]
    if str(precision).lower() == "fp8":
        notes.append(FP8_TRAINING_NOTE)
    if recompute == "full":
        notes.append(Msg("assume.memory.full_recompute_kept"))
    if zero == 3:
        notes.append(Msg("assume.memory.zero3_buffers"))
    if offload:
        notes.append(Msg("assume.memory.zero_offload"))
    return tuple(notes)


def recompute_words(recompute: str) -> Msg:
    """The words for an activation-recompute mode ("none", "selective" or "full")."""
    return Msg(f"assume.recompute.{recompute if recompute in RECOMPUTE else 'selective'}")


def lora_trainable_params(model: ModelSpec, *, rank: int) -> int:
    """LoRA parameters with adapters on every linear layer: r x (d_in + d_out) per matrix.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> lora_trainable_params(lookup_model("Llama-2-7B"), rank=16)
        39976960
    """
    check_count("lora_rank", rank, maximum=65536)
    h = model.hidden
    if model.attention == "mla":
        qk = model.head_dim + model.qk_rope_head_dim
        attention = (
            (h + model.q_lora_rank)
            + (model.q_lora_rank + model.heads * qk)
            + (h + model.kv_lora_rank + model.qk_rope_head_dim)
            + (model.kv_lora_rank + model.heads * (model.head_dim + model.v_head_dim))
            + (model.heads * model.v_head_dim + h)
        )
    else:
        q, kv = model.heads * model.head_dim, model.kv_heads * model.head_dim
        attention = (h + q) + 2 * (h + kv) + (q + h)
    dense_mlp = model.ffn_matrices * (h + model.ffn_hidden)
    moe_mlp = (
        (model.experts + model.shared_experts) * model.ffn_matrices * (h + model.moe_ffn_hidden)
    )
    moe_layers = model.layers - model.dense_layers if model.is_moe else 0
    per_rank = (
        model.layers * attention + (model.layers - moe_layers) * dense_mlp + moe_layers * moe_mlp
    )
    return rank * per_rank


def fit_layouts(
    kind: str, model: ModelSpec, gpus_per_node: int, options: Mapping[str, object]
) -> list[tuple[int, int, int]]:
    """(tensor_parallel, pipeline_parallel, zero_stage) layouts min_gpus_to_fit tries."""
    tps = tensor_parallel_degrees(model, gpus_per_node)
    pps = pipeline_degrees(model)
    zeros = [0, 1, 2, 3]
    if kind == "inference":
        zeros = [0]
    if "tensor_parallel" in options:
        tps = [check_count("tensor_parallel", options["tensor_parallel"])]  # type: ignore[arg-type]
    if "pipeline_parallel" in options:
        pps = [check_count("pipeline_parallel", options["pipeline_parallel"])]  # type: ignore[arg-type]
    if "zero_stage" in options:
        zeros = [check_zero_stage(options["zero_stage"])]  # type: ignore[arg-type]
    # A depth that is not a power of two is a pipeline of whole tensor-parallel groups as wide
    # as the node allows (3 nodes of TP=8 for DeepSeek-V3 in BF16 on H20), as vLLM and
    # Megatron-LM deploy across nodes; inside a node, TP=1 x PP=5 is no layout anyone serves.
    widest = max(tps, default=1)
    return [(t, p, z) for t in tps for p in pps if t == widest or p & (p - 1) == 0 for z in zeros]


def pipeline_degrees(model: ModelSpec) -> list[int]:
    """Pipeline depths whose even split holds every stage a layer: stage i holds ceil(L/p)
    layers and the last the rest (`_stage_layout`), so p is kept when (p - 1) stages of
    ceil(L/p) leave at least one layer. Powers of two are not required: vLLM and Megatron-LM
    split layers unevenly (DeepSeek-V3's 61 layers run as PP=3), and a 3-node pipeline of 24
    GPUs is often the fewest that hold a model.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> pipeline_degrees(lookup_model("Llama-2-7B"))  # 32 layers: 9 stages of 4 leave none
        [1, 2, 3, 4, 5, 6, 7, 8, 11, 16, 32]
    """
    layers = model.layers
    return [p for p in range(1, layers + 1) if math.ceil(layers / p) * (p - 1) < layers]


def valid_tensor_parallel(model: ModelSpec, degree: int) -> bool:
    """True when ``degree`` can split the attention: it divides the query heads and either
    divides the KV heads or is a multiple of them (KV heads are then replicated), as vLLM and
    Megatron-LM require. Powers of two are not required.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> llama70 = lookup_model("Llama-2-70B")  # 64 heads, 8 KV heads
        >>> [t for t in range(1, 9) if valid_tensor_parallel(llama70, t)]
        [1, 2, 4, 8]
    """
    if degree < 1 or model.heads % degree:
        return False
    kv = model.kv_heads
    return kv % degree == 0 or degree % kv == 0


#: Largest tensor-parallel degree listed as possible in an error message: TP stays inside one
#: node, and the largest NVLink domains in the GPU table hold 8 (HGX) or 16 GPUs.
MAX_LISTED_TENSOR_PARALLEL = 16


def valid_tensor_parallel_degrees(model: ModelSpec) -> list[int]:
    """Every degree up to MAX_LISTED_TENSOR_PARALLEL that splits the attention
    (valid_tensor_parallel), for the message that refuses a stated one.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> valid_tensor_parallel_degrees(lookup_model("Llama-2-70B"))  # 64 heads, 8 KV
        [1, 2, 4, 8, 16]
    """
    top = min(model.heads, MAX_LISTED_TENSOR_PARALLEL)
    return [t for t in range(1, top + 1) if valid_tensor_parallel(model, t)]


#: Tensor-parallel degrees the calculators search and suggest on their own: the powers of two
#: real frameworks use (Megatron-LM, vLLM and DeepSpeed deployments run TP 1/2/4/8 within an
#: 8-GPU node). An odd degree such as 3 is valid for some head counts but is left to ZeRO-3 /
#: FSDP sharding instead; a degree the user sets is still honoured.
SEARCHED_TENSOR_PARALLEL = (1, 2, 4, 8)


def tensor_parallel_degrees(model: ModelSpec, gpus_per_node: int) -> list[int]:
    """Tensor-parallel degrees to search: in SEARCHED_TENSOR_PARALLEL, inside one node (they
    divide ``gpus_per_node``) and splitting the model's heads (valid_tensor_parallel).

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> tensor_parallel_degrees(lookup_model("GPT-3 175B"), 8)  # 96 heads: 3, 6 valid too
        [1, 2, 4, 8]
        >>> tensor_parallel_degrees(lookup_model("GPT-3 175B"), 3)
        [1]
    """
    return [
        t
        for t in SEARCHED_TENSOR_PARALLEL
        if gpus_per_node % t == 0 and valid_tensor_parallel(model, t)
    ]


#: Prompt tokens processed at once in a prefill chunk when serving (vLLM's chunked prefill
#: batches about 2,048 tokens per step); sizes the activation workspace of inference.
PREFILL_CHUNK_TOKENS = 2048


def inference_workspace_bytes(model: ModelSpec, *, batch_size: int, tensor_parallel: int) -> float:
    """Activation workspace of one serving step on one GPU (16-bit): a prefill chunk of
    PREFILL_CHUNK_TOKENS tokens through the widest layer (QKV/attention output ~4h plus the
    FFN's ffn_matrices x width, MoE: the active and shared experts), split over t, plus the fp32
    last-token logits of the batch. Small next to the weights (Llama-2-70B: ~0.3 GB per GPU at
    t = 2); the CUDA context, CUDA graphs, NCCL buffers and allocator slack are the 10% reserve
    of USABLE_FRACTION, not counted here.
    """
    width = model.ffn_hidden
    if model.is_moe:
        width = max(width, model.moe_ffn_hidden * (model.active_experts + model.shared_experts))
    per_token = (4 * model.hidden + model.ffn_matrices * width) * 2.0
    logits = 4.0 * batch_size * model.vocab
    return (PREFILL_CHUNK_TOKENS * per_token + logits) / tensor_parallel


def smallest_passing(test: Callable[[int], bool], top: int) -> int | None:
    """Smallest n in [1, top] with test(n), for a test that stays true once true; else None."""
    if top < 1 or not test(top):
        return None
    low, high = 1, top
    while low < high:
        mid = (low + high) // 2
        if test(mid):
            high = mid
        else:
            low = mid + 1
    return low


def largest_matrix_params(model: ModelSpec) -> int:
    """Parameters of the model's largest linear weight matrix (an FFN matrix, the attention
    projections or, for MoE, one expert's FFN matrix)."""
    h = model.hidden
    return max(h * model.ffn_hidden, h * model.moe_ffn_hidden, h * model.heads * model.head_dim)


def frozen_base_on_gpu(
    frozen_bytes: float, *, layers: int, t: int, d: int, zero: int, offload: bool
) -> tuple[float, float]:
    """(bytes on the GPU, bytes offloaded to the host) of a LoRA/QLoRA frozen base.

    ZeRO-3/FSDP shards it over d; with CPU offload on top (FSDP CPUOffload, as Answer.AI's
    FSDP-QLoRA does) the shards live in host memory and the GPU only holds the layers being
    gathered: the current one and the prefetched next one.
    """
    sharded = frozen_bytes / t / (d if zero == 3 else 1)
    if zero == 3 and offload:
        return min(sharded, 2.0 * frozen_bytes / layers / t), sharded
    return sharded, 0.0


def frozen_base_bytes(*, params: float, linear_params: float, method: str) -> float:
    """Bytes of a LoRA/QLoRA frozen base (or of one stage's share of it): the linear layers
    in BF16 (LoRA) or NF4 (QLoRA), embeddings and norms in 16 bits."""
    linear = WEIGHT_STORAGE_BYTES["nf4" if method == "qlora" else "bf16"]
    return linear_params * linear + (params - linear_params) * 2.0


def lora_notes(method: str, zero: int, offload: bool) -> tuple[Msg, ...]:
    """Assumption lines of a LoRA/QLoRA breakdown (dequantization, sharding, offload)."""
    notes = []
    if method == "qlora":
        notes.append(Msg("assume.memory.qlora_dequant"))
    if zero == 3:
        notes.append(Msg("assume.memory.fsdp_qlora"))
        if offload:
            notes.append(Msg("assume.memory.fsdp_cpu_offload"))
    return tuple(notes)


def frozen_base_text(linear_bytes: float) -> Msg:
    """Bytes per frozen parameter: "2 bytes/param" when linear layers are 16-bit like the rest,
    else "0.516 bytes/param on linear layers, 2 on the rest".

    Examples:
        >>> frozen_base_text(2.0).key, frozen_base_text(0.516).key
        ('formula.memory.frozen_uniform', 'formula.memory.frozen_split')
    """
    if linear_bytes == 2.0:
        return Msg("formula.memory.frozen_uniform", bytes=2.0)
    return Msg("formula.memory.frozen_split", linear=linear_bytes, rest=2.0)
