"""Frozen records passed between the stages: parse → calculate + retrieve → compose → render.

These are the contract between modules: fields may be added (with defaults), never renamed
or removed without updating every stage. Quantities are in SI base units (bytes, FLOPs,
seconds, bytes/s); formatting happens only in `render`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from calculators.errors import CalculatorInputError

Language = Literal["zh", "en"]
Task = Literal["pretrain", "finetune", "inference"]
Method = Literal["full", "lora", "qlora"]
Verdict = Literal["feasible", "conditional", "infeasible", "unknown"]
CheckKind = Literal["memory", "compute", "network", "power", "cost"]
CheckVerdict = Literal["ok", "tight", "fail", "n/a"]
Figure = float | int | str | bool | None
Ask = Literal[
    "feasibility",
    "duration",
    "gpu_count",
    "tokens",
    "memory",
    "weights",
    "kv_cache",
    "kv_per_token",
    "activations",
    "cost",
    "gpu_hours",
    "energy_cost",
    "power",
    "max_concurrency",
    "max_micro_batch",
    "max_context",
    "request_rate",
    "throughput",
    "token_volume",
    "first_token",
    "token_latency",
    "network",
    "max_model",
    "mfu",
    "bubble",
    "layout",
    "compare",
    "concept",
]
"""What a question asks for: the headline answers exactly this."""


@dataclass(frozen=True)
class Passage:
    """One chunk of a knowledge-base document, as retrieval returns it."""

    id: str
    """Stable content hash (with source and offsets): a citation never drifts."""
    doc_id: str
    """The document's id (front matter `id`, or derived from its path)."""
    source: str
    """Path relative to `knowledge/` for shipped documents; absolute for the user's own."""
    title: str
    """The document's title."""
    heading: str
    """The section heading path ("ZeRO > Stage 3")."""
    text: str
    lang: Language
    score: float = 0.0
    """Fused relevance score (higher is better); 0 when not from a search."""
    anchor: str | None = None
    """Section anchor shared with the translation of this passage."""
    translation_id: str | None = None
    """Id of the same passage in the other language, if linked."""


