"""The table of asks (`asks.read_asks`): each ask with the wording that asks it, in priority order.

The order of the table is the priority when a question asks for several things, so "1000 tok/s
需要几张A100" asks first for a GPU count and then names a throughput. The patterns read the
normalised, lower-cased text with catalog names masked (``⟨gpu⟩``, ``⟨model⟩``).
"""

from __future__ import annotations

import re

from assistant.records import Ask

__all__ = ["ASKS", "KV_PER_TOKEN", "PER_TOKEN_PRICE", "SCALING_QUESTION", "asks_about_scaling"]

# "how many GPU-hours" asks for hours, not a count of GPUs
_G = (
    r"(?:⟨gpu⟩(?!\s*[- ]?\s*h(?:ou)?rs?)|gpus?(?![- ]?h(?:ou)?rs?)|cards?|nodes?|servers?|"
    r"accelerators?|machines?)"
)
#: The verb and the count of a "how many at once" question ("扛得住多少人", "跑几路请求").
_SERVE = r"(?:支持|扛|扛住|承载|跑|服务|处理|接入|容纳|供|给|带)?(?:得了|得住|得下|得)?"
_HOW_MANY = r"(?:(?:多少|几)(?:个|位|名)?(?:并发|用户|请求|序列|会话|人)|(?:多少|几)路)"
_LOAD_NOUN = r"(?:users|requests|sequences|sessions|conversations|chats|streams|people|clients)\b"
#: A context length between "how many" and its noun: "how many 32k-context sessions",
#: "how many 8k-token sessions".
_AT_CONTEXT = r"(?:\d+(?:\.\d+)?\s?k?[- ](?:tokens?|context|ctx)(?:[- ](?:context|ctx))?\s+)?"
#: "每个token的KV cache多大", "KV cache per token": the size of one token's cache.
#: How long the gradient sync takes ("梯度all-reduce每步多少秒", "梯度同步时间", "all-reduce time
#: per step", "how long does one gradient all-reduce take"; "one" may read as "1" by then):
#: the sync's time per step, never the run's (`asks.asks_sync_time`).
SYNC_TIME = (
    r"(?:all-?reduce|梯度同步|梯度通信|gradient sync)[^。？?.]{0,12}?"
    r"(?:(?:多少|几)\s*(?:秒|毫秒|ms)|多久|多长时间|耗时)|(?:all-?reduce|梯度同步|梯度通信)的?时间|"
    r"(?:all-?reduce|gradient sync)\s+(?:time|takes?|latency)|"
    r"how long (?:does|will|would) (?:the |a |one |1 )?(?:gradient )?(?:all-?reduce|sync)"
)

KV_PER_TOKEN = (
    r"(?:kv ?cache|kv ?缓存|键值缓存)\s*(?:的)?\s*(?:size\s*)?(?:per|/|每个?|单个?)\s*token|"
    r"(?:per[- ]token|每个?\s*token|单个\s*token)\s*(?:的)?\s*"
    r"(?:kv ?cache|kv ?缓存|键值缓存)"
)
#: "cost per 1M output tokens", "$ per million tokens", "每百万token多少钱": the price of the
#: tokens asked, not the rent of the hour (calculate.lead leads with it).
PER_TOKEN_PRICE = (
    r"(?:cost|price|\$|usd|dollars?)\s*(?:per|/|for)\s*(?:1\s?m\b|one million|a million|million|"
    r"1k\b|a thousand|thousand|token)|每\s*(?:百万|1m|一百万|千)\s*(?:个)?\s*token\s*(?:的)?\s*"
    r"(?:多少钱|成本|价格|费用)"
)
#: "How badly does the network hurt scaling", "what scaling efficiency do we get on 25GbE",
#: "网络对扩展效率影响多大", "扩展效率能到多少", "网络会拖慢多少": how much the traffic between the
#: nodes costs, a quantity (the scaling efficiency), not a yes/no (calculate.bottleneck).
_NET = (
    r"(?:network|interconnect|communication|comms|bandwidth|fabric|ethernet|infiniband|\bib\b|"
    r"roce|all-?reduce|\d+\s*(?:gbe|gbps|gb/s|gbit|g)\b)"
)
SCALING_QUESTION = re.compile(
    # "what scaling efficiency do we get", "what's the scaling efficiency on 25GbE" (not "what
    # is scaling efficiency": a definition)
    r"(?:what|which|how much|estimate|calculate)\s+(?!(?:is|are)\s+scaling)(?:\w+\s+){0,2}?"
    r"scaling efficiency|what's the scaling efficiency|"
    r"scaling efficiency\s+(?:do|does|will|would|can|could|is|are|should)\b|"
    r"how (?:well|efficiently|linearly) (?:does|do|will|would|can|could)\b[^?.!]{0,60}?\bscale|"
    r"how (?:badly|much) (?:does|do|will|would|could|can|is) (?:the |our |a |this |plain )?"
    + _NET
    + r"[^?.!]{0,40}?(?:hurt|slow|affect|limit|impact|cost|drag|reduce|degrade|penali[sz])|"
    r"how (?:badly|much)\b[^?.!]{0,60}?(?:hurt|affect|limit|impact|drag|reduce|degrade)\w*\s+"
    r"(?:the\s+|our\s+)?scaling|"
    r"(?:lose|lost|losing|overhead)\s+(?:to|from|on|of)\s+(?:the\s+)?" + _NET + r"|"
    r"(?:扩展效率|扩展性|线性度|加速比|并行效率)[^。？?]{0,10}?(?:多少|多大|几|怎么样|如何|怎样|能到|有多|影响)|"
    r"(?:网络|通信|带宽|互联|网卡|万兆|千兆|以太网|\bib\b|infiniband|roce|\d+\s*g(?:be)?\b)[^。？?]{0,16}?"
    r"(?:拖慢|影响|损失|降低|拖累)[^。？?]{0,10}?(?:多少|多大|几成|几倍|多严重|多少效率)"
)


