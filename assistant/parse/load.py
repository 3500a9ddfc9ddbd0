"""Serving load, targets, money and host memory stated in a question.

Readers take the normalised text (numbers as digits, catalog names masked) and return a value
or None; prices keep their sign so that a negative one is refused, never dropped.

Examples:
    >>> read_concurrency("20 个并发"), read_concurrency("8个并发用户")
    (20, 8)
    >>> read_concurrency("20 concurrent users"), read_concurrency("serving it to 32 users")
    (20, 32)
    >>> read_concurrency("8 users at 16k ctx"), read_concurrency("1000 users per day, qps 5")
    (8, None)
    >>> read_concurrency("并发量在50左右"), read_concurrency("concurrency around 50")
    (50, 50)
    >>> read_concurrency("at 32k context, 50 users?"), read_concurrency("32k上下文、50个用户")
    (50, 50)
    >>> read_concurrency("128 seqs x 8k"), read_concurrency("跑128路"), read_concurrency("8路机")
    (128, 128, None)
    >>> read_concurrency("1.5k users on ⟨model⟩"), read_concurrency("1500个用户，⟨model⟩要几张")
    (1500, 1500)
    >>> read_concurrency("我们有1500个用户，⟨model⟩"), read_concurrency("每天1500个用户，")
    (None, None)
    >>> read_tokens_per_second("1000 tok/s 需要几张"), read_qps("qps 5")
    (1000.0, 5.0)
    >>> read_tokens_per_second("32 users at 20 tok/s each"), read_seconds_per_token("20 tok/s each")
    (None, 0.05)
    >>> read_tokens_per_second("64 users, each wants >= 20 tok/s"), read_seconds_per_token(
    ...     "48 个并发用户，每个用户至少 20 token/s")
    (None, 0.05)
    >>> read_tokens_per_second("tps 1000 能达到吗"), read_price_per_kwh("电费0.8块1度")
    (1000.0, (0.8, 'CNY'))
    >>> read_first_token_seconds("first token under 1 s"), read_first_token_seconds("首字 500ms")
    (1.0, 0.5)
    >>> read_budget("预算200000元"), read_price_per_kwh("电价0.6元/度")
    ((200000.0, 'CNY'), (0.6, 'CNY'))
    >>> read_budget("预算改成 50w 呢"), read_budget("and if the budget goes to $80k?")
    ((500000.0, 'CNY'), (80000.0, 'USD'))
    >>> read_price_per_kwh("$0.12 per kwh"), read_host_ram("512gb 内存")  # 512 GiB
    ((0.12, 'USD'), 549755813888.0)
"""

from __future__ import annotations

import re

from assistant.parse.durations import read_hours_per_day
from assistant.parse.host_ram import host_ram_note, read_host_ram
from assistant.parse.money_slots import (
    BUDGET_WORDS,
    MFU_WORDS,
    read_budget,
    read_mfu,
    read_price_per_kwh,
    read_pue,
)
from assistant.parse.numbers import (
    CURRENCY_WORD,
    NUMBER,
    SET_TO,
    first_match,
    plain_digits,
    to_float,
)
from assistant.parse.offload import read_offload

__all__ = [
    "STATED",
    "read_budget",
    "read_load_slots",
    "read_concurrency",
    "host_ram_note",
    "read_first_token_seconds",
    "read_host_ram",
    "read_price_per_kwh",
    "read_mfu",
    "read_pue",
    "read_qps",
    "read_seconds_per_token",
    "read_tokens_per_second",
]

_CUR = CURRENCY_WORD
_K = r"\s*(k|w|万)?"
#: A money amount's scale: also "$1M", "$2.5 million" (a letter after it is a word: "$5 month")
_MONEY_K = r"\s*(k|m(?:n|illion)?|w|万)?(?![a-z])"
#: Between a load word and its number: "of", "为", and the verbs of a follow-up ("并发改成32").
_VERB = r"\s*(?:of|=|:|为|是|达到|要|有|" + SET_TO + r")?\s*"
#: A hedge between a load word and its number ("并发大概50", "并发量在50左右", "concurrency
#: around 50", "a concurrency of about 64"): the number is still the load.
_HEDGE = (
    r"(?:(?:大概|大约|约|差不多|估计|预计|在|近|around|about|approximately|roughly|some|~|≈)\s*)*"
)


