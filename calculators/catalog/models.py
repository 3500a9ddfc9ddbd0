"""Model catalog: transformer architectures with parameter counts computed from the shape.

Parameter counts are exact sums over the weight matrices, biases and norms of each architecture
(untied output layer, three SwiGLU matrices, GQA, MoE experts, DeepSeek's MLA), so they match
the released checkpoints. A bare size ("70B", "千亿") gets a documented generic Llama-like shape.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from types import MappingProxyType
from typing import Any

from calculators.catalog.names import build_alias_index, normalize_name, resolve
from calculators.validate import check_positive

__all__ = [
    "MAX_PARAMS",
    "MODELS",
    "ModelSpec",
    "generic_model",
    "kv_cache_bytes_per_token",
    "kv_cache_split",
    "lookup_model",
    "model_alias_index",
]

#: Largest parameter count the calculators accept (100 trillion).
MAX_PARAMS = 1e14


@dataclass(frozen=True)
class ModelSpec:
    """A decoder-only transformer's architecture.

    Dense models have ``experts == 0``. MoE layers hold ``experts`` routed experts of FFN size
    ``moe_ffn_hidden`` (``active_experts`` used per token) plus ``shared_experts``; the first
    ``dense_layers`` layers use a dense FFN of size ``ffn_hidden``. ``attention == "mla"`` is
    DeepSeek's multi-head latent attention (low-rank Q and KV projections).

    Examples:
        >>> m = lookup_model("llama2-70b")
        >>> m.params, m.kv_heads
        (68976648192, 8)
    """

    name: str
    family: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn_hidden: int
    ffn_matrices: int
    vocab: int
    tied_embeddings: bool
    position_embeddings: int = 0
    norm: str = "rmsnorm"
    qkv_bias: bool = False
    out_bias: bool = False
    mlp_bias: bool = False
    embedding_norm: bool = False
    context_length: int = 4096
    experts: int = 0
    active_experts: int = 0
    shared_experts: int = 0
    shared_expert_gate: bool = False
    """Qwen-MoE: a hidden -> 1 sigmoid gate on the shared expert in each MoE layer."""
    moe_ffn_hidden: int = 0
    dense_layers: int = 0
    attention: str = "standard"
    q_lora_rank: int = 0
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0
    v_head_dim: int = 0
    release_dtype: str = "bf16"
    """The format the weights are released in (config.json torch_dtype / quantization_config):
    "bf16", "fp16" or "fp8"; serving defaults to it where the GPU supports it."""
    release_dtype_source: str = ""
    params_published: float = 0.0
    active_params_published: float = 0.0
    training_tokens: float | None = None
    """Tokens of the model's own published pre-training run (None: not published)."""
    training_tokens_source: str = ""
    training_precision: str = "bf16"
    """The format of the model's own published pre-training run: "bf16", or "fp8" (DeepSeek-V3,
    FP8 mixed precision); pre-training defaults to it where the GPU has FP8 and the question
    names no precision."""
    pipeline_schedule: str = "1f1b"
    """The pipeline schedule of the published run: "1f1b" (Megatron-LM), or "dualpipe"
    (DeepSeek-V3 §3.2.1: forward and backward chunks paired so the expert all-to-all and the
    pipeline sends overlap with compute, and fewer bubbles)."""
    routed_nodes_max: int = 0
    """MoE node-limited routing: each token goes to at most this many nodes (DeepSeek-V3 §2.1.2
    and §3.2.2: 4), so its inter-node dispatch is capped at that many copies; 0: no limit."""
    training_recipe_source: str = ""
    notes: str = ""
    """What the shape leaves out and which way it errs (sliding-window or chunked attention
    counted as full attention, a vision encoder not counted, MXFP4 experts read as int4)."""
    approximations: tuple[str, ...] = ()
    """The same, as codes an answer states in its language (`serving.approx.<code>`):
    "kv_full_attention", "vision_encoder_excluded", "mxfp4_as_int4"."""
    aliases: tuple[str, ...] = ()
    sources: tuple[str, ...] = field(default=())

    @property
    def is_moe(self) -> bool:
        """True for mixture-of-experts models."""
        return self.experts > 1

    @cached_property
    def params(self) -> int:
        """Total parameters (all experts), computed from the architecture."""
        return self._count(self.experts)

    @cached_property
    def active_params(self) -> int:
        """Parameters used per token (routed experts replaced by the active ones)."""
        return self._count(self.active_experts)

    @cached_property
    def embedding_params(self) -> int:
        """Input embedding + untied output layer + learned positions + embedding norm."""
        tables = self.vocab * self.hidden * (1 if self.tied_embeddings else 2)
        extra = self._norm_size() if self.embedding_norm else 0
        return tables + self.position_embeddings * self.hidden + extra

    @cached_property
    def layer_params(self) -> int:
        """Parameters of one (the largest) transformer layer."""
        moe = self.layers > self.dense_layers and self.is_moe
        return self._layer(self.experts) if moe else self._layer(0)

    @cached_property
    def dense_layer_params(self) -> int:
        """Parameters of one layer with a dense FFN of width ``ffn_hidden``."""
        return self._layer(0)

    def _count(self, routed: int) -> int:
        moe_layers = self.layers - self.dense_layers if self.is_moe else 0
        dense_layers = self.layers - moe_layers
        body = dense_layers * self._layer(0) + moe_layers * self._layer(routed)
        return self.embedding_params + body + self._norm_size()

    def _norm_size(self) -> int:
        return self.hidden * (2 if self.norm == "layernorm" else 1)

    def _layer(self, routed: int) -> int:
        if routed:
            shared = self.shared_experts * self._mlp(self.moe_ffn_hidden)
            router = self.hidden * (self.experts + (1 if self.shared_expert_gate else 0))
            ffn = routed * self._mlp(self.moe_ffn_hidden) + shared + router
        else:
            ffn = self._mlp(self.ffn_hidden)
        return self._attention() + ffn + 2 * self._norm_size()

    def _mlp(self, width: int) -> int:
        bias = (width * (self.ffn_matrices - 1) + self.hidden) if self.mlp_bias else 0
        return self.ffn_matrices * self.hidden * width + bias

    def _attention(self) -> int:
        if self.attention == "mla":
            return self._mla_attention()
        q_width, kv_width = self.heads * self.head_dim, self.kv_heads * self.head_dim
        weights = self.hidden * (q_width + 2 * kv_width) + q_width * self.hidden
        bias = (q_width + 2 * kv_width if self.qkv_bias else 0) + (
            self.hidden if self.out_bias else 0
        )
        return weights + bias

    def _mla_attention(self) -> int:
        # DeepSeek-V2/V3 MLA (arXiv:2412.19437 §2.1.1): low-rank Q (q_a, norm, q_b), joint KV latent
        # (kv_a with the decoupled RoPE key, norm, kv_b to per-head keys and values), output.
        # q_lora_rank 0 is a full-rank Q projection (DeepSeek-V2-Lite, arXiv:2405.04434 App. B).
        qk_dim = self.head_dim + self.qk_rope_head_dim
        q_rank = self.q_lora_rank
        if q_rank:
            q = self.hidden * q_rank + q_rank + q_rank * self.heads * qk_dim
        else:
            q = self.hidden * self.heads * qk_dim
        kv = (
            self.hidden * (self.kv_lora_rank + self.qk_rope_head_dim)
            + self.kv_lora_rank
            + self.kv_lora_rank * self.heads * (self.head_dim + self.v_head_dim)
        )
        return q + kv + self.heads * self.v_head_dim * self.hidden