@dataclass(frozen=True)
class Scenario:
    """The typed slots of a question. None means the question left the slot open."""

    task: Task | None = None
    method: Method | None = None
    params: float | None = None
    active_params: float | None = None
    model: str | None = None
    """Catalog model name, or None for a bare size."""
    gpu: str | None = None
    """Catalog GPU name."""
    gpu_count: int | None = None
    nodes: int | None = None
    gpus_per_node: int | None = None
    gpu_memory_bytes: float | None = None
    intra_link: str | None = None
    inter_link: str | None = None
    nics_per_node: int | None = None
    """Inter-node ports (NICs) per node when the question states them ("one 400G NIC per node",
    "每台一张网卡", "单口"); None: cabled as the card's servers are (`ports_per_node`)."""
    precision: str | None = None
    kv_dtype: str | None = None
    """The KV cache's format when the question states one ("fp8 KV cache", "KV缓存用INT8");
    None: the 16-bit activation dtype, whatever the weights' format (vLLM `kv_cache_dtype`)."""
    tokens: float | None = None
    deadline_seconds: float | None = None
    zero_stage: int | None = None
    tensor_parallel: int | None = None
    pipeline_parallel: int | None = None
    context_length: int | None = None
    batch_size: int | None = None
    site_profile: str | None = None
    price_per_gpu_hour: float | None = None
    currency: str | None = None
    prompt_tokens: int | None = None
    """Prompt length of a serving request, in tokens ("2k-token prompts", "输入2k")."""
    output_tokens: int | None = None
    """Tokens generated per serving request ("256 output tokens", "输出512")."""
    concurrency: int | None = None
    """Concurrent sequences (users, requests in flight) the user states for serving."""
    target_tokens_per_second: float | None = None
    """Aggregate generation throughput asked for ("1000 tok/s")."""
    target_qps: float | None = None
    """Requests per second asked for ("QPS 10")."""
    target_first_token_seconds: float | None = None
    """Time-to-first-token bound asked for ("first token under 1 s", "首字 500ms")."""
    first_token_quantile: float | None = None
    """The percentile the first-token bound is stated at, as a fraction ("p99" → 0.99); None:
    the bound is judged against the mean time to first token."""
    target_seconds_per_token: float | None = None
    """Per-sequence generation speed asked for, as seconds per token ("50 tok/s per user",
    "每路20 token/s" → 0.05)."""
    fastest_stream: bool | None = None
    """True when the question asks how fast one stream goes ("fastest single-user decode",
    "单路速度哪个快", "lowest latency"): a serving split is chosen for the least time per token
    (tensor parallel inside the node), not for headroom or for replicas no one uses."""
    budget: float | None = None
    """A total budget, in `currency` ("预算20万元")."""
    purchase_budget: float | None = None
    """A budget to buy hardware ("预算50万，买什么卡"), in `currency`: never a rent budget, and
    never checked (the catalog has no purchase prices)."""
    purchase_price: float | None = None
    """What one server or one card costs to buy, in `currency` ("一台8卡H20服务器报价120万",
    "a DGX H100 costs $300k", "H100每张卡25万"): never a rent price per GPU-hour."""
    purchase_unit: str | None = None
    """What `purchase_price` buys: "node" (one server, its `gpus_per_node` cards) or "gpu"."""
    price_per_kwh: float | None = None
    """Electricity price per kWh, in `currency` ("电价0.6元/度")."""
    host_ram_bytes: float | None = None
    """Host (CPU) memory per node, for offload ("512GB 内存")."""
    offload: bool | None = None
    """Optimizer states offloaded to host memory, when the question says so ("ZeRO-3 CPU
    offload" → True, "without offload" → False)."""
    pue: float | None = None
    """The facility's power usage effectiveness when the question states it ("PUE 1.3",
    "PUE为1.2"); it wins over a site profile's and the industry average."""
    hours_per_day: float | None = None
    """Hours the hardware is used each day when stated ("一天用10小时", "10 hours a day"): a
    rent-or-buy pay-off counts those hours of rent a day, not round-the-clock use."""
    power_budget_watts: float | None = None
    """A power budget the hardware must fit in, in watts ("our DC has 10 MW", "机柜20kW"):
    the question asks how many GPUs (or servers) it feeds (`calculate.power_budget`)."""
    recompute: str | None = None
    """Activation recomputation when stated: "none" ("no recompute", "不开重计算"), "selective"
    or "full" ("gradient checkpointing", "全量重计算"); None: the planner picks."""
    micro_batch: int | None = None
    """Sequences per GPU in one micro-step when stated ("micro-batch 2", "mbs=4", "微批 2")."""
    pipeline_microbatches: int | None = None
    """Micro-batches per pipeline step when stated ("64个微批次", "32 micro-batches"): the m of
    the 1F1B bubble (p − 1)/(m + p − 1)."""
    expert_parallel: int | None = None
    """MoE training: GPUs the routed experts are split over, when stated ("EP64", "专家并行8");
    None: the planner picks (`calculate.pipeline_layouts.expert_parallel`)."""
    mfu: float | None = None
    """A training run's model FLOPs utilisation when stated ("at 40% MFU", "利用率40%",
    "MFU=0.4"), as a fraction; it replaces the planning default of the GPU."""
    tokens_per_second_per_gpu: float | None = None
    """A training rate the user measured, per GPU ("3000 tokens/s/GPU", "每卡每秒3000 token"):
    with no MFU stated it gives the run's MFU (`calculate.measured`)."""
    gpu_hours: float | None = None
    """GPU-hours a training run took, as stated ("DeepSeek-V3 used 2.788M H800 GPU-hours",
    "278.8万H800 GPU小时"): with no MFU or rate stated it gives the run's MFU, so its cost at a
    stated price is those hours times the price (`calculate.measured`)."""


@dataclass(frozen=True)
class Query:
    """A parsed question."""

    question: str
    language: Language
    scenario: Scenario
    in_domain: bool = True
    """False when the question is not about GPUs and large models."""
    followup: bool = False
    """True when slots were carried over from the previous scenario."""
    changed_slots: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    """Topics the answer should cite (memory, network, power, …); used to steer retrieval."""
    warnings: tuple[str, ...] = ()
    """Contradictions or ignored parts of the question, in the question's language."""
    asks: tuple[Ask, ...] = ()
    """What the question asks for, first the main one; empty when unknown (yes/no feasibility)."""
    options: tuple[Scenario, ...] = ()
    """For a comparison ("8×H20 vs 8×910B"): each option's slots that differ from `scenario`."""
    unknown_names: tuple[str, ...] = ()
    """Model or GPU names the question gives that are not in the catalog (never replaced)."""
    context: str = ""
    """For a follow-up: the question that started the thread ("ZeRO-3 是什么?" before "那网络呢?",
    "需要几张 H20?" before "那用H100呢?"), so the new topic is searched in that context and the
    original ask (how many, how long) still gets its direct answer."""
    thread: Query | None = None
    """For an off-topic turn inside a conversation: the last in-domain turn, which the next
    elliptical follow-up still continues ("那用4张呢" after a question about games)."""
    asked_in: str = ""
    """For a follow-up that asks nothing of its own: the question whose asks it carries
    ("32k上下文最多多少并发" under "那KV cache用FP8呢"), whose wording still qualifies them
    ("which is faster", "how many nodes"); "" when the asks are the question's own."""