#: After "8路": a server, a CPU socket count or a parallel degree, not eight sequences.
_NOT_STREAMS = r"gpu|服务器|cpu|主机|显卡|卡|机|至强|epyc|nvlink|pcie|\w{0,3}并行|tp|pp|dp|ep"
#: After a count: a rate ("20 seqs/s", "100 sequences per second"), not a count in flight.
_NOT_PER = r"(?!\s*(?:/|per\b|每)\s*(?:s\b|sec|second|min|minute|h\b|hour|day|秒|分钟|小时|天))"

#: A context length right after a listed user count ("32个用户128k上下文"): the next fact of the
#: same list, so the users are in flight as before a comma.
_NEXT_LENGTH = r"\d+(?:\.\d+)?\s*k?\s*(?:token|上下文|context|ctx)"
_CONCURRENCY = (
    re.compile(NUMBER + r"\s*(?:个|路)?\s*(?:并发|concurrent|simultaneous)"),
    re.compile(
        r"(?:并发(?:数|量|用户数?)?|concurrency|concurrent (?:users|requests|sessions))"
        + _VERB
        + _HEDGE
        + NUMBER
        # "并发在32k上下文下是多少": a context, not a load; "concurrent users: 8x L20 or …": cards
        + r"(?![\d.]|\s*(?:k(?![a-z])|tokens?|gb|ms|秒|%|x(?![a-z])|×|\*|⟨|张|块|卡|gpus?\b))"
    ),
    re.compile(NUMBER + r"\s*(?:users|requests|sessions) (?:at once|concurrently|in parallel)"),
    # "128 seqs x 8k ctx", "a batch of 128 sequences", "128 路", "128 条序列": sequences in
    # flight; not a data set ("50000 sequences of training data"), a rate ("20 seqs/s"), a
    # server ("8路服务器") or a parallel degree ("4路张量并行")
    re.compile(
        r"(?<!\bon )(?<!over )(?<!训练)(?<!数据)"  # "train on 1000000 sequences": a data set
        + NUMBER
        + r"\s*(?:seqs?\b|sequences?\b|条序列|个序列|路(?!\s*(?:"
        + _NOT_STREAMS
        + r")))"
        r"(?!\s*(?:of\s+)?(?:training|data|examples|samples)\b)" + _NOT_PER
    ),
    # "serve it to 32 users", "for 32 users", "at 100 users", "what about 200 users?": users
    # being served are sequences in flight; "for 1000 users per day" is a rate, not in flight
    re.compile(
        r"(?:\bto|\bfor|\bserv(?:e|ing)|\bat|\bwith|\babout|\bhandl(?:e|ing)|\bsupport(?:ing)?)\s+"
        r"(?:~|≈|about |around |roughly )?" + NUMBER + r"\s*(?:active |online )?users\b"
        r"(?!\s*(?:per|a|an|each|every|/)\s*(?:day|hour|week|month|minute|second)\b)"
    ),
    # "8 users at 16k ctx": users with a context or a load attached are in flight, not a
    # head-count per day ("1000 users per day" is a rate, not a concurrency)
    re.compile(
        NUMBER + r"\s*(?:active |online )?users\b(?=\s*(?:at|with|@|each|on|,))"
        r"(?!\s*(?:per|a|an|each|every)\s+(?:day|hour|week|month|minute|second)\b)"
    ),
    # "16 users chat with it", "32 users hitting the endpoint": users at it now (not "a day")
    re.compile(
        NUMBER + r"\s*(?:active |online )?(?:users|people|ppl|employees|staff|colleagues|students|"
        r"customers|clients|engineers|developers|devs)\s+(?:(?:are |will |would )?(?:gonna|going "
        r"to|will|would|to)\s+use|chat|chatting|talk|talking|using|use|hitting|hit|query|querying|"
        r"prompting)\b"
        r"(?![^.?!]{0,30}\b(?:per|a|an|each|every)\s+(?:day|hour|week|month)\b)"
    ),
    re.compile(NUMBER + r"\s*(?:个|位|名)?(?:在线)?用户(?:同时)?(?:使用|访问|在线)"),
    # "at 32k context, 50 users?", "32k上下文、50个用户": users listed with the load, in flight
    # (a list item ends where the next begins; "1000 users per day" goes on and is a rate)
    re.compile(
        r"(?:[,;、，；]|\band)\s*" + NUMBER + r"\s*(?:active |online |concurrent )?users\b"
        r"(?=\s*(?:[?.!,;？。，；、]|$))"
    ),
    re.compile(
        r"(?:[,;、，；和]|以及)\s*"
        + NUMBER
        + r"\s*(?:个|位|名)?\s*用户(?=\s*(?:[?.!,;？。，；、]|$|"
        + _NEXT_LENGTH
        + r"))"
    ),
    # "1500个用户，⟨model⟩要几张": users first in a list are in flight, as "1500 users, …" is;
    # not a user base ("我们有1500个用户") or a count per day ("每天1500个用户", "…，每天")
    re.compile(
        r"(?<![天日月周活有])"
        + NUMBER
        + r"\s*(?:个|位|名)?\s*(?:在线|活跃)?\s*用户(?=\s*[,，、;；])"
        + r"(?!\s*[,，、;；]\s*(?:每天|每日|每月|每周|一天|日活|月活))"
    ),
    # "给200人同时用", "200个人同时在线", "同时200人使用": people using it at once
    re.compile(
        NUMBER + r"\s*(?:个|位|名)?\s*(?:人|用户|学生|员工|同事|同学|成员)\s*"
        r"(?:会|都|要|将|可能|在)?\s*同时\s*(?:在)?\s*(?:用|使用|访问|在线|请求|聊天)"
    ),
    re.compile(
        r"同时\s*(?:有)?\s*" + NUMBER + r"\s*(?:个|位|名)?\s*(?:人|用户|学生|员工|同事|同学)"
    ),
    # "能同时服务500个用户", "同时在线500人", "同时支持200路请求": served at once
    re.compile(
        r"同时\s*(?:服务|支持|接入|承载|响应|处理|在线|跑|给)\s*(?:约|大约|近|上)?\s*"
        + NUMBER
        + r"\s*(?:个|位|名|路|条)?\s*(?:人|用户|请求|会话|客户|学生|员工|并发)"
    ),
    # "~50 people chatting with the bot at the same time": in flight (not "1000 users a day")
    re.compile(
        NUMBER + r"\s*(?:active |online )?(?:people|ppl|persons|users|customers|employees|students|"
        r"staff|clients)\b(?:(?!\b(?:per|a|an|each|every)\s+(?:day|hour|week|month)\b)[^.?!])"
        r"{0,60}?\b(?:at the same time|at once|simultaneously|concurrently|in parallel)\b"
    ),
)


