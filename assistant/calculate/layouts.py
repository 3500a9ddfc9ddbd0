"""Scenario → calculator Plan, and the layout an engineer would choose for open slots.

Training: among the layouts with no failing check, the one with the shortest run time (an
engineer picks the faster layout); times within `TIME_TIE` count as equal, and then a layout
whose checks are all ok beats one that is only tight, a layout with fewer GPUs per model replica
(less TP x PP) beats a wider one, and an earlier (cheaper) one beats a later. On PCIe and consumer
cards, whose MFU default measures no TP, a layout with TP across the bus is used only when
no other fits (`layout_pick.least_exposed`).
When every layout fails something, the same rule among those whose memory fits; when none
fits, the one needing the least memory per GPU (its shortfall is the honest one). The time is
the planner's own (`calculators.planner.compute`), which charges a slow NVLink's extra tensor-
parallel time (H800/A800), so "fewest tight checks" and "fastest" no longer disagree silently:
on 128 x H800 a 70B model runs ZeRO-1 + TP=8 in about 256 days rather than ZeRO-3 + full
recompute in 292. Multi-node pre-training and fine-tuning also try pipeline stages across
the nodes (`_pipeline_layouts`), which send activations instead of sharded gradients:
Llama-3.1-405B on 10,000 H100 runs TP=8 x PP=10 in ~149 days rather than ZeRO-3 + TP=8 in
~275, and a 70B model on 4 x 8 H100 over 10GbE in ~88 days rather than ~147 (fully
fine-tuning it there on 100M tokens: TP=8 x PP=4 in ~1.1 h rather than ~27 h). Inference: the
smallest tensor (then pipeline) split whose checks are all ok (else the first with nothing
failing, else the first that fits memory); the other GPUs serve as replicas. The choice is
stated in the answer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.defaults import Resolved
from assistant.calculate.layout_notes import layout_note, stated_zero_note
from assistant.calculate.layout_pick import closest, least_exposed, pick, split, unpriced_tp
from assistant.calculate.pipeline_layouts import (
    MAX_PIPELINE_STAGES,
    expert_parallel,
    model_of,
    pipeline_layouts,
)
from assistant.calculate.zero3_micro import micro_batch_notes, with_micro_batches
from assistant.i18n import text
from assistant.records import Language, Scenario
from calculators._memory_parts import valid_tensor_parallel
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_DEADLINE_SECONDS,
    DEFAULT_GPUS_PER_NODE,
)
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU
    from calculators.catalog.models import ModelSpec
    from calculators.planner.plan import CheckResult, Evaluation, Plan

__all__ = ["evaluate_best", "one_replica", "serving_kv_dtype", "to_plan"]

#: Training layouts tried when the question leaves them open, cheapest first: (ZeRO stage,
#: recompute, tensor parallel inside the node?). The fastest with no failing check is used (ties
#: go to the earlier); failing that, the fastest whose memory fits; failing that, the one
#: needing the least memory.
_TRAINING_CONFIGS: tuple[tuple[int, str, bool], ...] = (
    (0, "none", False),
    (1, "none", False),
    (2, "none", False),
    (1, "selective", True),
    (3, "none", False),
    (3, "selective", False),
    (3, "selective", True),
    (3, "full", False),
    (3, "full", True),
)


def serving_kv_dtype(stated: str | None, weights: str, gpu: GPU) -> str:
    """The KV cache format evaluated beside a weight format: the one the question states
    ("fp8 KV cache"), else the 16-bit activation dtype whatever the weights' format
    (`calculators.serving_solvers.kv_format`: vLLM keeps `kv_cache_dtype="auto"` beside FP8,
    INT8 and AWQ/GPTQ weights). The one rule for the checks (`to_plan`) and the solvers."""
    from calculators.serving_solvers import kv_format

    return stated or kv_format(weights, gpu)


def _weight_only_fp8(gpu: GPU, precision: str) -> bool:
    from calculators.catalog.generic import is_generic

    if precision != "fp8" or gpu.supports("fp8"):
        return False
    return is_generic(gpu.name) or gpu.fp8_weight_only()


def to_plan(scenario: Scenario, **overrides: object) -> Plan:
    """The calculator plan for an effective (fully resolved) scenario.

    `overrides` set Plan fields (layout choices such as `zero_stage`, `tensor_parallel`).
    """
    from assistant.calculate.stand_in import stated_gpu
    from calculators.catalog.hardware import lookup_link
    from calculators.catalog.models import generic_model, lookup_model
    from calculators.planner.plan import Plan

    model = (
        lookup_model(scenario.model)
        if scenario.model
        else generic_model(params=scenario.params or 0)
    )
    gpu = stated_gpu(scenario)  # the catalog card, with the memory the question gave it
    inference = scenario.task == "inference"
    precision = scenario.precision or gpu.default_training_precision()
    weight_dtype = None
    # int4/int8 serve as weight-only formats; so does FP8 on a Turing/Ampere card and on a generic
    # card without FP8 (W8A16, `GPU.fp8_weight_only`, `calculators.catalog.generic`)
    if precision in ("int4", "int8") or (inference and _weight_only_fp8(gpu, precision)):
        weight_dtype = precision if inference else None
        precision = gpu.default_training_precision()
    context = scenario.context_length or DEFAULT_CONTEXT_TOKENS
    fields: dict[str, object] = {
        "task": scenario.task or "pretrain",
        "model": model,
        "gpu": gpu,
        "gpus": _count("gpu_count", scenario.gpu_count),
        "gpus_per_node": _count("gpus_per_node", scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE),
        "method": scenario.method if scenario.task == "finetune" else None,
        "intra_link": lookup_link(scenario.intra_link) if scenario.intra_link else None,
        "inter_link": lookup_link(scenario.inter_link) if scenario.inter_link else None,
        "precision": precision,
        "tokens": scenario.tokens,
        "deadline_seconds": scenario.deadline_seconds or DEFAULT_DEADLINE_SECONDS,
        "zero_stage": scenario.zero_stage or 0,
        "tensor_parallel": scenario.tensor_parallel or 1,
        "pipeline_parallel": scenario.pipeline_parallel or 1,
        "sequence_length": context,
        "prompt_tokens": scenario.prompt_tokens if inference else None,
        "batch_size": (scenario.batch_size or 1) if inference else 1,
        "request_rate": scenario.target_qps if inference else None,
        "output_tokens": scenario.output_tokens if inference else None,
        "global_batch_tokens": None if inference else float((scenario.batch_size or 1) * context),
        "weight_dtype": weight_dtype,
        "kv_dtype": serving_kv_dtype(scenario.kv_dtype, weight_dtype or precision, gpu),
        # "serving it for a month": the deadline of a serving question is how long it runs
        "serving_seconds": scenario.deadline_seconds if inference else None,
        "price_per_gpu_hour": scenario.price_per_gpu_hour,
        "price_per_kwh": scenario.price_per_kwh,  # the energy bill in the power check's figures
        "currency": scenario.currency,
        "host_ram_bytes": scenario.host_ram_bytes,
        "offload": bool(scenario.offload) and not inference,
        # a card held to a budget: no other model, whose price the catalog cannot check
        "other_gpus": scenario.purchase_budget is None and scenario.budget is None,
    }
    if scenario.inter_link:
        fields["nics_per_node"] = _ports(scenario, gpu)
    fields.update({"pue": scenario.pue} if scenario.pue is not None else {})  # "PUE 1.3"
    if scenario.mfu is not None and not inference:  # "at 40% MFU": replaces the default
        fields["mfu"] = scenario.mfu
    if scenario.recompute is not None and not inference:  # "no recompute": as stated
        fields["recompute"] = scenario.recompute
    if scenario.pipeline_microbatches is not None and not inference:  # "64个微批次"
        fields["pp_microbatches"] = scenario.pipeline_microbatches
    if scenario.micro_batch is not None and not inference:  # "micro-batch 2"
        fields["micro_batch_size"] = scenario.micro_batch
    if scenario.expert_parallel and model.is_moe and not inference:  # "EP64": as stated
        fields["expert_parallel"] = scenario.expert_parallel
    fields.update({k: v for k, v in overrides.items() if v is not None})
    return Plan(**fields)  # type: ignore[arg-type]


def _ports(scenario: Scenario, gpu: GPU) -> int:
    """Inter-node ports per node: as stated ("one NIC per node"), else cabled as the card's
    clusters are (see `calculators.planner.fabrics.ports_per_node`)."""
    from calculators.catalog.hardware import lookup_link
    from calculators.planner.fabrics import ports_per_node

    if scenario.nics_per_node:
        return _count("nics_per_node", scenario.nics_per_node)
    per_node = _count("gpus_per_node", scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE)
    return ports_per_node(gpu, lookup_link(str(scenario.inter_link)), per_node)


def _count(field: str, value: int | None) -> int:
    if value is None or value < 1:
        raise CalculatorInputError(field, value, Msg("invalid.whole_at_least_1"))
    return int(value)


def _layouts(scenario: Scenario) -> list[dict[str, object]]:
    """Configurations to try, cheapest first, for the slots the question left open; a stated
    recompute mode ("no recompute") is kept in every one of them."""
    layouts = _open_layouts(scenario)
    if scenario.recompute is None or scenario.task == "inference":
        return layouts
    out: list[dict[str, object]] = []
    for layout in layouts:
        fixed = {**layout, "recompute": scenario.recompute}
        if fixed not in out:
            out.append(fixed)
    return out


def _open_layouts(scenario: Scenario) -> list[dict[str, object]]:
    if scenario.task != "inference":
        gpus = scenario.gpu_count or 1
        if scenario.zero_stage is not None and scenario.tensor_parallel:
            # ZeRO and TP stated: only the experts are left to split (over the data-parallel
            # ranks); a stated PP alone leaves TP open, searched below at the stated stage
            split = scenario.tensor_parallel * (scenario.pipeline_parallel or 1)
            return [{"expert_parallel": expert_parallel(scenario, gpus // split)}]
        node_tp = _node_tensor_parallel(
            min(gpus, scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE), gpus, _model(scenario)
        )
        # a stated TP ("TP4 PP2") is kept: the node's TP is searched only when it is open
        searched = node_tp if scenario.tensor_parallel is None else 1
        # the experts split over the data-parallel ranks TP and a stated PP leave
        stated_split = (scenario.tensor_parallel or 1) * (scenario.pipeline_parallel or 1)
        flat: list[dict[str, object]] = []
        for z, r, tp in _TRAINING_CONFIGS:
            split = searched if tp else 1
            layout: dict[str, object] = {
                "zero_stage": z,
                "recompute": r,
                "tensor_parallel": split if split > 1 else None,
                "expert_parallel": expert_parallel(scenario, gpus // (split * stated_split)),
            }
            if (not tp or searched > 1) and layout not in flat:
                flat.append(layout)
        tried = with_micro_batches(scenario, flat + pipeline_layouts(scenario, gpus, node_tp))
        if scenario.zero_stage is not None:  # "ZeRO-3" fixes the stage, not recompute or TP
            return [x for x in tried if x["zero_stage"] == scenario.zero_stage] or [{}]
        return tried
    if scenario.tensor_parallel or scenario.pipeline_parallel:
        return [{}]
    gpus = max(scenario.gpu_count or 1, 1)
    per_node = min(gpus, scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE)
    model = _model(scenario)
    layouts: list[dict[str, object]] = [
        {"tensor_parallel": t}
        for t in (1, 2, 4, 8, 16)
        if t <= per_node and gpus % t == 0 and valid_tensor_parallel(model, t)
    ]
    # Pipeline stages over what TP leaves: one per node, or inside a node whose GPU count no
    # TP degree fills (3 cards hold a 72B int4 model as 3 stages, as llama.cpp and vLLM's
    # pipeline parallelism split layers; TP must divide the attention heads, 3 does not).
    node_tp = _node_tensor_parallel(per_node, gpus, model)
    layouts += [
        {"tensor_parallel": node_tp, "pipeline_parallel": p}
        for p in range(2, gpus // node_tp + 1)
        if gpus % (node_tp * p) == 0
    ]
    return layouts + _latent_layouts(scenario)


def _latent_layouts(scenario: Scenario) -> list[dict[str, object]]:
    """Where tensor parallelism does not split the KV cache (MLA's latent, or fewer KV heads
    than the node's TP), every TP rank holds each sequence's whole cache, so a narrower TP with
    the rest as pipeline stages holds more: one replica of TP t x PP gpus/t for each t below
    the node's (DeepSeek-R1 in bf16 for 500 users fits 32 910B as TP2 x PP16, not TP8 x PP4).
    These are the splits the memory check's fewest-GPU search (`min_gpus_to_fit`) tries; they
    are chosen only when no other split fits (`_serving_choice`)."""
    gpus = max(scenario.gpu_count or 1, 1)
    model = _model(scenario)
    node_tp = _node_tensor_parallel(
        min(gpus, scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE), gpus, model
    )
    if model.attention != "mla" and model.kv_heads >= node_tp:
        return []
    return [
        {"tensor_parallel": t, "pipeline_parallel": gpus // t}
        for t in (1, 2, 4)
        if t < node_tp
        and gpus % t == 0
        and 1 < gpus // t <= model.layers
        and valid_tensor_parallel(model, t)
    ]


def _model(scenario: Scenario) -> ModelSpec:
    return model_of(scenario)


def _node_tensor_parallel(per_node: int, gpus: int, model: ModelSpec) -> int:
    """The largest TP degree real frameworks use (8, 4 or 2) that fits in one node, divides
    the GPU count (the planner needs gpus = k × TP × PP) and splits the model's attention
    heads (`valid_tensor_parallel`: Qwen2's 28 heads take 4, not 8); 1 when none does (e.g.
    3-GPU boxes, which shard with ZeRO-3/FSDP instead). A default layout is never one the
    planner would refuse as input."""
    return next(
        (
            t
            for t in (8, 4, 2)
            if t <= per_node and gpus % t == 0 and valid_tensor_parallel(model, t)
        ),
        1,
    )


def evaluate_best(
    scenario: Scenario, lang: Language, pue: float | None, ask: str = "feasibility"
) -> tuple[Evaluation, list[str]]:
    """Evaluate, choosing ZeRO/recompute (training) or TP/PP (inference) as an engineer would;
    `ask` (what the question asks) sets what a serving split is chosen for."""
    from calculators.planner import evaluate

    layouts = _layouts(scenario)
    if scenario.task == "inference":
        chosen, why = _serving_choice(scenario, layouts, pue, ask)
    else:
        chosen, why = _training_choice(scenario, layouts, pue), ""
    evaluation = evaluate(to_plan(scenario, pue=pue, **chosen))
    given = bool(scenario.tensor_parallel) or (
        scenario.zero_stage is not None and not scenario.pipeline_parallel
    )  # a stated PP with TP open: the TP chosen is said with the layout
    if given:
        notes = [text(m, lang) for m in stated_zero_note(evaluation.plan, scenario)]
    else:
        rate = _figure(evaluation.checks, "compute", "decode_tokens_per_s_all_replicas")
        notes = [layout_note(evaluation.plan, lang, why, rate)]
    notes += micro_batch_notes(evaluation.plan, scenario, lang)
    if deciding_notes(evaluation, lang):
        return evaluation, notes  # said first, by `deciding_notes`
    return evaluation, notes + _host_ram_note(evaluation.plan, lang)


#: (rank, checks, layout): rank 0 every check ok, 1 nothing failing, 2 something failing
_Trial = tuple[int, "tuple[CheckResult, ...]", dict[str, object]]


def _trials(
    scenario: Scenario, layouts: list[dict[str, object]], pue: float | None, *, first_ok: bool
) -> list[_Trial]:
    """Each layout the planner accepts, with its checks, in trial order (none when only one
    layout is open); with `first_ok`, up to the first whose checks all pass. A layout whose
    memory does not fit has its memory check alone (`layout_checks`): it is never chosen
    over one that fits, and only its memory need is compared."""
    from calculators.planner import layout_checks

    out: list[_Trial] = []
    for layout in layouts if len(layouts) > 1 else ():
        try:
            checks = layout_checks(to_plan(scenario, pue=pue, **layout))
        except CalculatorInputError:
            continue  # a layout the planner refuses (e.g. GPUs not a multiple of TP x PP)
        verdicts = {c.verdict for c in checks}
        rank = 0 if verdicts <= {"ok", "n/a"} else 1 if "fail" not in verdicts else 2
        out.append((rank, checks, layout))
        if first_ok and rank == 0:
            break
    return out


def _training_choice(
    scenario: Scenario, layouts: list[dict[str, object]], pue: float | None
) -> dict[str, object]:
    """The fastest layout that fits (see the module docstring); when none fits, the one
    needing the least memory per GPU (its shortfall is the honest one: "1.1x over")."""
    trials = _trials(scenario, layouts, pue, first_ok=False)
    fitting = [(r, checks, layout) for r, checks, layout in trials if checks[0].verdict != "fail"]
    tried = [(r, _figure(checks, "compute", "seconds"), layout) for r, checks, layout in fitting]
    tried = least_exposed(tried, [unpriced_tp(checks) for _, checks, _ in fitting])
    fails = {id(layout): _failing(checks) for _, checks, layout in fitting}
    chosen = pick(tried, by_time=True, failing=[fails[id(t[2])] for t in tried])
    needs = [
        (_figure(checks, "memory", "required_bytes_per_gpu"), i, layout)
        for i, (_, checks, layout) in enumerate(trials)
        if isinstance(checks[0].figures.get("required_bytes_per_gpu"), float)
    ]
    if chosen is None and needs:
        chosen = closest([(need, layout) for need, _, layout in needs])
    if chosen is None:
        chosen = layouts[0] if len(layouts) == 1 else {"zero_stage": 3, "recompute": "selective"}
    return chosen


def _failing(checks: tuple[CheckResult, ...]) -> int:
    """Failing checks of a trial: the tie-break after its rank (`pick`)."""
    return sum(c.verdict == "fail" for c in checks)


def _serving_choice(
    scenario: Scenario, layouts: list[dict[str, object]], pue: float | None, ask: str
) -> tuple[dict[str, object], str]:
    """(the serving split, why it was chosen): by the question's goal (`serving_pick`); with
    no load or target, the smallest split whose checks all pass (else nothing failing)."""
    from assistant.calculate.serving_pick import (
        Tried,
        faster_tight,
        pick_serving,
        serving_goal,
    )

    fallback = layouts[0] if len(layouts) == 1 else layouts[-1]
    goal = serving_goal(scenario, ask)
    trials = _trials(scenario, layouts, pue, first_ok=False)
    fitting = [(r, checks, layout) for r, checks, layout in trials if checks[0].verdict != "fail"]
    latent = _latent_layouts(scenario)  # deep pipelines for a latent cache: only when needed
    if any(layout not in latent for _, _, layout in fitting):
        fitting = [f for f in fitting if f[2] not in latent]
    tried = [
        Tried(
            layout=layout,
            rank=rank,
            gpus_per_replica=split(layout),
            tokens_per_second=_figure(checks, "compute", "decode_tokens_per_s_all_replicas"),
            seconds_per_token=_figure(checks, "compute", "seconds_per_token"),
            first_token_seconds=_figure(checks, "compute", "first_token_seconds"),
        )
        for rank, checks, layout in fitting
    ]
    if goal == "fit":
        roomy = pick([(t.rank, 0.0, t.layout) for t in tried], by_time=False)
        tight = faster_tight(tried, roomy)
        if tight:
            return tight, "tight"
        room = _room_for_a_batch(scenario, fitting, roomy)
        return (room, "room") if room else (roomy or fallback, "")
    found = pick_serving(tried, scenario, ask)
    return found if found is not None else (fallback, "")


def _room_for_a_batch(
    scenario: Scenario,
    fitting: list[tuple[int, tuple[CheckResult, ...], dict[str, object]]],
    roomy: dict[str, object] | None,
) -> dict[str, object] | None:
    """A wider split when the smallest one's memory holds fewer than `MIN_SERVING_SEQUENCES`
    sequences over its replicas and a wider one holds that many; None otherwise, and always
    under a load of several users (the memory check judges those). Qwen2.5-32B in
    INT8 on 2 × L20: two TP=1 replicas hold about 7 sequences of 4,096 tokens (each card keeps
    all 34 GB of weights), TP=2 about 45 (each keeps half): "it runs" on the first, it serves
    on the second, at no cost in cards."""
    from assistant.calculate.serving_room import sequences_held
    from calculators.defaults import MIN_SERVING_SEQUENCES

    if roomy is None or (scenario.concurrency or 1) > 1 or (scenario.batch_size or 1) > 1:
        return None
    held = [(rank, layout, sequences_held(checks)) for rank, checks, layout in fitting]
    first = next((n for _, layout, n in held if layout == roomy), None)
    if first is None or first >= MIN_SERVING_SEQUENCES:
        return None
    return next(
        (layout for rank, layout, n in held if rank < 2 and (n or 0) >= MIN_SERVING_SEQUENCES),
        None,
    )


def _figure(checks: tuple[CheckResult, ...], kind: str, key: str) -> float:
    """A check's figure as a float (0.0 when absent)."""
    value = next((c.figures.get(key) for c in checks if c.kind == kind), None)
    return float(value) if isinstance(value, (int, float)) else 0.0


def deciding_notes(evaluation: Evaluation, lang: Language) -> tuple[str, ...]:
    """Assumptions that decide the verdict, said before the others (a brief answer shows the
    first few): the default host RAM an offload does not fit in."""
    if evaluation.check("memory").limiting != "host_ram":
        return ()
    return tuple(_host_ram_note(evaluation.plan, lang))


def _host_ram_note(plan: Plan, lang: Language) -> list[str]:
    """An offload planned on a default host RAM says the figure, for the user to replace
    ("按 512 GiB 主机内存假设…；请告诉我实际内存"); nothing when the RAM was given."""
    from calculators.planner.host import host_ram_assumption
    from calculators.planner.memory import offload_host_ram

    host = offload_host_ram(plan)
    if host is None or host.given:
        return []
    on_node = min(plan.gpus, plan.gpus_per_node)
    required = host.required_bytes_per_node if host.configured_bytes_per_node else 0.0
    said = host_ram_assumption(plan.gpu, on_node, host.available_bytes_per_node, required)
    return [text(said, lang)]


def one_replica(resolved: Resolved) -> Resolved:
    """For "how many concurrent sequences" (and a comparison at capacity): one replica over the
    node (tensor parallel across its GPUs) leaves the most memory for the KV cache; when the
    node cannot hold the weights, the fewest pipeline stages across the nodes that can
    (`_fewest_stages`); a stated split is kept."""
    s = resolved.scenario
    if s.tensor_parallel or s.pipeline_parallel:
        return resolved
    per_node = min(s.gpu_count or 1, s.gpus_per_node or DEFAULT_GPUS_PER_NODE)
    split = _node_tensor_parallel(per_node, s.gpu_count or 1, _model(s))
    return replace(resolved, scenario=_fewest_stages(replace(s, tensor_parallel=split)))


#: Pipeline stages are added to a replica TP alone holds only when they hold this many times
#: the sequences (two TP=8 copies of a 70B model hold about as much as one TP=8 x PP=2 copy).
_STAGES_WORTH = 1.5


def _fewest_stages(s: Scenario) -> Scenario:
    """`s` with the fewest pipeline stages (dividing the GPUs left by TP, at most
    MAX_PIPELINE_STAGES) whose replica holds at least one sequence; `s` unchanged when TP alone
    does, or no stage count does. DeepSeek-R1 in FP8 (~671 GB) on 16 x H100 (72 GB usable
    each) is TP=8 x PP=2, one replica, as `calculators.serving_layout` deploys it (TP = the
    node, then the fewest stages); two TP=8 replicas of 576 GB each cannot hold it."""
    from assistant.calculate.solvers import max_sequences

    gpus, tp = s.gpu_count or 1, s.tensor_parallel or 1
    alone = max_sequences(s) or 0
    top = min(MAX_PIPELINE_STAGES, gpus // tp)
    best, most = s, 0
    for pp in (p for p in range(2, top + 1) if gpus % (tp * p) == 0):
        staged = replace(s, pipeline_parallel=pp)
        held = max_sequences(staged) or 0
        # TP alone holds the job, but stages across the nodes free far more memory for the
        # cache: DeepSeek-V3 in FP8 on 2 x 8 H20 holds ~6 sequences as two TP=8 copies (each
        # GPU keeps the whole MLA latent), ~150 as one TP=8 x PP=2 copy; once stages are worth
        # it, the depth holding the most (405B in FP8 at 32k on 4 x 8 H100: 86 sequences as two
        # TP=8 x PP=2 copies, 112 as one TP=8 x PP=4)
        if held > most and (most or not alone or held >= _STAGES_WORTH * alone):
            best, most = staged, held
    return best
