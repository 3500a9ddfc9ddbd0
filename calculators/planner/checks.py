"""The network, power and cost checks of a plan, and the verdict thresholds they share.

Thresholds (documented, used by every check): a limit check is "ok" when need/limit <= 0.9,
"tight" when 0.9 < need/limit <= 1.0 (within 10% of the limit), "fail" above 1.0. The network
check compares communication with compute per step: ok when comm/compute <= 0.25 (>= 80%
efficiency without overlap), tight up to 1.0 (overlap can still hide it), fail above 1.0
(communication-bound: even perfect overlap leaves the GPUs waiting).
"""

from __future__ import annotations

from calculators._memory_parts import frozen_base_bytes, stage_layout
from calculators.catalog.hardware import LINKS, Link
from calculators.messages import Msg
from calculators.network import NetworkEstimate, training_step_network
from calculators.planner.energy import site_energy, with_bill
from calculators.planner.plan import (
    FINETUNE_BATCH_SEQUENCES,
    PRETRAIN_BATCH_TOKENS,
    TIGHT_MARGIN,
    CheckResult,
    CheckVerdict,
    Figure,
    Plan,
)
from calculators.power import SOURCES as POWER_SOURCES
from calculators.power import EnergyEstimate, cost

__all__ = [
    "NETWORK_OK_RATIO",
    "SINGLE_NODE_NOTE",
    "batch_tokens",
    "cost_check",
    "intra_link",
    "limit_verdict",
    "network_check",
    "power_check",
    "step_estimate",
]

#: Network "ok" when communication is at most 25% of compute per step.
NETWORK_OK_RATIO = 0.25


def limit_verdict(need: float, limit: float) -> CheckVerdict:
    """ok / tight / fail for a need against a limit (tight = within 10% of the limit).

    Examples:
        >>> limit_verdict(85, 100), limit_verdict(95, 100), limit_verdict(101, 100)
        ('ok', 'tight', 'fail')
    """
    if limit <= 0:
        return "fail"
    ratio = need / limit
    if ratio <= 1.0 - TIGHT_MARGIN:
        return "ok"
    return "tight" if ratio <= 1.0 else "fail"


def intra_link(plan: Plan) -> Link:
    """The plan's intra-node link, or the GPU's own (NVLink, HCCS, or PCIe)."""
    return plan.intra_link or LINKS[plan.gpu.intra_link]


def batch_tokens(plan: Plan) -> float:
    """Global batch in tokens: the plan's, else 4M (pretrain) or 64 sequences (finetune); never
    more than the run's tokens, so a data set smaller than one batch is one step whose time is
    the run's (not a 58 s step in a 0.7 s run)."""
    if plan.global_batch_tokens:
        batch = plan.global_batch_tokens
    elif plan.task == "finetune":
        batch = float(FINETUNE_BATCH_SEQUENCES * plan.sequence_length)
    else:
        batch = PRETRAIN_BATCH_TOKENS
    return min(batch, plan.tokens) if plan.tokens else batch


def _network_na(plan: Plan, reason: Msg) -> CheckResult:
    figures = dict.fromkeys(
        (
            "allreduce_seconds_per_step",
            "compute_seconds_per_step",
            "inter_node_bytes_per_second",
            "scaling_efficiency",
            "required_inter_node_bytes_per_second_for_90pct",
        )
    )
    return CheckResult(
        kind="network",
        verdict="n/a",
        figures=figures,
        formula=None,
        inputs={"gpus": plan.gpus},
        assumptions=(reason,),
    )


