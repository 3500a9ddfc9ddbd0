"""Who a deployment serves: one person, or a head-count of people who share it.

"for a single user", "只有我自己用" state one sequence in flight, and a speed asked with it is
that user's own (per-sequence) speed, not the deployment's throughput. "for a team of 30
people", "给100个员工用", "全公司200人" state how many people share the deployment, not how many
send a request at the same moment: the advisor evaluates them all at once (an upper bound) and
says so. Words of simultaneity ("同时", "concurrent", "at once") make the count a concurrency of
its own (assistant.parse.load), with nothing to note.

Readers take the normalised, lower-cased text (numerals as digits: "一个人" is "1个人", "a single
user" is "1 user").

Examples:
    >>> single_user("for 1 user on ⟨gpu⟩"), single_user("只有我自己用"), single_user("100个人使用")
    (True, True, False)
    >>> single_user("想买张卡在家跑qwen"), single_user("给大家用"), single_user("全家用")
    (True, False, False)
    >>> head_count("a team of 30 people"), head_count("给100个员工用"), head_count("全公司200人")
    (30, 100, 200)
    >>> head_count("给全公司200来号人用"), head_count("给10几个人用"), head_count("公司100多人")
    (200, 19, 100)
    >>> head_count("1000 users per day"), head_count("30人天的工作量"), head_count("每天1000人用")
    (None, None, None)
"""

from __future__ import annotations

import re

from assistant.parse.numbers import NUMBER, to_float
from calculators.messages import Msg

__all__ = [
    "daily_users",
    "fastest_stream",
    "head_count",
    "head_count_load",
    "loosely_counted",
    "per_person_daily",
    "settle_audience",
    "single_user",
]

#: Using it, in Chinese: "用" / "使用", not "用户" ("个人用户" are many people).
_USE = r"(?:用|使用)(?!户)"
_SINGLE = re.compile(
    r"\bsingle[- ]user\b|\b(?:for|to|by|serv\w*|with)\s+(?:just |only )?1\s+"
    r"(?:user|person|people|request|sequence|stream|session)\b(?!\s*(?:per|a|/|each|every)\b)|"
    r"(?<![\d.])1[ -](?:user|person)\b(?!\s*(?:per|a|/|each|every)\b)|"
    r"\bjust (?:me|myself)\b|\bonly me\b|\bfor myself\b|\b(?:only|just) i (?:will )?use\b|"
    r"\b(?:the |a )?(?:only|sole) user\b|\bonly 1 (?:user|person)\b|\bfor my own use\b|"
    r"单用户|单个用户|(?<!\d)1\s*(?:个|位)?\s*用户(?!\s*(?:/|每|per))|单人" + _USE + "|"
    r"(?<![\d们])(?:我)?1\s*个人" + _USE + r"|只有我(?!们)|"
    r"(?<!们)我\s*(?:自己|1\s*个人)+\s*" + _USE + r"|(?<![\d几多少来余])个人" + _USE + "|"
    # "买张卡在家跑", "家里自己用": a card at home serves its owner ("大家用" is everyone)
    r"(?<![大全])(?:在家|家里)\s*(?:自己)?\s*(?:跑|用|使用|玩|部署|搭)(?!户)"
)

