"""The layout note under an answer: the parallel set-up chosen and why, in the answer's
language (`assistant.calculate.layouts` chooses it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Language, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import Plan

__all__ = [
    "data_parallel",
    "layout_answer",
    "layout_note",
    "stated_zero_note",
    "zero_applies",
    "zero_shown",
]


def layout_note(plan: Plan, lang: Language, why: str, rate: float) -> str:
    """The layout chosen, said with why (`serving_pick.layout_reason`; `rate` is all
    replicas' decode tokens/s) or with its parts (training)."""
    from assistant.calculate.serving_pick import layout_reason

    if plan.task == "inference":
        count = plan.replicas
        replicas = Msg("default.replica" if count == 1 else "default.replicas", count=count)
        note = layout_reason(
            why, plan.tensor_parallel, plan.pipeline_parallel, replicas, rate, plan.batch_size
        )
        return text(note, lang)
    return text(_training_note(plan), lang)


def layout_answer(plan: Plan) -> Msg:
    """ "What TP degree should I use", "怎么切分": the split evaluated, said first. Serving: TP
    inside the node, PP across nodes, and the replicas; training: the parallel set-up with its
    ZeRO stage (`_training_note`). Why this split is in the layout note under the answer."""
    hardware = Msg("common.gpus", count=plan.gpus, gpu=plan.gpu.name)
    if plan.task != "inference":
        return Msg("answer.layout_training", hardware=hardware, setup=_training_note(plan))
    count = plan.replicas
    replicas = Msg("default.replica" if count == 1 else "default.replicas", count=count)
    key = "answer.layout_serving_pp" if plan.pipeline_parallel > 1 else "answer.layout_serving"
    return Msg(
        key,
        hardware=hardware,
        tp=plan.tensor_parallel,
        pp=plan.pipeline_parallel,
        replicas=replicas,
    )


def data_parallel(plan: Plan) -> int:
    """The data-parallel degree of a training plan: GPUs / (TP x PP)."""
    return max(1, plan.gpus // (plan.tensor_parallel * plan.pipeline_parallel))


def zero_applies(plan: Plan) -> bool:
    """Whether the plan's ZeRO stage does anything: ZeRO partitions the model states over the
    data-parallel ranks (Rajbhandari et al. 2020, arXiv:1910.02054 §5), so with one replica
    (every GPU in one TP/PP group) it shards nothing; with CPU offload the stage still says
    where the states live (ZeRO-Offload, arXiv:2101.06840, runs on a single GPU)."""
    return data_parallel(plan) > 1 or plan.offload


def zero_shown(scenario: Scenario, plan: Plan) -> int | None:
    """The ZeRO stage an answer shows: a stated one, else the plan's where it shards
    anything (none at one data-parallel replica: `zero_applies`); none for serving."""
    if scenario.task == "inference":
        return None
    return plan.zero_stage if scenario.zero_stage is not None or zero_applies(plan) else None


def stated_zero_note(plan: Plan, scenario: Scenario) -> tuple[Msg, ...]:
    """A stated ZeRO stage at one data-parallel replica is kept, and said to shard nothing."""
    stated = scenario.zero_stage
    if plan.task == "inference" or not stated or zero_applies(plan):
        return ()
    return (Msg("default.zero_no_effect", zero=stated),)


def _training_note(plan: Plan) -> Msg:
    recompute = str(plan.recompute)
    ep = plan.expert_parallel_degree if plan.model.is_moe else 1
    applies = zero_applies(plan)
    return Msg(
        "default.layout_training" if applies else "default.layout_training_one_replica",
        zero=plan.zero_stage,
        fsdp=Msg("default.fsdp") if plan.zero_stage == 3 and applies else "",
        tp=Msg("default.tp_in_node", tp=plan.tensor_parallel) if plan.tensor_parallel > 1 else "",
        pp=_pipeline_note(plan),
        ep=Msg("default.expert_parallel", ep=ep) if ep > 1 else "",
        recompute=(
            Msg("default.and_recompute", recompute=Msg(f"assume.recompute.{recompute}"))
            if recompute != "none"
            else ""
        ),
    )


def _pipeline_note(plan: Plan) -> Msg | str:
    """The pipeline part of the layout note, with the batch when it was grown for it."""
    from calculators.defaults import PRETRAIN_BATCH_TOKENS

    if plan.pipeline_parallel == 1 or not plan.stages_across_nodes:
        return ""
    sequences = (plan.global_batch_tokens or 0.0) / plan.sequence_length
    if sequences > round(PRETRAIN_BATCH_TOKENS / plan.sequence_length):
        return Msg("default.pp_batch_grown", pp=plan.pipeline_parallel, sequences=sequences)
    return Msg("default.pp_across_nodes", pp=plan.pipeline_parallel)
