"""New question or follow-up: which turns inherit the previous scenario, and what changed.

A follow-up is *marked* ("那…呢", "如果…", "换成/改用…", "what about", "how about", "and if",
"instead") or *elliptical*: it names a slot or two and leaves the job to the turn before
("4-bit?", "16 台呢", "需要几张?"). A question that names its own workload (a catalog model or a
size) together with a task, an ask or hardware stands on its own and never inherits anything,
even without hardware: "Llama-3-8B 推理需要多少显存?" after a Jilin thread is about Llama-3-8B
alone; so does one that asks which model its own hardware can take ("8张4090能微调多大的模型?").
A leading "那" / "then" is a weak mark that such a question overrides ("那 Qwen2.5-7B 用一张 4090
全参微调行吗" is new); "…呢", "如果…", "what about", "instead" always follow up. "再加一台" adds
to the previous count; a change of task drops what only the old task meant (a fine-tuning method
for serving, the users in flight for training). The same rule serves the chat app,
`ask --continue` and stdin batches.

Examples:
    >>> is_marked("那用H100呢?"), is_marked("what about 4-bit?"), is_marked("用8张H100训练7B")
    (True, True, False)
    >>> stands_alone({"model": "Llama-2-70B", "task": "inference"}, asks=())
    True
    >>> stands_alone({"precision": "int4"}, asks=())
    False
    >>> is_strongly_marked("那 Qwen2.5-7B 用一张 4090 全参微调行吗"), is_strongly_marked("那4bit呢")
    (False, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from assistant.parse.kind import carried_kind
from assistant.parse.relative_counts import (
    MAX_NAMED_COUNT,
    added_counts,
    added_units,
    bare_count,
    scaled_units,
)
from assistant.parse.thread import continues_concept
from assistant.records import Ask, Query, Scenario
from calculators.messages import Msg

__all__ = [
    "added_counts",
    "added_units",
    "as_followup",
    "bare_count",
    "is_marked",
    "is_strongly_marked",
    "merge_followup",
    "scaled_units",
    "stands_alone",
]

#: Marks that always make a follow-up: "…呢", "如果…", "换成…", "what about", "instead".
_STRONG = re.compile(
    r"^(?:那么?)?(?:如果|要是|假如|换成|改成|改用|换用|若|再)|呢\s*[?？!！]*\s*$|"
    r"^(?:what about|how about|and if|what if|instead|with .{1,40}\binstead)\b|\binstead\b|"
    r"\brather than\b"
)
#: A leading "那" / "then" / "and with …": a follow-up only when the question does not stand on
#: its own ("那 Qwen2.5-7B 用一张 4090 全参微调行吗" names its own job and is new).
_WEAK = re.compile(
    r"^(?:那|那么)|^(?:then|and with|and for|and on|and at|and in|and what|or with)\b"
)
#: A conversational opener before the mark ("ok and with 4 of them?", "好的，那用H100呢"): said
#: before the follow-up, it leaves the mark where it is.
_OPENER = re.compile(
    r"^(?:ok(?:ay)?|so|hmm+|right|cool|great|alright|好的?|嗯+|行)\s*[,，.。!！]?\s*"
)
_WORKLOAD = frozenset({"model", "params"})
_HARDWARE = frozenset({"gpu", "gpu_count", "site_profile", "nodes", "gpus_per_node"})


def is_marked(question: str) -> bool:
    """True when the wording itself says "the same, but…" (checked on the whole question)."""
    text = _OPENER.sub("", question.lower().strip())
    return bool(_STRONG.search(text) or _WEAK.search(text))


def is_strongly_marked(question: str) -> bool:
    """True for a mark no self-standing wording overrides ("…呢", "如果…", "what about")."""
    return bool(_STRONG.search(_OPENER.sub("", question.lower().strip())))


def stands_alone(found: Mapping[str, object], asks: tuple[Ask, ...]) -> bool:
    """True when the question names its own workload and a task, an ask or its hardware."""
    if "max_model" in asks and _HARDWARE & found.keys():
        return True  # "8张4090能微调多大的模型?": the model is what is asked, on its own hardware
    if not _WORKLOAD & found.keys():
        return False
    return "task" in found or bool(asks) or bool(_HARDWARE & found.keys())


def _names_own_job(found: Mapping[str, object], asks: tuple[Ask, ...], *, weak: bool) -> bool:
    """A question of its own; after a weak mark ("那 70B 需要几张?" is still elliptical) only
    when it names its workload and a task, or asks the largest model for its own hardware."""
    if not stands_alone(found, asks):
        return False
    return not weak or "task" in found or "max_model" in asks


def _has_job(scenario: Scenario) -> bool:
    return scenario.model is not None or scenario.params is not None


def as_followup(
    base: Query,
    found: Mapping[str, object],
    previous: Scenario | Query | None,
    *,
    offtopic: bool,
    bare: int | None = None,
    added: Mapping[str, float] | None = None,
    own_asks: tuple[Ask, ...] | None = None,
    unapplied: str | None = None,
) -> Query | None:
    """`base` as a follow-up of `previous`, or None when it is a question of its own.

    A follow-up names slots to change ("那用H100呢?"), asks for another quantity of the same
    job ("需要几张?"), or, in a marked form ("那网络呢?"), a topic to look at next. On a question
    with nothing to compute the new topic is searched in the context of the question it follows;
    on a scenario the question it follows keeps its intent ("需要几张" then "那用H100呢?"):
    `own_asks`, what it asks besides the words that set its slots (default: all it asks), and
    only when it asks nothing of its own are the previous turn's asks carried
    (assistant.parse.kind). `unapplied` is the slot of a relative change ("what if the QPS
    doubles?") the previous turn has no value of: still a follow-up, whose answer says so.
    """
    if previous is None or (offtopic and not base.in_domain):
        return None
    prev_query = previous if isinstance(previous, Query) else None
    if prev_query is not None and not prev_query.in_domain:
        return None
    prev: Scenario = prev_query.scenario if prev_query is not None else previous  # type: ignore[assignment]
    found = _relative_counts(found, prev, base.question, bare, added)
    if unapplied is not None:  # "再加2张" with no count before: not 2 GPUs either
        found = {k: v for k, v in found.items() if k != unapplied}
    found, size_note = _same_family(found, prev)
    asks = tuple(a for a in base.asks if a != "concept")
    # "and how much memory does it save?" after "What is FSDP?" (assistant.parse.thread)
    concept = prev_query is not None and continues_concept(
        base, found, prev_query, offtopic=offtopic
    )
    if not (found or base.topics or asks or concept or unapplied):
        return None
    marked = is_marked(base.question) or concept or unapplied is not None
    # "那它对8张卡训练13B能省多少显存?" after "什么是ZeRO-3?": its own job, with the concept's stage
    applied = concept and bool(_WORKLOAD & found.keys())
    own_job = _names_own_job(found, base.asks, weak=marked)
    if not is_strongly_marked(base.question) and own_job and not applied:
        return None
    if not marked:
        if "concept" in base.asks:
            return None
        if not found and not (asks and _has_job(prev)):
            return None  # a bare topic ("显存") is a question of its own unless marked
        if not _has_job(prev) and not _has_job(base.scenario):
            return None  # two conceptual questions in a row: nothing to carry over
    if found and asks[:1] == ("gpu_count",) and not {"gpu_count", "nodes"} & found.keys():
        # "how many A100s would do it in 7 days then?": a new constraint and the count it
        # takes; the count is what is asked, not kept (a bare "需要几张?" keeps the set-up)
        found = {**found, "gpu_count": None, "nodes": None}
    scenario, changed = merge_followup(prev, found)
    context = (prev_query.context or prev_query.question) if prev_query is not None else ""
    if size_note is not None:
        base = replace(base, warnings=(*base.warnings, _note(size_note, base.language)))
    if unapplied is not None:
        missing = Msg("parse.relative_no_base", slot=Msg(f"parse.slot.{unapplied}"))
        base = replace(base, warnings=(*base.warnings, _note(missing, base.language)))
    followup = replace(
        base,
        scenario=scenario,
        in_domain=True,
        followup=True,
        changed_slots=changed,
        context=context,
    )
    return carried_kind(followup, base.asks if own_asks is None else own_asks, prev_query, found)


_SIZED_NAME = re.compile(r"^(.*?)(\d+(?:\.\d+)?)B$")


def family_model(model: str, params: float) -> tuple[str | None, str | None]:
    """(the catalog model of `model`'s family at `params`, the family's name): "那72B呢" after
    Qwen2.5-7B is Qwen2.5-72B; (None, family) when the catalog has no such size; (None, None)
    for a name with no size in it ("DeepSeek-V3", "Mixtral-8x7B" is not a family of sizes).

    >>> family_model("Qwen2.5-7B", 72e9), family_model("Llama-3.1-8B", 70e9)
    (('Qwen2.5-72B', 'Qwen2.5'), ('Llama-3.1-70B', 'Llama-3.1'))
    >>> family_model("Qwen2.5-7B", 70e9), family_model("DeepSeek-V3", 70e9)
    ((None, 'Qwen2.5'), (None, None))
    """
    from calculators.catalog.models import MODELS

    match = _SIZED_NAME.match(model)
    if match is None or "x" in match.group(1)[-3:]:
        return None, None
    name = f"{match.group(1)}{params / 1e9:g}B"
    family = match.group(1).rstrip("- ")
    return (name if name in MODELS else None), family


def _same_family(
    found: Mapping[str, object], prev: Scenario
) -> tuple[Mapping[str, object], Msg | None]:
    """A size-only follow-up on a catalog model is the same family's model of that size when
    the catalog has it; else the generic model of that size, with a note saying so."""
    params = found.get("params")
    if "model" in found or not isinstance(params, float) or prev.model is None:
        return found, None
    name, family = family_model(prev.model, params)
    if name is None:
        size = f"{params / 1e9:g}B"
        return found, (Msg("parse.size_generic", family=family, size=size) if family else None)
    return {**{k: v for k, v in found.items() if k != "params"}, "model": name}, None


def _note(message: Msg, language: str) -> str:
    from assistant.i18n import text

    return text(message, language)  # type: ignore[arg-type]


def _relative_counts(
    found: Mapping[str, object],
    prev: Scenario,
    question: str,
    bare: int | None,
    added: Mapping[str, float] | None,
) -> Mapping[str, object]:
    """The counts a follow-up means against the previous turn's ("and if we had 32?" → 32
    GPUs; "再加1台" → 3 nodes after two, not 1 node nor 1 GPU). After "how many H100s…?" the
    card is named and its count asked: "what if we only had 4 of them" is 4 of that card."""
    if not added:
        # a card with no count: a number no year reads as ("what about 2027?" is a year)
        named = (prev.gpu or prev.site_profile) and bare is not None and bare <= MAX_NAMED_COUNT
        marked_count = bare is not None and (prev.gpu_count or named) and is_marked(question)
        return {"gpu_count": bare} if not found and marked_count else found
    if "nodes" in added:
        found = {k: v for k, v in found.items() if k not in ("gpu_count", "gpus_per_node")}
    return {**found, **added}


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
    if "concurrency" in found and "batch_size" not in found:
        if previous.batch_size is not None and previous.batch_size == previous.concurrency:
            changes["batch_size"] = found["concurrency"]  # the batch was the users in flight
    if "gpus_per_node" in found and not {"nodes", "gpu_count"} & found.keys():
        _regroup(changes, previous, int(found["gpus_per_node"]))  # type: ignore[call-overload]
    if str(found.get("intra_link", "")).lower().startswith("pcie") and "gpu" not in found:
        _pcie_card(changes, previous)
    task = changes.get("task", previous.task)
    _drop_other_task_slots(changes, previous, task)
    if changes.get("precision") == "int4" and task == "finetune" and "method" not in changes:
        changes["method"] = "qlora"
    if "gpu" in found and "precision" not in found:
        _card_format(changes, previous, task)
    scenario = replace(previous, **changes)  # type: ignore[arg-type]
    changed = [k for k in found if getattr(previous, k, None) != found[k]]
    if "method" not in found and scenario.method not in (None, previous.method):
        changed.append("method")
    if "precision" not in found and scenario.precision != previous.precision:
        changed.append("precision")  # the new card's own format (`_card_format`)
    return scenario, tuple(changed)


def _card_format(changes: dict[str, object], previous: Scenario, task: object) -> None:
    """ "换成910B呢" after "8卡H20 推理 … fp8": the format said for the old card is one the new
    card lacks, so it is carried as the closest one the new card has (serving FP8 weights: its
    8-bit int8; training: the card's own 16-bit default), never turned into an input error the
    user did not make; the answer lists the precision among what changed."""
    from calculators.catalog.generic import is_generic
    from calculators.catalog.hardware import lookup_gpu

    precision = previous.precision
    if precision not in ("fp8", "bf16", "fp16") or not changes.get("gpu"):
        return
    card = lookup_gpu(str(changes["gpu"]))
    eight_bit_serving = precision == "fp8" and task == "inference"
    if card.supports(precision) or (is_generic(card.name) and eight_bit_serving):
        return  # a generic card serves FP8 weights weight-only (`calculators.catalog.generic`)
    changes["precision"] = "int8" if eight_bit_serving and card.supports("int8") else None


def _regroup(changes: dict[str, object], previous: Scenario, per_node: int) -> None:
    """ "如果每台只有4张卡呢": the nodes stated before keep their number (2 nodes of 4 = 8
    GPUs); a total stated without nodes keeps its GPUs, regrouped (8 GPUs = 2 nodes of 4)."""
    if previous.nodes:
        changes["gpu_count"] = previous.nodes * per_node
    elif previous.gpu_count and per_node and previous.gpu_count % per_node == 0:
        changes["nodes"] = previous.gpu_count // per_node


def _pcie_card(changes: dict[str, object], previous: Scenario) -> None:
    """ "PCIe-only?" after "8 H100": the PCIe card of the same chip, as in a question that
    says both ("8 H100 PCIe-only" is the H100 PCIe), with its own PCIe generation."""
    from assistant.parse.links import pcie_variant

    if previous.gpu is None:
        return
    changes["gpu"], link = pcie_variant(previous.gpu)
    changes["intra_link"] = link or changes["intra_link"]


#: Serving load and targets: they describe requests in flight, not a training run.
_SERVING_SLOTS = (
    "concurrency",
    "target_tokens_per_second",
    "target_qps",
    "target_first_token_seconds",
    "first_token_quantile",
    "target_seconds_per_token",
    "fastest_stream",
)


def _drop_other_task_slots(changes: dict[str, object], previous: Scenario, task: object) -> None:
    """A follow-up that switches the task keeps the job and the hardware but not what only the
    old task meant: "同样的配置推理呢" (or "从头预训练呢") after a full fine-tune has no
    fine-tuning method, "what about training it instead?" after serving 20 users has no users.
    Cleared slots are a consequence, not a change the user named (they are not reported)."""
    if task == previous.task or previous.task is None:
        return
    if task != "finetune":  # LoRA / full / QLoRA are ways to fine-tune
        changes.setdefault("method", None)
    if task == "inference":
        return
    if previous.task != "inference":
        return
    for slot in _SERVING_SLOTS:
        changes.setdefault(slot, None)
    if previous.batch_size is not None and previous.batch_size == previous.concurrency:
        changes.setdefault("batch_size", None)  # the batch was the users in flight