def kv_cache_bytes_per_token(model: ModelSpec, *, dtype_bytes: float) -> float:
    """KV-cache bytes per token over all layers: 2 x layers x kv_heads x head_dim x bytes.

    Uses the KEY/VALUE heads (GQA), not the query heads. DeepSeek MLA caches its compressed
    latent instead: layers x (kv_lora_rank + qk_rope_head_dim) x bytes.

    Examples:
        >>> kv_cache_bytes_per_token(lookup_model("Llama-2-70B"), dtype_bytes=2)
        327680.0
        >>> kv_cache_bytes_per_token(lookup_model("DeepSeek-V3"), dtype_bytes=2)
        70272.0
    """
    check_positive("dtype_bytes", dtype_bytes, maximum=8)
    if model.attention == "mla":
        return float(model.layers * (model.kv_lora_rank + model.qk_rope_head_dim) * dtype_bytes)
    return float(2 * model.layers * model.kv_heads * model.head_dim * dtype_bytes)


def kv_cache_split(model: ModelSpec, *, tensor_parallel: int) -> int:
    """GPUs of a tensor-parallel group that one sequence's KV cache is divided over.

    GQA/MHA KV is split by KV heads: over min(t, kv_heads) GPUs; a larger t holds each head on
    t / kv_heads GPUs (vLLM replicates KV heads when TP > num_key_value_heads; Megatron-LM
    likewise). MLA caches one compressed latent per token shared by every head (DeepSeek-V2,
    arXiv:2405.04434 §2.1.2), so no split by heads exists: each TP rank holds the whole latent
    of its sequences (vLLM and SGLang MLA attention under TP; SGLang's data-parallel attention
    avoids the copies): 1.

    Examples:
        >>> kv_cache_split(lookup_model("Llama-2-70B"), tensor_parallel=16)
        8
        >>> kv_cache_split(lookup_model("DeepSeek-V3"), tensor_parallel=8)
        1
    """
    return 1 if model.attention == "mla" else min(tensor_parallel, model.kv_heads)


