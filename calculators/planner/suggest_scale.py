"""Hardware candidates of the planner: more GPUs of the same type, another catalog GPU (with
the count it needs) and a faster inter-node fabric, each laid out as real clusters are.

Layout rules: tensor parallelism only in {1, 2, 4, 8} inside a node (odd degrees are left to
ZeRO-3/FSDP sharding, see `_memory_parts.SEARCHED_TENSOR_PARALLEL`); the plan's GPUs per node
are kept, except a one-GPU "node" (a single card), which scales out as servers of
`SCALE_OUT_NODE_GPUS`; fabrics come from `calculators.planner.fabrics` (realistic for the GPU).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from calculators.catalog.hardware import GPU, GPUS, Link
from calculators.gpu_memory import USABLE_FRACTION
from calculators.messages import Msg
from calculators.planner.checks import network_check
from calculators.planner.compute import gpus_needed_for_deadline
from calculators.planner.compute_facts import compute_facts, step_flops_per_token
from calculators.planner.fabrics import fabric_options
from calculators.planner.memory import (
    memory_check,
    min_fit_with,
    recompute_options,
    trainable_params,
)
from calculators.planner.plan import CheckKind, CheckResult, Plan
from calculators.planner.suggest_types import Candidate
from calculators.planner.validate import MAX_GPUS

__all__ = [
    "ALTERNATIVE_GPUS",
    "SCALE_OUT_NODE_GPUS",
    "fabric",
    "fit_layout",
    "layout_message",
    "more_gpus",
    "other_gpu",
]

#: GPUs per server when a single card scales out (8 in a 4U GeForce chassis or an HGX board).
SCALE_OUT_NODE_GPUS = 8
#: At most this many other catalog GPUs are suggested (the cheapest by `_cost_key`).
ALTERNATIVE_GPUS = 3
#: Re-reads of the deadline count at a pipelined layout's own bubble and network share.
_DEADLINE_PASSES = 3
#: Older accelerators not worth buying for a new plan (besides the PCIe Gen3 generation).
_OLD_GENERATION = frozenset({"Ascend 910 32GB"})


def fabric(plan: Plan, checks: tuple[CheckResult, ...]) -> Iterator[Candidate]:
    """The slowest realistic fabric with the bandwidth the network check asks for."""
    if plan.nodes < 2:
        return
    need = checks[2].figures.get("required_inter_node_bytes_per_second_for_90pct")
    target = float(need) if isinstance(need, (int, float)) else 0.0
    for bandwidth, link, nics in fabric_options(plan.gpu, plan.gpus_per_node):
        if bandwidth >= target:
            yield Candidate(
                "inter_link",
                Msg("suggest.inter_link", nics=nics, link=link.name, gb_per_s=bandwidth / 1e9),
                plan.replace(inter_link=link, nics_per_node=nics),
                4,
                hardware=True,
            )
            return


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


def fit_layout(
    plan: Plan, failing: set[CheckKind], recomputes: tuple[str | None, ...] | None = None
) -> tuple[Plan, int] | None:
    """The plan with the smallest fitting layout, and how many GPUs the job needs (None when
    memory fails and no layout of up to 100,000 GPUs fits).

    Full recomputation is tried too (it shrinks activations but costs 33% more compute, so
    the deadline may then need more GPUs): the option needing fewer GPUs overall wins.
    """
    if "memory" not in failing:
        return plan, gpus_needed_for_deadline(plan) or 0
    best: tuple[Plan, int] | None = None
    for recompute in recomputes or recompute_options(plan):
        fit = min_fit_with(plan, recompute)
        if fit is None:
            continue
        laid_out = plan.replace(
            tensor_parallel=fit.tensor_parallel,
            pipeline_parallel=fit.pipeline_parallel,
            zero_stage=fit.zero_stage,
            recompute=recompute,
        )
        need = max(fit.gpus, gpus_needed_for_deadline(laid_out) or 0)
        if best is None or need < best[1]:
            best = (laid_out, need)
    return best


def layout_message(plan: Plan) -> Msg:
    """ "TP=8, PP=1, ZeRO-3, full recompute" (inference: TP and PP only). No ZeRO stage
    at one data-parallel replica (every GPU in one TP x PP group): ZeRO partitions over the
    data-parallel ranks only (Rajbhandari et al. 2020, arXiv:1910.02054 §5)."""
    tp, pp = plan.tensor_parallel, plan.pipeline_parallel
    if plan.task == "inference":
        return Msg("suggest.layout.serving", tp=tp, pp=pp)
    full = plan.recompute == "full"
    if plan.gpus <= tp * pp and not plan.offload:  # one data-parallel replica
        key = "suggest.layout.recompute_one_replica" if full else "suggest.layout.one_replica"
    else:
        key = "suggest.layout.recompute" if full else "suggest.layout.training"
    return Msg(key, tp=tp, pp=pp, zero=plan.zero_stage)


def _scaled(plan: Plan, need: int) -> Plan:
    per_node = plan.gpus_per_node
    if per_node == 1 and need > 1:  # a single card: scale out as standard servers
        per_node = SCALE_OUT_NODE_GPUS
    unit = plan.tensor_parallel * plan.pipeline_parallel
    if need > per_node:  # whole nodes
        unit = unit * per_node // math.gcd(unit, per_node)
    return plan.replace(gpus=_round_up(need, unit), gpus_per_node=per_node)


def _network_verdict(plan: Plan) -> str:
    facts = compute_facts(plan)
    return network_check(
        plan,
        peak_flops_per_s=facts.peak_flops_per_s,
        mfu=facts.mfu,
        total_tokens=facts.tokens,
        trainable_params=trainable_params(plan),
        flops_per_token=step_flops_per_token(facts),
    ).verdict


def _cheapest_fabric(plan: Plan) -> tuple[Link, int] | None:
    """The slowest realistic fabric (ports × link) with an "ok" network, else a "tight" one."""
    tight: tuple[Link, int] | None = None
    for _, link, nics in fabric_options(plan.gpu, plan.gpus_per_node):
        verdict = _network_verdict(plan.replace(inter_link=link, nics_per_node=nics))
        if verdict == "ok":
            return link, nics
        if verdict == "tight" and tight is None:
            tight = (link, nics)
    return tight


def _pipelined(plan: Plan, need: int) -> Plan | None:
    """When ZeRO-3 data parallelism over many nodes is communication-bound on every realistic
    fabric, the Megatron-LM layout (Narayanan et al. 2021, arXiv:2104.04473 §3): pipeline
    stages across nodes with ZeRO-1, the fewest stages that fit memory and the network."""
    for stages in (2, 4, 8, 16, 32, 64):
        if stages > plan.model.layers:
            break
        layout = _scaled(
            plan.replace(pipeline_parallel=stages, zero_stage=min(plan.zero_stage, 1)), need
        )
        if memory_check(layout, with_min_gpus=False).verdict == "fail":
            continue
        # The stages add a bubble: grow to the count the deadline needs at this layout. The
        # bubble grows with the count (fewer micro-batches per pipeline), so it is re-read
        # there; a count that would more than double again is bound by the network, not the
        # bubble, and is left to the fabric check below.
        layout = _scaled(layout, max(need, gpus_needed_for_deadline(layout) or 0))
        for _ in range(_DEADLINE_PASSES):
            wanted = gpus_needed_for_deadline(layout) or 0
            if wanted <= layout.gpus or wanted > 2 * layout.gpus:
                break
            layout = _scaled(layout, wanted)
        if _cheapest_fabric(layout) is not None:
            return layout
    return None


def _nodes(plan: Plan) -> Msg:
    if plan.nodes == 1:
        return Msg("suggest.nodes.one")
    return Msg("suggest.nodes.many", nodes=plan.nodes, per_node=plan.gpus_per_node)


def _scale_out(
    plan: Plan,
    laid_out: Plan,
    need: int,
    *,
    kind: str,
    rank: int,
    size: float | None = None,
) -> Iterator[Candidate]:
    """``laid_out`` grown to ``need`` GPUs; across nodes also with the fabric it needs. None
    past the GPUs any plan may have (`validate.MAX_GPUS`): "train GPT-3 in a second" needs a
    billion H100s, which the compute check says; it is no change to offer."""
    if need > MAX_GPUS:
        return
    changed = _scaled(laid_out, need)
    if changed.nodes > 1 and plan.task == "pretrain" and _cheapest_fabric(changed) is None:
        changed = _pipelined(changed, need) or changed
    said = Msg(
        "suggest.other_gpu" if kind == "gpu" else "suggest.scale_to",
        gpus=changed.gpus,
        gpu=changed.gpu.name,
        nodes=_nodes(changed),
        layout=layout_message(changed),
    )
    factor = changed.gpus / plan.gpus if size is None else size
    # Serving has no gradient traffic (the network check is n/a): more nodes need no fabric.
    if changed.nodes == 1 or changed.inter_link is not None or plan.task == "inference":
        yield Candidate(kind, said, changed, rank, 2, hardware=True, size=factor)
    if changed.nodes > 1 and plan.task != "inference":
        found = _cheapest_fabric(changed)
        if found is not None:
            link, nics = found
            yield Candidate(
                kind,
                Msg("suggest.with_fabric", change=said, nics=nics, link=link.name),
                changed.replace(inter_link=link, nics_per_node=nics),
                rank,
                3,
                hardware=True,
                size=factor,
            )


def more_gpus(plan: Plan, failing: set[CheckKind]) -> Iterator[Candidate]:
    """The same GPU: a better layout on the same cards, or as many more as the job needs."""
    fit = fit_layout(plan, failing)
    if fit is None:
        return
    laid_out, need = fit
    if need <= plan.gpus:
        if laid_out != plan:
            yield Candidate(
                "layout",
                Msg("suggest.same_gpus", layout=layout_message(laid_out), gpus=plan.gpus),
                laid_out,
                2,
                2,
            )
        return
    yield from _scale_out(plan, laid_out, need, kind="gpus", rank=5)


def _alternatives(plan: Plan, failing: set[CheckKind]) -> list[GPU]:
    """Other catalog GPUs worth naming: bigger memory when memory fails, a higher peak when
    compute fails. Not an older generation (V100, T4, Ascend 910: PCIe Gen3 era); GeForce
    cards only for plans that already use them; for training, only cards with a fast
    intra-node link (NVLink, HCCS, Infinity Fabric), not PCIe-only ones."""
    peak = compute_facts(plan).peak_flops_per_s
    out = []
    for gpu in GPUS.values():
        if gpu.name == plan.gpu.name or gpu.pcie_gen < 4 or gpu.name in _OLD_GENERATION:
            continue
        if gpu.gpu_class == "consumer" and plan.gpu.gpu_class != "consumer":
            continue
        if plan.task != "inference" and gpu.intra_link.startswith("PCIe"):
            continue
        bigger = gpu.memory_bytes > plan.gpu.memory_bytes
        faster = (gpu.bf16_flops_per_s or gpu.fp16_flops_per_s or 0.0) > peak
        if ("memory" in failing and bigger) or ("memory" not in failing and faster):
            out.append(gpu)
    return out


def _estimate(base: Plan, job_bytes: float) -> tuple[int, bool]:
    """A cheap lower bound on the GPUs ``base`` needs (deadline; memory of the whole job),
    used only to pick which alternatives to lay out exactly, and whether memory dominates."""
    memory = math.ceil(job_bytes / (USABLE_FRACTION * base.gpu.memory_bytes))
    deadline = gpus_needed_for_deadline(base) or 0
    return max(deadline, memory, 1), memory >= deadline


def _job_bytes(checks: tuple[CheckResult, ...]) -> float:
    """Memory the whole job needs, from the memory check: the fewest GPUs that fit times
    their usable memory, else one GPU's requirement (a lower bound)."""
    figures = checks[0].figures if checks else {}
    fit, usable = figures.get("min_gpus"), figures.get("available_bytes_per_gpu")
    if isinstance(fit, int) and isinstance(usable, (int, float)):
        return float(fit * usable)
    required = figures.get("required_bytes_per_gpu")
    return float(required) if isinstance(required, (int, float)) else 0.0


