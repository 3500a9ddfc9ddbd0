"""The inverse questions answered by the calculators' solvers, on the evaluated scenario.

"最多支持多少并发" → `calculators.max_concurrency` (memory: KV cache of each sequence beside the
weights of a replica). The scenario is the one evaluated (defaults filled, the layout chosen),
so the figure agrees with the checks shown under it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from assistant.calculate.criterion import MORE_TOKENS
from assistant.calculate.kv_cache_said import kv_held
from assistant.i18n import join_sentences, text
from assistant.records import Ask, Language, Scenario
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
)
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from assistant.calculate.defaults import Resolved
    from calculators.catalog.hardware import GPU
    from calculators.catalog.models import ModelSpec
    from calculators.serving_load import InFlight
    from calculators.serving_solvers import Concurrency

__all__ = [
    "at_full_batch",
    "at_longest_context",
    "at_most_sequences",
    "concurrency",
    "longest_context",
    "max_sequences",
    "model_and_gpu",
    "serving_inputs",
    "solved",
    "weight_dtype",
]

_DTYPES = {"int4": "int4", "int8": "int8", "fp8": "fp8", "fp16": "fp16", "bf16": "bf16"}


def model_and_gpu(scenario: Scenario) -> tuple[ModelSpec, GPU] | None:
    """The catalog (or generic) model and the GPU of a resolved scenario, or None."""
    from assistant.calculate.stand_in import stated_gpu
    from calculators.catalog.models import generic_model, lookup_model
    from calculators.errors import CalculatorInputError

    try:
        gpu = stated_gpu(scenario)
        if scenario.model:
            return lookup_model(scenario.model), gpu
        if scenario.params:
            return generic_model(params=scenario.params), gpu
    except (CalculatorInputError, KeyError, ValueError):
        return None
    return None


def weight_dtype(scenario: Scenario) -> str | None:
    """The stated weight format in the calculators' names (None: as released)."""
    return _DTYPES.get(scenario.precision or "")


def serving_inputs(s: Scenario) -> dict[str, Any]:
    """The serving calculators' inputs a scenario states (`gpus_for_target`, `streams_within`):
    the context, the prompt and output clipped to it, the node size, the formats (a KV cache of
    None: 16-bit beside any weights, `kv_format`), the links and the stated split."""
    from calculators.catalog.hardware import lookup_link

    context = s.context_length or DEFAULT_CONTEXT_TOKENS
    ports = _ports(s)
    return {
        **({"nics_per_node": ports} if ports is not None else {}),
        "context_length": context,
        "prompt_tokens": min(s.prompt_tokens or DEFAULT_PROMPT_TOKENS, context),
        "output_tokens": min(s.output_tokens or DEFAULT_OUTPUT_TOKENS, context),
        "gpus_per_node": s.gpus_per_node or DEFAULT_GPUS_PER_NODE,
        "weight_dtype": weight_dtype(s),
        "kv_dtype": s.kv_dtype,
        "intra_link": lookup_link(s.intra_link) if s.intra_link else None,
        "inter_link": lookup_link(s.inter_link) if s.inter_link else None,
        "tensor_parallel": s.tensor_parallel,
        "pipeline_parallel": s.pipeline_parallel,
    }


def in_flight_on(
    s: Scenario,
    split: tuple[int, int],
    *,
    replicas: int,
    batch_limit: int,
    target_qps: float | None = None,
    target_tokens_per_second: float | None = None,
) -> InFlight | None:
    """`calculators.in_flight` on ``replicas`` replicas of a (TP, PP) ``split`` holding
    ``batch_limit`` sequences each, at the scenario's load (its users streaming together and
    a stated rate): the sequences in flight and each one's speed, prefill taking its share."""
    from calculators import in_flight, serving_dtype
    from calculators.errors import CalculatorInputError
    from calculators.serving_solvers import kv_format

    found = model_and_gpu(s)
    if found is None:
        return None
    weight = weight_dtype(s) or serving_dtype(model=found[0], gpu=found[1])
    inputs = serving_inputs(s) | {
        "tensor_parallel": split[0],
        "pipeline_parallel": split[1],
        "weight_dtype": weight,
        "kv_dtype": s.kv_dtype or kv_format(weight, found[1]),
    }
    try:
        return in_flight(
            model=found[0],
            gpu=found[1],
            replicas=replicas,
            batch_limit=batch_limit,
            target_qps=target_qps,
            target_tokens_per_second=target_tokens_per_second,
            concurrency=s.concurrency,
            **inputs,
        )
    except (CalculatorInputError, KeyError, ValueError):
        return None


