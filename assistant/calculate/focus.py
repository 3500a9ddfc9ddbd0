"""What the question asks for, and the sentence that answers exactly that, first.

"需要几张" is answered with a count, "要多久" a duration, "权重多大" the weight size, "KV cache占
多少显存" the total KV cache (and per GPU when split), "要花多少钱" the cost, "多少电费" the energy
cost. Parse may fill `Query.asks`; when it does not, the question's words decide here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.calculate.kv_cache_said import kv_cache_sentence, kv_held_for
from assistant.calculate.nouns import gpu_noun
from assistant.calculate.whole_nodes import whole_nodes
from assistant.i18n import text
from assistant.parse.asks import KV_PER_TOKEN
from assistant.records import Ask, Check, Figure, Language, Query, Scenario
from calculators.catalog.hardware import DTYPE_BYTES
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg, Param

__all__ = [
    "asked",
    "asks_count",
    "asks_duration",
    "duration_message",
    "figure",
    "focus_sentence",
    "main_ask",
    "needed_gpus",
    "topic_sentences",
]

_COUNT = re.compile(
    r"多少(?:张|块|台|个)(?:卡|gpu|显卡|h\d+|a\d+)?(?!\s*(?:小时|时))|"
    r"多少(?:卡|gpu|显卡)(?!\s*(?:小时|时))|几张|几块|几台|"
    r"how many (?:gpus?(?![- ]?h(?:ou)?rs?)|cards?|nodes?|servers?|"
    r"[ah]\d+(?!\d)s?(?![- ]?(?:gpu[- ]?)?h(?:ou)?rs?))|number of gpus",
    re.IGNORECASE,
)
_DURATION = re.compile(
    r"多久|多长时间|几天|几个月|how long|how many (?:days|weeks|months|hours)|"
    # "Days to train a 70B model?": the duration asked, as `parse.asks` reads it
    r"(?<!\d\s)(?<!\d)(?<!-)(?<!gpu )(?<!card )\b(?:days|weeks|months|hours)\s+"
    r"(?:(?:needed|required)\s+)?to\s+"
    r"(?:pre-?train|train|fine-?tune|finish|complete)\b",
    re.IGNORECASE,
)
#: "How many H100 GPU-hours", "多少卡时": the run's GPU-hours, not a count of GPUs.
_GPU_HOURS = re.compile(
    r"(?:how many|number of|total) (?:\S+ )?(?:gpu|card)[- ]?h(?:ou)?rs?(?![^.?!]{0,30}\bbuy)|"
    r"多少(?:个)?\s*(?:\S{0,12}?\s*)?(?:gpu|卡|显卡)\s*(?:小时|时)|"
    # "GPU-hours to pretrain a 7B model?", "H100-hours to train it": the noun leads
    r"(?:^|[.?!:;]\s*)(?:\S+[- ])?(?:gpu|card|[ah]\d+)[- ]?h(?:ou)?rs?\s+"
    r"(?:(?:needed|required)\s+)?(?:to|for)\s+(?:pre-?train|train|fine-?tune|finish|run)\b",
    re.IGNORECASE,
)
#: Asks recognised from the question's words, checked in this order (the first match is main).
_ASK_WORDS: tuple[tuple[Ask, re.Pattern[str]], ...] = (
    ("gpu_hours", _GPU_HOURS),
    ("energy_cost", re.compile(r"电费|electricity (?:cost|bill)|energy cost|per kwh", re.I)),
    (
        "max_concurrency",
        re.compile(
            r"最多(?:能)?(?:支持|承载|服务)?(?:多少|几)(?:路|个)?(?:并发|用户|请求)|"
            r"多少路并发|最大并发|最大(?:的)?(?:batch|批大小|批量)|"
            r"how many concurrent|max(?:imum)? (?:concurrency|batch(?: size)?)|"
            r"largest batch(?: size)?|how many (?:sequences|requests|users) can",
            re.I,
        ),
    ),
    (
        "max_model",
        re.compile(
            r"最大(?:能|可以)?(?:训练|微调|跑|推理|部署|支持)?多大|多大的模型|"
            r"(?:largest|biggest) model",
            re.I,
        ),
    ),
    ("duration", _DURATION),
    ("gpu_count", _COUNT),
    ("kv_per_token", re.compile(KV_PER_TOKEN, re.I)),
    ("kv_cache", re.compile(r"kv ?cache|kv ?缓存", re.I)),
    (
        "weights",
        re.compile(
            r"权重(?:有)?多大|权重(?:占|要)?多少|how (?:big|large) (?:are )?the weights|"
            r"weights? (?:size|take)",
            re.I,
        ),
    ),
    (
        "cost",
        re.compile(
            r"多少钱|花多少|成本多少|费用|how much (?:does it|will it|would it) cost|"
            r"what (?:does|would) it cost|\bcost\b",
            re.I,
        ),
    ),
    ("power", re.compile(r"多少电|耗电|功耗|power draw|how much power", re.I)),
    (
        "memory",
        re.compile(
            r"多少显存|显存(?:需求|占用)|显存(?:够|够不够|放得下|装得下)|"
            r"how much (?:gpu )?memory|vram|(?:does|will|would) (?:the )?memory fit|"
            r"(?:enough|fit in(?:to)?) (?:gpu )?memory",
            re.I,
        ),
    ),
)


def asked(query: Query) -> str:
    """What the user asked: a follow-up ("那用H100呢?") keeps its thread's ask ("需要几张")."""
    return f"{query.context} {query.question}" if query.followup else query.question