def step_estimate(
    plan: Plan,
    *,
    peak_flops_per_s: float,
    mfu: float,
    total_tokens: float | None,
    trainable_params: float | None = None,
    flops_per_token: float | None = None,
) -> NetworkEstimate | None:
    """Compute and communication of one training step (None: serving or a single GPU)."""
    if plan.task == "inference" or plan.gpus == 1:
        return None
    return training_step_network(
        model=plan.model,
        gpus=plan.gpus,
        gpus_per_node=plan.gpus_per_node,
        intra_link=intra_link(plan),
        inter_link=plan.inter_link,
        global_batch_tokens=batch_tokens(plan),
        peak_flops_per_s=peak_flops_per_s,
        mfu=mfu,
        tensor_parallel=plan.tensor_parallel,
        pipeline_parallel=plan.pipeline_parallel,
        zero_stage=plan.zero_stage,
        nics_per_node=plan.nics_per_node,
        sequence_length=plan.sequence_length,
        micro_batch_size=plan.micro_batch_size,
        full_recompute=_full_recompute(plan),
        expert_parallel=plan.expert_parallel_degree,
        total_tokens=total_tokens,
        trainable_params=trainable_params,
        flops_per_token=flops_per_token,
        data_parallel_inside=plan.stages_across_nodes,
        frozen_bytes=_frozen_base_bytes(plan),
    )


def _frozen_base_bytes(plan: Plan) -> float:
    """The LoRA/QLoRA frozen base a ZeRO-3 plan gathers every step (0 for full training)."""
    if plan.task != "finetune" or plan.effective_method == "full":
        return 0.0
    whole = stage_layout(plan.model, 1)[0]
    return frozen_base_bytes(
        params=whole.params, linear_params=whole.linear_params, method=plan.effective_method
    )


def network_check(
    plan: Plan,
    *,
    peak_flops_per_s: float,
    mfu: float,
    total_tokens: float | None,
    trainable_params: float | None = None,
    flops_per_token: float | None = None,
) -> CheckResult:
    """The data/tensor/pipeline/expert traffic of one training step against its compute."""
    if plan.task == "inference":
        from calculators.planner.serving import serving_network_check  # imports this module

        return serving_network_check(plan)
    est = step_estimate(
        plan,
        peak_flops_per_s=peak_flops_per_s,
        mfu=mfu,
        total_tokens=total_tokens,
        trainable_params=trainable_params,
        flops_per_token=flops_per_token,
    )
    if est is None:
        return _network_na(plan, Msg("assume.network.single_gpu"))
    return _network_result(plan, est, tp_seconds_in_mfu(plan, est, peak=peak_flops_per_s, mfu=mfu))


def tp_seconds_in_mfu(plan: Plan, est: NetworkEstimate, *, peak: float, mfu: float) -> float:
    """Tensor-parallel seconds per step the MFU already pays: a default measured on TP runs
    over a reference NVLink (`MfuDefault.reference_intra_link`) pays them up to that link's
    speed (what a slower link adds, the "TP excess", is not paid), and a user-given MFU is
    measured on the user's own links. 0 for defaults that are no measurement (PCIe, consumer,
    NPU classes): their TP traffic is exposed. The network check compares only the rest with
    compute, so in-node TP over NVLink 4 on 8 x H100 warns of nothing the run time does not
    already hold (Narayanan et al. 2021 §3.2: TP all-reduces stay on the node's NVLink)."""
    from calculators.mfu import default_mfu_basis
    from calculators.planner.compute import tp_excess_seconds  # imports this module

    tp = est.tp_seconds_per_step
    if plan.tensor_parallel == 1 or tp <= 0:
        return 0.0
    if not plan.mfu and default_mfu_basis(plan.gpu, plan.precision).reference_intra_link is None:
        return 0.0
    return max(0.0, tp - tp_excess_seconds(plan, tp, peak=peak, mfu=mfu))


def _full_recompute(plan: Plan) -> bool:
    return plan.recompute == "full" or (plan.recompute is None and plan.task == "finetune")


def _exposed_ratio(est: NetworkEstimate, paid: float) -> float:
    """Communication per step not paid in the MFU, over compute."""
    return (est.comm_seconds_per_step - paid) / est.compute_seconds_per_step


def _network_verdict(est: NetworkEstimate, paid: float) -> CheckVerdict:
    ratio = _exposed_ratio(est, paid)
    verdict: CheckVerdict = "ok" if ratio <= NETWORK_OK_RATIO else "tight" if ratio <= 1 else "fail"
    if verdict == "ok" and "ethernet_without_rdma" in est.flags:
        verdict = "tight"
    return verdict