#: What a count of people or requests is of: a "k" or "w" before one of these scales the count
#: ("1.5k users", "2k并发", "2K QPS", "3w用户"); before anything else it is left alone ("32k
#: context" is a length). Chinese 千 and 万 are already digits (numbers.normalize_numbers).
_COUNTED = (
    r"(?:concurrent|simultaneous|active|online|users?\b|requests?\b|reqs?\b|sessions?\b|"
    r"people|ppl|persons|employees|staff|colleagues|customers|clients|students|engineers|"
    r"developers|seqs?\b|sequences?\b|qps|rps|个|位|名|路|用户|人|并发|条序列|在线)"
)
_SCALED_COUNT = re.compile(NUMBER + r"\s*(k|w)(?=\s*" + _COUNTED + ")")
#: "concurrency of 2k", "并发2k，", "qps 2k": the load word first; not when a length follows
#: ("并发在32k上下文下": the k is a context's)
_SCALED_AFTER = re.compile(
    r"((?:并发(?:数|量)?|concurrency|(?<![a-z])(?:qps|rps))"
    + _VERB
    + _HEDGE
    + ")"
    + NUMBER
    + r"\s*(k|w)(?![a-z0-9])(?!\s*(?:tokens?|上下文|context|ctx|序列|长度|length|seq))"
)
_COUNT_SCALE = {"k": 1_000, "w": 10_000}


def scaled_counts(text: str) -> str:
    """`text` with the counts of users and requests written with a k or w as digits.

    >>> scaled_counts("1.5k users on ⟨model⟩"), scaled_counts("2k并发"), scaled_counts("qps 2k?")
    ('1500 users on ⟨model⟩', '2000并发', 'qps 2000?')
    >>> scaled_counts("32k context, 8k tokens"), scaled_counts("并发在32k上下文下")
    ('32k context, 8k tokens', '并发在32k上下文下')
    """

    def digits(number: str, scale: str) -> str:
        value = to_float(number) * _COUNT_SCALE[scale]
        return str(int(value)) if value == int(value) else str(value)

    text = _SCALED_COUNT.sub(lambda m: digits(m.group(1), m.group(2)), text)
    return _SCALED_AFTER.sub(lambda m: m.group(1) + digits(m.group(2), m.group(3)), text)


