"""What a comparison is asked to decide, and the sentences that decide it.

"Which needs the fewest GPUs", "哪个能跑", "which is cheapest", "which is faster", "which has
more headroom", "which draws less power": the winner is named on that criterion first. A
question naming none ("H20和910B哪个更适合") is ranked by speed, and the answer says so.

Examples:
    >>> criterion("H100 vs H200 vs MI300X: which needs the fewest GPUs?")
    'count'
    >>> criterion("8张A100和8张H200，哪个能跑？"), criterion("哪个能跑得更快？")
    ('runs', 'speed')
    >>> criterion("H20和910B哪个更适合跑Qwen2.5-72B推理？") is None
    True
    >>> criterion("L40S vs A6000: which is better value?"), criterion("哪个性价比高")
    ('cost', 'cost')
    >>> criterion("which has the lowest per-token latency?"), criterion("单路延迟哪个低")
    ('speed', 'speed')
    >>> criterion("which decodes faster per token?"), criterion("which costs less per token?")
    ('speed', 'cost')
    >>> criterion("哪个能满足首字延迟小于2秒") is None  # a target to meet, not the least latency
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.records import Option
from calculators.messages import Msg

__all__ = [
    "CHEAPER",
    "MORE_TOKENS",
    "VALUE",
    "cost_sentence",
    "cost_tie",
    "criterion",
    "fewest_sentence",
    "runs_sentences",
    "speed_tie",
]

#: "Better value", "best bang for the buck", "性价比", "值不值": the cost criterion, asked as value
#: for money (the answer says "the better value" rather than "the cheapest").
VALUE = re.compile(
    r"(?:better|best|good|great|most|more) value|value for (?:the )?money|"
    r"bang for (?:the|your) buck|"
    r"cost[- ]?(?:effective|efficient|efficiency)|worth (?:it|the (?:money|price))|"
    r"(?:more|most) economical|\btco\b|"
    r"性价比|更划算|最划算|值不值|更值|划不划算|更经济|最经济|经济实惠",
    re.I,
)
#: "per token" is a price only with money named ("cost per token", "per 1M tokens"): "faster per
#: token" asks for speed.
CHEAPER = re.compile(
    rf"cheap|less expensive|lower cost|costs? less|per (?:1m|million) tokens?|"
    rf"(?:cost|price|pay|spend)\w*\s+per tokens?\b|"
    rf"便宜|省钱|成本(?:更)?低|划算|花费(?:更)?少|{VALUE.pattern}",
    re.I,
)
#: "more tokens/s", "the most tokens per second", "每秒生成的token更多", "token/s更高": a
#: deployment's tokens/s (a throughput), asked as a speed criterion.
MORE_TOKENS = (
    r"(?:more|most|higher|highest)\s+(?:output\s+|generated\s+)?tok(?:en)?s?\s*(?:/\s*s|per\s+sec)|"
    r"每秒[^，。,?？]{0,8}token[^，。,?？]{0,3}(?:更|最)(?:多|高)|token\s*/\s*s[^，。,?？]{0,2}(?:更|最)(?:多|高)"
)
#: Criteria by their words, in the order tried: the first match is what is asked ("哪个能跑得
#: 更快" asks for speed, so "can it run" comes last; "lower energy cost" is energy, not rent).
_CRITERIA: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "power",
        re.compile(
            r"less power|lower power|least power|power draw|energy|electricity|watts?\b|"
            r"省电|功耗(?:更)?(?:低|小)|耗电(?:更)?少|电费|能耗",
            re.I,
        ),
    ),
    ("cost", CHEAPER),
    (
        "count",
        re.compile(
            r"fewe(?:st|r) (?:gpus?|cards?|accelerators?)|least (?:number of )?(?:gpus?|cards?)|"
            r"最少(?:的)?(?:卡|gpu|显卡)|(?:卡|gpu|显卡)(?:数)?最少|省卡",
            re.I,
        ),
    ),
    (
        # "which one fits more concurrent users", "哪个能放更多并发": the sequences each holds
        "capacity",
        re.compile(
            r"(?:fits?|holds?|handles?|serves?|supports?|takes?) more (?:concurrent )?"
            r"(?:users|sequences|requests|sessions|streams)|more concurrent|most concurrent|"
            r"higher concurrency|more users|更多(?:的)?(?:并发|用户|请求|路)|"
            r"并发(?:数)?(?:更|最)(?:多|高|大)|"
            r"(?:放|容纳|扛|支持|撑)(?:得)?(?:下)?更多",
            re.I,
        ),
    ),
    (
        "memory",
        re.compile(r"headroom|more memory|most memory|显存(?:更)?(?:大|多|余量)|余量", re.I),
    ),
    (
        "speed",
        re.compile(
            rf"fast|quick|sooner|throughput|更快|快|用时(?:更)?短|吞吐|{MORE_TOKENS}|"
            # the least latency is the most speed for one stream ("lowest latency", "延迟低")
            r"(?:low|least|min)\w*\s+(?:per[- ]token\s+)?latency|"
            r"延迟[^，。,?？]{0,4}?(?:低|小|短)(?!于)|(?:最|更)低(?:的)?延迟",
            re.I,
        ),
    ),
    (
        "runs",
        re.compile(
            r"which (?:one |of them )?(?:can|could) (?:run|serve|hold|fit|handle|train|do)|"
            r"(?:哪个|哪一个|哪种)(?:能|可以)(?:跑|运行|部署|训练|推理|装下|放下)|跑得动|能不能跑",
            re.I,
        ),
    ),
)


def criterion(question: str) -> str | None:
    """The criterion the comparison question asks about: "count", "runs", "cost", "speed",
    "memory" or "power"; None when it names none."""
    return next((name for name, words in _CRITERIA if words.search(question)), None)


def _hardware(option: Option) -> Msg:
    s = option.scenario
    return Msg("common.gpus", count=s.gpu_count or 1, gpu=s.gpu or "GPU")


def runs_sentences(options: Sequence[Option], changes: Sequence[str | None]) -> list[Msg]:
    """Which options run the job as asked, which only after a change (and which), which not;
    `changes` are each option's first fix (None when it has none)."""
    feasible = [o for o in options if o.verdict == "feasible"]
    others = tuple(_hardware(o) for o in options if o.verdict != "feasible")
    out: list[Msg] = []
    if feasible and not others:
        out.append(Msg("compare.runs_all"))
    elif len(feasible) == 1:
        out.append(Msg("compare.runs_only", winner=_hardware(feasible[0]), losers=others))
    elif feasible:
        winners = tuple(_hardware(o) for o in feasible)
        out.append(Msg("compare.runs_some", winners=winners, losers=others))
    for option, change in zip(options, changes, strict=True):
        if option.verdict == "conditional" and change:
            out.append(Msg("compare.runs_after", hardware=_hardware(option), change=change))
    return out


