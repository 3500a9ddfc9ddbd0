"""Names that look like a GPU or a model but are not in the catalog, and catalog look-alikes.

A name the catalog does not hold is never replaced by a neighbour: it goes to
`Query.unknown_names`, with the closest catalog entries for the answer to offer. A catalog alias
that only matches because separators are optional ("Qwen2-57B" against "Qwen2.5-7B", key
``qwen257b``) is refused when the digit groups differ from every spelling of that entry.

Examples:
    >>> unknown_names("train llama-5-400b on 8 ⟨gpu⟩")
    ('llama-5-400b',)
    >>> unknown_names("serve ⟨model⟩ on 8 mi355x and a b300")
    ('mi355x', 'b300')
    >>> unknown_names("单卡3090能跑chatglm9-6b吗")
    ('chatglm9-6b',)
    >>> unknown_names("can 4 rtx 6000 ada serve ⟨model⟩"), unknown_names("一张32gb的mi50能推理")
    (('rtx 6000 ada',), ('mi50',))
    >>> unknown_names("8张910b4推理⟨model⟩")
    ('910b4',)
    >>> unknown_names("用8张⟨gpu⟩训练bert-large"), unknown_names("clip gradients, opt in")
    (('bert-large',), ())
    >>> digit_groups_fit("qwen2-57b", ("Qwen2.5-7B", "qwen-7b"))
    False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = [
    "BARE_R1",
    "CPU_NAME",
    "MODEL_VARIANT_AFTER",
    "SPACED_VARIANT_AFTER",
    "VARIANT_AFTER",
    "as_typed",
    "cpu_only",
    "is_computer",
    "laptop_word",
    "name_in",
    "closest_entries",
    "closed_model",
    "coined_model_names",
    "deepseek_r1",
    "digit_groups_fit",
    "family_mention",
    "maker_spans",
    "not_decoder_llm",
    "unknown_gpu_spans",
    "unknown_names",
]

# "千问7B" / "通义千问72B" are Qwen's Chinese names: with no version they are no catalog entry
_FAMILIES = (
    r"(?:通义)?千问|llama|qwen|mistral|mixtral|deepseek|gemma|phi|falcon|baichuan|chatglm|glm|internlm|"
    r"yi|gpt|bloom|olmo|grok|command-r|minimax|kimi|ernie|hunyuan|codellama|starcoder"
)
_GPU_LINES = (
    r"rtx|gtx|titan|quadro|radeon|instinct|gaudi|mi|ascend|昇腾|tpu|"
    r"g[hb](?=\d{3})|"  # Grace superchips: "gh200", "gb200" (not an H200 or a B200)
    r"[abhlv](?=\d{2})|[bgh](?=\d{3})|(?=9[1-9]0[a-d]\d?(?![a-z0-9]))|"  # bare Ascend "910b4"
    r"[km](?=\d{2}(?![0-9]))|"  # Tesla K80, M40
    # a GeForce number typed without "RTX"/"GTX" is one only with its suffix ("2080ti", "1080 Ti")
    r"(?=[1-5]0[5-9]0[ ]?(?:ti|super)(?![a-z]))"
)
# ASCII word characters only: "chatglm3-6b吗" is the name "chatglm3-6b" followed by 吗
_W = r"[a-z0-9_.]"
_MODEL_NAME = (
    r"(?:"
    + _FAMILIES
    + r")[-_. ]?(?:\d"
    + _W
    + r"*|[a-z]+[-_.]?\d"
    + _W
    + r"*)(?:[-_:]"
    + _W
    + r"+)*"
)
# accelerator makers outside the catalog's lines: the maker's name alone is a card ("摩尔线程的卡");
# "天数" alone is "number of days", so Iluvatar needs its full name
_VENDORS = (
    r"moore[ ]?threads|摩尔线程|biren|壁仞|hygon|海光|cambricon|寒武纪|kunlun(?:xin)?|昆仑芯|"
    r"iluvatar(?:[ ]?corex)?|天数智芯|metax|沐曦|enflame|燧原|intel[ ]?gaudi|habana"
)
# product series that need a number after them ("mtt s4000", "br100", "mlu370-x8", "dcu k100")
_SERIES = r"mtt|br|mlu|dcu|bi(?=[- ]?v\d)|思元|天垓|智铠|曦云|邃思|云燧"
_PRODUCT = r"[a-z]{0,4}[- ]?\d{1,4}[a-z0-9]{0,4}(?:-[a-z0-9]+)?(?![a-z0-9])"
_MAKER_NAME = (
    r"(?:(?:" + _VENDORS + r")(?:[ ]?的?[ ]?(?:" + _SERIES + r"))?"
    r"(?:[- ]?的?[ ]?" + _PRODUCT + r")?"
    r"|(?:" + _SERIES + r")[- ]?" + _PRODUCT + r")"
)
# any letters+digits token right before a card word ("S4000显卡", "XPU300 cards"), except a number
# format or a lane count ("fp16 卡", "PCIe x16 card")
_CARD_WORD = r"\s*(?:显卡|加速卡|计算卡|卡|gpus?(?![a-z])|cards?(?![a-z])|accelerators?(?![a-z]))"
_NEXT_TO_CARD = (
    r"(?!(?:fp|bf|int|tf|x|e\d+m)\d)[a-z]{1,6}-?\d{2,5}[a-z0-9]{0,4}(?![a-z0-9])"
    r"(?=" + _CARD_WORD + ")"
)
# computers rather than cards: Apple's unified-memory machines ("MacBook Pro M3", "M2 Ultra")
_APPLE_CHIP = r"m[1-5](?:[ ]?(?:pro|max|ultra))?(?![a-z0-9])"
_COMPUTER = (
    r"(?:apple[ ]?)?(?:macbook(?:[ ]?(?:pro|air))?|mac[ ]?(?:studio|mini|pro)|imac)(?![a-z])"
    r"(?:[ ]?" + _APPLE_CHIP + r")?"
    r"|(?:apple[ ]?)" + _APPLE_CHIP + r"|m[1-5][ ]?(?:pro|max|ultra)(?![a-z0-9])"
)
#: "my laptop", "我的笔记本": a computer, read like a CPU (never masked: "笔记本显卡散热" stays
#: a PC question; never "Jupyter notebook")
_LAPTOP = re.compile(r"(?<![a-z])laptops?(?![a-z])|笔记本(?:电脑)?")
# cards and chips typed without their line: a bare GeForce number ("a 3060 12GB", "4080 super";
# 3090/4090/5090 are catalog aliases, masked before this runs), a Radeon ("7900 XTX"), Google
# TPUs ("TPU v5e"), AWS Trainium/Inferentia (Apple silicon is a computer: _COMPUTER)
_BARE_CARDS = (
    r"(?<![\d.,])(?![345]090)[2-5]0[5-9]0(?:[- ]?(?:ti|super)){0,2}(?![a-z0-9])"
    r"(?!\s*(?:tokens?|params?|b\b|年|years?\b))"
    r"|(?:rx[- ]?)?[5-9]\d00[- ]?(?:xtx|xt|gre)(?![a-z0-9])"
    r"|tpu[- ]?v\d[a-z]?(?![a-z0-9])|trainium\d?|inferentia\d?"
)
# the name ends where ASCII ends ("mi50能" is "mi50"; \b would not end it before a CJK letter)
_GPU_NAME = (
    r"(?:(?:" + _GPU_LINES + r")[- ]?\d{1,4}[a-z]{0,3}\d?(?![a-z0-9])"
    r"(?:[- ](?:pro|ultra|max|plus|ada|ti|super|blackwell|nvl|laptop|mobile)(?![a-z0-9])){0,2}"
    r"|" + _BARE_CARDS + "|" + _COMPUTER + "|" + _MAKER_NAME + "|" + _NEXT_TO_CARD + ")"
)
#: "只用CPU", "没有显卡", "CPU only", "on my CPU": no GPU at all (never "CPU offload")
_CPU_ONLY = re.compile(
    r"(?:只|仅|纯)用?\s*cpu|cpu\s*only|only\s+(?:an?\s+|the\s+|my\s+)?cpus?\b|"
    r"(?:没有|没|无)(?:独立|独)?(?:显卡|gpu)|\bno\s+gpus?\b|without\s+(?:an?\s+)?gpus?\b|"
    r"(?:用|在)\s*cpu\s*上?\s*(?:跑|推理|运行|部署)|\bon\s+(?:an?\s+|my\s+|the\s+)?cpus?\b(?!\s*offload)"
)
#: The name `Query.unknown_names` carries for a question with no GPU at all.
CPU_NAME = "CPU"
#: Models whose weights are not published: a name, but never a catalog entry or a card
#: ("GPT-4o", "Claude 3.5 Sonnet", "Gemini 1.5 Pro", "文心一言", "豆包").
_CLOSED = (
    r"gpt-?(?:3\.5|4|5)(?:\.\d)?(?:[- ]?(?:o|turbo|mini|omni))*|chatgpt|"
    r"claude(?:[- ]?\d(?:\.\d)?)?(?:[- ](?:opus|sonnet|haiku))?|"
    r"gemini(?:[- ]?\d(?:\.\d)?)?(?:[- ](?:pro|ultra|flash|nano))?|"
    r"文心一言|文心大模型|ernie[ ]?bot|豆包大模型|豆包|doubao|讯飞星火|星火大模型"
)
#: Open-weight models named without a size, which the catalog lacks ("DBRX", "Command R+").
_UNSIZED = r"dbrx|command[- ]?r(?:\+|[- ]?plus)?|jamba"
#: Well-known open models the catalog lacks whose names need no digit after the family
#: ("BERT-large", "T5-XXL", "ResNet-50", "Whisper large-v3", "SDXL"), non-LLMs and LLMs alike.
#: Families that are also ordinary words need their model part: "OPT-30B" (not "opt in"),
#: "CLIP ViT-L/14" (not "clip gradients"), "ViT-B/16", "YOLOv8", "FLUX.1", "SD 1.5".
_NOT_DECODER = (
    r"(?:distil|xlm-?)?(?:ro)?bert(?:a)?(?:[-_ ](?:base|large|tiny|mini|small|medium)"
    r"(?:[-_ ](?:uncased|cased))?)?|deberta(?:-v\d)?(?:-(?:base|large|xlarge))?|"
    r"(?:flan-?|m)?t5(?:[-_ ](?:v1\.1|small|base|large|xl|xxl|\d+(?:\.\d+)?b))*|"
    r"bart-(?:base|large)|whisper(?:[-_ ](?:tiny|base|small|medium|large|turbo)(?:-v\d)?)?|"
    r"resnet-?\d*|vit[-_/](?:[bslhg](?:/|-)?\d+|base|large|huge)(?:/\d+)?|"
    r"clip[- ]vit[-_/]?[bslhg](?:/|-)?\d+|yolo-?v?\d+[a-z]?|"
    r"stable[- ]?diffusion(?:[- ]?(?:xl|v?\d(?:\.\d)?))?|sdxl(?:[- ]turbo)?|"
    r"sd[- ]?(?:1\.5|2\.1|3(?:\.5)?)|"
    r"flux\.1(?:[- ](?:dev|schnell|pro))?"
)
#: Decoder LLM families the catalog lacks, spelled without a digit after the family.
_OTHER_LLMS = (
    r"opt-\d+(?:\.\d+)?[bm]|gpt-?j(?:-6b)?|gpt-?neox?(?:-\d+b)?|pythia-\d+(?:\.\d+)?[bm]|"
    r"mpt-\d+b|vicuna-\d+b|stablelm(?:-[a-z0-9.]+)*|codegen\d?(?:-\d+b)?|cerebras-gpt(?:-\d+b)?|"
    r"llava(?:-v?\d(?:\.\d)?)?(?:-\d+b)?"
)
_NAMED = (
    r"(?:" + _CLOSED + "|" + _UNSIZED + "|" + _NOT_DECODER + "|" + _OTHER_LLMS + r")(?![a-z0-9])"
)
_NAME = re.compile(r"(?<![a-z0-9⟩])(?:" + _NAMED + "|" + _MODEL_NAME + "|" + _GPU_NAME + ")")
_OTHER_ONLY = re.compile(r"(?:" + _NOT_DECODER + "|" + _OTHER_LLMS + ")")
_NOT_DECODER_ONLY = re.compile(_NOT_DECODER)
_CLOSED_ONLY = re.compile(_CLOSED)
_GPU_ONLY = re.compile(r"(?<![a-z0-9⟩])" + _GPU_NAME)
_MAKER_ONLY = re.compile(r"(?<![a-z0-9⟩])" + _MAKER_NAME)


#: A variant the catalog lacks, written after a catalog name: "H100 NVL" (94 GB), "RTX 4090
#: Laptop" (16 GB) are other cards than the H100 SXM and the desktop 4090.
VARIANT_AFTER = re.compile(r"[- ]?(?:nvl|laptop|mobile)(?![a-z0-9])|\s*(?:笔记本|移动版)")

#: A size or a smaller sibling written right after a catalog model's name is another model:
#: "deepseek-r1:1.5b" and "DeepSeek-R1-Distill-Qwen-1.5B" are not the 671B DeepSeek-R1, nor is
#: "Phi-4-mini" (3.8B) the 14B Phi-4. Sized spellings the catalog holds match whole first.
MODEL_VARIANT_AFTER = re.compile(
    r"[-_:](?:\d+(?:\.\d+)?[bm]|mini|small|medium|nano|micro|lite|tiny|distill)(?![a-z0-9])"
)
#: The same size words after a space ("Phi-4 mini"): another model too, reported by this name.
SPACED_VARIANT_AFTER = re.compile(r"[ ]+(?:mini|small|medium|nano|micro|lite|tiny)(?![a-z0-9-])")
#: "R1" as a model word, and the words that make it DeepSeek's ("DeepSeek 的 R1", "671B 的 R1").
BARE_R1 = re.compile(r"(?<![a-z0-9_.:-])(?<!deepseek )r1(?![a-z0-9_.-])")
_DEEPSEEK_WORDS = re.compile(r"deepseek|深度求索|671\s*b|满血")


#: "ds" as users shorten DeepSeek before a model of it: "ds-r1", "ds r1", "dsv3", "ds-v3.1".
_DS_SHORT = re.compile(r"(?<![a-z0-9_.-])ds[- _]?(?=(?:r1|v[23](?:\.\d)?)(?![a-z0-9]))")


def deepseek_r1(text: str) -> str:
    """A bare "R1" in a (lower-cased) question that says DeepSeek, 671B or 满血 is DeepSeek-R1;
    "ds" before R1 or V2/V3 is DeepSeek's short name.

    >>> deepseek_r1("8张h200跑deepseek的r1"), deepseek_r1("r1 推理要几张")
    ('8张h200跑deepseek的deepseek-r1', 'r1 推理要几张')
    >>> deepseek_r1("910b能跑满血ds-r1吗"), deepseek_r1("dsv3 要几张卡"), deepseek_r1("nds-r1")
    ('910b能跑满血deepseek-r1吗', 'deepseek-v3 要几张卡', 'nds-r1')
    """
    text = _DS_SHORT.sub("deepseek-", text)
    return BARE_R1.sub("deepseek-r1", text) if _DEEPSEEK_WORDS.search(text) else text


#: A coined model name outside the known families, as typed: capitalised parts joined by hyphens
#: ("Zephyr-Omega", "FalconX-Ultra"), optionally ending in a size ("FalconX-Ultra-70B"). Case
#: matters here: "fine-tune" or "all-reduce" are words, not names.
_COINED = re.compile(
    r"(?<![A-Za-z0-9_.-])[A-Z][A-Za-z]*[a-z][A-Za-z]*(?:-[A-Z][A-Za-z0-9]*)+"
    r"(?:-\d+(?:\.\d+)?[BbMm])?(?![A-Za-z0-9_-])"
)
#: A name in quotes before a model word: "用两张4090跑“星火-X9”大模型", 'serve "Orca-mini" model'.
_QUOTED = re.compile(
    r"[“\"「《『‘']\s*([^\s“”\"「」《》『』‘’'，。？?,]{2,30}?)\s*[”\"」》』’']"
    r"(?=\s*(?:大)?(?:模型|语言模型|models?\b|llms?\b))"
)
#: A quoted name has an ASCII letter ("“千亿”模型" is a size in quotes, not a name), and is no size.
_NAME_LIKE = re.compile(r"[A-Za-z]")
_SIZE_ONLY = re.compile(r"\d+(?:\.\d+)?\s*[BbMmKkTt]|.*(?:[-\s](?:style|like|type|based)|类|式)")
#: Capitalised technical terms of the domain that read like a coined name ("ZeRO-Infinity").
_TERM_PARTS = frozenset(
    "zero infinity offload flash attention ring ulysses megatron deepspeed nvlink nvswitch "
    "infiniband roce ethernet switch fsdp lora qlora mixture experts time first token "
    "tensor pipeline data expert parallel sequence context full selective lm llm chat mii "
    "hugging face tensorrt vllm sglang triton megatron-lm".split()
)


def coined_model_names(question: str, masked: str) -> tuple[str, ...]:
    """Coined model-like names in the cleaned `question` (case kept) that no catalog name took:
    a name is kept only when it is still whole in the lower-cased `masked` text.

    >>> coined_model_names("Can 4 H100 serve Zephyr-Omega?", "can 4 ⟨gpu⟩ serve zephyr-omega?")
    ('Zephyr-Omega',)
    >>> coined_model_names("ZeRO-Infinity on 8 H100", "zero-infinity on 8 ⟨gpu⟩")
    ()
    >>> coined_model_names("两张4090跑“星火-X9”大模型", "两张⟨gpu⟩跑“星火-x9”大模型")
    ('星火-X9',)
    """
    out: list[str] = [
        name
        for name in dict.fromkeys(m.group(1) for m in _QUOTED.finditer(question))
        if name.lower() in masked and _NAME_LIKE.search(name) and not _SIZE_ONLY.fullmatch(name)
    ]
    for match in _COINED.finditer(question):
        name = match.group(0)
        words = {w.lower() for w in name.split("-")}
        if words <= _TERM_PARTS | {w for w in words if re.fullmatch(r"[\d.]+[bm]", w)}:
            continue
        if name.lower() in masked and name not in out:
            out.append(name)
    return tuple(out)


def not_decoder_llm(name: str) -> bool:
    """True for a well-known model that is not a decoder-only language model (an encoder, an
    encoder-decoder, a CNN, a vision transformer, a diffusion model), which the tool does not model.

    >>> not_decoder_llm("BERT-large"), not_decoder_llm("ResNet-50"), not_decoder_llm("OPT-30B")
    (True, True, False)
    """
    return bool(_NOT_DECODER_ONLY.fullmatch(name.lower().strip()))


def closed_model(name: str) -> bool:
    """True for a model whose weights are not published: it cannot run on the user's GPUs.

    >>> closed_model("GPT-4o"), closed_model("文心一言"), closed_model("gpt-oss-120b")
    (True, True, False)
    """
    return bool(_CLOSED_ONLY.fullmatch(name.lower().strip()))


def unknown_names(masked: str) -> tuple[str, ...]:
    """Product-like names left in `masked` text after catalog names were replaced by marks."""
    out: list[str] = []
    for match in _NAME.finditer(masked):
        name = match.group(0).strip(" -_.")
        if re.fullmatch(r"[abhlv]\d{2,4}", name) and _looks_like_size(masked, match.end()):
            continue
        if name and name not in out:
            out.append(name)
    return tuple(out)


#: A parameter count in a name ("70b", "8x7b", "1.5b", "400m"): a model, not its family.
_SIZE_IN_NAME = re.compile(r"\d(?:\.\d+)?\s*[bm](?![a-z])")


def family_mention(name: str, spellings: Iterable[str]) -> bool:
    """A model name with no size that begins a catalog model's name ("Llama-3" of Llama-3-70B,
    "Qwen2.5" of Qwen2.5-7B): the family, as in "按Llama-3的15T token训练Llama-3-70B".

    >>> family_mention("Llama-3", ["Llama-3-70B"]), family_mention("Llama-5", ["Llama-3-70B"])
    (True, False)
    >>> family_mention("llama-3-400b", ["Llama-3-70B"])
    False
    """
    from calculators.catalog.names import normalize_name

    if _SIZE_IN_NAME.search(name.lower()):
        return False
    key = normalize_name(name)
    return bool(key) and any(
        normalize_name(s).startswith(key) and normalize_name(s) != key for s in spellings
    )


def cpu_only(text: str) -> bool:
    """True when the (lower-cased) question says it has no GPU at all.

    >>> cpu_only("我的电脑没有显卡，只用cpu能跑7b吗"), cpu_only("zero-3 with cpu offload")
    (True, False)
    """
    return bool(_CPU_ONLY.search(text))


def laptop_word(text: str) -> str | None:
    """The laptop the (lower-cased) question speaks of, as typed, or None.

    >>> laptop_word("我的笔记本能跑7b吗"), laptop_word("a jupyter notebook on a t4")
    ('笔记本', None)
    """
    match = _LAPTOP.search(text)
    return match.group(0) if match else None


def is_computer(name: str) -> bool:
    """True for a name that is a computer, not a card: a CPU, an Apple Mac ("MacBook Pro M3").

    >>> is_computer("MacBook Pro M3"), is_computer(CPU_NAME), is_computer("MI325X")
    (True, True, False)
    """
    lowered = name.lower()
    return name == CPU_NAME or bool(re.fullmatch(_COMPUTER, lowered) or _LAPTOP.fullmatch(lowered))


#: Chinese names of accelerator makers and model families, as their English documentation
#: writes them ("千问7B" is "Qwen 7B" in an English answer).
_MAKERS_EN = {
    "通义千问": "Qwen",
    "千问": "Qwen",
    "摩尔线程": "Moore Threads",
    "壁仞": "Biren",
    "海光": "Hygon",
    "寒武纪": "Cambricon",
    "昆仑芯": "Kunlunxin",
    "天数智芯": "Iluvatar CoreX",
    "沐曦": "MetaX",
    "燧原": "Enflame",
    "昇腾": "Ascend",
}


def name_in(name: str, lang: str) -> str:
    """`name` as an answer in `lang` writes it: an English answer gives a maker's English name.

    >>> name_in("寒武纪MLU370", "en"), name_in("寒武纪MLU370", "zh"), name_in("通义千问7B", "en")
    ('Cambricon MLU370', '寒武纪MLU370', 'Qwen 7B')
    """
    if lang != "en":
        return name
    for zh, en in _MAKERS_EN.items():
        name = re.sub(zh + r"\s*(?:的\s*)?", en + " ", name)
    return " ".join(name.split())


def as_typed(name: str, question: str) -> str:
    """`name` (found in lower-cased text) spelled as the question typed it ("RTX 6000 Ada").

    >>> as_typed("rtx 6000 ada", "Can 4 RTX 6000 Ada serve it?")
    'RTX 6000 Ada'
    """
    match = re.search(re.escape(name), question, re.IGNORECASE)
    return match.group(0) if match else name


def unknown_gpu_spans(masked: str) -> list[tuple[int, int]]:
    """Spans of GPU-like unknown names, to be masked like catalog GPUs ("8 MI355X" is 8 GPUs)."""
    return [
        m.span()
        for m in _GPU_ONLY.finditer(masked)
        if not re.fullmatch(r"[abhlv]\d{2,4}", m.group(0)) or not _looks_like_size(masked, m.end())
    ]


def maker_spans(text: str) -> list[tuple[int, int]]:
    """Spans of names from makers outside the catalog, which win over a catalog alias inside them.

    >>> maker_spans("天数智芯 bi-v100 跑7b")
    [(0, 12)]
    """
    return [m.span() for m in _MAKER_ONLY.finditer(text)]


def _looks_like_size(text: str, end: int) -> bool:
    return bool(re.match(r"\s*(?:tokens?|params?|parameters?|参数)", text[end:]))


def digit_groups_fit(matched: str, spellings: Iterable[str]) -> bool:
    """True when each digit group typed in `matched` is a digit group of some spelling."""
    typed = re.findall(r"\d+", matched)
    known: set[str] = set()
    for spelling in spellings:
        known.update(re.findall(r"\d+", spelling))
    return all(group in known for group in typed)


#: A name that reads as a model ("Qwen2-7B", "GLM-4", "Yi-34B"), not a GPU.
_MODEL_WORDS = re.compile(
    r"\d+(?:\.\d+)?\s*[bm]\b|llama|qwen|mistral|mixtral|deepseek|gpt|glm|baichuan|\byi\b|gemma|phi|"
    r"dbrx|command[- ]?r|jamba",
    re.IGNORECASE,
)


def closest_entries(name: str) -> tuple[str, tuple[str, ...]]:
    """The catalog table an unknown `name` belongs to ("gpu" or "model") and up to three of
    its closest entries; the one home of both, for the answer's lead and the parse note.

    A name shaped like a card ("寒武纪MLU370", "Gaudi 3") is a card: it is never offered
    models because a model name happens to be closer in spelling.

    >>> closest_entries("MI325X")
    ('gpu', ('MI250X 128GB', 'MI300X 192GB'))
    >>> closest_entries("寒武纪MLU370"), closest_entries("摩尔线程S4000")
    (('gpu', ()), ('gpu', ()))
    """
    from assistant.parse.sized_names import by_size
    from calculators.catalog.hardware import lookup_gpu
    from calculators.catalog.models import lookup_model
    from calculators.errors import CalculatorInputError, UnknownNameError

    lowered = name.lower()
    named_part = _models_named(lowered)
    if named_part:  # "R1": the catalog models with that part in their names
        return "model", named_part
    if not_decoder_llm(name):  # "BERT-large": spelling says nothing across families; size does
        return "model", by_size(name, (), other_family=True)
    tables: list[tuple[Callable[[str], object], str]]
    if _COINED.fullmatch(name) or _OTHER_ONLY.fullmatch(lowered):  # "Zephyr-Omega", "BERT-large"
        tables = [(lookup_model, "model")]
    elif _GPU_ONLY.fullmatch(lowered) or _MAKER_ONLY.fullmatch(lowered):
        tables = [(lookup_gpu, "gpu")]
        if re.match(r"\d{4}", lowered):  # "2080ti" is spelled "RTX 2080 Ti" in the catalog
            name = f"RTX {name}"
    elif _MODEL_WORDS.search(name):
        tables = [(lookup_model, "model"), (lookup_gpu, "gpu")]
    else:
        tables = [(lookup_gpu, "gpu"), (lookup_model, "model")]
    if re.search(_VENDORS, lowered):  # "摩尔线程S4000": a maker outside the catalog's lines,
        return "gpu", ()  # whose spelling is near no catalog card it resembles (B200 was offered)
    for lookup, table in tables:
        try:
            lookup(name)
        except UnknownNameError as exc:
            if exc.suggestions and table == "model":  # "Foo-13B": nearest in size first
                pool = _family_entries(lowered) or tuple(exc.suggestions)
                return table, by_size(name, pool, other_family=False)[:3]
            if exc.suggestions:
                return table, tuple(exc.suggestions[:3])
        except CalculatorInputError:
            continue
    return tables[0][1], ()


#: A family and a size with no version between them: "qwen-14b", "千问7b", "qwen 72b".
_FAMILY_AND_SIZE = re.compile(r"((?:通义)?千问|[a-z]+)[-_ ]?\d+(?:\.\d+)?b")
#: The catalog's family for a Chinese family name.
_FAMILY_EN = {"千问": "qwen", "通义千问": "qwen"}


def _family_entries(lowered: str) -> tuple[str, ...]:
    """For a family and a size typed with no version ("qwen-14b"), the catalog entries of that
    family with that size in their names (or else the whole family), for `by_size` to rank:
    Qwen-14B is offered Qwen1.5-14B, Qwen2.5-14B and Qwen3-14B, not whatever its spelling is
    nearest to ("千问7b" was offered Qwen2-72B) nor the 14.3B-total Qwen1.5-MoE-A2.7B."""
    from calculators.catalog.models import MODELS

    bare = _FAMILY_AND_SIZE.fullmatch(lowered)
    if bare is None:
        return ()
    family = _FAMILY_EN.get(bare.group(1), bare.group(1))
    size = re.compile(r"(?<![\d.])" + re.escape(lowered[bare.end(1) :].strip("-_ ")) + r"\b")
    kin = tuple(n for n, m in MODELS.items() if m.family == family)
    return tuple(n for n in kin if size.search(n.lower())) or kin  # "qwen-1.8b": nearest sizes


def _models_named(part: str) -> tuple[str, ...]:
    """Up to three catalog models with `part` as a hyphen-separated part of their names
    ("r1": DeepSeek-R1 and its distills), shortest first."""
    from calculators.catalog.models import MODELS

    if not re.fullmatch(r"[a-z]+\d+", part):
        return ()
    named = [n for n in MODELS if part in n.lower().split("-")]
    return tuple(sorted(named, key=len)[:3])