def read_concurrency(text: str) -> int | None:
    """Concurrent users or requests in flight ("20 个并发", "concurrency of 32", "1.5k users")."""
    match = first_match(_CONCURRENCY, scaled_counts(text))
    return int(to_float(match.group(1))) if match else None


_TOKS = (
    r"(?:(?:output |generated )?tok(?:en)?s?\s*/\s*s(?:ec)?(?![a-z])|"
    r"(?:output |generated )?tokens? (?:per|a|/) ?sec(?:ond)?|"
    r"tokens?每秒|token/秒)"
)
#: "per user" / "每路": a per-sequence speed, not the deployment's throughput.
_EACH_AFTER = (
    r"\s*(?:(?:per|for each|each|a|/)\s*(?:user|sequence|request|stream|session)\b"
    # "at 20 tokens/s each": each of the users or sequences named, not each GPU
    r"|each\b(?!\s*(?:gpu|card|node|replica|server|⟨)))"
)
#: "每个用户至少 20 token/s", "each wants >= 20 tok/s", "each user needs at least 15 tok/s":
#: a speed each of the users named wants, said before the number.
_EACH_BEFORE = (
    r"(?:(?:每路|每个用户|每用户|每位用户|每人|每个人|每位|单路|单用户|每个请求|单个请求)\s*"
    r"(?:生成|输出|速度|要|达到)?\s*"
    r"(?:要求)?\s*(?:不低于|不少于|至少|大于|超过|>=|≥|>)?"
    r"|\beach\s+(?:(?:user|one|person|client|stream|sequence|session)\s+)?"
    r"(?:wants?|needs?|gets?|requires?|expects?|should get|must get)\s*"
    r"(?:>=|≥|>|at least|over|above|more than|no less than)?"
    # "each at least 20 tokens/s": the verb left out
    r"|\beach\s+(?:>=|≥|at least|no less than))\s*"
)
_TPS = (
    re.compile(NUMBER + _K + r"\s*(?:个)?\s*" + _TOKS + r"(?!" + _EACH_AFTER + r")"),
    # "每秒1000个token", "每秒出/生成/输出1000个token" (a per-user floor is `_PER_TOKEN`'s)
    re.compile(
        r"(?<!每个用户)(?<!每人)(?<!每路)每秒\s*(?:(?:能|要|需要|得)?\s*(?:出|生成|输出|吐|产出|处理))?\s*"
        + NUMBER
        + _K
        + r"\s*(?:个)?\s*(?:tokens?|词元)"
    ),
    re.compile(r"(?:吞吐|throughput)\s*(?:of|=|:|为|是|达到|要|有)?\s*" + NUMBER + _K),
    # serving's "TPS" is tokens per second ("TPS 1000", "1000 TPS"); requests are QPS
    re.compile(r"\btps" + _VERB + NUMBER + _K + r"(?![\d.])"),
    re.compile(NUMBER + _K + r"\s*tps\b"),
)
_SCALE = {None: 1.0, "k": 1e3, "w": 1e4, "万": 1e4, "m": 1e6, "mn": 1e6, "million": 1e6}


def read_tokens_per_second(text: str) -> float | None:
    """An aggregate generation-throughput target ("1000 tok/s", "每秒2万token"); a speed per
    user or per sequence ("50 tok/s per user", "每路20 token/s") is not one."""
    match = first_match(_TPS, text)
    if match is None or re.search(_EACH_BEFORE + r"$", plain_digits(text)[: match.start()]):
        return None
    return to_float(match.group(1)) * _SCALE[match.group(2)]


_SPEED = (
    re.compile(NUMBER + r"\s*(?:个)?\s*" + _TOKS + _EACH_AFTER),
    re.compile(_EACH_BEFORE + NUMBER + r"\s*(?:个)?\s*" + _TOKS),
    # "每个用户每秒至少20个token": the rate's 每秒 before the number
    re.compile(
        r"(?:每路|每个用户|每用户|每位用户|每人|每个人|每位|单路|单用户|每个请求|单个请求)\s*(?:的)?"
        r"\s*(?:生成|输出|速度)?\s*每秒\s*(?:要|需要|能|得)?\s*"
        r"(?:不低于|不少于|至少|大于|超过|>=|≥|>)?\s*" + NUMBER + r"\s*(?:个)?\s*(?:tokens?|词元)"
    ),
)