def fewest_sentence(options: Sequence[Option]) -> Msg | None:
    """ "X needs the fewest GPUs": the least `gpus_needed`; a tie names every tied card and,
    of them, the one with the most free memory across its GPUs."""
    needed = {id(o): n for o in options if isinstance(n := o.figures.get("gpus_needed"), int)}
    counted = [o for o in options if id(o) in needed]
    if len(counted) < 2:
        return None
    fewest = min(needed.values())
    tied = [o for o in counted if needed[id(o)] == fewest]
    others = tuple(
        Msg("common.gpus", count=needed[id(o)], gpu=o.scenario.gpu or "GPU")
        for o in counted
        if o not in tied
    )
    if len(tied) == 1:
        gpu = tied[0].scenario.gpu or "GPU"
        return Msg("compare.fewest", gpu=gpu, count=fewest, others=others)
    roomy = [o for o in tied if isinstance(o.figures.get("free_bytes"), float)]
    best = max(roomy, key=lambda o: float(o.figures["free_bytes"]), default=tied[0])  # type: ignore[arg-type]
    gpus = tuple(o.scenario.gpu or "GPU" for o in tied)
    key = "compare.fewest_tie" if others else "compare.fewest_all"
    return Msg(key, gpus=gpus, count=fewest, others=others, best=best.scenario.gpu or "GPU")