def asks_about_scaling(text: str) -> bool:
    """True when the question asks how much the network costs the scaling (a quantity), not
    whether it is the bottleneck (a yes/no).

    Examples:
        >>> asks_about_scaling("how badly does the network hurt scaling?")
        True
        >>> asks_about_scaling("网络对扩展效率影响多大"), asks_about_scaling("网络会成为瓶颈吗")
        (True, False)
    """
    return bool(SCALING_QUESTION.search(text))


ASKS: tuple[tuple[Ask, str], ...] = (
    (
        # "what TP degree should I use", "how should I split 70B across 8 L40S", "TP设多少合适",
        # "怎么切分", "并行策略怎么定": the split to use, not a count or a choice between cards
        "layout",
        r"what (?:tp|pp|tensor[- ]parallel(?:ism)?|pipeline[- ]parallel(?:ism)?|parallelism|"
        r"parallel(?:ism)? (?:strategy|layout|setup|set-up|config\w*)|split|sharding)\s*"
        r"(?:degree|size|setting|strategy|layout|config\w*)?\s*"
        r"(?:should|do|would|to|is best|works best)\b|"
        r"how (?:should|do|would|can) (?:i|we) (?:split|shard|partition|lay out|parallel\w*|"
        r"distribute)\b|which (?:parallelism|split|parallel (?:strategy|layout))|"
        r"how much tensor parallelism|"
        r"(?:tp|pp|张量并行|流水线并行|并行度|切分)\s*(?:应该|该)?\s*(?:设|设置|设成|用|选|取|开)\s*"
        r"(?:多少|几|多大)|(?:怎么|如何|怎样)\s*(?:切分|切|做并行|并行|分配到)|并行策略|并行方案|"
        r"切分方案",
    ),
    (
        "compare",
        r"\bvs\.?(?![a-z])|versus|对比|比较一下|比一比|哪个|哪一个|哪种|哪套|哪一套|"
        # "H100和A100训练7B，速度差多少", "H100比A100快多少": two cards and how far apart
        r"⟨gpu⟩.{0,40}⟨gpu⟩.{0,60}(?:差(?:多少|几倍|多大)|快多少|慢多少|快几倍|慢几倍|差距)|"
        # "A100 40GB和A100 80GB训练13B有啥区别": two cards for one job (no job: a concept)
        r"⟨gpu⟩[^。？?]{0,40}⟨gpu⟩[^。？?]{0,30}(?:训练|微调|推理|部署|跑|预训练)[^。？?]{0,40}"
        r"(?:区别|差别|差异|不同)|"
        r"which (?:one|is|of|setup|option|would|gives|wins|costs)|compare|comparison|"
        r"which (?:trains|serves|runs|finishes|fits|handles|does|should|has|delivers|offers|"
        r"needs|uses|draws|gets|performs)\b|"
        r"谁(?:的|更|快|慢|便宜|贵|强|好|省|高|低|大|多|少)|哪家|"
        # choosing without a comparative ("怎么选", "should I get …"), or two cards set side by
        # side with "or" / "还是" ("A100 or H100 for LoRA on 13B?", "用A100还是H100")
        r"怎么选|如何选|选哪|该选|选谁|"
        r"should i (?:get|buy|rent|pick|choose|use|go with)|(?:choose|pick|decide) between|"
        r"better (?:choice|option|pick)|which to (?:pick|choose|buy|rent|use)|"
        # (a decimal point is no sentence end: "H100 at $2.5/h or A100 at $1.3/h")
        r"⟨gpu⟩(?:[^.?!。？]|(?<=\d)\.(?=\d)){0,30}?(?:\bor\b|还是)"
        r"(?:[^.?!。？]|(?<=\d)\.(?=\d)){0,20}?⟨gpu⟩|"
        r"(?:和|跟|与)\s*(?:\d+\s*[张块台]\s*)?⟨gpu⟩\s*(?:比|相比)|"  # "A100跟H100比怎么样"
        # "8卡A100、8卡H100、8卡910B，分别要多久", "on A100, H100 and H200 respectively"
        r"⟨gpu⟩[^。？?]{0,40}⟨gpu⟩[^。？?]{0,40}(?:分别|各自|各要|各需|respectively)|"
        # "8张H20和8张910B跑…", "on 8x H20 and 8x 910B": two set-ups, each with its own count
        # (a mixed cluster is not modelled; answering for one would drop the other unsaid)
        r"\d+\s*(?:张|块|x|×)?\s*⟨gpu⟩\s*(?:和|与|跟|以及|\band\b|、)\s*\d+\s*(?:张|块|x|×)?\s*⟨gpu⟩",
    ),
    (
        "max_model",
        r"最大(?:能|可以)?(?:训练?|微调|跑|部署|推理|放|装|支持)?(?:多大|多少参数|什么规模)|"
        r"(?:能|可以)(?:训练?|微调|跑|部署|推理|放下|装下)多大|多大的模型|最大的模型|"
        # "一个月内能全参预训练的最大模型多大", "能部署的最大模型是多少参数"
        r"(?:训练?|微调|跑|部署|推理|放下|装下)的最大模型|最大模型(?:有|是|能有)?(?:多大|多少)|"
        # "largest dense model", "biggest decoder-only LLM", "largest open-weight LLM"
        r"(?:largest|biggest)(?:\s+[a-z0-9][\w-]*){0,2}?\s+(?:model|llm)s?\b|"
        r"how (?:big|large) (?:a |of a )?(?:[a-z][a-z-]*\s+)?model|"
        r"max(?:imum)? model size|"
        # "what size model could we pretrain", "what model size can it serve", "多大规模的模型"
        r"what (?:size (?:of )?model|model size)s?\b[^?.。]{0,20}?"
        r"\b(?:can|could|would|will|fits?)\b|"
        r"(?:能|可以)(?:训练?|微调|跑|部署|推理)?多大规模的模型|"
        # "我有一张4090，能跑什么模型", "what models can I run on a 3090": the largest that fits
        r"(?:能|可以)(?:跑|部署|推理|训练?|微调|运行)(?:些|得动)?(?:什么|哪些|啥)(?:样的)?(?:大)?模型|"
        r"(?:what|which)\s+(?:models?|llms?)\s+(?:can|could|will)\s+(?:i|we|it|they)\s+"
        r"(?:run|serve|host|fit|train|fine-?tune)\b",
    ),
    (
        # "what MFU am I getting", "estimate MFU", "MFU是多少", "算力利用率有多少"
        "mfu",
        r"(?:what|which|estimate|calculate|compute|my|the)\s+(?:is\s+|'s\s+)?(?:the\s+)?mfu\b|"
        r"mfu\s*(?:是|有|能到|大概|约|算)?\s*(?:多少|几)|(?:算力)?利用率\s*(?:是|有|能到|大概)?\s*(?:多少|几)|"
        r"mfu (?:am i|are we|do i|do we|is that|would that be)",
    ),
    (
        # "bubble占多少", "how big is the pipeline bubble", "what fraction is bubble"
        "bubble",
        r"(?:bubble|气泡)\s*(?:的)?\s*(?:ratio|fraction|overhead|share|占比|比例|开销|率)?\s*"
        r"(?:是|有|会|能|大概|约|占|占了)?\s*(?:多少|多大|几|百分之几)|"
        r"how (?:big|large|much)(?: is| will| would)?(?: the)? (?:pipeline )?bubble|"
        r"(?:what|which)(?: is|'s)?(?: the)? (?:pipeline )?bubble\b(?! is\b)|"
        r"bubble (?:fraction|ratio|overhead|share)|"
        r"what (?:fraction|share|percent(?:age)?|part)\b[^?.。]{0,40}?\bbubble",
    ),
    (
        # "what batch size can I fit", "最大batch size能开多少": a training run's micro-batch per
        # GPU (`calculate.micro_batch`); of a deployment, its sequences in flight (`main_ask`)
        "max_micro_batch",
        r"(?:what|which|how (?:big|large)(?: of)?(?: an?)?)\s+(?:(?:micro|per[- ]gpu)[- ]?)?"
        r"batch(?:[- ]?size)?\s+(?:can|could|will|would|do|does|fits?)\b|"
        r"\bmax(?:imum)?\s+(?:(?:micro|per[- ]gpu)[- ]?)?batch(?:[- ]?size)?|"
        r"\b(?:largest|biggest)\s+(?:(?:micro|per[- ]gpu)[- ]?)?batch(?:[- ]?size)?|"
        r"(?:最大|最多)(?:的)?\s*(?:micro[- ]?)?(?:batch(?:[ _-]?size)?|批大小|批量|微批)|"
        r"(?:micro[- ]?)?(?:batch(?:[ _-]?size)?|批大小|微批)\s*(?:最大|最多)?\s*(?:能|可以)?\s*"
        r"(?:开|设|用|跑|调)?(?:到)?\s*(?:多少|多大|几)|"
        r"(?:最多|最大)\s*(?:能|可以)?\s*(?:开|设|用|跑|放)?(?:到)?\s*(?:多少|多大|几)\s*(?:个|条)?\s*"
        r"(?:的)?\s*(?:micro[- ]?)?(?:batch|批|微批)",
    ),
    (
        "max_concurrency",
        r"最多(?:能|可以)?(?:支持|扛|承载|跑|服务)?(?:多少|几)(?:个|路)?(?:并发|用户|请求|序列)|"
        r"最大并发|(?:能|可以)(?:支持|扛|承载|服务)多少(?:个|路)?(?:并发|用户|请求)|多少并发|"
        r"(?:能|可以)\s*(?:同时)?\s*(?:跑|开|支持|撑|扛|带)\s*(?:几|多少)\s*路|"
        # "32k上下文能开几个并发", "能支持几个并发用户"
        r"(?:能|可以)\s*(?:同时)?\s*(?:跑|开|支持|撑|扛|带)\s*(?:几|多少)\s*个?\s*并发|"
        r"最多(?:能|可以)?并发(?:多少|几)|并发(?:数|量)?最多(?:能|可以)?(?:多少|几|是多少)|"
        # "8k上下文能并发几个", "可以并发多少路", "并发能到多少": the count at once, no "最多"
        r"(?:能|可以|可)\s*(?:开|跑|支持)?\s*并发\s*(?:几|多少)|"
        r"并发(?:数|量)?\s*(?:能|可以)\s*(?:到|达到|开到|做到)?\s*(?:几|多少)|"
        # ("how many 32k concurrent sequences": a length before, read as "32k context")
        r"how many (?:\d+(?:\.\d+)?\s*k\s+context\s+)?"
        r"(?:concurrent|simultaneous|parallel)\b[^?.。]{0,24}?"
        r"\b(?:users|requests|sequences|sessions|conversations|chats|streams)|"
        # "能同时服务多少路", "最多能同时跑几路请求", "最多同时服务几个人", "能扛多少人同时用":
        # how many at once, in any order of "同时", the verb and the count (not "每秒…多少请求")
        r"(?<!每秒)(?:最多|最大|能|可以|可)(?:能|可以)?同时(?:能|可以)?" + _SERVE + _HOW_MANY + r"|"
        r"同时(?:能|可以)?(?:服务|支持|承载|处理|跑|接入)多少(?:个|路|人)?|"
        r"同时(?:能|可以)?" + _SERVE + _HOW_MANY + r"|"
        r"(?:多少|几)(?:个|位|名)?(?:人|用户|请求|会话)\s*同时|"
        # "单卡H200能放下几个请求", "能装下多少路": the sequences whose KV cache fits
        r"(?:放|装|容纳|塞)(?:得)?(?:下)?(?:几|多少)(?:个|路|条)?(?:请求|序列|并发|会话)|"
        # "200k上下文，单卡H200能放下几条？": sequences of the context named, counted by 条/路
        r"(?:放|装|容纳|塞)得?下\s*(?:几|多少)\s*(?:条|路)|"
        # "同时在线最多多少人", "并发上限是多少"
        r"同时在线\s*的?\s*(?:最多|最大)?(?:能|可以)?(?:有|支持)?" + _HOW_MANY + r"|"
        r"并发(?:数|量|用户数?)?\s*的?\s*(?:上限|最大值|极限)|"
        r"max(?:imum)? (?:number of )?(?:concurren|simultaneous|parallel)|"
        r"max(?:imum)? (?:number of )?(?:users|requests|sequences|people|sessions)\b"
        r"(?!\s*(?:per|a|an|each|every)\s)|"
        # "how many users at once can it handle", "how many people can it serve" (a rate per
        # second is a throughput: "how many requests per second can it handle"); "and how many
        # 32k-context sessions?" counts the sequences that fit at the context it names
        r"how many (?:active |online )?"
        + _AT_CONTEXT
        + _LOAD_NOUN
        + r"(?!\s*(?:per|a|an|each|every)\s)"
        r"[^?.。]{0,30}?(?:at once|at the same time|simultaneously|concurrently|in parallel|"
        r"\bcan\b|\bcould\b|\bwill\b|\bfit\b|\?|$)|"
        # "every request up to 16k tokens: how many can run at once?": the requests named before
        r"how many (?:of them |of those )?(?:can|could|will) (?:run|be served|be in flight|fit|"
        r"go|be handled)\s+(?:at once|at the same time|simultaneously|concurrently|in parallel)",
    ),
    (
        "max_context",
        r"max(?:imum)? (?:context|ctx)(?: length| window| len)?|longest (?:context|ctx)|"
        r"how (?:long|much|many tokens of) (?:a |of a )?context|"
        # "how long can the context be", "what context length can it handle", "how many
        # tokens of context fit", "the context limit"
        r"how long (?:can|could|will|would) (?:the |its |my |a )?context|"
        r"(?:what|which) (?:context|sequence) (?:length|window|size)s? (?:can|could|will|would|"
        r"does|do|fits?|is (?:possible|supported))|how many tokens? (?:of|in) (?:the )?context|"
        r"context (?:length |window )?(?:limit|ceiling)|"
        r"最长(?:的)?上下文|最大上下文(?!\s*(?:下|时))|上下文(?:最长|最大)(?!\s*(?:batch|并发|批))|"
        # any verb of holding before "多长/多少 … 上下文": "能撑多长的上下文", "能开到多长的上下文",
        # "最长能处理多长的上下文", "吃得下多少上下文" (a stated length "32k上下文" is no ask)
        r"(?:支持|跑|开|放|撑|扛|处理|容纳|装|吃|承载|hold)(?:得了|得下|得住|下)?(?:到)?"
        r"多(?:长|少|大)(?:的)?\s*(?:token\s*的?)?上下文|"
        # "上下文最多能开多少", "上下文能开多长", "上下文长度能到多少", "上下文长度上限是多少"
        # (not "32k上下文最多能开多少并发": a count of sequences at a stated context)
        r"(?<![\dk])(?<![\dk] )上下文(?:长度|窗口)?\s*(?:最多|最长|最大)?\s*(?:能|可以|可)?"
        r"(?:开|支持|撑|跑|放|处理|容纳|达到|到)?(?:得了|得下|得住)?(?:到)?"
        r"(?:多少|多长|多大|几)(?!\s*(?:个|路)?\s*(?:并发|batch|批|用户|请求|序列|人|钱|显存|tok))|"
        r"(?<![\dk])(?<![\dk] )上下文(?:长度|窗口)?\s*(?:的)?\s*(?:上限|极限|最大值)",
    ),
    (
        # "how many tokens can 64 H100 pretrain a 7B on" (with a budget or a deadline)
        "tokens",
        r"多少\s*(?:个\s*)?tokens?|how many (?:training )?tokens",
    ),
    (
        # "how many H100 GPU-hours", "需要多少卡时", "多少GPU小时": the rent's quantity, not a
        # count of GPUs; "how many GPU-hours does $30k buy" is the budget's (calculate.money)
        "gpu_hours",
        r"(?:how many|number of|total) (?:⟨gpu⟩ )?(?:gpu|card|accelerator|⟨gpu⟩ ?)[- ]?h(?:ou)?rs?"
        r"(?![^.?!]{0,30}\bbuy)|多少(?:个)?\s*(?:⟨gpu⟩\s*)?(?:gpu|卡|显卡)\s*(?:小时|时)|"
        # "GPU-hours to pretrain a 7B model on 2T tokens?": the noun leads the question
        r"(?:^\s*|[.?!:;]\s*)(?:(?:rough(?:ly)?|approx\w*|estimated?|total|ballpark|about|~)\s*)?"
        r"(?:⟨gpu⟩ ?(?:gpu|card)?|gpu|card)[- ]?h(?:ou)?rs?\s+(?:(?:needed|required)\s+)?"
        r"(?:to|for)\s+(?:(?:a|an|the|one|our|my)\s+)?(?:full\s+|lora\s+|qlora\s+)?"
        r"(?:pre-?train|train|fine-?tune|finetune|finish|run|q?lora)\w*\b|"
        # "gpu-hours for a llama3 70b style model, 15T tokens?", "what are the GPU-hours for a
        # 70B on 2T": the noun opens the question and names what it is for, with no verb
        r"(?:^\s*|[.?!:;]\s*)(?:(?:what(?:'s| is| are| would be)|estimate|rough(?:ly)?|approx\w*|"
        r"total|ballpark|about|~)\s+)*(?:the\s+)?(?:total\s+)?(?:⟨gpu⟩ ?(?:gpu|card)?|gpu|card)"
        r"[- ]?h(?:ou)?rs?\s+(?:for|of)\s+(?:a|an|the|one|our|my|this|that)\b|"
        # "…using 2048 H800s at 35% MFU: GPU-hours?", "卡时多少？": the noun is the question
        r"(?:^\s*|[.?!:;,，：；。]\s*)(?:⟨gpu⟩ ?|gpu|card)[- ]?h(?:ou)?rs?\s*(?:needed|required)?"
        r"\s*[?？]|(?:卡时|gpu\s*小时)\s*(?:是|要|需要|大概|大约|一共|总共)?\s*(?:多少|几何)",
    ),
    (
        "gpu_count",
        # "多少个" counts cards, not "同时处理多少个请求" (requests, users, sequences, time)
        r"多少(?:张|块|台|片)|多少个(?!\s*(?:请求|并发|用户|人|序列|样本|token|参数|月|小时|天|星期|周|"
        r"epoch|batch|词元|字))|几张|几块|几台|几个节点|几卡|多少(?:卡|gpu|显卡|节点)|"
        r"how many " + _G + r"|number of (?:gpus|cards|nodes)|how many (?:of them|do i need)|"
        # "how many would I need?", "how many will we need", "how many are needed": the count
        # of the card the thread (or the question) names
        r"how many (?:(?:would|will|should|shall|must|do|does|did|might) (?:i|we|you|it|they) "
        r"(?:need|want|require|take)|(?:are|would be|will be|is) (?:needed|required|enough))\b|"
        # "the minimum number of A100 40GB", "fewest H100s", "what TP degree do I need": a count
        r"(?:minimum|min\.?|fewest|smallest|least)\s+(?:number|count|amount)\s+of\s+|"
        r"(?:the\s+)?fewest\s+" + _G + r"|"
        # "1.5k users on llama 3.1 8b, what hardware do we need?": how many of which card
        r"what (?:hardware|gpus?|cards?) (?:do|would|will|should) (?:i|we) need\b|"
        # "… 200 concurrent users on L4s. How many?": the bare question after a named card
        r"⟨gpu⟩[^?？]*[.。,，;；]\s*how many\s*[?？]|"
        r"^\s*how many\s*[?？]?\s*$",
    ),
    (
        "duration",
        r"多久|多长时间|几天|几个月|几周|几个小时|多少天|多少小时|训完|跑完|耗时多少|要花多少时间|"
        r"how long|how many (?:days|weeks|months|hours)|"
        # "time to pretrain", "Days to train a 70B model?", "weeks needed to fine-tune it"
        # (not "30 days to finish": a deadline; not "GPU-hours to train": GPU-hours)
        r"(?:time|(?<!\d\s)(?<!\d)(?<!-)(?<!gpu )(?<!card )\b(?:days|weeks|months|hours)"
        r"(?:\s+(?:needed|required))?)\s+to\s+"
        r"(?:pre-?train|train|fine-?tune|finish|complete)\b|"
        # "wall-clock estimate?", "what's the training time", "ETA?"
        r"wall[- ]?clock|(?:training|run|total) time\b(?!\s*(?:per|of each))|\beta\b|"
        # "…pretrain a 70B on 2T tokens: days?": the unit alone is the question
        r"(?:^\s*|[.?!:;,，：；]\s*)(?:days|weeks|months|hours)\s*[?？]",
    ),
    (
        "kv_per_token",
        KV_PER_TOKEN,
    ),
    (
        # "how much memory for activations", "激活值占多少显存": one part of training memory
        "activations",
        r"activations?\s*(?:memory|take|need|size|occupy|use|cost)|"
        r"(?:memory|vram)\s*(?:for|of|do|does|will)\s*(?:the\s*)?activations|"
        r"how (?:much|big|large)[^?.。]{0,30}?activations|"
        r"激活(?:值)?\s*(?:的)?\s*(?:显存|内存|占用|占多少|占了?多少|多大|要多少|需要多少|有多少)",
    ),
    (
        "kv_cache",
        r"kv ?cache|kv ?缓存|键值缓存|"
        # "does the KV even fit? how big is it per seq?": the KV named, then its size asked
        r"\bkv\b[^.?!]{0,30}\b(?:fit|size|how big|footprint)|"
        r"how (?:big|large) is (?:it|that|the kv) per (?:seq|sequence|request|user)\b",
    ),
    (
        "weights",
        # "权重多大", "量化后权重大概多大", "权重一共有多少GB"
        r"权重(?:文件)?\s*(?:大概|大约|约|一共|总共|会|要|需要|就要|得)?\s*(?:有|占|是)?\s*(?:多大|多少)|"
        r"模型文件(?:有)?多大|"
        r"量化(?:后|之后|完)(?:的)?(?:模型|权重)?(?:有|占|是)?(?:多大|多少g)|"
        r"(?:weights?|checkpoint) (?:size|take|need|occupy|be)|"
        # "how big are the weights", "how big are Llama-3-70B's weights at 4-bit"
        r"how (?:big|large) (?:are|is|would)\b[^?.。]{0,40}?\bweights|weight size|"
        # "bf16 weights, how many GB?", "how many GB are the weights", "the size of the weights"
        r"\bweights?\b[,:]?\s*(?:in\s+\w+\s*)?,?\s*how (?:many (?:gb|gib|bytes)|big|large|much)|"
        r"how many (?:gb|gib|bytes)\b[^?.。]{0,30}?\bweights|size of (?:the |its )?weights",
    ),
    (
        "memory",
        r"多少显存|多大显存|显存(?:占用|需求|要求|需要|要多少|够|够不够|放得下|装得下)|"
        r"(?:推理|训练|微调|部署)\s*(?:的)?\s*显存\s*[?？]?\s*$|"  # "…fp32 推理 显存"
        r"内存(?:需要|要多少)|how much (?:gpu |v)?(?:memory|vram)|"
        r"memory (?:requirement|needed|usage)|"
        r"vram (?:needed|requirement)|(?:fit|fits) in (?:gpu )?(?:memory|vram)|"
        # "does memory fit", "is there enough GPU memory": 显存够吗 in English
        r"(?:does|will|would) (?:the )?(?:gpu )?(?:memory|vram) (?:fit|suffice|be enough)|"
        r"enough (?:gpu )?(?:memory|vram)|"
        # "how much would it save", "能省多少": memory saved (assistant/calculate/zero_saving.py)
        r"\bhow much (?:(?:gpu )?(?:memory|vram) )?(?:would|does|will|can|could|do)\b"
        r"[^?.!]{0,40}?\bsave\b|省(?:下|了)?(?:多少|几)(?!\s*(?:钱|元|块|电|时间|小时|天))|多省",
    ),
    (
        "energy_cost",
        r"电费|电价.{0,12}(?:多少|花|钱)|electricity (?:cost|bill)|energy (?:cost|bill)|"
        r"power bill|cost of (?:the )?(?:electricity|power|energy)",
    ),
    (
        "cost",
        # "what's the bill" (with a price per kWh it is the electricity's: `_refine_asks`)
        # "租金多少", "租金是多少" (not "租金每卡时15元": a price stated)
        r"多少钱|花多少|花费|成本|费用|预算够|租金\s*(?:一共|总共|大概|大约)?\s*(?:是|要)?\s*多少|"
        r"\bcost|how much money|price tag|how expensive|"
        r"\bbill\b|how much (?:will|would|does) it (?:cost|run)|spend|"
        # "how much to pretrain a 1b model on 100B tokens on A10s at $0.75/hr": money (never
        # "how much memory to …", whose noun is the quantity)
        r"how much (?:to|for) (?:pre-?train|train|fine-?tune|finetune|serve|rent|run|host)\w*\b|"
        # "what do we pay?", "how much would I pay" (not "pay-as-you-go" or "pay for itself")
        r"(?:what|how much) (?:do|would|will|did|should|shall) (?:we|i|you) (?:end up )?pay\b|"
        # "what's the rent of 2 H100 nodes for a week": the noun, not "I rent H100 at $2/h"
        r"\b(?:the|total|monthly|weekly|hourly) rent(?:al)?\b(?!\s+(?:price|rate))|"
        # "$ per 1M tokens", "元/百万token": a price per token asked
        r"(?:\$|¥|￥|usd|dollars?|元)\s*(?:per|/)\s*(?:1\s?m\b|one million|million|1k\b|token)",
    ),
    (
        "power",
        r"功耗|功率|耗电|用电|多少电|多少瓦|多少度|power (?:draw|consumption|usage|need)|"
        # "电源要多大", "配多大的UPS", "what size PSU": the draw a supply is sized for
        r"多大的?\s*(?:ups|电源|psu)|(?:ups|电源|psu)\s*(?:要|需要|得)?\s*(?:配|选)?\s*多大|"
        r"what (?:size|rating) (?:of )?(?:ups|psu|power supply)|how (?:big|large) (?:a|an) "
        r"(?:ups|psu|power supply)|"
        r"how much (?:power|energy|electricity)|how many (?:watts|kw)|energy (?:use|consumption)|"
        r"\bwatts?\b|"
        r"energy per (?:token|1\s?m\b|million|request)|"
        r"(?:kwh|joules?) per (?:token|1\s?m\b|million)|"
        r"每\s*(?:百万|千|个)?\s*token\s*(?:的)?\s*(?:能耗|耗电|用电)|"
        r"^(?:and|what about|how about) (?:the )?(?:power|energy)\s*\??$",  # "and the power?"
    ),
    (
        # "how many requests per second can 8 H100 handle", "最多能扛多少QPS": the most requests
        # a second the deployment serves (a stated "QPS 10" is a target: `_refine_asks`)
        "request_rate",
        r"(?:how many|max(?:imum)?|most|peak)\s+(?:requests?|queries|reqs?)\s*"
        r"(?:per second|/\s*s\b|a second|per sec)|"
        r"(?:how many|max(?:imum)?|peak|what)\s+(?:qps|rps|req/s)\b|"
        r"(?:最多|最大|最高|能)\s*(?:能)?\s*(?:扛|支持|撑|承受|处理|跑|扛住|达到|到)?\s*(?:多少|几)\s*(?:个)?\s*"
        r"(?:qps|请求)|每秒(?:最多|能)?\s*(?:处理|扛|支持|承受|接)?\s*(?:多少|几)\s*个?\s*请求|"
        r"(?:多少|几)\s*qps|qps\s*(?:能)?(?:有|到|达到)?\s*(?:多少|几|多高)|"
        r"\bqps\b[^.?!]{0,12}\b(?:can (?:it|they|we) (?:handle|sustain|serve))",
    ),
    (
        # "一天能处理多少token", "how many tokens per day can it generate": the deployment's
        # volume over a day or an hour at capacity (a stated "每天生成1亿token" is a load:
        # `parse.token_volume`)
        "token_volume",
        r"(?:[1一]天|每天|每日|[1一]小时|每小时|[1一]个小时)[^，。,.?？]{0,12}(?:多少|几)\s*(?:个\s*)?token|"
        r"(?:多少|几)\s*(?:个\s*)?tokens?[^，。,.?？]{0,6}(?:[1一]天|每天|每日|[1一]小时|每小时)|"
        r"how many (?:output |generated )?tokens?\b[^?.。]{0,48}?\b(?:per|a|each|an|every) "
        r"(?:day|hour)\b|"
        r"how many (?:output |generated )?tokens?(?: daily| hourly|\s*/\s*(?:day|hr|h|hour)\b)|"
        r"tokens? (?:per|a) (?:day|hour) (?:can|could|would|does|do|will)\b",
    ),
    (
        "throughput",
        r"tok(?:en)?s?/s|tokens? per second|吞吐|throughput|\bqps\b|每秒.{0,6}(?:token|请求)|"
        # "每秒大概能出多少字", "一秒钟能生成几个字": characters read as tokens (`char_speed`)
        r"(?:每秒|一秒钟?)[^，。,.?？]{0,8}(?:多少|几)\s*个?\s*汉?字(?!节)|"
        r"(?:推理|生成|输出|跑)(?:能|的)?(?:速度)?(?:有)?多快|速度(?:有|能)?多快|"
        r"(?:decode|decoding|generation|output) (?:speed|rate)|(?:解码|生成|输出)速度(?:是)?多少|"
        r"requests? per second|\breq(?:uest)?s?/s(?:ec)?\b|\brps\b",
    ),
    (
        # "what's the TTFT for a 32k prompt": the latency of the prefill (a target "TTFT < 1s"
        # beside a load is the serving target's, answered by calculate.targets)
        "first_token",
        r"\bttft\b|time to (?:the )?first token|first[- ]token (?:latency|time)|"
        # "how fast is the first token?", "how long until the first token", "首token多快"
        r"how (?:fast|quick(?:ly)?|soon|long)\b[^?.。]{0,24}?\bfirst token|"
        r"首\s*(?:个\s*)?token\s*(?:延迟|时间|要多久|多快|多久)|首字(?:延迟|时间|多快|多久)",
    ),
    (
        # "TPOT", "inter-token latency", "每个token的延迟": one stream's time per output token
        "token_latency",
        r"\btpot\b|\bitl\b|time per output token|inter-?token latency|per[- ]token latency|"
        r"latency per (?:output )?token|decode latency|"
        # "每token多少毫秒", "decode每个token几ms": the same time asked in a unit
        r"每个?\s*(?:输出\s*)?token\s*(?:的)?\s*(?:延迟|耗时|时间|要多久|"
        r"(?:要|需要|大概|大约)?\s*(?:多少|几)\s*(?:毫秒|ms|秒))|出字(?:延迟|间隔)|"
        r"token\s*间隔|生成延迟|解码延迟",
    ),
    (
        # "通信会成为瓶颈吗", "会不会卡在网络上", "is 25GbE enough", "will IB 200G be the
        # bottleneck": whether the traffic between the GPUs slows the step (calculate.bottleneck)
        "network",
        r"(?:网络|通信|带宽|互联|网卡|万兆|千兆|\bib\b|infiniband|roce|以太网)[^。？?]{0,12}"
        r"(?:瓶颈|拖后腿|卡脖子|跟得上|跟不上|够不够|够用|够吗|成问题)|"
        r"卡在(?:网络|通信|带宽|互联)|(?:网络|通信)(?:开销|占比|时间)(?:有)?多(?:大|少|久)|"
        # the gradient sync's time per step, which the network check computes
        + SYNC_TIME
        + r"|"
        r"(?:network|communication|comms?|interconnect|bandwidth|fabric|ethernet|infiniband|"
        r"\bib\b|roce|\d+\s*(?:gbe|gbps|gb/s|gbit)\b)[^.?!]{0,30}?(?:bottleneck|enough|"
        r"suffice|sufficient|hold (?:us|it|me) back|slow (?:it|us|things) down)|"
        r"bottleneck(?:ed)? (?:by|on) (?:the )?(?:network|communication|interconnect|bandwidth)|"
        r"network[- ]bound|communication[- ]bound|" + SCALING_QUESTION.pattern,
    ),
    (
        "feasibility",
        r"能(?:否|不能)?.{0,40}[吗么嘛]|可以.{0,40}[吗么嘛]|可否|是否|行不行|够不够|够吗|"
        r"^(?:can|could|is|are|will|would|does|do)\b|\bfeasible|\bpossible|\benough\b|"
        r"\bwill it (?:fit|work|run)|\bfit\b",
    ),
    (
        "concept",
        r"是什么|什么是|什么叫|解释|原理|区别|为什么|what is|what's|what are|explain|"
        r"difference between|how does|why ",
    ),
)