def _ports(s: Scenario) -> int | None:
    """The ports per node a stated (or assumed) inter-node link is counted with, as the plan
    counts them (`layouts._ports`): stated, else cabled as the card's clusters are; None
    with no link (the calculators then take the card's typical fabric and its ports)."""
    from calculators.catalog.hardware import lookup_gpu, lookup_link
    from calculators.planner.fabrics import ports_per_node

    if s.nics_per_node or s.inter_link is None or s.gpu is None:
        return s.nics_per_node
    try:
        gpu = lookup_gpu(s.gpu)
    except (KeyError, ValueError):
        return None
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    return ports_per_node(gpu, lookup_link(s.inter_link), per_node)


def max_sequences(scenario: Scenario) -> int | None:
    """The most concurrent sequences of a resolved inference scenario (None: not solvable)."""
    result = _max_concurrency(scenario)
    return result.sequences if result is not None and result.sequences > 0 else None


def _max_concurrency(
    scenario: Scenario, weight: str | None = None, kv: str | None = None
) -> Concurrency | None:
    from calculators import max_concurrency
    from calculators.errors import CalculatorInputError

    found = model_and_gpu(scenario)
    if found is None or scenario.task != "inference":
        return None
    model, gpu = found
    weights = weight or weight_dtype(scenario)
    try:
        return max_concurrency(
            model=model,
            gpu=gpu,
            gpus=scenario.gpu_count or 1,
            context_length=scenario.context_length or DEFAULT_CONTEXT_TOKENS,
            gpus_per_node=scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE,
            weight_dtype=weights,
            kv_dtype=kv or _kv_dtype(scenario, gpu, weights),
            tensor_parallel=scenario.tensor_parallel,
            pipeline_parallel=scenario.pipeline_parallel,
        )
    except (CalculatorInputError, ValueError):
        return None


def _kv_dtype(scenario: Scenario, gpu: GPU, weights: str | None) -> str:
    """The KV cache the checks evaluate (`to_plan`: 16-bit unless the question states one),
    so a count or a length found is one the memory check passes."""
    from assistant.calculate.layouts import serving_kv_dtype

    compute = scenario.precision if weights is None else weights
    return serving_kv_dtype(scenario.kv_dtype, compute or gpu.default_training_precision(), gpu)


def _counted(
    key: str, result: Concurrency, *, latent: bool = False, kv_heads: int = 0, **more: Param
) -> Msg:
    """The count and one sequence's KV cache: its share on each GPU times the GPUs it is split
    over: min(t, `kv_heads`) (past the KV heads each is held twice or more, not split
    further), or (an MLA `latent`, whole on every tensor-parallel GPU) the pipeline stages."""
    heads = min(result.tensor_parallel, kv_heads or result.tensor_parallel)
    split = result.pipeline_parallel * (1 if latent else heads)
    return Msg(
        key,
        count=result.sequences,
        context=result.context_length,
        replicas=result.replicas,
        per_sequence=result.kv_bytes_per_sequence_per_gpu * split,
        **more,
    )


def _latent_copies(scenario: Scenario, result: Concurrency) -> int:
    """MLA under tensor parallelism: the compressed latent (DeepSeek-V3 §2.1.1) is not split by
    heads, so each of the t GPUs of a replica holds every sequence's whole latent (vLLM's TP
    attention; `serving_memory` counts it so): t copies; 0 for other attention or t = 1."""
    found = model_and_gpu(scenario)
    if found is None or found[0].attention != "mla" or result.tensor_parallel == 1:
        return 0
    return result.tensor_parallel


