"""A Hugging Face ``config.json`` as a model card row (the fields of ``data/models.json``).

Reads the keys the transformers configurations of Llama, Mistral/Mixtral, Qwen2 / Qwen2-MoE,
DeepSeek-V2/V3 and GPT-style models use; other keys are ignored (a config carries many that
do not change the parameter count). No I/O: the caller parses the JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators.messages import Msg
from calculators.validate import fail

__all__ = ["model_row_from_hf_config"]

#: config.json key -> model card field (first key found wins).
_KEYS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("layers", ("num_hidden_layers", "n_layer", "num_layers")),
    ("hidden", ("hidden_size", "n_embd", "d_model")),
    ("heads", ("num_attention_heads", "n_head")),
    ("kv_heads", ("num_key_value_heads", "multi_query_group_num")),
    ("head_dim", ("head_dim",)),
    ("ffn_hidden", ("intermediate_size", "ffn_hidden_size", "n_inner")),
    ("vocab", ("vocab_size", "padded_vocab_size")),
    ("context_length", ("max_position_embeddings", "seq_length", "n_positions")),
    ("experts", ("num_local_experts", "n_routed_experts", "num_experts")),
    ("active_experts", ("num_experts_per_tok", "moe_topk")),
    ("shared_experts", ("n_shared_experts",)),
    ("moe_ffn_hidden", ("moe_intermediate_size",)),
    ("dense_layers", ("first_k_dense_replace",)),
    ("q_lora_rank", ("q_lora_rank",)),
    ("kv_lora_rank", ("kv_lora_rank",)),
    ("qk_rope_head_dim", ("qk_rope_head_dim",)),
    ("v_head_dim", ("v_head_dim",)),
)
#: Architectures whose attention projections carry biases the config does not mention.
_QKV_BIAS = frozenset({"qwen2", "qwen2_moe", "qwen", "chatglm"})
_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "bf16"}


def model_row_from_hf_config(config: Mapping[str, Any], *, name: str) -> dict[str, Any]:
    """The model card row that ``config`` describes, named ``name`` (checked by add_model).

    Examples:
        >>> row = model_row_from_hf_config({"model_type": "llama", "hidden_size": 4096,
        ...     "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
        ...     "vocab_size": 32000, "torch_dtype": "float16"}, name="my-llama")
        >>> row["layers"], row["kv_heads"], row["release_dtype"], row["tied_embeddings"]
        (32, 32, 'fp16', False)
    """
    if not isinstance(config, Mapping) or "hidden_size" not in config and "n_embd" not in config:
        fail("config.json", name, Msg("invalid.not_hf_config"))
    row: dict[str, Any] = {"name": name, "family": str(config.get("model_type") or "user")}
    for field, keys in _KEYS:
        value = next((config[k] for k in keys if config.get(k) is not None), None)
        if value is not None:
            row[field] = value
    row["kv_heads"] = row.get("kv_heads") or row.get("heads")
    row["tied_embeddings"] = bool(config.get("tie_word_embeddings", False))
    row["qkv_bias"] = bool(config.get("attention_bias", row["family"] in _QKV_BIAS))
    row["mlp_bias"] = bool(config.get("mlp_bias", False))
    _moe_shape(config, row)
    if row.get("kv_lora_rank"):
        row["attention"] = "mla"
        row["head_dim"] = config.get("qk_nope_head_dim") or row.get("head_dim")  # MLA: no-RoPE part
    row["release_dtype"] = _release_dtype(config)
    row["release_dtype_source"] = f"{name} config.json"
    row["sources"] = [f"{name} config.json (Hugging Face model repository)"]
    return row


def _moe_shape(config: Mapping[str, Any], row: dict[str, Any]) -> None:
    """Mixtral keeps the expert size in intermediate_size; Qwen-MoE states its shared expert
    as one wide FFN (shared_expert_intermediate_size = shared experts x expert size)."""
    if not row.get("experts"):
        return
    if not row.get("moe_ffn_hidden"):
        row["moe_ffn_hidden"] = row.get("ffn_hidden")
    shared = config.get("shared_expert_intermediate_size")
    if shared and row["moe_ffn_hidden"]:
        row["shared_experts"] = int(shared) // int(row["moe_ffn_hidden"])
        row["shared_expert_gate"] = True


def _release_dtype(config: Mapping[str, Any]) -> str:
    quant = config.get("quantization_config")
    if isinstance(quant, Mapping) and str(quant.get("quant_method", "")).lower() == "fp8":
        return "fp8"
    return _DTYPES.get(str(config.get("torch_dtype", "bfloat16")), "bf16")
