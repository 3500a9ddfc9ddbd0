"""New question or follow-up: which turns inherit the previous scenario, and what changed.

A follow-up is *marked* ("那…呢", "如果…", "换成/改用…", "what about", "how about", "and if",
"instead") or *elliptical*: it names a slot or two and leaves the job to the turn before
("4-bit?", "16 台呢", "需要几张?"). A question that names its own workload (a catalog model or a
size) together with a task, an ask or hardware stands on its own and never inherits anything,
even without hardware: "Llama-3-8B 推理需要多少显存?" after a Jilin thread is about Llama-3-8B
alone. The same rule serves the chat app, `ask --continue` and stdin batches.

Examples:
    >>> is_marked("那用H100呢?"), is_marked("what about 4-bit?"), is_marked("用8张H100训练7B")
    (True, True, False)
    >>> stands_alone({"model": "Llama-2-70B", "task": "inference"}, asks=())
    True
    >>> stands_alone({"precision": "int4"}, asks=())
    False
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from assistant.records import Ask, Query, Scenario
from calculators.messages import Msg

__all__ = [
    "as_followup",
    "bare_count",
    "context_note",
    "is_marked",
    "merge_followup",
    "stands_alone",
]

_MARKED = re.compile(
    r"^(?:那|那么|如果|要是|假如|换成|改成|改用|换用|若|再|那要是|那如果)|呢\s*[?？!！]*\s*$|"
    r"^(?:what about|how about|and if|what if|and with|and for|and on|and at|and in|instead|"
    r"then|and what|or with|with .{1,40}\binstead)\b|\binstead\b|\brather than\b"
)
_WORKLOAD = frozenset({"model", "params"})
_HARDWARE = frozenset({"gpu", "gpu_count", "site_profile", "nodes", "gpus_per_node"})


def is_marked(question: str) -> bool:
    """True when the wording itself says "the same, but…" (checked on the whole question)."""
    return bool(_MARKED.search(question.lower().strip()))


def stands_alone(found: Mapping[str, object], asks: tuple[Ask, ...]) -> bool:
    """True when the question names its own workload and a task, an ask or its hardware."""
    if not _WORKLOAD & found.keys():
        return False
    return "task" in found or bool(asks) or bool(_HARDWARE & found.keys())


_BARE = re.compile(r"(?<![\w.⟩-])(\d{1,6})(?![\w.%⟨])")


def bare_count(text: str) -> int | None:
    """The one bare whole number of a follow-up ("and if we had 32?", "那64呢"), else None."""
    numbers = _BARE.findall(text)
    return int(numbers[0]) if len(numbers) == 1 else None


def _has_job(scenario: Scenario) -> bool:
    return scenario.model is not None or scenario.params is not None


def as_followup(
    base: Query,
    found: Mapping[str, object],
    previous: Scenario | Query | None,
    *,
    offtopic: bool,
    bare: int | None = None,
) -> Query | None:
    """`base` as a follow-up of `previous`, or None when it is a question of its own.

    A follow-up names slots to change ("那用H100呢?"), asks for another quantity of the same
    job ("需要几张?"), or, in a marked form ("那网络呢?"), a topic to look at next. On a question
    with nothing to compute the new topic is searched in the context of the question it follows;
    on a scenario the question it follows keeps its intent ("需要几张" then "那用H100呢?").
    """
    if previous is None or (offtopic and not base.in_domain):
        return None
    prev_query = previous if isinstance(previous, Query) else None
    if prev_query is not None and not prev_query.in_domain:
        return None
    prev: Scenario = prev_query.scenario if prev_query is not None else previous  # type: ignore[assignment]
    if not found and bare is not None and prev.gpu_count and is_marked(base.question):
        found = {"gpu_count": bare}  # "and if we had 32?" after "… on 16 A100"
    asks = tuple(a for a in base.asks if a != "concept")
    if not (found or base.topics or asks):
        return None
    marked = is_marked(base.question)
    if not marked:
        if stands_alone(found, base.asks) or "concept" in base.asks:
            return None
        if not found and not (asks and _has_job(prev)):
            return None  # a bare topic ("显存") is a question of its own unless marked
        if not _has_job(prev) and not _has_job(base.scenario):
            return None  # two conceptual questions in a row: nothing to carry over
    scenario, changed = merge_followup(prev, found)
    context = (prev_query.context or prev_query.question) if prev_query is not None else ""
    return replace(
        base,
        scenario=scenario,
        in_domain=True,
        followup=True,
        changed_slots=changed,
        context=context,
        asks=base.asks or (prev_query.asks if prev_query is not None else ()),
    )


def merge_followup(
    previous: Scenario, found: Mapping[str, object]
) -> tuple[Scenario, tuple[str, ...]]:
    """Apply the slots a follow-up names to the previous scenario; returns (scenario, changed).

    `changed` lists only slots whose value really moved: the ones the follow-up states with a new
    value, and the method when it follows from them (int4 fine-tuning becomes QLoRA); slots
    derived or cleared as a consequence (the GPU count when only the node count is given) are not.
    """
    changes: dict[str, object] = dict(found)
    if "gpu" in changes and "gpu_memory_bytes" not in changes:
        changes["gpu_memory_bytes"] = None
    if "model" in changes:
        changes.setdefault("params", None)
        changes.setdefault("active_params", None)
    if "params" in changes and "model" not in changes:
        changes["model"] = None
        changes.setdefault("active_params", None)
    if "nodes" in changes and "gpu_count" not in changes:
        per_node = previous.gpus_per_node
        if per_node is None and previous.gpu_count and previous.nodes:
            per_node = previous.gpu_count // previous.nodes
        if per_node is None and previous.gpu_count and not previous.site_profile:
            per_node = previous.gpu_count
        changes.setdefault("gpus_per_node", per_node)
        changes["gpu_count"] = None
    if "gpu_count" in changes and "nodes" not in changes:
        changes["nodes"] = None
    task = changes.get("task", previous.task)
    if changes.get("precision") == "int4" and task == "finetune" and "method" not in changes:
        changes["method"] = "qlora"
    scenario = replace(previous, **changes)  # type: ignore[arg-type]
    changed = [k for k in found if getattr(previous, k, None) != found[k]]
    if "method" not in found and scenario.method != previous.method:
        changed.append("method")
    return scenario, tuple(changed)


def context_note(query: Query) -> Msg | None:
    """ "在上一问的基础上改了：GPU 型号、节点数" for a follow-up that changed slots, else None.

    The slot names are `parse.slot.<name>` messages, so both languages come from the catalog.
    """
    if not query.followup or not query.changed_slots:
        return None
    slots = tuple(Msg(f"parse.slot.{name}") for name in query.changed_slots)
    return Msg("parse.used_context", slots=slots)
