"""The answer to "每个token的KV cache多大": one token's cache, with its shape when the model
has a standard attention, then one sequence at the context evaluated."""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.records import Check, Scenario
from calculators.messages import Msg

__all__ = ["kv_per_token_answer"]


def kv_per_token_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """ "每个token的KV cache多大": one token's cache first, with its shape (2 (K and V) × layers
    × KV heads × head dim × bytes, `calculators.catalog.models.kv_cache_bytes_per_token`),
    then one sequence at the context evaluated (stated or assumed)."""
    per_sequence = figure(checks, "memory", "kv_cache_bytes_per_sequence")
    context = scenario.context_length
    if not per_sequence or not context:
        return None
    per_token = float(per_sequence) / context
    params = {"per_token": per_token, "per_sequence": per_sequence, "context": context}
    shape = _kv_shape(scenario.model, per_token)
    if shape is None:  # a latent cache (MLA) or a generic model: the size alone
        return Msg("answer.kv_per_token", **params)
    return Msg("answer.kv_per_token_shape", exact=per_token, **shape, **params)


def _kv_shape(model_name: str | None, per_token: float) -> dict[str, float] | None:
    """Layers, KV heads, head dim and bytes per element that multiply to `per_token`."""
    from calculators.catalog.models import lookup_model

    if model_name is None:
        return None
    model = lookup_model(model_name)
    if model.attention != "standard":
        return None
    elements = 2 * model.layers * model.kv_heads * model.head_dim
    dtype_bytes = per_token / elements
    if dtype_bytes not in (0.5, 1.0, 2.0, 4.0):
        return None
    return {
        "layers": model.layers,
        "kv_heads": model.kv_heads,
        "head_dim": model.head_dim,
        "dtype_bytes": dtype_bytes,
    }
