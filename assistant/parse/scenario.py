"""The scenario's slots read from a question's :class:`~assistant.parse.mentions.Mentions`,
and the notes (in the question's language) on how they were read.

Each slot reader (`counts`, `sizes`, `slots`, `links`, `load`, …) returns a value or None;
here they are collected into one slot dict for :class:`~assistant.records.Scenario`, and the
slots that depend on each other are settled: a node price over the GPUs of a node, epochs
times the token budget, a bare "NVLink" as the card's own, a "PCIe-only" card as its PCIe
sibling.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from assistant.parse import hardware as hw
from assistant.parse import links, slots
from assistant.parse.audience import settle_audience
from assistant.parse.char_speed import read_chars_per_second
from assistant.parse.continued import CONTINUED_PRETRAIN_TOKENS, continued_pretraining
from assistant.parse.cross_node import cross_node_slots
from assistant.parse.datasets import read_dataset
from assistant.parse.host_ram import host_ram_note
from assistant.parse.kv import read_kv_format
from assistant.parse.lengths import read_lengths
from assistant.parse.load import read_load_slots
from assistant.parse.mentions import Mentions
from assistant.parse.names import closed_model, closest_entries, is_computer, name_in
from assistant.parse.prices import MONTH_HOURS, read_month_price
from assistant.parse.replacing import replacing_card, without_replaced
from assistant.parse.spending import settle_spending
from assistant.parse.token_volume import read_token_volume
from assistant.records import Language
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

__all__ = [
    "compared_counts",
    "option_precisions",
    "parse_note",
    "scenario_slots",
    "training_framework",
]


#: Words before a size that replace one said earlier ("15T token太多了，就按1T算", "say 1T").
_RESTATED = re.compile(
    r"(?:就按|按照|改按|改成|改为|换成|还是按|\bsay|\bmake it|\binstead use)\s*$"
)


def _named_variant(gpus: tuple[str, ...]) -> str:
    """The card of `gpus`: the first named, unless a later mention names a variant of the same
    card ("用H20部署…，8卡H20 141G": the 141 GB one, not the bare name's 96 GB default)."""
    from calculators.catalog.hardware import lookup_gpu
    from calculators.errors import CalculatorInputError

    first = gpus[0]
    family = first.split()[0]
    try:
        default = lookup_gpu(family).name
    except (CalculatorInputError, KeyError, ValueError):
        return first
    variants = [g for g in gpus if g.split()[0] == family and g != default]
    return variants[0] if first == default and variants else first


def parse_note(message: Msg, language: Language) -> str:
    """A parse note in the question's language (Query.warnings are text for now)."""
    from assistant.i18n import text

    return text(message, language)


def _counts_slots(
    counts: hw.Counts, language: Language, *, comparing: bool = False
) -> tuple[dict[str, object], list[str]]:
    out: dict[str, object] = {}
    warnings: list[str] = []
    if counts.nodes is not None:
        out["nodes"] = counts.nodes
    if counts.gpus_per_node is not None:
        out["gpus_per_node"] = counts.gpus_per_node
    if counts.gpu_counts:
        out["gpu_count"] = counts.gpu_counts[0]
        if len(counts.gpu_counts) > 1 and not comparing:  # options carry their own counts
            chosen, others = counts.gpu_counts[0], counts.gpu_counts[1:]
            message = Msg("parse.counts_differ", chosen=chosen, others=others)
            warnings.append(parse_note(message, language))
    elif counts.nodes is not None and counts.gpus_per_node is not None:
        out["gpu_count"] = counts.nodes * counts.gpus_per_node
    return out, warnings


def _workload_slots(text: str) -> dict[str, object]:
    out: dict[str, object] = {}
    prompt, output, text = read_lengths(text)  # "2k-token prompts" is no context of 2048
    if prompt is not None:
        out["prompt_tokens"] = prompt
    if output is not None:
        out["output_tokens"] = output
    kv, text = read_kv_format(text)  # "bf16 with an fp8 KV cache": bf16 weights
    if kv is not None:
        out["kv_dtype"] = kv
    samples, per_sample, text = read_dataset(text)  # "每条1k token" is no 1,000-token budget
    text = _without_rent(text)  # "一个月1.5万元" is a rent, no deadline of a month
    pipelined, text = slots.read_pipeline_microbatches(text)  # "64个微批次": no batch of 64
    if pipelined is not None:
        out["pipeline_microbatches"] = pipelined
    micro, text = slots.read_micro_batch(text)  # "micro-batch 2" is no global batch of 2
    if micro is not None:
        out["micro_batch"] = micro
    for mention in slots.read_sizes(text):
        if _RESTATED.search(text[max(0, mention.start - 8) : mention.start]):
            # "15T token太多了，就按1T算": the figure settled on replaces the one said before it
            settled = "tokens" if {"tokens", "params"} & out.keys() else mention.kind
            out[settled] = mention.value
        else:
            out.setdefault(mention.kind, mention.value)
    readers = {
        "task": slots.read_task,
        "method": slots.read_method,
        "precision": slots.read_precision,
        "deadline_seconds": slots.read_deadline,
        "context_length": slots.read_context_length,
        "batch_size": slots.read_batch_size,
        "zero_stage": slots.read_zero_stage,
        "recompute": slots.read_recompute,
        "gpu_memory_bytes": hw.read_memory,
    }
    for name, reader in readers.items():
        value = reader(text)
        if value is not None:
            out[name] = value
    out.update(_dataset_slots(samples, per_sample, out))
    tp, pp = slots.read_parallelism(text)
    if tp is None and pp is None and slots.reads_data_parallel_only(text):
        tp = pp = 1 if out.get("task") != "inference" else None  # "DDP": whole replicas
    if tp is not None:
        out["tensor_parallel"] = tp
    if pp is not None:
        out["pipeline_parallel"] = pp
    ep = slots.read_expert_parallel(text)
    if ep is not None:
        out["expert_parallel"] = ep
    price, currency = slots.read_price(text)
    if price is not None:
        out["price_per_gpu_hour"], out["currency"] = price, currency
    if out.get("method") is not None:
        out["task"] = "finetune"
    period = slots.read_period(text)
    if period and "deadline_seconds" not in out and out.get("task") in (None, "inference"):
        out["deadline_seconds"] = period  # "monthly cost of serving it": how long it serves
    if out.get("task") == "finetune" and out.get("precision") == "int4" and "method" not in out:
        out["method"] = "qlora"
    return out


def _dataset_slots(
    samples: float | None, per_sample: int | None, found: Mapping[str, object]
) -> dict[str, object]:
    """ "数据50万条，每条1k token": a budget of samples × tokens per sample (a stated budget
    wins), and each sample's length is the sequence length unless one is stated; with no
    length given, each sample is counted at the stated context length, else at the default
    sequence length (and the note says so)."""
    if samples is None:
        return {}
    out: dict[str, object] = {}
    if per_sample is not None and "context_length" not in found:
        out["context_length"] = per_sample
    length = per_sample or found.get("context_length") or DEFAULT_CONTEXT_TOKENS
    if "tokens" not in found and isinstance(length, int):
        out["tokens"] = float(samples * length)
    return out


def _dataset_note(text: str, found: Mapping[str, object], lang: Language) -> list[str]:
    """How a data set said in samples became the budget (before epochs multiply it)."""
    samples, per_sample, _ = read_dataset(text)
    tokens, context = found.get("tokens"), found.get("context_length")
    if samples is None or not isinstance(tokens, float):
        return []
    if per_sample is not None and tokens == samples * per_sample:
        message = Msg("parse.dataset", samples=samples, per_sample=per_sample, tokens=tokens)
    elif per_sample is None and isinstance(context, int) and tokens == samples * context:
        message = Msg(
            "parse.dataset_at_context", samples=samples, per_sample=context, tokens=tokens
        )
    elif per_sample is None and tokens == samples * DEFAULT_CONTEXT_TOKENS:
        message = Msg(
            "parse.dataset_length_assumed",
            samples=samples,
            per_sample=DEFAULT_CONTEXT_TOKENS,
            tokens=tokens,
        )
    else:
        return []
    return [parse_note(message, lang)]


def _link_slots(text: str, plain: str) -> dict[str, object]:
    """Links from the masked text; "PCIe-only" / "no NVLink" also from the unmasked one."""
    _, inter = hw.read_links(text)
    intra, _ = hw.read_links(plain)
    out: dict[str, object] = {}
    if intra:
        out["intra_link"] = _resolve_link(intra)
    if inter:
        out["inter_link"] = _resolve_link(inter)
    nics = links.read_nics_per_node(text)
    if nics is not None:
        out["nics_per_node"] = nics
    return out


def _resolve_link(candidates: tuple[str, ...]) -> str:
    try:
        from calculators.catalog.hardware import link_alias_index
    except ImportError:
        return candidates[0]
    from calculators.catalog.names import normalize_name

    index = link_alias_index()
    for candidate in candidates:
        key = normalize_name(candidate)
        if key in index:
            return index[key]
    return candidates[0]


def compared_counts(
    options: Iterable[Mapping[str, object]], warnings: list[str], text: str, lang: Language
) -> list[str]:
    """A comparison of different counts ("128 A100 … or 64 H100") is no contradiction: the
    counts-differ note is dropped."""
    if len({o.get("gpu_count") for o in options}) < 2:
        return warnings
    stale = _counts_slots(hw.read_counts(text), lang)[1]
    return [w for w in warnings if w not in stale]


def scenario_slots(
    mentions: Mentions, lang: Language, *, comparing: bool = False
) -> tuple[dict[str, object], list[str]]:
    """Every slot the question states, and the notes on how they were read."""
    text = mentions.text
    found: dict[str, object] = {}
    if mentions.site:
        found["site_profile"] = mentions.site
    if mentions.gpus:
        used = replacing_card(text, mentions.gpu_sequence)  # "把H100换成H200": the H200
        found["gpu"] = mentions.gpus[0] if comparing else used or _named_variant(mentions.gpus)
    if mentions.models:
        found["model"] = mentions.models[0]
    # "每张卡每月3000块" is a rent, not 3,000 cards; "把8张H100换成16张H20": the H20's count
    counted = without_replaced(text) if "gpu" in found and not comparing else text
    count_slots, warnings = _counts_slots(
        hw.read_counts(_without_rent(counted)), lang, comparing=comparing
    )
    found.update(count_slots)
    volume, text = read_token_volume(text)  # "每天生成1亿token": an average rate, no reply length
    if volume is not None:
        found["target_tokens_per_second"] = volume
        warnings.append(parse_note(Msg("parse.token_volume", rate=volume), lang))
    found.update(_workload_slots(text))
    if continued_pretraining(text, found):  # "全参训练 … 500B token": pre-training, not a fine-tune
        said = Msg("parse.continued_pretraining", threshold=CONTINUED_PRETRAIN_TOKENS)
        warnings.append(parse_note(said, lang))
    found.update(_link_slots(text, mentions.plain))
    found.update(cross_node_slots(text, found))  # "跨机做张量并行": TP spans the stated nodes
    if "gpu" in found and links.names_bare_nvlink(mentions.plain):
        warnings += _family_nvlink(found, lang)
    for name, value in read_load_slots(text).items():
        if name != "currency" or "currency" not in found:
            found[name] = value
    chars = read_chars_per_second(text) if "target_seconds_per_token" not in found else None
    if chars:  # "每人每秒15个字": the speed in characters, read as tokens, and said
        found["target_seconds_per_token"] = 1.0 / chars
        warnings.append(parse_note(Msg("parse.chars_as_tokens", chars=chars), lang))
    ram = host_ram_note(text) if "host_ram_bytes" in found else None
    warnings += [parse_note(ram, lang)] if ram else []
    warnings += _dataset_note(text, found, lang) + _unquantized(mentions, found, lang)
    warnings += _node_price(text, found, lang) + _month_price(text, found, lang)
    warnings += _epochs_and_mfu(text, found, lang)
    warnings += [
        parse_note(m, lang)
        for m in settle_spending(_without_rent(text), found)  # a monthly rent is no budget
        + settle_audience(text, found, comparing=comparing)
    ]
    if "model" in found:
        found.pop("params", None)
    if "gpu" in found and str(found.get("intra_link", "")).lower().startswith("pcie"):
        found["gpu"], link = links.pcie_variant(str(found["gpu"]))
        found["intra_link"] = link or found["intra_link"]
    warnings += [parse_note(m, lang) for m in _name_notes(mentions, found, lang)]
    return found, warnings


#: Training-only sharding named without a task word: "ZeRO-3 over 10GbE for 70B", "FSDP",
#: "DeepSpeed" (its inference engine is named with an inference word, read first).
_TRAINING_FRAMEWORK = re.compile(
    r"\bzero[- _]?(?:stage[- _]?)?[0-3]\b|\bfsdp\b|\bdeepspeed\b|\bddp\b"
)


def training_framework(text: str) -> str | None:
    """The training-only sharding the text names ("ZeRO-3", "FSDP", "DDP", "DeepSpeed"), as
    written in an answer; None when it names none. A question with one and no task word is a
    training job (see `assistant.parse.question`)."""
    match = _TRAINING_FRAMEWORK.search(text)
    if match is None:
        return None
    said = {"fsdp": "FSDP", "deepspeed": "DeepSpeed", "ddp": "DDP"}.get(match.group(0))
    return said or f"ZeRO-{match.group(0)[-1]}"  # "zero stage 2" is written ZeRO-2


def _unquantized(mentions: Mentions, found: dict[str, object], lang: Language) -> list[str]:
    """ "不量化" / "without quantization" / "满血" / "full-precision" states the precision: the
    model's own format where the card runs it (`serving_dtype`: FP8 for DeepSeek-V3/R1 on an
    FP8 card), else the card's 16-bit format (bf16, or fp16 on V100 / T4), else bf16; a named
    format ("int4") wins. The answer says which was used."""
    if "precision" in found:
        return []
    said = slots.read_full_precision(mentions.text, mentions.plain)
    if said is None and not slots.read_unquantized(mentions.text):
        return []
    dtype = _unquantized_dtype(found)
    found["precision"] = dtype
    if said is None:
        return [parse_note(Msg("parse.unquantized", dtype=dtype.upper()), lang)]
    word = Msg(f"parse.full_word.{_FULL_WORDS.get(said, 'full_precision')}")
    released = _released_dtype(found) or dtype
    if released != dtype:  # "满血 R1 on A100": FP8 weights, run in BF16 on a card without FP8
        message = Msg(
            "parse.full_precision_nearest",
            said=word,
            released=released.upper(),
            dtype=dtype.upper(),
            gpu=str(found.get("gpu")),
        )
        return [parse_note(message, lang)]
    return [parse_note(Msg("parse.full_precision", said=word, dtype=dtype.upper()), lang)]


def option_precisions(
    mentions: Mentions, found: Mapping[str, object], options: tuple[dict[str, object], ...]
) -> tuple[dict[str, object], ...]:
    """Compared cards each run "满血" / "不量化" in their own format: the released FP8 on an
    H20, BF16 on a 910B without FP8 (`_unquantized_dtype` per card). A named format ("bf16",
    "int4") is one for all, and is left to the question's scenario."""
    if "precision" not in found or slots.read_precision(mentions.text) is not None:
        return options
    said = slots.read_full_precision(mentions.text, mentions.plain)
    if said is None and not slots.read_unquantized(mentions.text):
        return options
    return tuple(
        {**o, "precision": _unquantized_dtype({**found, **o})} if "gpu" in o else o for o in options
    )


#: The words that state the released precision → their catalog message (parse.full_word.*), so an
#: answer in the other language names them in its own words.
_FULL_WORDS = {"满血": "full", "原版": "original"}


def _released_dtype(found: Mapping[str, object]) -> str | None:
    from calculators.catalog.models import lookup_model

    try:
        return lookup_model(str(found["model"])).release_dtype
    except (KeyError, LookupError, ValueError):
        return None


def _unquantized_dtype(found: Mapping[str, object]) -> str:
    from calculators.catalog.hardware import GPUS
    from calculators.catalog.models import lookup_model
    from calculators.serving_layout import serving_dtype

    card = GPUS.get(str(found.get("gpu")))
    if card is None:  # no card named: the format the model was released in (FP8 for R1)
        released = _released_dtype(found)
        return released if released not in (None, "int8", "int4") else "bf16"
    try:
        dtype = serving_dtype(model=lookup_model(str(found["model"])), gpu=card)
    except (KeyError, LookupError, ValueError):  # a bare size: the card's own 16-bit format
        return card.default_training_precision()
    return dtype if dtype not in ("int8", "int4") else card.default_training_precision()


def _epochs_and_mfu(text: str, found: dict[str, object], lang: Language) -> list[str]:
    """Epochs multiply the token budget ("3 epochs of 200M tokens"); a stated MFU is a slot
    (`load.read_mfu`)."""
    notes = []
    epochs, tokens = slots.read_epochs(text), found.get("tokens")
    if epochs and epochs != 1 and isinstance(tokens, float):
        found["tokens"] = epochs * tokens
        notes.append(parse_note(Msg("parse.epochs", epochs=epochs, tokens=epochs * tokens), lang))
    return notes


def _node_price(text: str, found: dict[str, object], lang: Language) -> list[str]:
    """A price per node-hour becomes a price per GPU-hour over the GPUs of one node (the node's
    stated count, a one-node total, else 8 as in DGX/HGX servers), and the answer says so."""
    price, currency = slots.read_node_price(text)
    if price is None:
        return []
    count = found.get("gpu_count") if found.get("nodes") in (None, 1) else None
    per_node = found.get("gpus_per_node") or count or DEFAULT_GPUS_PER_NODE
    assert isinstance(per_node, (int, float))
    found["price_per_gpu_hour"], found["currency"] = price / per_node, currency
    message = Msg(
        "parse.node_price",
        price=price,
        per_gpu=price / per_node,
        currency=Msg(f"summary.currency.{currency}"),
        gpus=per_node,
    )
    return [parse_note(message, lang)]


def _without_rent(text: str) -> str:
    """`text` with its rent per month blanked (the rent is read by :func:`_month_price`)."""
    rent = read_month_price(text)
    if rent is None:
        return text
    start, end = rent[3]
    return text[:start] + " " * (end - start) + text[end:]


def _month_price(text: str, found: dict[str, object], lang: Language) -> list[str]:
    """A rent per month becomes a price per GPU-hour over the 720 hours of a month and the GPUs
    it rents (one card, one node, or the hardware as stated), and the answer says so."""
    rent = read_month_price(text)
    if rent is None or "price_per_gpu_hour" in found:
        return []
    price, currency, what, _ = rent
    per_node = found.get("gpus_per_node") or DEFAULT_GPUS_PER_NODE
    stated = found.get("gpu_count") or per_node
    gpus = {"gpu": 1, "node": per_node}.get(what, stated)
    assert isinstance(gpus, (int, float))
    per_gpu = price / (gpus * MONTH_HOURS)
    found["price_per_gpu_hour"], found["currency"] = per_gpu, currency
    message = Msg(
        "parse.month_price",
        price=price,
        per_gpu=per_gpu,
        currency=Msg(f"summary.currency.{currency}"),
        gpus=gpus,
        hours=MONTH_HOURS,
    )
    return [parse_note(message, lang)]


def _family_nvlink(found: dict[str, object], lang: Language) -> list[str]:
    """A bare "NVLink" is the card's own (or its bridge's); a card with none ("2 4090 with
    NVLink") is evaluated over its own link, and the answer says why."""
    from calculators.catalog.hardware import GPUS

    gpu = str(found["gpu"])
    link = links.nvlink_of(gpu)
    card = GPUS.get(gpu)
    if link is None and card is not None:
        link = card.intra_link
        found["intra_link"] = link
        return [parse_note(Msg("parse.no_nvlink", gpu=gpu, link=link), lang)]
    found["intra_link"] = link or found["intra_link"]
    return []


def _name_notes(mentions: Mentions, found: Mapping[str, object], lang: Language) -> list[Msg]:
    """ "<name> is not in the catalog (closest: …)" per unknown name, with the entries the
    answer's lead offers (:func:`closest_entries`)."""
    # a card with its memory stated ("燧原S60（每张48GB）") is a generic card, said where it is
    # evaluated (calculate.stand_in), never "not replaced" here
    generic = found.get("gpu") is None and found.get("gpu_memory_bytes") is not None
    notes = [
        Msg("parse.unknown_name", name=name_in(name, lang), closest=closest or ("—",))
        for name in mentions.unknown
        # no card is close to a CPU or a Mac, nor any entry to a closed model: the lead says so
        if not is_computer(name) and not closed_model(name)
        for kind, closest in (closest_entries(name),)
        if not (generic and kind == "gpu")
    ]
    link_note = hw.nvlink_note(mentions.plain, found)
    return [*notes, link_note] if link_note else notes