def _network_limiting(est: NetworkEstimate, paid: float) -> str:
    parts = {
        "data_parallel_allreduce": est.allreduce_seconds_per_step,
        "tensor_parallel": est.tp_seconds_per_step - paid,
        "pipeline_p2p": est.pp_seconds_per_step,
        "moe_all_to_all": est.moe_seconds_per_step,
    }
    return max(parts, key=lambda k: parts[k])


#: Shown for inter-node figures of a one-node job (their value is None in the figures).
SINGLE_NODE_NOTE = Msg("assume.network.single_node")


def _network_result(plan: Plan, est: NetworkEstimate, paid: float) -> CheckResult:
    verdict = _network_verdict(est, paid)
    multi_node = est.nodes > 1
    figures = {
        "allreduce_seconds_per_step": est.allreduce_seconds_per_step,
        "tp_seconds_per_step": est.tp_seconds_per_step,
        "tp_in_mfu_seconds_per_step": paid,
        # TP the run time leaves out: all of it when the MFU default is no TP measurement
        # (paid is 0), none otherwise (the planner's time charges the excess over the paid)
        "tp_outside_time_seconds_per_step": est.tp_seconds_per_step if paid <= 0 else 0.0,
        "pp_seconds_per_step": est.pp_seconds_per_step,
        "moe_seconds_per_step": est.moe_seconds_per_step,
        "comm_seconds_per_step": est.comm_seconds_per_step,
        "compute_seconds_per_step": est.compute_seconds_per_step,
        "comm_compute_ratio": est.comm_compute_ratio,
        "scaling_efficiency": est.scaling_efficiency_no_overlap,
        "scaling_efficiency_overlap": est.scaling_efficiency_overlap,
        # One node: no inter-node traffic. None (shown as "n/a (single node)"), not 0 B/s.
        "inter_node_bytes_per_second": est.inter_node_bytes_per_s if multi_node else None,
        "inter_node_bytes_per_step": est.inter_node_bytes_per_step if multi_node else None,
        "required_inter_node_bytes_per_second_for_90pct": (
            est.inter_node_bytes_per_s_for_90pct if multi_node else None
        ),
        "data_parallel": est.data_parallel,
        "nodes": est.nodes,
        # False: the nodes talk plain TCP, which alone makes a passing ratio "tight"
        "inter_node_rdma": "ethernet_without_rdma" not in est.flags if multi_node else None,
        "steps": est.steps,
    }
    inter = plan.inter_link.name if plan.inter_link else None
    return CheckResult(
        kind="network",
        verdict=verdict,
        figures=figures,
        formula=est.formula,
        inputs={
            "gpus": plan.gpus,
            "gpus_per_node": plan.gpus_per_node,
            "intra_link": intra_link(plan).name,
            "inter_link": inter,
            "nics_per_node": plan.nics_per_node,
            "global_batch_tokens": batch_tokens(plan),
            "tensor_parallel": plan.tensor_parallel,
            "pipeline_parallel": plan.pipeline_parallel,
            "zero_stage": plan.zero_stage,
            "expert_parallel": plan.expert_parallel_degree,
        },
        assumptions=(
            *est.assumptions,
            Msg("assume.network.verdict_bands", ok=NETWORK_OK_RATIO, tight=1.0),
            *(() if multi_node else (SINGLE_NODE_NOTE,)),
        ),
        sources=est.sources,
        limiting=_network_limiting(est, paid) if verdict != "ok" else None,
        shortfall=_exposed_ratio(est, paid) if verdict == "fail" else None,
        flags=est.flags,
    )