def _cost_key(need: int, gpu: GPU, failing: set[CheckKind]) -> float:
    """How big switching to ``need`` × ``gpu`` is: when only memory fails, the memory bought
    (the smallest card that fits wins over a bigger one); when the deadline fails, the count."""
    return need * gpu.memory_bytes / 1e9 if "compute" not in failing else float(need)


def other_gpu(
    plan: Plan, failing: set[CheckKind], checks: tuple[CheckResult, ...] = ()
) -> Iterator[Candidate]:
    """Another catalog GPU, with the count the job needs on it: the cheapest few by
    `_cost_key`, each laid out and, across nodes, with its realistic fabric; none when the
    plan keeps its card (`Plan.other_gpus`)."""
    if not plan.other_gpus:
        return
    job_bytes = _job_bytes(checks)
    bases = []
    for gpu in _alternatives(plan, failing):
        precision = (
            plan.precision if gpu.supports(plan.precision) else (gpu.default_training_precision())
        )
        # Another GPU means other servers: lay it out in standard 8-GPU nodes (HGX/OAM), not
        # in the user's own box size (a 3 × RTX 4090 workstation says nothing about B200s).
        base = plan.replace(
            gpu=gpu, precision=precision, intra_link=None, gpus_per_node=SCALE_OUT_NODE_GPUS
        )
        estimate, memory_bound = _estimate(base, job_bytes)
        bases.append((_cost_key(estimate, gpu, failing), memory_bound, gpu.name, base))
    bases.sort(key=lambda item: (item[0], item[2]))
    options: list[tuple[float, str, int, Plan, Plan]] = []
    for _, memory_bound, name, base in bases[: ALTERNATIVE_GPUS + 1]:
        # Full recompute only when memory, not the deadline, sets the count (one search).
        own = recompute_options(base)[0]
        recompute = "full" if memory_bound and base.task != "inference" else own
        fit = fit_layout(base, failing | {"memory"}, (recompute,))
        if fit is None:
            continue  # does not fit at any size
        laid_out, need = fit
        need = max(need, plan.gpus)
        options.append((_cost_key(need, base.gpu, failing), name, need, base, laid_out))
    if "compute" in failing:  # a faster GPU only when it needs fewer cards than more of these
        same = fit_layout(plan, failing)
        if same is not None:
            options = [o for o in options if o[2] < max(same[1], plan.gpus)]
    options.sort(key=lambda item: (item[0], item[3].gpu.memory_bytes, item[1]))
    for key, _, need, base, laid_out in options[:ALTERNATIVE_GPUS]:
        size = key / _cost_key(plan.gpus, plan.gpu, failing)
        if need <= plan.gpus and laid_out == base:
            yield Candidate(
                "gpu",
                Msg("suggest.other_gpu_same_count", gpus=plan.gpus, gpu=base.gpu.name),
                base,
                6,
                hardware=True,
                size=size,
            )
            continue
        yield from _scale_out(plan, laid_out, need, kind="gpu", rank=6, size=size)