#: "200来号人", "100多人", "10几个人" (十几): a round count said loosely is still the count
_LOOSELY = r"\s*(?:来|多|余|几)?\s*号?"
_PEOPLE_ZH = _LOOSELY + r"\s*(?:个|位|名)?\s*(?:员工|同事|人|用户|成员|研究员|开发者?|工程师|学生)"
_PEOPLE_EN = (
    r"(?:\s+(?:internal|active|registered|regular|enterprise|company|office|end|in-house))?"
    r"\s+(?:people|ppl|persons|employees|staff|users|engineers|developers|researchers|"
    r"colleagues|students|customers|members|analysts)\b"
)
#: "per day", "a month", "daily": a rate of people, not how many share the deployment
_NOT_RATE = (
    r"(?!\s*(?:(?:per|a|an|each|every)\s+(?:day|hour|week|month|year)\b|daily|每天|每日|每月))"
)
_HEAD_COUNT = (
    re.compile(r"team of\s+" + NUMBER + r"(?:" + _PEOPLE_EN + r")?" + _NOT_RATE),
    re.compile(r"(?:company|org|organi[sz]ation|department|lab) of\s+" + NUMBER + _NOT_RATE),
    re.compile(NUMBER + r"[- ](?:person|people|member|user|engineer)\s+(?:team|company|org|lab)"),
    re.compile(
        r"(?:\bfor|\bto|\bserv(?:e|es|ing)|\bsupport(?:s|ing)?|\bby)\s+(?:our |the |all |a |"
        # "for ~200 employees": the tilde is "about", as typed
        r"about |around |roughly |up to |~\s*|≈\s*|approx(?:imately|\.)?\s*)*"
        + NUMBER
        + _PEOPLE_EN
        + _NOT_RATE
    ),
    re.compile(NUMBER + _PEOPLE_EN + r"\s+(?:will |would |are going to )?(?:use|using|share)"),
    re.compile(
        r"(?:给|供|为|面向|服务于?|支持|支撑|承载|覆盖|满足)\s*(?:全公司|公司|团队|部门|内部|我们)?\s*的?\s*"
        + NUMBER
        + _PEOPLE_ZH
        + _NOT_RATE
    ),
    re.compile(
        r"(?:全公司|公司|团队|部门|小组)\s*(?:有|共|一共|总共|约|大概)?\s*" + NUMBER + _PEOPLE_ZH
    ),
    re.compile(NUMBER + _PEOPLE_ZH + r"\s*(?:的)?\s*(?:团队|公司|部门|小组)"),
    re.compile(NUMBER + _PEOPLE_ZH + r"\s*(?:日常|平时|一起|共同)?\s*(?:用|使用|共用|访问)"),
)
#: Words that make a count of people a concurrency of its own ("给200人同时用").
_AT_ONCE = re.compile(
    r"同时|并发|在线|concurren|simultaneous|at once|at the same time|in parallel|in flight"
)


def head_count_load(text: str) -> int | None:
    """The head-count read as everyone at once (an upper bound): "给100个员工用" gives 100;
    None when no head-count is said, or the people are said to be at once ("500人同时用" is
    a concurrency as stated, not a bound)."""
    count = head_count(text)
    return None if count is None or _AT_ONCE.search(text) else count


def single_user(text: str) -> bool:
    """True when the question says one person uses the deployment ("just me", "单用户")."""
    return bool(_SINGLE.search(text))


#: One stream at a time, said of the load ("single stream", "batch size 1", "单路", "单并发").
_ONE_STREAM = re.compile(
    r"\b1[ -](?:stream|sequence|request)s?\b(?!\s*(?:per|a|/|each|every)\b)|"
    r"\bbatch(?:[- ]size)?\s*(?:of\s*)?=?\s*1\b(?!\.\d|\d)|\bbs\s*=?\s*1\b(?!\.\d|\d)|"
    r"单路|单流|单并发|单条请求|单个请求|(?<!\d)1路(?!\s*(?:/|每))|"
    # "一个请求每秒能出多少token" (一 rewritten as 1): one request's own speed
    r"(?<![\d.])1\s*(?:个|条)请求"
)
#: A speed asked ("which is faster", "decode speed", "多快", "速度", "延迟"): of that stream.
_SPEED = re.compile(
    r"fast|quick|speed|latency|tok(?:en)?s?/s|tokens? per second|快|速度|延迟|时延|每秒"
)
#: The least latency asked with no load ("lowest per-token latency", "延迟最低"): one stream's.
_LOWEST_LATENCY = re.compile(
    r"(?:lowest|least|lower|minimum|min)\s+(?:per[- ]token\s+|decode\s+|token\s+)?latency|"
    r"最低(?:的)?(?:token\s*)?延迟|延迟(?:最|更)低|延迟(?:最|更)小"
)


def fastest_stream(text: str) -> bool:
    """True when the question asks how fast one stream goes: a speed asked of a single user or
    stream ("fastest single-user decode", "单路速度"), or the lowest latency.

    Examples:
        >>> fastest_stream("fastest 1-user decode"), fastest_stream("单用户推理哪个生成速度更快")
        (True, True)
        >>> fastest_stream("lowest per-token latency"), fastest_stream("1 user, can it fit?")
        (True, False)
    """
    one = single_user(text) or bool(_ONE_STREAM.search(text))
    return (one and bool(_SPEED.search(text))) or bool(_LOWEST_LATENCY.search(text))