# Layers of known Llama-like models by size (Llama 2/3 papers, GPT-3 Table 2.1); a generic model
# takes its depth from this table, interpolated in log(params).
_DEPTH_TABLE = (
    (1e8, 12),
    (1e9, 22),
    (7e9, 32),
    (13e9, 40),
    (34e9, 48),
    (70e9, 80),
    (175e9, 96),
    (405e9, 126),
    (1e12, 160),
    (1e14, 400),
)
_GENERIC_VOCAB = 32000
#: A generic model's heads are a multiple of this: the tensor-parallel degrees asked for (1, 2,
#: 4, 8 inside a node) all divide it.
_TP_HEADS = 8


def _generic_layers(params: float) -> int:
    sizes = [math.log(size) for size, _ in _DEPTH_TABLE]
    x = min(max(math.log(params), sizes[0]), sizes[-1])
    i = min(max(bisect.bisect_left(sizes, x), 1), len(sizes) - 1)
    (s0, l0), (s1, l1) = _DEPTH_TABLE[i - 1], _DEPTH_TABLE[i]
    frac = (x - math.log(s0)) / (math.log(s1) - math.log(s0))
    return max(2, round(l0 + frac * (l1 - l0)))


def generic_model(*, params: float) -> ModelSpec:
    """A Llama-like model of about ``params`` parameters, for a bare size ("70B", "千亿").

    Shape: depth interpolated (in log params) from known models (7B: 32 layers, 70B: 80,
    175B: 96, 405B: 126); hidden from params ~ 12 x layers x hidden^2, rounded to a multiple of
    8 heads (head_dim 128 from 1B up, 64 below, as Qwen2.5-0.5B), so that the query heads, and
    the 8 KV heads (GQA) above 30B or all heads (multi-head) below, split evenly over tensor
    parallelism of 1, 2, 4 or 8 (Megatron-LM shards attention by heads; the published models
    keep head counts that divide 8: Llama 2 7B 32, 13B 40, 70B 64; Qwen2.5-14B 40); SwiGLU
    (3 matrices) with the FFN width solved so the total matches ``params``; vocab 32000, untied.
    Below about 1e8 parameters the shape is floored and the count overshoots.

    Raises:
        CalculatorInputError: params <= 0, > 1e14, NaN or infinite.

    Examples:
        >>> m = generic_model(params=70e9)
        >>> m.layers, m.hidden, m.kv_heads, abs(m.params / 70e9 - 1) < 0.01
        (80, 8192, 8, True)
    """
    target = check_positive("params", params, maximum=MAX_PARAMS)
    layers = _generic_layers(target)
    # Solve 12 L h^2 + 2 V h = P for h, then round to a multiple of 128.
    # GQA models (Llama-2-70B) spend about 12.75 h^2 per layer, multi-head ones 12 h^2.
    gqa = target > 30e9
    a, b = (12.75 if gqa else 12.0) * layers, 2.0 * _GENERIC_VOCAB
    head_dim = 128 if target >= 1e9 else 64
    step = _TP_HEADS * head_dim  # heads a multiple of 8: TP 1, 2, 4 and 8 all split them
    hidden = max(step, round((-b + math.sqrt(b * b + 4 * a * target)) / (2 * a) / step) * step)
    heads = hidden // head_dim
    kv_heads = 8 if gqa else heads
    shape = ModelSpec(
        name=f"generic {_size_label(target)}",
        family="generic",
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn_hidden=128,
        ffn_matrices=3,
        vocab=_GENERIC_VOCAB,
        tied_embeddings=False,
        params_published=target,
        active_params_published=target,
        sources=(
            "Generic Llama-like shape (calculators.catalog.models.generic_model): depth from "
            "Llama 2 (arXiv:2307.09288) / Llama 3 (arXiv:2407.21783) / GPT-3 "
            "(arXiv:2005.14165) sizes; SwiGLU FFN solved to match the requested size",
        ),
    )
    fixed = shape.params - layers * shape.ffn_matrices * hidden * shape.ffn_hidden
    # a multiple of 32 (TP 8 splits it), fine enough to land within 0.1% of the size asked
    ffn = max(128, round((target - fixed) / (3 * layers * hidden) / 32) * 32)
    return _replace(shape, ffn_hidden=ffn)