#: A latency per generated token ("under 30 ms per token", "每个token 30毫秒", "TPOT 50ms").
_UNIT = r"\s*(ms|毫秒|s(?![a-z])|秒|sec(?:onds?)?(?![a-z]))"
_PER_TOKEN = (
    re.compile(NUMBER + _UNIT + r"\s*(?:per|a|/|each|every|每)\s*(?:output |generated )?tokens?\b"),
    re.compile(
        r"(?:每个?\s*(?:输出)?\s*token|(?<![a-z])tpot(?![a-z])|inter-token latency|"
        r"time per output token)"
        r"[^0-9]{0,12}?" + NUMBER + _UNIT
    ),
)


def read_seconds_per_token(text: str) -> float | None:
    """A per-sequence speed target as seconds per token ("50 tok/s per user" → 0.02, "under
    30 ms per token" → 0.03)."""
    match = first_match(_SPEED, text)
    speed = to_float(match.group(1)) if match else 0.0
    if speed > 0:
        return 1.0 / speed
    latency = first_match(_PER_TOKEN, text)
    if latency is None:
        return None
    value = to_float(latency.group(1))
    return value / 1000 if latency.group(2) in ("ms", "毫秒") else value


_QPS = (
    # "高峰QPS大概5": a Chinese word before the acronym is no word boundary in Unicode \b, and
    # a hedge may sit between the acronym and its number
    re.compile(r"(?<![a-z0-9_])(?:qps|rps)" + _VERB + _HEDGE + NUMBER),
    # "5 qps", "5 req/s", "5 requests/sec", "5 reqs/second", "5 requests per second", "5 queries
    # a second"
    re.compile(
        NUMBER
        + r"\s*(?:qps|rps|(?:req(?:uest)?s?|quer(?:y|ies))\s*(?:/\s*|per\s+|an?\s+)"
        + r"s(?:ec(?:ond)?s?)?(?![a-z])|(?:个|次)?请求每秒"
        # "一个请求每秒能出多少token": the speed of one request, not a rate of requests
        + r"(?!\s*钟?\s*(?:能|可以|大概|大约|约)?\s*(?:出|生成|输出|吐|产出|跑|多少|几)))"
    ),
    # "每秒5个请求", "每秒钟5次请求", "每秒要处理 10 个请求"
    re.compile(
        r"每秒(?:钟)?\s*(?:要|需要|能|得)?\s*(?:处理|响应|服务|处理约|接)?\s*(?:约|大约)?\s*"
        + NUMBER
        + r"\s*(?:个|次)?\s*(?:请求|查询)"
    ),
)


#: "1M requests per day", "36,000 queries an hour", "每天100万次请求": a rate over a longer period
_REQUESTS_PER = re.compile(
    NUMBER + r"\s*(k|m|万|百万)?\s*(?:requests?|queries|calls|次请求|个请求|次调用)\s*"
    r"(?:per|a|an|each|every|/)\s*(day|hour|minute|min)\b"
    r"|每(天|小时|分钟)\s*" + NUMBER + r"\s*(万|百万)?\s*(?:次|个)?(?:请求|调用|查询)",
    re.ASCII,
)
_PERIOD_SECONDS = {"day": 86400.0, "天": 86400.0, "hour": 3600.0, "小时": 3600.0}
_SCALE_WORD = {"k": 1e3, "m": 1e6, "万": 1e4, "百万": 1e6}


def read_qps(text: str) -> float | None:
    """A requests-per-second target ("QPS 5", "10 requests per second"); a rate per day, hour
    or minute is averaged over it ("1M requests per day" → 11.6).

    >>> round(read_qps("1m requests per day")), read_qps("每小时 3600 次请求")
    (12, 1.0)
    >>> read_qps("高峰qps大概5")
    5.0
    """
    text = scaled_counts(text)  # "2K QPS" is 2,000
    match = first_match(_QPS, text)
    if match:
        return to_float(match.group(1))
    found = _REQUESTS_PER.search(plain_digits(text))
    if found is None:
        return None
    number, scale, period = found.group(1, 2, 3) if found.group(1) else found.group(5, 6, 4)
    seconds = _PERIOD_SECONDS.get(period, 60.0)
    return to_float(number) * _SCALE_WORD.get(scale or "", 1.0) / seconds