#: The cost win by how it was asked (value for money, or the cheapest) and by what it is per:
#: a million generated tokens when serving, an hour of serving when each option was sized to
#: the same stated load (the same tokens), else the run.
_COST_KEYS = {
    (True, "cost_per_million"): "compare.value_tokens",
    (True, "cost_per_hour"): "compare.value_hour",
    (True, ""): "compare.value_run",
    (False, "cost_per_million"): "solve.wins_cost_tokens",
    (False, "cost_per_hour"): "compare.cheapest_hour",
    (False, ""): "solve.wins_cost",
}


def cost_sentence(options: Sequence[Option], winner: Option, *, value: bool) -> Msg:
    """ "A6000 is the better value: about 6.29 against 7.03 USD per million generated tokens on
    L40S (10% cheaper)": the winner's cost against the next cheapest option's, and by how much
    less; `value` when the question asked for value ("性价比") rather than the cheapest."""
    f = winner.figures
    others = [o for o in options if o is not winner and isinstance(o.figures.get("cost"), float)]
    runner = min(others, key=lambda o: float(o.figures["cost"]))  # type: ignore[arg-type]
    mine, theirs = float(f["cost"]), float(runner.figures["cost"])  # type: ignore[arg-type]
    per = next((k for k in ("cost_per_million", "cost_per_hour") if f.get(k)), "")
    key = _COST_KEYS[(value, per)]
    return Msg(
        key,
        winner=_hardware(winner),
        cost=mine,
        other=theirs,
        loser=_hardware(runner),
        saving=1.0 - mine / theirs if theirs else 0.0,
        currency=winner.scenario.currency or "",
    )


#: What a cost is per, by the figure that marks it (see `_COST_KEYS`).
_PER = {"cost_per_million": "compare.per_million", "cost_per_hour": "compare.per_hour"}


def cost_tie(options: Sequence[Option]) -> Msg | None:
    """ "2 × H100 and 4 × A100 cost about the same: about 40 CNY per hour of serving": when the
    cost was asked and no option wins it (within 1%), that they tie, not silence."""
    priced = [
        o
        for o in options
        if o.verdict in ("feasible", "conditional") and isinstance(o.figures.get("cost"), float)
    ]
    if len(priced) < 2 or any("cost" in o.wins for o in options):
        return None
    f = priced[0].figures
    per = next((_PER[k] for k in _PER if f.get(k)), "compare.per_run")
    return Msg(
        "compare.cost_tie",
        options=tuple(_hardware(o) for o in priced),
        cost=float(f["cost"]),  # type: ignore[arg-type]
        currency=priced[0].scenario.currency or "",
        per=Msg(per),
    )


#: The speed tie by what is compared: a run's duration, a serving total, one sequence's speed.
_SPEED_TIE = {
    "seconds": "compare.speed_tie_time",
    "many": "compare.speed_tie_rate",
    "one": "compare.speed_tie_rate_one",
}


def speed_tie(options: Sequence[Option]) -> Msg | None:
    """ "8 × H20 96GB and 16 × H100 SXM 80GB are about as fast: about 30 tokens/s for one
    sequence": when speed decides and no working option is faster than the next by more than
    1% (the win's own threshold), the options tied at the top, not silence."""
    if any("speed" in o.wins for o in options):
        return None
    working = [o for o in options if o.verdict in ("feasible", "conditional")]
    for key, higher in (("seconds", False), ("tokens_per_second", True)):
        rated = [o for o in working if isinstance(o.figures.get(key), float)]
        if len(rated) < 2:
            continue
        values = [float(o.figures[key]) for o in rated]  # type: ignore[arg-type]
        best = max(values) if higher else min(values)
        tied = tuple(_hardware(o) for o, v in zip(rated, values) if abs(v - best) <= 0.01 * best)
        if len(tied) < 2:
            return None
        many = any(float(o.figures.get("concurrent_sequences") or 1) > 1 for o in rated)
        kind = key if key == "seconds" else ("many" if many else "one")
        return Msg(_SPEED_TIE[kind], options=tied, value=best)
    return None