def _replace(model: ModelSpec, **changes: Any) -> ModelSpec:
    import dataclasses

    return dataclasses.replace(model, **changes)


def _size_label(params: float) -> str:
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if params >= factor:
            return f"{params / factor:.3g}{suffix}"
    return f"{params:.3g}"


def _model_from_row(row: Mapping[str, Any]) -> ModelSpec:
    values = {k: v for k, v in row.items() if not k.startswith("_")}
    values["aliases"] = tuple(values.get("aliases", ()))
    values["sources"] = tuple(values.get("sources", ()))
    values["approximations"] = tuple(values.get("approximations", ()))
    return ModelSpec(**values)


def _load_models() -> dict[str, ModelSpec]:
    path = resources.files("calculators.catalog").joinpath("data").joinpath("models.json")
    rows = json.loads(path.read_text(encoding="utf-8"))["models"]
    return {m.name: m for m in map(_model_from_row, rows)}


#: The shipped models, plus user cards added through `calculators.catalog.extend`.
_MODELS: dict[str, ModelSpec] = _load_models()
MODELS: Mapping[str, ModelSpec] = MappingProxyType(_MODELS)
_MODEL_ALIASES: dict[str, str] = build_alias_index(
    ((m.name, m.aliases) for m in MODELS.values()), "model"
)
_MODEL_INDEX: Mapping[str, str] = MappingProxyType(_MODEL_ALIASES)


def lookup_model(name: str) -> ModelSpec:
    """The catalog model for a name or alias, ignoring case, spaces and hyphens.

    Raises:
        UnknownNameError: not in the catalog; ``suggestions`` holds the closest entries.

    Examples:
        >>> lookup_model("gpt3").name
        'GPT-3 175B'
        >>> lookup_model("千问2.5-72B").name
        'Qwen2.5-72B'
        >>> lookup_model("meta-llama/Llama-2-70b-chat-hf").name
        'Llama-2-70B'
    """
    text = str(name)
    cleaned = _strip_checkpoint_suffixes(text)
    if cleaned != text and normalize_name(cleaned) in _MODEL_INDEX:
        return MODELS[_MODEL_INDEX[normalize_name(cleaned)]]
    return MODELS[resolve(text, _MODEL_INDEX, "model", MODELS)]


_SUFFIXES = re.compile(r"([-_ ]?(hf|chat|instruct|base|it|v0\.1|fp16|bf16))+$", re.IGNORECASE)


def _strip_checkpoint_suffixes(name: str) -> str:
    """ "meta-llama/Llama-2-70b-chat-hf" -> "Llama-2-70b": drop the org and variant suffixes."""
    return _SUFFIXES.sub("", name.strip().rsplit("/", 1)[-1])


def model_alias_index() -> Mapping[str, str]:
    """Normalized alias -> canonical model name (normalize text with ``normalize_name``)."""
    return _MODEL_INDEX