#: "几十个人" (normalised "几10个人"), "几百人": some tens or hundreds, read at the top (90, 900)
_SOME_TENS = re.compile(r"几\s*(10|100|1000)(?![\d.,])")
#: A count said loosely: some tens ("几10") or ten-odd ("10几"), as `_loose_count` reads them.
_LOOSE = re.compile(r"几\s*(?:10|100|1000)(?![\d.,])|(?<![\d.])[1-9]0\s*几|\b(?:dozens|tens) of\b")
#: "for dozens of people", "tens of users": some tens in English, read at the same top (90)
_SOME_TENS_EN = re.compile(r"\b(?:dozens|tens) of\b")


def loosely_counted(text: str) -> bool:
    """True when the head-count is said loosely ("几十个人用", "十几个人"): the answer then says
    the figure it read ("按 90 人计") as its reading, not as the user's number.

    >>> loosely_counted("给几10个人用"), loosely_counted("给10几个人用")
    (True, True)
    >>> loosely_counted("给30个人用")
    False
    """
    return head_count(text) is not None and bool(_LOOSE.search(text))


def head_count(text: str) -> int | None:
    """How many people share the deployment ("a team of 30", "给100个员工用"), or None.

    >>> head_count("几10个人用"), head_count("给几100个同事用"), head_count("for dozens of users")
    (90, 900, 90)
    """
    plain = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    plain = _SOME_TENS.sub(lambda m: str(9 * int(m.group(1))), plain)
    plain = _SOME_TENS_EN.sub("90", plain)
    for pattern in _HEAD_COUNT:
        match = pattern.search(plain)
        if match is None or _RATE_BEFORE.search(plain, 0, match.start(1)):
            continue  # "每天1000人用": people a day (`daily_users`), not people sharing it
        if to_float(match.group(1)) >= 1:
            return _loose_count(to_float(match.group(1)), plain[match.end(1) :])
    return None


#: A count said after "a day" ("每天1000人用", "每日500个用户"): a rate of people.
_RATE_BEFORE = re.compile(r"(?:每天|每日|每月|日活|月活)\s*(?:约|大概|有|大约)?\s*$")


def _loose_count(value: float, after: str) -> int:
    """The upper end of a loosely said count: "十几个人" (10几) is up to 19, "二十几" 29, as a
    range is read at its top ("二三十个人" is 30); "200来号人" and "100多人" stay the round count.

    >>> _loose_count(10, "几个人用"), _loose_count(20, "几人"), _loose_count(200, "来号人")
    (19, 29, 200)
    """
    if after.lstrip().startswith("几") and value % 10 == 0 and 10 <= value < 100:
        return int(value) + 9
    return int(value)


#: "Which is fastest", "哪个更快": a speed compared; with no load stated, one stream's speed.
#: A magnitude said after an English count ("10k daily users", "2 million users a day").
_SCALE_EN = r"(?:\s*(k|thousand|m|million)\b)?"
_SCALE_VALUE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}
#: People a day ("1000 daily active users", "日活1000", "每天1000人用", "1000 users per day").
_DAILY = (
    re.compile(r"(?:日活|dau)\s*(?:用户)?\s*(?:约|大概|有|是|为|:|：)?\s*" + NUMBER),
    re.compile(NUMBER + _SCALE_EN + r"\s*(?:daily(?: active)?|dau)\s*(?:users|people|visitors)?"),
    re.compile(
        NUMBER + _SCALE_EN + r"(?:" + _PEOPLE_EN + r"|\s+visitors\b)\s*(?:per|a|each|every)\s+day\b"
    ),
    re.compile(r"(?:每天|每日)\s*(?:约|大概|有)?\s*" + NUMBER + _PEOPLE_ZH),
    re.compile(NUMBER + _PEOPLE_ZH + r"\s*(?:每天|每日)"),
)


def daily_users(text: str) -> int | None:
    """How many people use it a day, when the text says so (not how many at once).

    >>> daily_users("1000 daily active users"), daily_users("日活1000"), daily_users("每天500人用")
    (1000, 1000, 500)
    >>> daily_users("1000 users per day"), daily_users("100个用户同时")
    (1000, None)
    >>> daily_users("10k daily users"), daily_users("we get 3000 visitors per day")
    (10000, 3000)
    """
    for pattern in _DAILY:
        match = pattern.search(text)
        if match is not None:
            value = to_float(match.group(1))
            scale = match.group(2) if match.lastindex and match.lastindex >= 2 else None
            value = value * _SCALE_VALUE[scale] if value is not None and scale else value
            if value is not None and 1 <= value <= 1e10:
                return int(value)
    return None