@dataclass(frozen=True)
class Check:
    """One calculator verdict (memory, compute, network, power or cost)."""

    kind: CheckKind
    verdict: CheckVerdict
    summary: str
    figures: Mapping[str, Figure] = field(default_factory=dict)
    """Raw numbers in SI base units, keyed as in the JSON output."""
    formula: str = ""
    inputs: Mapping[str, Figure] = field(default_factory=dict)
    assumptions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class Suggestion:
    """A change that would turn a failing plan into a working one, and what it does."""

    change: str
    effect: str


@dataclass(frozen=True)
class Option:
    """One hardware option of a comparison, evaluated as its own question."""

    scenario: Scenario
    """The option as evaluated (its stated slots on top of the question's, defaults filled)."""
    verdict: Verdict
    figures: Mapping[str, Figure] = field(default_factory=dict)
    """Key figures in SI units: `seconds` (training) or `tokens_per_second` (serving),
    `memory_share` (memory needed over usable per GPU), `cost` when priced."""
    wins: tuple[str, ...] = ()
    """What this option wins on among the options: "speed", "memory", "cost"."""


@dataclass(frozen=True)
class ScalePoint:
    """The job at one GPU count, as the calculators evaluate it (the chosen layout kept)."""

    gpu_count: int
    value: float | None
    """`Scaling.metric` at this count: seconds (training) or tokens/s (serving); None when
    the calculators give no figure (memory does not fit, so nothing runs)."""
    memory_fits: bool


@dataclass(frozen=True)
class Scaling:
    """Duration (training) or throughput (serving) against GPU count, around the user's point:
    half and double the count, the fewest that fit memory and the fewest that meet the
    deadline, each re-evaluated by the planner."""

    metric: Literal["seconds", "tokens_per_second"]
    points: tuple[ScalePoint, ...]
    gpu_count: int
    """The user's (evaluated) GPU count; one of the points."""
    deadline_seconds: float | None = None
    """The deadline the question states (training), to mark on the chart."""
    target_tokens_per_second: float | None = None
    """The throughput the question asks for (serving), to mark on the chart."""
    assumed_inter_link: str | None = None
    """The inter-node link assumed for points beyond the user's nodes (none was stated)."""


@dataclass(frozen=True)
class Citation:
    """A passage cited in an answer, with the claim it supports."""

    passage: Passage
    claim: str = ""
    quote: str = ""
    """The passage's sentence the answer quotes ("" for none): its excerpt is shown around it."""


@dataclass(frozen=True)
class Answer:
    """Everything the CLI and the TUI show for one question."""

    question: str
    language: Language
    verdict: Verdict
    binding_constraint: str | None
    text: str
    """The rendered answer (Markdown)."""
    query: Query
    checks: tuple[Check, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    assumptions: tuple[str, ...] = ()
    citations: tuple[Citation, ...] = ()
    conversation_id: str | None = None
    scenario: Scenario | None = None
    """The scenario as evaluated: the question's slots plus site-profile values and stated
    defaults (None when nothing was evaluated). `query.scenario` keeps what was asked."""
    warnings: tuple[str, ...] = ()
    """Things the user should know about how the question was read (contradictions, cut text,
    refused values), in the answer's language."""
    options: tuple[Option, ...] = ()
    """For a comparison: each option's verdict, key figures and what it wins on."""
    scaling: Scaling | None = None
    """Duration or throughput at a few GPU counts around the evaluated one (for the chart)."""
    refusal: CalculatorInputError | None = field(default=None, repr=False, compare=False)
    """The value refused as bad input ("-5张A100"), when the answer is that refusal: `ask`
    exits 2 for it, as for the parser's refusals."""


@dataclass(frozen=True)
class SiteProfile:
    """A described site or cluster (a `kind = "site"` knowledge document)."""

    id: str
    title: str
    aliases: tuple[str, ...]
    """Names in both languages that refer to this site ("吉林", "Jilin", …)."""
    nodes: int
    gpus_per_node: int
    gpu: str
    """A GPU catalog name or alias."""
    intra_link: str | None = None
    inter_link: str | None = None
    source: str = ""
    """Document path, as in `Passage.source`."""
    lang: Language = "zh"
    pue: float | None = None
    notes: str = ""
    host_ram_bytes: float | None = None
    """Host (CPU) RAM per node in bytes (the profile's `host_ram_GB`), for CPU offload."""
