"""Is a question about a large-model job on GPUs? A decision on intent, not on vocabulary.

Three kinds of evidence, read from the cleaned, lower-cased text with catalog names masked:

- *intent*: words that only make sense for large-model work or the clusters that run it
  (training, fine-tuning, inference serving, LLM, parallelism, ZeRO, KV cache, NCCL, MFU …),
  a model size ("70B", "千亿"), a catalog model name or a site profile;
- *hardware*: words about GPUs and servers that a gamer or a PC builder uses too ("显卡",
  "GPU", "4090", "CUDA", "功耗", "服务器");
- *elsewhere*: a sign the question belongs to another domain (games and frame rates, mining,
  driver installation, laptops and thermal paste, cars, stock prices, poems and jokes).

In the domain = any intent, or hardware with no sign of another domain. So "ZeRO-3 是什么" and
"H100 和 A100 有什么区别" are in, "4090 玩黑神话能跑多少帧" and "which GPU for gaming" are out,
and "用 4090 训练 7B 还是玩游戏" is in (the training intent wins).

Examples:
    >>> classify("4090 玩黑神话能跑多少帧").in_domain
    False
    >>> classify("what is the kv cache?").in_domain
    True
    >>> classify("what's the best gpu for cyberpunk 2077 at 4k?").in_domain
    False
    >>> classify("帮我写一份智算中心gpu服务器采购招标公告").in_domain
    False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DomainEvidence", "classify"]

_INTENT = re.compile(
    r"大模型|模型训练|训练|预训练|推理|微调|部署|上线|serving|serve\b|\bllms?\b|language model|"
    r"fine-?tun|finetun|pre-?train|\btrain|inference|lora|\bpeft\b|token|参数量|"
    r"\bzero\b|zero-?[123]|fsdp|deepspeed|megatron|并行|parallel|集群|cluster|千卡|万卡|"
    r"kv ?cache|nccl|all-?reduce|\bmfu\b|chinchilla|scaling law|缩放定律|量化|quantiz|"
    r"混合精度|mixed precision|bf16|fp16|fp8|int8|int4|4-?bit|8-?bit|nf4|gptq|awq|"
    r"\badam\b|优化器|optimizer state|flash ?attention|注意力|attention|\bmoe\b|混合专家|"
    r"mixture of experts|prefill|decod(?:e|ing)|解码|吞吐|throughput|vllm|tensorrt|重计算|recomput|"
    r"speculative|draft model|投机解码|paged ?attention|continuous batching|\bttft\b|"
    r"time to first token|context (?:length|window)|上下文|sequence length|"
    r"激活值|activation memory|checkpoint(?:ing| interval| size)|检查点|transformer|\bgqa\b|"
    r"nvlink|infiniband|\bib\b|rdma|roce|gpudirect|hbm|\bpue\b|智算|算力中心|计算中心|东数西算|算力枢纽|"
    r"\boom\b|out of memory|爆显存|"
    # "host a chatbot for 200 employees": hosting a language-model service is serving it
    r"\b(?:self-?)?host(?:s|ed|ing)?\b[^.?!]{0,30}\b(?:chat ?bots?|assistants?|llms?|models?)\b|"
    r"数据并行|张量并行|流水线并行|pipeline|\bflops?\b|tflops|petaflop|"
    r"流水线|气泡|微批|micro-?batch|梯度累积|gradient accumulation|蒸馏|distill|\bsft\b|\brlhf\b|"
    r"\bdpo\b|\bgrpo\b|强化学习|学习率|learning rate|tokeniz|分词器|位置编码|\brope\b|"
    # "TP 和 PP 有什么区别": the parallelism degrees' abbreviations, named together
    r"\b(?:tp|pp|dp)\b.{0,24}\b(?:tp|pp|dp|ep)\b|"
    # "为什么TP一般不跨机": one of them placed across or inside machines
    r"\b(?:tp|pp|dp|ep)\b.{0,12}(?:跨机|跨节点|跨服务器|机间|机内|节点内|节点间|单机|多机|"
    r"across (?:nodes|machines|servers)|inter-?node|cross-?node|multi-?node)|"
    r"(?:跨机|跨节点|机间|多机|across nodes|inter-?node|cross-?node).{0,12}\b(?:tp|pp|dp|ep)\b",
    re.ASCII,
)
_HARDWARE = re.compile(
    r"gpu|显卡|显存|算力|cuda|nvidia|英伟达|vram|\bpcie\b|服务器|server|功耗|散热|\btdp\b|"
    r"以太网|ethernet|nvidia-smi|昇腾|ascend|910b|mi300|tensor core|模型|model|参数|\d\s*[张块]?卡|"
    r"卡时|什么卡|哪(?:种|款|张)卡|"  # "预算50万买什么卡": a card to buy
    r"(?:几|多少)\s*[张块台]?\s*(?:卡|显卡)",  # "聊天机器人需要几张卡": cards counted
    re.ASCII,
)
_ELSEWHERE = re.compile(
    # games and frame rates
    r"游戏|玩|帧|光追|fps\b|frame ?rates?|gaming|\bgames?\b|\bplay(?:ing)?\b|ray ?tracing|dlss|"
    r"黑神话|原神|steam|esports|电竞|"
    # game titles and display settings ("best GPU for Cyberpunk 2077 at 4K"); "at 4k" of a
    # context length ("serve at 4k context") is not a display
    r"cyberpunk|elden ring|fortnite|minecraft|call of duty|starfield|\bgta\b|baldur|"
    r"\b(?:1080|1440|2160)p\b|\bat 4k\b(?!\s*(?:context|ctx|tokens?|seq|sequence|prompt))|"
    r"(?:ultra|max|high) settings|"
    # mining and crypto
    r"挖矿|矿机|矿卡|\bmin(?:e|ing|er)\b|crypto|比特币|bitcoin|以太坊|ethereum|\bhashrate|算力币|"
    # drivers, personal computers, repairs
    r"驱动|driver|笔记本|laptop|notebook|硅脂|thermal paste|装机|台式机|desktop|主板|"
    r"motherboard|显示器|超频|overclock|风扇|\bfan\b|"
    # cars, shopping for consumer goods, markets
    r"特斯拉|tesla model|model [3sxy]\b|汽车|\bcars?\b|电动车|股票|股价|\bstocks?\b|"
    r"share price|nvda|"
    # weather, travel and sightseeing ("今天吉林天气怎么样，适合出去玩吗")
    r"天气|气温|下雨|旅游|旅行|景点|出去玩|\bweather\b|\btravel\b|sightseeing|tourist|"
    # creative writing and chit-chat ("帮我写一首关于显卡的诗", "tell me a joke about GPUs")
    r"诗|写(?:一|1)?首|歌词|笑话|讲(?:一|1)?个故事|小说|作文|\bpoems?\b|\bhaiku|\bjokes?\b|"
    r"\blyrics\b|\bshort story\b",
    re.ASCII,
)


#: A document to be written ("帮我写一份…招标公告", "draft an email to my boss"): prose the
#: tool does not write, whatever the document is about, unless a job to compute is named.
_DRAFTING = re.compile(
    r"(?:帮我|请|给我|替我)?(?:写|起草|拟|撰写|草拟)(?:一|1)?(?:份|篇|封|个)[^?？。]{0,30}?"
    r"(?:公告|标书|招标|合同|邮件|报告|申请|方案书|文案|新闻稿|通知|说明书|ppt|总结|讲稿|演讲)|"
    r"\b(?:write|draft|compose)\s+(?:me\s+)?(?:an?|the|our)\s+[^.?!]{0,40}?"
    r"\b(?:email|e-mail|letter|tender|rfp|rfq|contract|press release|proposal|report|memo|"
    r"announcement|blog post|essay|speech|slides?)\b",
    re.ASCII,
)


@dataclass(frozen=True)
class DomainEvidence:
    """What the decision was based on (the matched words), and the decision."""

    intent: tuple[str, ...]
    hardware: tuple[str, ...]
    elsewhere: tuple[str, ...]
    drafting: tuple[str, ...] = ()
    """A document to write, with no model or size named to compute for."""

    @property
    def in_domain(self) -> bool:
        """Large-model intent, or hardware talk with no sign of another domain; never a
        document to write."""
        if self.drafting:
            return False
        return bool(self.intent) or (bool(self.hardware) and not self.elsewhere)


def _words(pattern: re.Pattern[str], text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.group(0) for m in pattern.finditer(text)))


def classify(text: str, *, named_job: bool = False, named_hardware: bool = False) -> DomainEvidence:
    """Weigh the evidence in `text` (cleaned and lower-cased).

    Args:
        text: The question, lower-cased, with catalog names masked (or not).
        named_job: The question names a catalog model, a model size or a site profile.
        named_hardware: The question names a catalog GPU.

    Returns:
        The evidence; `.in_domain` is the decision.
    """
    intent = _words(_INTENT, text) + (("<job>",) if named_job else ())
    hardware = _words(_HARDWARE, text) + (("<gpu>",) if named_hardware else ())
    drafting = () if named_job else _words(_DRAFTING, text)
    return DomainEvidence(
        intent=intent, hardware=hardware, elsewhere=_words(_ELSEWHERE, text), drafting=drafting
    )
