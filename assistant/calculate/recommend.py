""" "Which model and how many GPUs?" with no model named: a stated ladder of catalog models.

"我想在公司内网部署一个问答助手，大概100人用，推荐用什么模型和几张卡？" names no model. The advisor
never invents a recommendation; it evaluates a short ladder of catalog models of different sizes
that are common for a chat or knowledge-base service (the ladder is the tool's, not a judgement
of quality) at the stated load, or a stated default, on the stated card or a typical one, and
gives for each rung the GPUs it takes, the per-user speed and the memory per GPU. Each rung is
the question "<model>, N users at once, how many <card>?" answered by the ordinary sizing path
(`run`); the answer says how to ask it. Its key figures are those of the largest rung that fits
one server. The verdict is "unknown": an estimate, no verdict on a job the user did not state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.calculate.compare import TIGHT_SHARE
from assistant.calculate.focus import figure
from assistant.calculate.lead import head_count_bound
from assistant.i18n import join_sentences, text
from assistant.parse.recommend import asks_for_pick
from assistant.records import Language, Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = [
    "DEFAULT_USERS",
    "LADDERS",
    "TYPICAL_CARD",
    "Rung",
    "ladder_asked",
    "ladder_rungs",
    "recommend_outcome",
]

#: The tool's ladder per answer language: sizes from one card to a server, all in the catalog.
#: Qwen2.5 (arXiv:2412.15115) is trained for Chinese and English; Llama 3.1 (arXiv:2407.21783)
#: is the common open English family. A ladder of sizes, not a ranking of quality.
LADDERS: dict[Language, tuple[str, ...]] = {
    "zh": ("Qwen2.5-7B", "Qwen2.5-14B", "Qwen2.5-32B", "Qwen2.5-72B"),
    "en": ("Llama-3.1-8B", "Llama-3.1-70B"),
}
#: The card when none is named: the common data-centre serving card (one of the typical set-ups).
TYPICAL_CARD = "A100 SXM 80GB"
#: The card for one user with none named: the typical single-card set-up (a desktop card).
SINGLE_USER_CARD = "RTX 4090 24GB"
#: Users at once when no load is stated (said in the answer; it decides no verdict).
DEFAULT_USERS = 10


@dataclass(frozen=True)
class Rung:
    """One model of the ladder, sized at the load: its answer and key figures."""

    model: str
    outcome: Outcome
    gpus: int
    fits: bool
    speed: float | None
    memory: float | None
    share: float | None
    """The memory per GPU over the usable memory."""


def ladder_asked(query: Query) -> bool:
    """Whether the question asks which model or how much hardware for a service, naming no
    model or size and no training run (the ladder is of serving deployments)."""
    s = query.scenario
    if s.model is not None or s.params is not None or query.options:
        return False
    if s.task not in (None, "inference") or s.tokens or s.deadline_seconds:
        return False
    # "那用H100呢?" after a pick question keeps asking it: the thread's question carries the cue
    asked = f"{query.question} {query.context}" if query.followup else query.question
    return asks_for_pick(asked.lower(), users=s.concurrency)


def recommend_outcome(query: Query, run: Callable[[Query], Outcome]) -> Outcome | None:
    """The ladder answer for a pick question (None for any other): `run` answers one rung's
    question (model set, "how many GPUs" asked) on the ordinary path."""
    if not ladder_asked(query):
        return None
    lang = query.language
    s = query.scenario
    users = s.concurrency or DEFAULT_USERS
    card = _card(s)
    rungs = ladder_rungs(query, run)
    per_node = None if _counted(s) else s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    shown = _shown(rungs, per_node)
    lead = join_sentences(_sentences(query, rungs, shown, card, users, per_node), lang)
    notes = [text(Msg("recommend.ladder_note"), lang)]
    if s.concurrency is None:
        notes.append(text(Msg("recommend.default_users", users=users), lang))
    if s.gpu is None:
        notes.append(text(Msg("recommend.typical_card", gpu=card), lang))
    found = shown.outcome
    return replace(
        found,
        verdict="unknown",
        lead=lead,
        focus="",
        suggestions=(),
        remarks=(),
        assumptions=(*notes, *found.assumptions),
    )


def ladder_rungs(query: Query, run: Callable[[Query], Outcome]) -> list[Rung]:
    """Each model of the answer language's ladder sized at the question's load (or
    `DEFAULT_USERS`) on its card (or `TYPICAL_CARD`)."""
    users = query.scenario.concurrency or DEFAULT_USERS
    card = _card(query.scenario)
    return [_rung(query, model, card, users, run) for model in LADDERS[query.language]]


def _rung(query: Query, model: str, card: str, users: int, run: Callable[[Query], Outcome]) -> Rung:
    scenario = replace(query.scenario, model=model, gpu=card, task="inference", concurrency=users)
    asked = replace(query, scenario=scenario, asks=("gpu_count",), topics=())
    found = run(asked)
    evaluated = found.scenario or scenario
    memory = next((c for c in found.checks if c.kind == "memory"), None)
    step = figure(found.checks, "compute", "seconds_per_token")
    need = figure(found.checks, "memory", "required_bytes_per_gpu")
    usable = figure(found.checks, "memory", "available_bytes_per_gpu")
    return Rung(
        model=model,
        outcome=found,
        gpus=evaluated.gpu_count or 1,
        fits=memory is not None and memory.verdict in ("ok", "tight"),
        speed=1.0 / step if step else None,  # one sequence's decode rate: a token per step
        memory=need,
        share=need / usable if need is not None and usable else None,
    )


def _card(s: Scenario) -> str:
    """The card named, else a desktop card for one user, else the typical serving card."""
    return s.gpu or (SINGLE_USER_CARD if s.concurrency == 1 else TYPICAL_CARD)


def _counted(s: Scenario) -> bool:
    """Whether the question states how many GPUs (each rung is then judged on them)."""
    return s.gpu_count is not None or s.nodes is not None


def _shown(rungs: list[Rung], per_node: int | None) -> Rung:
    """The rung whose key figures are shown: the largest that fits one server (`per_node`
    GPUs; None: the stated GPUs), else the first."""
    fitting = [r for r in rungs if r.fits and (per_node is None or r.gpus <= per_node)]
    return fitting[-1] if fitting else rungs[0]


def _sentences(
    query: Query, rungs: list[Rung], shown: Rung, card: str, users: int, per_node: int | None
) -> tuple[str, ...]:
    """The headline (load, card, each rung), the ladder's caveat, which rung's figures are
    shown and how to ask about it; with a stated count, each rung is judged on those GPUs."""
    lang = query.language
    s = query.scenario
    lines = tuple(_line(r, card, stated=per_node is None) for r in rungs)
    said = s.concurrency is not None
    load = Msg("recommend.stated_load" if said else "recommend.default_load", users=users)
    if per_node is None:  # the GPUs were stated
        hardware = Msg("common.gpus", count=shown.gpus, gpu=card)
        head = Msg("recommend.headline_stated", load=load, hardware=hardware, rungs=lines)
        hint = Msg("recommend.ask_hint_stated", model=shown.model, users=users, hardware=hardware)
        shown_note = Msg("recommend.shown_stated", model=shown.model)
    else:
        head = Msg("recommend.headline", load=load, gpu=card, rungs=lines)
        hint = Msg("recommend.ask_hint", model=shown.model, users=users, gpu=card)
        shown_note = Msg("recommend.shown", model=shown.model, per_node=per_node)
    # "for 200 employees": the headline says all 200 at once is an upper bound
    bound = head_count_bound(query)
    said_first = (text(head, lang), *((bound,) if bound else ()))
    return (*said_first, *(text(m, lang) for m in (Msg("recommend.not_advice"), shown_note, hint)))


def _line(rung: Rung, card: str, *, stated: bool) -> Msg:
    hardware = Msg("common.gpus", count=rung.gpus, gpu=card)
    if not rung.fits or rung.memory is None:
        key = "recommend.rung_no_fit_stated" if stated else "recommend.rung_no_fit"
        return Msg(key, model=rung.model, hardware=hardware)
    if rung.speed is not None and rung.share is not None and rung.share > TIGHT_SHARE:
        return Msg(
            "recommend.rung_tight",
            model=rung.model,
            hardware=hardware,
            speed=rung.speed,
            memory=rung.memory,
            share=rung.share,
        )
    if rung.speed is None:
        return Msg("recommend.rung_memory", model=rung.model, hardware=hardware, memory=rung.memory)
    return Msg(
        "recommend.rung", model=rung.model, hardware=hardware, speed=rung.speed, memory=rung.memory
    )