#: Requests each person sends a day ("每人每天问10个问题", "each user asks 10 questions a day").
_PER_PERSON_DAILY = (
    re.compile(
        r"每(?:个)?(?:人|用户|位用户)\s*每(?:天|日)\s*(?:大概|约|平均)?\s*(?:问|发|提|聊|调用|用|请求)?"
        r"\s*" + NUMBER + r"\s*(?:次|个|条|轮)?\s*(?:请求|调用|查询|问题|提问|对话|消息)?"
    ),
    re.compile(
        r"\b(?:each|every|per) (?:user|person)\s+(?:asks|sends|makes)?\s*"
        + NUMBER
        + r"\s*(?:questions|requests|queries|messages|chats)\s*(?:a|per|each) day\b"
    ),
)


def per_person_daily(text: str) -> float | None:
    """How many requests each person sends a day, when the text says so.

    >>> per_person_daily("日活10000,每人每天问10个问题")
    10.0
    >>> per_person_daily("each user asks 5 questions a day")
    5.0
    """
    for pattern in _PER_PERSON_DAILY:
        match = pattern.search(text)
        if match is not None and (value := to_float(match.group(1))) is not None and value > 0:
            return value
    return None


_FASTEST = re.compile(
    r"\bfast(?:est|er)\b|\bquick(?:est|er)\b|(?:哪个|谁|哪套|哪种)\S{0,6}?(?:更|最)?快"
)


def _daily_load(text: str, found: dict[str, object], daily: int) -> list[Msg]:
    """People a day: with the requests each sends a day ("日活1万，每人每天问10个问题") their
    average rate is the load; alone, how many a day, not at once (no load is assumed)."""
    each = per_person_daily(text)
    if each is None:
        return [Msg("parse.daily_users", count=daily)]
    total = daily * each
    found["target_qps"] = total / 86_400.0
    return [Msg("parse.daily_requests", count=daily, each=each, total=total, qps=total / 86_400.0)]


def settle_audience(text: str, found: dict[str, object], *, comparing: bool = False) -> list[Msg]:
    """Fill the serving load the audience states into `found` (Scenario slots); the notes say
    what was assumed. Training questions are left alone: no one is served. A comparison of
    speed with no load stated is one stream's speed on each option (the answer says "for one
    sequence at a time"), so each option runs the split with the least time per token."""
    if found.get("task") not in (None, "inference"):
        return []
    one_load = found.get("concurrency") in (None, 1) and found.get("batch_size") in (None, 1)
    rated = "target_tokens_per_second" in found or "target_qps" in found
    asked = fastest_stream(text) or (comparing and bool(_FASTEST.search(text)))
    if asked and one_load and not (rated and not single_user(text)):
        found["fastest_stream"] = True  # the split with the least time per token: `serving_pick`
    if asked and one_load and not rated and _ONE_STREAM.search(text):
        found["concurrency"] = 1  # "一个请求每秒能出多少token": the one stream said, as stated
    if single_user(text) and found.get("concurrency") in (None, 1):
        found["concurrency"] = 1
        speed = found.pop("target_tokens_per_second", None)
        if isinstance(speed, float) and speed > 0 and "target_seconds_per_token" not in found:
            found["target_seconds_per_token"] = 1.0 / speed  # that one user's own speed
        return []
    count = head_count(text)
    daily = daily_users(text)
    loaded = head_count_load(text)
    if count is None and daily is not None and found.get("concurrency") in (None, 1):
        if "target_qps" in found or "target_tokens_per_second" in found:
            return []  # a stated rate is the load
        return _daily_load(text, found, daily)
    if loaded is None or found.get("concurrency") not in (None, loaded):
        return []
    if found.get("concurrency") is None and "target_qps" in found:
        return []  # "给1000个用户用，QPS 5": the stated rate is the load, not everyone at once
    found["concurrency"] = count
    key = "parse.head_count_loose" if loosely_counted(text) else "parse.head_count"
    return [Msg(key, count=count)]