def _mla_counted(scenario: Scenario, result: Concurrency) -> Msg | None:
    """The count with the latent said once per sequence and its copies; with data-parallel
    attention (SGLang `--enable-dp-attention`) each GPU keeps only its own sequences' latent,
    about t times as many. None when the latent is not copied."""
    copies = _latent_copies(scenario, result)
    if not copies:
        return None
    dp_count = result.sequences * copies
    return _counted(
        "answer.max_concurrency_mla", result, latent=True, copies=copies, dp_count=dp_count
    )


def concurrency(scenario: Scenario, *, open_format: bool = False) -> tuple[Msg, ...]:
    """Most concurrent sequences at the scenario's context on its GPUs and layout, and what
    the format a serving engineer tries next holds: an 8-bit KV cache (FP8, INT8 without FP8;
    vLLM `kv_cache_dtype`) when some fit and the KV format is open (none stated, and no 16-bit
    precision, which sets it: `verdict.SERVING_FORMATS`); with `open_format` (no precision
    stated) and none fitting, the first smaller weight format in which any fit, alone and
    then with the 8-bit KV cache when that is open too."""
    result = _max_concurrency(scenario)
    if result is None:
        return ()
    found = model_and_gpu(scenario)
    heads = found[0].kv_heads if found is not None else 0
    said = (
        _mla_counted(scenario, result)
        or _counted(
            "answer.max_concurrency",
            result,
            kv_heads=heads,
            held=kv_held(found[0], result.tensor_parallel, result.pipeline_parallel)
            if found is not None
            else "",
        )
        if result.sequences
        else Msg(
            "answer.max_concurrency_none",
            context=result.context_length,
            dtype=result.weight_dtype.upper(),
        )
    )
    if found is None:
        return (said,)
    kv8 = _kv8(scenario, found[1], open_format=open_format)
    for weight, kv in _next_formats(result, found[1], kv8, open_format=open_format):
        other = _max_concurrency(scenario, weight, kv)
        if other is not None and other.sequences > result.sequences:
            key, label = _format_said(result, weight, kv)
            latent = bool(_latent_copies(scenario, other))
            return said, _counted(key, other, latent=latent, kv_heads=heads, dtype=label)
    return (said,)


def _kv8(scenario: Scenario, gpu: GPU, *, open_format: bool) -> str | None:
    """The 8-bit KV cache a serving engineer adds when the question leaves the KV format open
    (none stated, and no 16-bit precision, which sets it: `verdict.SERVING_FORMATS`): FP8 where
    the card has it (vLLM `--kv-cache-dtype fp8`), INT8 elsewhere; None when it is not open."""
    from assistant.calculate.verdict import SERVING_FORMATS

    if scenario.kv_dtype is not None:
        return None
    if not open_format and scenario.precision in SERVING_FORMATS:
        return None
    return "fp8" if gpu.supports("fp8") else "int8"


def _next_formats(
    result: Concurrency, gpu: GPU, kv8: str | None, *, open_format: bool
) -> tuple[tuple[str, str | None], ...]:
    """Formats tried after the evaluated one, simplest first: the 8-bit KV cache alone; when
    no sequence fits and the precision is open, smaller weights alone, then smaller weights
    with the 8-bit cache (int4 beside a 16-bit 8k cache can still miss a 24 GB card)."""
    weights: tuple[str, ...] = ()
    if not result.sequences and open_format:
        weights = ("fp8" if gpu.supports("fp8") else "int8", "int4")
    options: list[tuple[str, str | None]] = [(w, None) for w in weights]
    if kv8 is not None:
        options += [(result.weight_dtype, kv8), *((w, kv8) for w in weights)]
    return tuple(options)