#: A latency percentile said as "p99" / "P99.9" (before or after the first-token words).
_PERCENTILE = r"(?<![a-z0-9])p\s?(\d{2}(?:\.\d+)?)(?![0-9])"
_TTFT = re.compile(
    r"(?:" + _PERCENTILE + r"\s*)?"
    r"(?:first[- ]token|首字|首token|首 token|首词|(?<![a-z])ttft(?![a-z])|time to first token)"
    r"(?:[^0-9]{0,12}?" + _PERCENTILE + r")?"
    r"[^0-9]{0,24}?" + NUMBER + r"\s*(ms|毫秒|s(?![a-z])|秒|sec(?:onds?)?(?![a-z]))"
)


def read_first_token_seconds(text: str) -> float | None:
    """A time-to-first-token bound in seconds ("first token under 1 s", "首字 500ms",
    "首token p99 小于1秒", "p99 TTFT < 500ms"); "TTFT要<1s" too (in Unicode a CJK character is a
    word character, so no word boundary parts "ttft" from "要").

    >>> read_first_token_seconds("ttft要<1s"), read_first_token_seconds("首token p99 小于500ms")
    (1.0, 0.5)
    """
    match = _TTFT.search(text)
    if match is None:
        return None
    value = to_float(match.group(3))
    return value / 1000 if match.group(4) in ("ms", "毫秒") else value


def read_first_token_quantile(text: str) -> float | None:
    """The percentile a first-token bound is stated at, as a fraction ("p99" → 0.99); None
    for a bound with no percentile (judged as a mean) or a percentile outside 50-99.99."""
    match = _TTFT.search(text)
    said = match and (match.group(1) or match.group(2))
    if not said:
        return None
    value = to_float(said) / 100
    return value if 0.5 <= value < 1.0 else None


#: The words that state a serving target, an MFU or a budget: a follow-up that says only them
#: ("what about 2000 tok/s?", "如果MFU只有30%呢") sets the slot and asks nothing of its own.
STATED = (*_TPS, *_SPEED, *_PER_TOKEN, *_QPS, _TTFT, *MFU_WORDS, *BUDGET_WORDS)


def read_load_slots(text: str) -> dict[str, object]:
    """Every load, target, money and host-memory slot the text states (Scenario field names)."""
    out: dict[str, object] = {
        "concurrency": read_concurrency(text),
        "target_tokens_per_second": read_tokens_per_second(text),
        "target_qps": read_qps(text),
        "target_first_token_seconds": read_first_token_seconds(text),
        "first_token_quantile": read_first_token_quantile(text),
        "target_seconds_per_token": read_seconds_per_token(text),
        "host_ram_bytes": read_host_ram(text),
        "offload": read_offload(text),
        "pue": read_pue(text),
        "power_budget_watts": read_power_budget(text),
        "hours_per_day": read_hours_per_day(text),
        "mfu": read_mfu(text),
        "tokens_per_second_per_gpu": _training_rate(text),
        "gpu_hours": _gpu_hours(text),
    }
    if out["tokens_per_second_per_gpu"] is not None:  # "3000 tokens/s/GPU": one GPU's rate,
        out["target_tokens_per_second"] = None  # never the deployment's target
    budget, budget_currency = read_budget(text)
    kwh, kwh_currency = read_price_per_kwh(text)
    out.update(budget=budget, price_per_kwh=kwh, currency=budget_currency or kwh_currency)
    return {k: v for k, v in out.items() if v is not None}


def read_power_budget(text: str) -> float | None:
    """The power budget the question states, in watts (`parse.power_budget`)."""
    from assistant.parse.power_budget import read_power_budget as read

    return read(text)


def _training_rate(text: str) -> float | None:
    from assistant.parse.training_rate import read_tokens_per_second_per_gpu  # it imports this

    return read_tokens_per_second_per_gpu(text)


def _gpu_hours(text: str) -> float | None:
    from assistant.parse.training_rate import read_gpu_hours_spent  # it imports this

    return read_gpu_hours_spent(text)