def power_check(
    plan: Plan,
    *,
    seconds: float | None,
    label: str,
    tokens_per_s: float | None = None,
) -> CheckResult:
    """Power draw and energy of the job: the whole run for training; for serving, the draw
    (W), one hour of energy and, given the deployment's decode rate, energy per output token.

    GPUs at TDP (an upper bound), host overhead and PUE. Serving has no natural horizon (it
    runs until it is switched off), so its figures are rates: power_watts, kwh_per_hour and
    kwh_per_million_tokens; energy_joules / kwh are kept (one hour of serving, see "period").
    """
    if seconds is None:
        return CheckResult(
            kind="power",
            verdict="n/a",
            figures={"energy_joules": None, "kwh": None, "power_watts": None},
            formula=None,
            inputs={},
        )
    est = plan_energy(plan, seconds)
    rate = plan_energy(plan, 1.0)
    # Training keeps its whole-run energy as the headline; only serving reports power_watts.
    figures: dict[str, Figure] = {
        "energy_joules": est.energy_joules,
        "kwh": est.kwh,
        "average_power_watts": est.average_power_watts,
        "gpu_energy_joules": est.gpu_energy_joules,
        "host_energy_joules": est.host_energy_joules,
        "facility_overhead_joules": est.facility_overhead_joules,
        "seconds": seconds,
        "period": label,
    }
    formula: Msg = est.formula
    assumptions = est.assumptions
    if plan.task == "inference":
        figures.update(_serving_energy(rate, tokens_per_s))
        formula = Msg("formula.then", first=formula, second=Msg("formula.power.serving"))
        assumptions = (*assumptions, Msg("assume.serving.full_load_power"))
    formula = with_bill(figures, formula, est.kwh, plan.price_per_kwh)  # at the user's price
    return CheckResult(
        kind="power",
        verdict="ok",
        figures=figures,
        formula=formula,
        inputs=dict(est.inputs),
        assumptions=assumptions,
        sources=POWER_SOURCES,
    )


def plan_energy(plan: Plan, seconds: float) -> EnergyEstimate:
    """The plan's energy over `seconds`: 1-4 consumer cards sit in a desk-side box (a
    desktop/workstation host, no facility PUE unless one is given: a stated PUE is applied to
    the box, which keeps its own host); all else in a data-centre server."""
    return site_energy(
        gpu=plan.gpu,
        gpus=plan.gpus,
        gpus_per_node=plan.gpus_per_node,
        seconds=seconds,
        pue=plan.pue,
    )


def _serving_energy(rate: EnergyEstimate, tokens_per_s: float | None) -> dict[str, Figure]:
    """Serving rates from the energy of one second (= watts)."""
    watts = rate.energy_joules
    per_token = watts / tokens_per_s if tokens_per_s else None
    return {
        "power_watts": watts,
        "it_power_watts": rate.gpu_energy_joules + rate.host_energy_joules,
        "gpu_power_watts": rate.gpu_energy_joules,
        "kwh_per_hour": watts / 1000.0,
        "joules_per_token": per_token,
        "kwh_per_million_tokens": per_token * 1e6 / 3.6e6 if per_token is not None else None,
        "tokens_per_s": tokens_per_s,
    }


def cost_check(
    plan: Plan, *, gpu_hours: float | None, label: str, tokens_per_s: float | None = None
) -> CheckResult:
    """Cost at the user's price per GPU-hour; "n/a" when no price was given (none is invented).
    Serving at a known decode rate (`tokens_per_s`, all replicas) also costs per million
    generated tokens: gpus x price / (tokens_per_s x 3600) x 1e6."""
    if plan.price_per_gpu_hour is None or gpu_hours is None:
        return CheckResult(
            kind="cost",
            verdict="n/a",
            figures={"cost": None, "gpu_hours": gpu_hours, "period": label},
            formula=Msg("formula.cost.gpu_hours"),
            inputs={},
            assumptions=(Msg("assume.cost.no_price"),),
        )
    value = cost(gpu_hours=gpu_hours, price_per_gpu_hour=plan.price_per_gpu_hour)
    figures: dict[str, Figure] = {
        "cost": value,
        "gpu_hours": gpu_hours,
        "currency": plan.currency,
        "period": label,
    }
    if plan.task == "inference" and tokens_per_s:
        hourly = cost(gpu_hours=plan.gpus, price_per_gpu_hour=plan.price_per_gpu_hour)
        figures["cost_per_million_tokens"] = hourly / (tokens_per_s * 3600) * 1e6
    return CheckResult(
        kind="cost",
        verdict="ok",
        figures=figures,
        formula=Msg("formula.cost.gpu_hours"),
        inputs={"price_per_gpu_hour": plan.price_per_gpu_hour, "gpu_hours": gpu_hours},
        assumptions=(Msg("assume.cost.user_price"),),
    )