def _format_said(result: Concurrency, weight: str, kv: str | None) -> tuple[str, Param]:
    """The message key and the format label of a count found in another format."""
    if kv is not None and weight == result.weight_dtype:
        return "answer.max_concurrency_kv8", kv.upper()
    if kv is None:
        return "answer.max_concurrency_in_format", weight.upper()
    label = Msg("solve.format.weights_kv", dtype=weight.upper(), kv=kv.upper())
    return "answer.max_concurrency_in_format", label


#: "throughput", "吞吐", "in total", "max tokens/s": the deployment's rate, all sequences together
_TOTAL_RATE = re.compile(
    r"throughput|吞吐|\btotal\b|aggregate|总|(?:max(?:imum)?|peak|最大|最高)\s*(?:tok|token|速度)",
    re.IGNORECASE,
)


_PER_TOKENS = re.compile(
    r"per (?:1m|one million|million|1,000,000|1k|thousand|1,000) (?:output |generated )?tok|"
    r"/\s*(?:1m|m|1k) ?tok|per token|每百万|每千\s*(?:个\s*)?token|百万\s*token|每\s*token",
    re.IGNORECASE,
)

#: "at full load", "满载", "flat out": the deployment as loaded as memory allows
#: A comparison asked on total tokens/s ("higher throughput", "哪个吞吐高").
#: "more tokens/s", "每秒生成的token更多" ask the same of serving options: capacity, not one stream.
_THROUGHPUT = re.compile(
    r"throughput|吞吐|tokens?/s in total|total tokens?/s|"
    rf"{MORE_TOKENS}",
    re.IGNORECASE,
)

_FULL_LOAD = re.compile(
    r"满载|满负[荷载]|跑满|full(?:y)? load|fully loaded|flat out|at (?:full )?capacity",
    re.IGNORECASE,
)


def at_full_batch(ask: Ask, question: str, scenario: Scenario) -> bool:
    """A throughput question with no load stated ("throughput of Llama-3.1-70B on 8 H100") is
    answered at the most sequences that fit, as a serving engine batches them, and so is a
    cost per token ("cost per 1M tokens") or a "which is cheaper" comparison of priced serving
    options; "how many tokens/s" alone is one sequence's generation speed, and a stated
    concurrency, batch or target is evaluated as stated. "At full load" ("满载") asks for
    the most sequences that fit whatever the figure asked: the power of all GPUs is divided
    by all their tokens, not by one stream's."""
    from assistant.calculate.targets import has_target

    stated = scenario.concurrency or scenario.batch_size or has_target(scenario)
    if stated:
        return False
    if ask in ("cost", "energy_cost", "power", "throughput") and _FULL_LOAD.search(question):
        return True
    if ask in ("cost", "energy_cost", "power"):  # "cost per million tokens": as deployed
        return bool(_PER_TOKENS.search(question))
    if ask == "compare" and scenario.price_per_gpu_hour is not None:
        from assistant.calculate.compare import CHEAPER

        if CHEAPER.search(question):  # serving cost is compared per token, at capacity
            return True
    if ask in ("request_rate", "token_volume"):  # "how many requests a second", "tokens a day"
        return True
    if ask == "compare":  # "哪个吞吐更高": the tokens/s each delivers batched, not one stream's
        return bool(_THROUGHPUT.search(question))
    return ask == "throughput" and bool(_TOTAL_RATE.search(question))


def at_most_sequences(resolved: Resolved, lang: Language) -> Resolved:
    """ "最多多少并发" with no batch stated: the figures under the answer are for the most
    sequences that fit (memory full, speed per sequence at that batch), not for one."""
    s = resolved.scenario
    count = max_sequences(s) if s.concurrency is None else None
    if count is None or s.batch_size not in (None, 1):
        return resolved
    one = text(Msg("answer.default_one_sequence"), lang)
    kept = tuple(a for a in resolved.assumptions if a != one)
    note = text(Msg("answer.at_max_concurrency", count=count), lang)
    return replace(resolved, scenario=replace(s, batch_size=count), assumptions=(note, *kept))


#: Shortest context tried, and the step the longest one is found to.
_CONTEXT_STEP = 256


