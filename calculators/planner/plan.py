"""Records of the planner: a Plan (one job on one cluster), the checks on it and the changes.

These are the contract between the calculators and the answer pipeline: fields may be added
(with defaults), never renamed or removed. Quantities are SI base units.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from calculators.catalog.hardware import DTYPE_BYTES, GPU, Link
from calculators.catalog.models import ModelSpec
from calculators.defaults import (
    DAY,
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_DEADLINE_SECONDS,
    DEFAULT_GPUS_PER_NODE,
    FINETUNE_BATCH_SEQUENCES,
    FINETUNE_TOKENS,
    PRETRAIN_BATCH_TOKENS,
)
from calculators.messages import Msg

__all__ = [
    "DAY",
    "DEFAULT_DEADLINE_SECONDS",
    "FINETUNE_BATCH_SEQUENCES",
    "FINETUNE_TOKENS",
    "PRETRAIN_BATCH_TOKENS",
    "TIGHT_MARGIN",
    "CheckKind",
    "CheckResult",
    "CheckVerdict",
    "Evaluation",
    "Figure",
    "Outcome",
    "Plan",
    "PlanChange",
    "PlanVerdict",
]

Task = Literal["pretrain", "finetune", "inference"]
Method = Literal["full", "lora", "qlora"]
Recompute = Literal["none", "selective", "full"]
CheckKind = Literal["memory", "compute", "network", "power", "cost"]
CheckVerdict = Literal["ok", "tight", "fail", "n/a"]
PlanVerdict = Literal["feasible", "conditional", "infeasible"]
Figure = float | int | str | bool | None

#: "tight" = within 10% of the limit: required/available in (0.9, 1.0].
TIGHT_MARGIN = 0.10


@dataclass(frozen=True)
class Plan:
    """One job on one cluster, as given (defaults are filled by the pipeline, not guessed here)."""

    task: Task
    model: ModelSpec
    gpu: GPU
    gpus: int = 1
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE
    """GPUs per node; a job smaller than one node uses `min(gpus, gpus_per_node)`."""
    method: Method | None = None
    """Fine-tuning method; None means "full" for finetune, ignored otherwise."""
    intra_link: Link | None = None
    """None: the GPU's own intra-node link (NVLink, or PCIe)."""
    inter_link: Link | None = None
    nics_per_node: int = 1
    """Inter-node ports per node (one unless the site says more; DGX nodes have 8)."""
    precision: str = "bf16"
    tokens: float | None = None
    """Training tokens; None: Chinchilla 20/param (pretrain) or FINETUNE_TOKENS (finetune)."""
    deadline_seconds: float = DEFAULT_DEADLINE_SECONDS
    zero_stage: int = 0
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    recompute: Recompute | None = None
    """None: the calculator default (selective for training, full for fine-tuning)."""
    pp_microbatches: int | None = None
    """Micro-batches per pipeline step (1F1B); None: global batch / (data parallel x
    micro-batch size), stated as an assumption."""
    expert_parallel: int = 1
    """MoE: GPUs the routed experts are split over (divides the data-parallel degree)."""
    stages_across_nodes: bool = False
    """Rank order: False is Megatron-LM's "tp-pp-dp" (pipeline stages fill a node before data
    parallelism); True is Megatron-Core's "tp-dp-pp" (data and expert parallel inside the node
    after TP, pipeline stages across nodes: only activations cross the network)."""
    host_ram_bytes: float | None = None
    """Host (CPU) memory per node; None: the default for the server class (see plan_host)."""
    memory_utilization: float | None = None
    """Serving: the share of each GPU's datasheet memory the engine may plan to use (vLLM's
    gpu_memory_utilization); None: `USABLE_FRACTION`, vLLM's default 0.9."""
    micro_batch_size: int = 1
    global_batch_tokens: float | None = None
    """None: 4M tokens (pretrain) or 64 sequences (finetune)."""
    sequence_length: int = DEFAULT_CONTEXT_TOKENS
    """Training sequence length, and the inference context length (prompt + output)."""
    prompt_tokens: int | None = None
    """Inference: the prompt of one request, for time to first token (None: the default
    `DEFAULT_PROMPT_TOKENS`); capped at `sequence_length`."""
    batch_size: int = 1
    """Inference: concurrent sequences across the WHOLE deployment, split evenly over the
    replicas (gpus / (TP x PP)); each replica holds ceil(batch_size / replicas) of them (see
    `batch_per_replica`). "100 concurrent requests on 2 replicas" is batch_size=100, not 200."""
    request_rate: float | None = None
    """Inference: requests per second the whole deployment serves (a QPS target), spread over
    the replicas; the compute check then also gives its figures at that load, prefill sharing
    the GPUs (`calculators.planner.serving.loaded_figures`). None: no rate stated."""
    output_tokens: int | None = None
    """Inference: the output of one request, for the tokens a request rate delivers (None:
    sequence_length - prompt_tokens)."""
    weight_dtype: str | None = None
    """Inference weight format (None: precision)."""
    kv_dtype: str | None = None
    """Inference KV-cache format (None: `cache_dtype`, the 16-bit activation dtype)."""
    serving_seconds: float | None = None
    """Inference: how long the deployment serves ("for a month"), for its energy and GPU-hours;
    None reports one hour (serving runs until it is switched off)."""
    offload: bool = False
    """ZeRO-Offload: gradients and optimizer states in CPU memory; for LoRA/QLoRA with ZeRO-3
    (FSDP CPUOffload, as Answer.AI's FSDP-QLoRA) the frozen base shards too. Full training
    with ZeRO-3 keeps its 16-bit weight shards on the GPU (parameter offload not modelled)."""
    optimizer: str = "adam"
    mfu: float | None = None
    """Model FLOPs utilisation; None: the default for the GPU class."""
    price_per_gpu_hour: float | None = None
    currency: str | None = None
    pue: float | None = None
    """The facility's PUE; None: not stated, so the data-centre average, or none (1.0) for
    consumer cards in a desk-side box (`calculators.power.energy`, ``box``)."""
    price_per_kwh: float | None = None
    """Electricity price per kWh at the socket (None: energy is not priced; none is invented)."""
    other_gpus: bool = True
    """Whether a fix may name another GPU model. False when the question holds the card to a
    purchase budget ("预算50万元，买几张4090"): the catalog has no purchase prices, so 56 ×
    GH200 could not be held to the budget, and the card was the user's to choose."""

    def replace(self, **changes: object) -> Plan:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def cache_dtype(self) -> str:
        """The KV cache's format: `kv_dtype`, else a 16/32-bit precision, else the card's
        16-bit default beside FP8 compute (vLLM `kv_cache_dtype="auto"`: the model dtype,
        whatever the weights' format; docs "Quantized KV Cache")."""
        if self.kv_dtype is not None:
            return self.kv_dtype
        if DTYPE_BYTES.get(self.precision, 2.0) >= 2.0:
            return self.precision
        return self.gpu.default_cache_dtype()

    @property
    def nodes(self) -> int:
        """Nodes in the job."""
        return -(-self.gpus // self.gpus_per_node)

    @property
    def replicas(self) -> int:
        """Model copies of a serving deployment: gpus / (TP x PP), at least one."""
        return max(1, self.gpus // (self.tensor_parallel * self.pipeline_parallel))

    @property
    def batch_per_replica(self) -> int:
        """Concurrent sequences one serving replica holds: ceil(batch_size / replicas)."""
        return -(-self.batch_size // self.replicas)

    @property
    def expert_parallel_degree(self) -> int:
        """The expert-parallel degree in force: the plan's, reduced to what its layout allows
        (a common divisor of the data-parallel degree and the expert count), so a re-laid-out
        candidate keeps the largest EP it can."""
        data_parallel = max(1, self.gpus // (self.tensor_parallel * self.pipeline_parallel))
        return math.gcd(self.expert_parallel, data_parallel, max(1, self.model.experts))

    @property
    def effective_method(self) -> Method:
        """The fine-tuning method in force ("full" unless LoRA or QLoRA)."""
        return self.method or "full"


@dataclass(frozen=True)
class CheckResult:
    """One calculator verdict on a plan, with everything needed to show how it was reached."""

    kind: CheckKind
    verdict: CheckVerdict
    figures: Mapping[str, Figure]
    """SI numbers, keyed as in the JSON output."""
    formula: Msg | None
    """How the figures were computed (None: nothing was)."""
    inputs: Mapping[str, Figure]
    assumptions: tuple[Msg, ...] = ()
    sources: tuple[str, ...] = ()
    limiting: str | None = None
    """What limits this check (e.g. "optimizer_bytes", "deadline", "inter_node_bandwidth")."""
    shortfall: float | None = None
    """need / limit (> 1 when failing): how far the plan is from passing."""
    flags: tuple[str, ...] = ()
    messages: tuple[Msg, ...] = ()
    """Facts about the result as message keys (words in assistant/i18n/catalog/)."""


@dataclass(frozen=True)
class Outcome:
    """The verified result of a changed plan."""

    verdict: PlanVerdict
    failing: tuple[CheckKind, ...]
    """Checks that still fail ("still fails" when not empty)."""
    figures: Mapping[str, Figure] = field(default_factory=dict)
    """Key figures after the change (memory per GPU, days, efficiency)."""
    paced: bool = False
    """A training run whose only failing check is the network: communication over compute
    past the default bar. Its run time already counts the wait, so it is slower, not
    impossible (the compute check against the deadline says whether that matters)."""

    @property
    def works(self) -> bool:
        """True when no check fails after the change, or only a training run's network pace."""
        return not self.failing or self.paced


@dataclass(frozen=True)
class PlanChange:
    """A change to a plan, verified by re-evaluating the changed plan."""

    kind: str
    """"gpus", "zero", "tensor_parallel", "recompute", "offload", "lora", "qlora",
    "quantization", "kv_quantization", "context", "gpu", "deadline", "inter_link" or
    "combined"."""
    description: Msg
    """What to change, as a catalog message (``suggest.…``), rendered when composing."""
    new_plan: Plan
    evaluation_after: Outcome
    hardware: bool = False
    """True when the change needs hardware the user does not have (more or other GPUs, links)."""


@dataclass(frozen=True)
class Evaluation:
    """All checks on a plan, the overall verdict and what to change."""

    plan: Plan
    checks: tuple[CheckResult, ...]
    verdict: PlanVerdict
    binding: str | None
    """The failing check with the largest shortfall (None when nothing fails)."""
    suggestions: tuple[PlanChange, ...] = ()
    assumptions: tuple[Msg, ...] = ()
    remarks: tuple[Msg, ...] = ()
    """Notes on the suggestions (e.g. "a longer deadline is impractical"), as messages."""

    def check(self, kind: CheckKind) -> CheckResult:
        """The check of one kind."""
        for item in self.checks:
            if item.kind == kind:
                return item
        raise KeyError(kind)