def main_ask(query: Query) -> Ask:
    """The main thing asked for; "feasibility" for a yes/no question."""
    if query.asks:
        if query.asks[0] == "max_micro_batch" and not _trains(query.scenario):
            return "max_concurrency"  # a deployment's batch: the sequences it holds at once
        return query.asks[0]
    words = asked(query)
    for ask, pattern in _ASK_WORDS:
        if pattern.search(words):
            if ask == "gpu_count" and _DURATION.search(words):
                continue
            return ask
    return "feasibility"


def _trains(s: Scenario) -> bool:
    """A training run, as the defaults will read it (`defaults._workload`): serving unless told."""
    return s.task != "inference" if s.task is not None else bool(s.tokens or s.deadline_seconds)


def asks_count(question: str) -> bool:
    """True when the question asks how many GPUs are needed."""
    return bool(_COUNT.search(question)) and not asks_duration(question)


def asks_duration(question: str) -> bool:
    """True when the question asks how long the job takes."""
    return bool(_DURATION.search(question))


def figure(checks: tuple[Check, ...], kind: str, key: str) -> float | None:
    """A numeric figure of the check of `kind`, or None."""
    for check in checks:
        if check.kind == kind:
            value: Figure = check.figures.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
    return None


def needed_gpus(checks: tuple[Check, ...], per_node: int) -> int | None:
    """GPUs that fit memory and (for training) meet the deadline, rounded up to whole nodes;
    a training run past 32 nodes to a multiple of 8 nodes (at most a quarter more, usually a
    few percent): 249 nodes (3 x 83) leave the layout search no pipeline or expert-parallel
    degree, and the run on them is slower than on 256."""
    memory = figure(checks, "memory", "min_gpus")
    deadline = figure(checks, "compute", "gpus_for_deadline")
    wanted = [v for v in (memory, deadline) if v]
    if not wanted:
        return None
    count = int(max(wanted))
    if count <= per_node:
        return count
    nodes = -(-count // per_node)
    if deadline is not None and nodes > _ROUND_PAST_NODES:
        nodes = -(-nodes // _ROUND_NODES) * _ROUND_NODES
    return nodes * per_node


#: Past this many nodes a training count is rounded up to whole groups of `_ROUND_NODES`.
_ROUND_PAST_NODES = 32
_ROUND_NODES = 8


def _hardware(scenario: Scenario) -> Msg:
    return Msg("common.gpus", count=scenario.gpu_count or 1, gpu=scenario.gpu or "GPU")


def duration_message(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    seconds = figure(checks, "compute", "seconds")
    if seconds is None:
        return None
    from assistant.calculate.verdict import PRACTICAL_SECONDS

    key = "answer.duration_impractical" if seconds > PRACTICAL_SECONDS else "answer.duration"
    return Msg(key, seconds=seconds, hardware=_hardware(scenario))


def _count(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    per_node = scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE
    count = needed_gpus(checks, per_node)
    if count is None:
        return None
    gpu = scenario.gpu or "GPU"
    # Past one node the count is bought as servers: the first sentence says how many.
    nodes = whole_nodes(count, {"gpus_per_node": per_node}, gpu)
    return Msg("answer.count", hardware=Msg("common.gpus", count=count, gpu=gpu), nodes=nodes)


def _serving_count(checks: tuple[Check, ...], scenario: Scenario, stated: Scenario) -> Msg | None:
    """ "You need at least 16 × H20 96GB (= 2 nodes × 8) to hold the weights and the KV cache of
    one 4,096-token sequence at a time …": a serving count with the load it was sized for, which
    decides it (each further concurrent sequence adds its KV cache); `stated` holds what the
    question said, so an assumed load is called that."""
    count = _count(checks, scenario)
    per_sequence = figure(checks, "memory", "kv_cache_bytes_per_sequence")
    if count is None or per_sequence is None:
        return None
    sequences = scenario.batch_size or 1
    said: dict[str, Param] = {"context": scenario.context_length or 0}
    said["per_sequence"] = per_sequence
    said["held"] = kv_held_for(scenario)  # an MLA latent on every TP GPU, a KV head on two
    if sequences > 1:
        load = Msg("answer.count_load.many", sequences=sequences, **said)
    elif stated.batch_size is None and stated.concurrency is None:
        load = Msg("answer.count_load.one", **said)
    else:
        load = Msg("answer.count_load.single", **said)
    return Msg("answer.count_serving", hardware=count["hardware"], nodes=count["nodes"], load=load)


def _weights(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    per_gpu = figure(checks, "memory", "weights_bytes")
    if per_gpu is None:
        return None
    total = figure(checks, "memory", "weights_bytes_total") or per_gpu
    precision = scenario.precision or "bf16"
    plain = figure(checks, "memory", "weights_bytes_plain")
    per = DTYPE_BYTES.get(precision)
    if plain is None or per is None or total - plain < _PLAIN_GAP * total:
        return Msg("answer.weights", total=total, precision=precision)
    key = "answer.weights_quantized" if precision in _GROUP_SCALED else "answer.weights_embeddings"
    return Msg(
        key,
        total=total,
        precision=precision,
        params=plain / per,
        per=per,
        plain=plain,
        extra=total - plain,
    )


#: Below this share of the stored size, the plain parameters × bytes figure is the same number.
_PLAIN_GAP = 0.005
#: Formats stored with a scale per group of weights (calculators/_memory_parts.py).
_GROUP_SCALED = ("int4", "nf4")


def _serving_memory(
    checks: tuple[Check, ...], scenario: Scenario, per_gpu: float, weights: float, kv: float
) -> Msg:
    """One replica's memory (one copy of the weights and its sequences' KV cache) with the load
    it holds; more replicas on the other GPUs are named, never summed into a "4.3 TB" total.
    Every part is the memory check's own: the workspace is its per-GPU `overhead_bytes` on each
    GPU of the replica. Pipeline stages differ (DeepSeek-V3's first three layers are dense), so
    the heaviest stage times the GPUs, less the weights, was no workspace: 43.2 GB on 8 × 910B
    where the check holds 86 MB per GPU; that GPU is then named the most-loaded one."""
    gpus = scenario.gpu_count or 1
    split = max(1, (scenario.tensor_parallel or 1) * (scenario.pipeline_parallel or 1))
    replicas = max(1, gpus // split)
    kv_per_gpu = figure(checks, "memory", "kv_cache_bytes_per_gpu")
    sequences = figure(checks, "memory", "batch_per_replica") or scenario.batch_size or 1
    # KV heads replicated at TP > KV heads: the replica holds the copies, not the logical size
    copies = figure(checks, "memory", "kv_cache_copies") or 1
    per_sequence = figure(checks, "memory", "kv_cache_bytes_per_sequence")
    if replicas > 1 and per_sequence is not None:  # one replica's sequences, not the heaviest
        kv = per_sequence * sequences * copies  # stage's share times the GPUs
    elif replicas > 1 and kv_per_gpu is not None:
        kv = kv_per_gpu * split
    else:
        kv = kv * copies
    workspace = figure(checks, "memory", "overhead_bytes")
    other = workspace * split if workspace is not None else max(0.0, (per_gpu - weights) * split)
    total = weights + kv + other
    params: dict[str, Param] = {
        "total": total,
        "weights": weights,
        "kv": kv,
        "other": other,  # the activation workspace (`inference_workspace_bytes`) on each GPU
        "per_gpu": per_gpu,
        "gpus": split,
        "noun": gpu_noun(split),
        "sequences": sequences,
        "context": scenario.context_length or 0,
    }
    # uneven stages: the per-GPU figure is the heaviest GPU's, not the total's share
    staged = per_gpu * split > _STAGE_GAP * total
    if replicas > 1:
        # the load in one copy of the weights: what "how much memory for 32 users" adds up to
        load = figure(checks, "memory", "kv_cache_bytes")
        whole = weights + load * copies + other if load else total * replicas
        load_sequences = scenario.batch_size or sequences * replicas
        key = "answer.memory_serving_replicas"
        return Msg(
            "answer.memory_serving_replicas_stages" if staged else key,
            replicas=replicas,
            all=gpus,
            whole=whole,
            load=load_sequences,
            **params,
        )
    if split == 1:
        return Msg("answer.memory_serving_one", **params)
    return Msg("answer.memory_serving_stages" if staged else "answer.memory_serving", **params)


#: The heaviest GPU times the GPUs past this share of the total: the stages are not even.
_STAGE_GAP = 1.01


def _memory(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    per_gpu = figure(checks, "memory", "required_bytes_per_gpu")
    if per_gpu is None:
        return None
    gpus = scenario.gpu_count or 1
    weights = figure(checks, "memory", "weights_bytes_total")
    kv = figure(checks, "memory", "kv_cache_bytes")
    if scenario.task == "inference" and weights is not None and kv is not None:
        return _serving_memory(checks, scenario, per_gpu, weights, kv)
    states = _model_states_total(checks, scenario)
    if states is None:
        return Msg("answer.memory_training", per_gpu=per_gpu, gpus=gpus)
    activations = figure(checks, "memory", "activations_bytes") or 0.0
    # one GPU holds it all; plain data parallelism puts a whole copy on each GPU (nothing split)
    whole = (scenario.zero_stage or 0) == 0 and _model_split(scenario) == 1
    key = "one" if gpus == 1 else "copies" if whole else "total"
    said: dict[str, Param] = {"states": states, "activations": activations, "gpus": gpus}
    said["per_gpu"] = per_gpu
    if key != "total":
        from assistant.calculate.measured import activations_how

        said["how"] = activations_how(checks)
    return Msg(f"answer.memory_training_{key}", **said)


def _model_split(scenario: Scenario) -> int:
    return (scenario.tensor_parallel or 1) * (scenario.pipeline_parallel or 1)


def _model_states_total(checks: tuple[Check, ...], scenario: Scenario) -> float | None:
    """Weights, gradients and optimizer states of the whole model, unsharded: each per-GPU part
    times the model-parallel split (TP x PP) and, where the ZeRO stage shards it, the
    data-parallel degree (stage 1 shards the optimizer states, 2 the gradients too, 3 all)."""
    parts = [figure(checks, "memory", f"{k}_bytes") for k in ("weights", "gradients", "optimizer")]
    dp = figure(checks, "memory", "data_parallel")
    if any(p is None for p in parts) or not dp:
        return None
    split = _model_split(scenario)
    stage = scenario.zero_stage or 0
    shards = [dp if stage >= level else 1.0 for level in (3, 2, 1)]
    return sum(float(p or 0.0) * split * k for p, k in zip(parts, shards))


def _elsewhere(
    name: str, module: str = "measured"
) -> Callable[[tuple[Check, ...], Scenario], Msg | None]:
    """An answer written in `calculate.<module>` (imported when asked: it imports `figure`)."""

    def answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
        from importlib import import_module

        found = import_module(f"assistant.calculate.{module}")
        return getattr(found, name)(checks, scenario)  # type: ignore[no-any-return]

    return answer


_ANSWERS = {
    "throughput": _elsewhere("throughput_answer", "serving_answers"),
    "token_volume": _elsewhere("token_volume_answer", "serving_answers"),
    "token_latency": _elsewhere("token_latency_answer", "serving_answers"),
    "request_rate": _elsewhere("request_rate_answer", "serving_answers"),
    "first_token": _elsewhere("first_token_answer", "serving_answers"),
    "mfu": _elsewhere("mfu_answer"),
    "bubble": _elsewhere("bubble_answer", "bubble"),
    "memory": _memory,
    "activations": _elsewhere("activations_answer"),
    "max_micro_batch": _elsewhere("max_micro_batch_answer", "micro_batch"),
    "duration": duration_message,
    "gpu_count": _count,
    "kv_cache": kv_cache_sentence,
    "kv_per_token": _elsewhere("kv_per_token_answer", "kv_answers"),
    "weights": _weights,
    "cost": _elsewhere("cost_answer", "money_answers"),
    "gpu_hours": _elsewhere("gpu_hours_answer", "money_answers"),
    "energy_cost": _elsewhere("energy_cost_answer", "money_answers"),
}


def _gpu_count(checks: tuple[Check, ...], scenario: Scenario, stated: Scenario) -> Msg | None:
    """ "How many GPUs": a serving count with the load it was sized for (`stated` says whether
    that load was the user's), else the count alone."""
    served = _serving_count(checks, scenario, stated) if scenario.task == "inference" else None
    return served if served is not None else _count(checks, scenario)


#: Readers that also need what the question stated (`Query.scenario`), not only the evaluated
#: scenario; they come before `_ANSWERS`.
_STATED_ANSWERS = {"gpu_count": _gpu_count}


def focus_sentence(
    ask: Ask, checks: tuple[Check, ...], scenario: Scenario, language: Language, stated: Scenario
) -> str:
    """The direct answer to what was asked ("" for a yes/no question or a missing figure);
    `stated` is the scenario as the question stated it."""
    told = _STATED_ANSWERS.get(ask)
    reader = _ANSWERS.get(ask)
    message = (
        told(checks, scenario, stated) if told else reader(checks, scenario) if reader else None
    )
    return text(message, language) if message is not None else ""


def topic_sentences(
    topics: tuple[str, ...],
    checks: tuple[Check, ...],
    language: Language,
    kinds: tuple[str, ...] = ("power", "cost"),
) -> str:
    """The results of the checks the question asks about, up front ("要多少电", "那网络呢?").

    Only checks of `kinds`: power and cost are never in the verdict sentence; a follow-up that
    only names a topic ("那网络呢?") passes every kind.
    """
    from assistant.i18n import mid_sentence
    from assistant.i18n.labels import CHECK_LABELS

    out = []
    for check in checks:
        if check.kind in kinds and check.kind in topics and check.verdict != "n/a":
            label = CHECK_LABELS[check.kind][language]
            summary = mid_sentence(check.summary) if language == "en" else check.summary
            out.append(text(Msg("answer.topic", label=label, summary=summary), language))
    return " ".join(out)