def longest_context(scenario: Scenario) -> tuple[int, int] | None:
    """(the longest context that fits the scenario's sequences, the model's own limit), or None
    when not even a short one fits; bisected on the concurrency solver, so it agrees with the
    memory check."""
    found = model_and_gpu(scenario)
    if found is None or scenario.task != "inference":
        return None
    limit = found[0].context_length or DEFAULT_CONTEXT_TOKENS
    need = scenario.concurrency or scenario.batch_size or 1

    def fits(context: int) -> bool:
        result = _max_concurrency(replace(scenario, context_length=context))
        return result is not None and result.sequences >= need

    if not fits(_CONTEXT_STEP):
        return None
    if fits(limit):
        return limit, limit
    low, high = _CONTEXT_STEP, limit
    while high - low > _CONTEXT_STEP:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low, limit


def at_longest_context(resolved: Resolved, lang: Language) -> Resolved:
    """ "What's the max context …": the figures under the answer are for the longest context
    that fits, not the default 4,096."""
    s = resolved.scenario
    found = longest_context(s)
    if found is None:
        return resolved
    default = text(Msg("default.context", context=s.context_length or 0), lang)
    kept = tuple(a for a in resolved.assumptions if a != default)
    note = text(Msg("answer.at_max_context", context=found[0]), lang)
    return replace(
        resolved, scenario=replace(s, context_length=found[0]), assumptions=(note, *kept)
    )


def _context_answer(scenario: Scenario) -> Msg | None:
    found = longest_context(scenario)
    if found is None:
        return None
    context, limit = found
    sequences = scenario.concurrency or scenario.batch_size or 1
    # which bound binds: the model's own position limit, or the memory left for the KV cache
    key = "answer.max_context_full" if context >= limit else "answer.max_context"
    load = (
        Msg("answer.context_load.one")
        if sequences == 1
        else Msg("answer.context_load.many", sequences=sequences)
    )
    return Msg(key, context=context, limit=limit, load=load, per_token=_kv_per_token(scenario))


def _context_kv8(scenario: Scenario, *, open_format: bool) -> Msg | None:
    """The longest context with the KV cache in 8 bits, when that format is open and memory,
    not the model's own limit, binds: half the bytes per token, about twice the tokens."""
    found = model_and_gpu(scenario)
    short = longest_context(scenario)
    if found is None or short is None or short[0] >= short[1]:
        return None
    kv8 = _kv8(scenario, found[1], open_format=open_format)
    if kv8 is None:
        return None
    eight = replace(scenario, kv_dtype=kv8)
    longer = longest_context(eight)
    if longer is None or longer[0] <= short[0]:
        return None
    return Msg(
        "answer.max_context_kv8",
        dtype=kv8.upper(),
        context=longer[0],
        per_token=_kv_per_token(eight),
    )


def _kv_per_token(scenario: Scenario) -> float:
    """One token's KV cache in the format the length was solved in: 2 (K and V) x layers x
    KV heads x head dim x bytes (`calculators.catalog.models.kv_cache_bytes_per_token`)."""
    from calculators.catalog.hardware import DTYPE_BYTES
    from calculators.catalog.models import kv_cache_bytes_per_token

    found = model_and_gpu(scenario)
    if found is None:
        return 0.0
    model, gpu = found
    kv = _kv_dtype(scenario, gpu, weight_dtype(scenario))
    return kv_cache_bytes_per_token(model, dtype_bytes=DTYPE_BYTES[kv])


def solved(ask: Ask, scenario: Scenario, lang: Language, *, open_format: bool = False) -> str:
    """The direct answer from a calculator solver ("" when none applies)."""
    if ask == "max_concurrency":
        return join_sentences(
            tuple(text(m, lang) for m in concurrency(scenario, open_format=open_format)), lang
        )
    if ask == "max_context":
        found = _context_answer(scenario)
        if found is None:
            return ""
        more = _context_kv8(scenario, open_format=open_format)
        said = (found,) if more is None else (found, more)
        return join_sentences(tuple(text(m, lang) for m in said), lang)
    return ""
