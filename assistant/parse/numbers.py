"""Numbers in questions: Chinese numerals, English number words and magnitude suffixes.

The parser first *normalises* a question (NFKC, lower case, Chinese numerals and English
number words rewritten as Arabic digits), then reads slots from the normalised text with
regular expressions. Everything here is pure and cheap.

Examples:
    >>> cn_value("七百亿")
    70000000000
    >>> cn_value("万亿")
    1000000000000
    >>> normalize_numbers("两台8卡训练千亿模型")
    '2台8卡训练100000000000模型'
    >>> magnitude("1.5", "t")
    1500000000000.0
    >>> normalize_numbers("用负八张h100")  # a spelled-out minus stays a sign, to be refused
    '用-8张h100'
    >>> normalize_numbers("万卡集群"), normalize_numbers("万一")
    ('10000卡集群', '万一')
"""

from __future__ import annotations

import re
import unicodedata

from assistant.hanzi import to_simplified

__all__ = [
    "CURRENCY",
    "CURRENCY_WORD",
    "MAGNITUDES",
    "NUMBER",
    "SET_TO",
    "clean_text",
    "cn_value",
    "drop_change_verbs",
    "first_match",
    "magnitude",
    "normalize_numbers",
    "plain_digits",
    "to_float",
]

_CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
#: Money words and symbols → ISO currency; the one table every money reader uses. 块 / 块钱 is
#: colloquial yuan ("10万块钱预算", "每卡时2块钱", "两块一度电").
CURRENCY: dict[str, str] = {
    "$": "USD", "usd": "USD", "美元": "USD", "美金": "USD", "dollar": "USD", "dollars": "USD",
    "buck": "USD", "bucks": "USD",
    "¥": "CNY", "￥": "CNY", "rmb": "CNY", "cny": "CNY", "元": "CNY", "块": "CNY", "块钱": "CNY",
    "yuan": "CNY", "人民币": "CNY", "刀": "USD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP",
}  # fmt: skip
#: A capture group matching any key of :data:`CURRENCY`, longest first ("块钱" before "块").
#: "刀" is the spoken dollar ("2万刀"), never the "刀" of a blade server ("刀片").
CURRENCY_WORD = (
    "("
    + "|".join(
        re.escape(k) + ("(?!片)" if k == "刀" else "")
        for k in sorted(CURRENCY, key=len, reverse=True)
    )
    + ")"
)
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_CHARS = "".join(_CN_DIGITS) + "十百千万亿"

#: English magnitude suffixes (decimal: a "70B" model has 70e9 parameters).
MAGNITUDES: dict[str, float] = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "g": 1e9,
    "t": 1e12,
    "tn": 1e12,
    "trillion": 1e12,
    "quadrillion": 1e15,
}

#: "多少路32k并发", "几路 128k 并发", "how many 32k concurrent": a length after the asked count.
_ASKED_THEN_LENGTH = re.compile(
    r"((?:多少|几)\s*(?:路|个)?\s*|how many\s+)(\d+(?:\.\d+)?\s*k)"
    r"\s*(?=(?:的)?\s*(?:并发|concurrent))"
)


def _asked_then_length(match: re.Match[str]) -> str:
    word = "上下文" if re.search(r"[多几]", match.group(1)) else " context "
    return match.group(1) + match.group(2) + word


#: A plain decimal number in normalised text (signed, so "-8 cards" is caught and refused).
NUMBER = r"(?<![a-z0-9.])([-−]?\d+(?:\.\d+)?(?:e[+-]?\d+)?)"

#: The verbs that set a quantity to a number, as follow-ups say them ("并发改成32",
#: "并发开到64", "拉到128k", "batch 调成 16"): between a load word and its number.
SET_TO = (
    r"改成|改为|换成|设为|设成|调到|调成|调整到|调整为|提到|提高到|提升到|加到|增加到|增到|"
    r"开到|开成|拉到|上到|扩到|扩大到|涨到|变成|改回|换回|调回|回到|降到|降为|降至|降低到|减到|"
    r"减少到|缩到|到"
)

_ENGLISH_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "sixteen": 16,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "ninety": 90,
    "thirty-two": 32,
    "sixty-four": 64,
    "hundred": 100,
    "a dozen": 12,
    "a hundred": 100,
    "a thousand": 1000,
    "a single": 1,
    "single": 1,
    "a couple of": 2,
    "a pair of": 2,
}
_ENGLISH_RE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _ENGLISH_WORDS), key=len, reverse=True)) + r")\b"
)
_TIMES_RE = re.compile(
    r"\b("
    + "|".join(w for w in _ENGLISH_WORDS if w.isalpha() and _ENGLISH_WORDS[w] < 100)
    + r"|\d+(?:\.\d+)?)\s+(hundred|thousand)\b"
)


def _rewrite_times(match: re.Match[str]) -> str:
    unit = _ENGLISH_WORDS.get(match.group(1))
    count = float(unit) if unit is not None else float(match.group(1))
    return _format(count * (100 if match.group(2) == "hundred" else 1000))


# Words where a Chinese numeral is not a number; protected from rewriting.
_CN_IDIOMS = (
    "一共",  # "一共多少钱", "权重一共有多少": a total, not "1共"
    "一下",
    "一些",
    "一般",
    "一起",
    "一定",
    "一点",
    "统一",
    "唯一",
    "万一",
    "千万别",
    "一样",
    "一直",
    "进一步",
    "第一",
    "一致",
    "百度",
    "千兆",
    "万兆",
    "十分",
    "一键",
    "同一",
    "一次性",
    "单一",
    "之一",
    "不一",
)
#: "千瓦" (kW) is a unit, not the place 千: "十五千瓦" is 15 kW, never 十 + 五千 = 5,010 W.
_CN_RUN = re.compile(r"(\d+(?:\.\d+)?)?((?:(?!千瓦)[" + _CN_CHARS + r"])+)")
#: "负8张卡", "负三天": 负 (minus) right before a number is its sign, never dropped, so that the
#: count is refused as negative instead of read as 8; "负载" or "负责" are words, not signs.
_CN_MINUS = re.compile(r"负\s*(?=\d)")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_QUOTED_SIZE = re.compile(
    r"[\"“「『‘'](\s*(?:\d+(?:\.\d+)?\s*[BbMmKkTt]|[\d.]*["
    + _CN_CHARS
    + r"]*[亿万])\s*)[\"”」』’']"
)
#: Misspellings of the load words the patterns read ("-20 concurent users"): folded to the word.
_TYPOS = (
    (re.compile(r"\bconcur+[ae]n?t", re.IGNORECASE), "concurrent"),
    (re.compile(r"\bsimultan(?:i|e)ous", re.IGNORECASE), "simultaneous"),
)
_POWER = re.compile(r"(\d+(?:\.\d+)?)\s*[x×*]\s*10\s*\^\s*(\d+)|(?<![\d.])10\s*\^\s*(\d+)")


def clean_text(text: str) -> str:
    """Strip ANSI escapes and control characters, fold full-width forms (NFKC), squeeze spaces.
    A full-width comma between digits is a clause break, never a thousands separator:
    "PP=2，300B token" is PP 2 and 300B tokens, not PP 2300. Traditional characters are folded
    to simplified ("兩臺" → "两台"), as the patterns are written in simplified Chinese. A size in
    quotes is the size: "训练“千亿”模型" is 训练千亿模型.

    >>> clean_text("16张H100，PP=2，300B token")
    '16张H100,PP=2, 300B token'
    >>> clean_text("能训练“千亿”模型吗"), clean_text('a "70B" model')
    ('能训练千亿模型吗', 'a 70B model')
    >>> clean_text("for 20 concurent users"), clean_text("concurrent")
    ('for 20 concurrent users', 'concurrent')
    """
    text = re.sub("(?<=\\d)\uff0c(?=\\d)", ", ", _ANSI.sub(" ", text))
    text = to_simplified(unicodedata.normalize("NFKC", text))
    text = _QUOTED_SIZE.sub(r"\1", text)
    for typo, word in _TYPOS:
        text = typo.sub(word, text)
    kept = [ch if unicodedata.category(ch)[0] != "C" else " " for ch in text]
    return re.sub(r"\s+", " ", "".join(kept)).strip()


def cn_value(chars: str) -> int:
    """The value of a run of Chinese numerals ("七百亿" → 7e10, "千卡" prefix "千" → 1000).

    A last digit right after 百, 千 or 万 is the next place down, as said aloud: "一万五" is
    15,000 and "两千五" 2,500 (with 零 it is the units: "一万零五" is 10,005).

    >>> cn_value("一万五"), cn_value("两千五"), cn_value("一百五"), cn_value("一万零五")
    (15000, 2500, 150, 10005)
    """
    result = wan = section = number = 0
    unit = 1  # the place of the character before the last digit (1: none, or 零 between)
    for ch in chars:
        if ch in _CN_DIGITS:
            number = _CN_DIGITS[ch]
            unit = 1 if ch in "零〇" else unit
        elif ch in _CN_SMALL:
            section += (number or 1) * _CN_SMALL[ch]
            number, unit = 0, _CN_SMALL[ch]
        elif ch == "万":
            wan += (section + number or 1) * 10_000
            section = number = 0
            unit = 10_000
        elif ch == "亿" and result and not (wan or section or number):
            result *= 100_000_000  # "亿亿": 1e16, not 2e8
        elif ch == "亿":
            result += (wan + section + number or 1) * 100_000_000
            wan = section = number = 0
            unit = 1  # "三亿五" is rare and ambiguous: the units
    if number and unit >= 100 and chars[-1] in _CN_DIGITS:
        number *= unit // 10
    return result + wan + section + number


def _format(value: float) -> str:
    if value == int(value) and abs(value) < 1e18:
        return str(int(value))
    return repr(float(value))


def _rewrite_cn(match: re.Match[str]) -> str:
    arabic, chars = match.group(1), match.group(2)
    after = match.string[match.end() : match.end() + 8]
    if arabic is not None:
        if set(chars) - set("十百千万亿"):
            head = len(chars) - len(chars.lstrip("十百千万亿"))
            if head == 0:  # "0.5一度" is 0.5 a kWh, never 0.51: two numbers, kept apart
                return arabic + " " + _rewrite_pure(chars)
            return _format(float(arabic) * cn_value(chars[:head])) + _rewrite_pure(chars[head:])
        return _format(float(arabic) * cn_value(chars))
    return _rewrite_pure(chars, after)


#: A lone 万 or 亿 is kept (it is part of words), except as a count of cards: "万卡集群" has
#: 10,000 GPUs as "千卡集群" has 1,000.
_CARD_AFTER = re.compile(r"\s*(?:张|块)?\s*(?:卡|显卡|gpu)")


#: Two numerals in a row with no place between start a new number: "两千五一张" is 2,500 for
#: one card, not 2,001 ("零" is a placeholder, "十" a place, so "一万零五" and "二十" stay whole).
_CN_NEXT_NUMBER = re.compile("(?<=[一二两俩三四五六七八九])(?=[一二两俩三四五六七八九])")


def _rewrite_pure(chars: str, after: str = "") -> str:
    if not chars:
        return ""
    if _CN_NEXT_NUMBER.search(chars):
        first, rest = _CN_NEXT_NUMBER.split(chars, maxsplit=1)
        return _rewrite_pure(first) + " " + _rewrite_pure(rest, after)
    if len(chars) == 1 and chars in "万亿":
        return _format(cn_value(chars)) if _CARD_AFTER.match(after) else chars
    return _format(cn_value(chars))


#: "两块五一度电", "电价一块二每度": yuan and tenths said as 块 + one digit (2.5, 1.2), only
#: before a price's unit (一度, 毛, 钱, /, 每), so "8块二手卡" (eight second-hand cards) and
#: "两块一度电" (2 a kWh) keep theirs.
_KUAI_TENTHS = re.compile(
    r"([\d一二两三四五六七八九十]+)块([二三四五六七八九])(?=\s*(?:一度|1度|毛|钱|/|每|元))"
)


#: "八毛五一度", "电价6毛", "一块二毛": 毛 is a tenth of a yuan (and the digit after it a
#: hundredth), said before a price's unit or at the end of the amount; "毛利" is a word.
_MAO = re.compile(
    r"(?:([\d一二两三四五六七八九十]+)块)?([\d一二两三四五六七八九])毛(?!利|病|巾|衣|笔)"
    r"([\d一二三四五六七八九](?![\d十百千万亿]|\s*(?:度|张|台|卡|块|个|小时|天|月|年)))?(?:钱)?"
)


def _digit(chars: str) -> int:
    return int(chars) if chars.isdigit() else cn_value(chars)


def _rewrite_mao(match: re.Match[str]) -> str:
    whole, tenths, hundredths = match.groups()
    value = (_digit(whole) if whole else 0) + _digit(tenths) / 10
    value += _digit(hundredths) / 100 if hundredths else 0
    return f"{round(value, 2):g}元"


def _rewrite_kuai(match: re.Match[str]) -> str:
    whole = match.group(1)
    value = int(whole) if whole.isdigit() else cn_value(whole)
    return f"{value}.{_CN_DIGITS[match.group(2)]}块"


#: "1万5" (15,000), "2千5" (2,500), "1万5千" (15,000): an Arabic number with a place and one
#: more digit, as "一万五" is said; the next place may follow ("千" after 万, "百" after 千).
_ARABIC_PLACES = re.compile(r"(?<![\d.])(\d+)([万千])(\d)(千|百)?(?![\d.])")
_PLACE = {"万": 10_000, "千": 1_000, "百": 100}


def _rewrite_places(match: re.Match[str]) -> str:
    high, place, digit, lower = match.groups()
    down = _PLACE[lower] if lower else _PLACE[place] // 10
    if lower and down != _PLACE[place] // 10:
        return match.group(0)  # "1万5百" is no spoken form: kept as written
    return _format(int(high) * _PLACE[place] + int(digit) * down)


def normalize_numbers(text: str) -> str:
    """Rewrite Chinese numerals, English number words and powers of ten as Arabic numbers.

    The text should already be cleaned and lower-cased. Idioms such as "一下" or "千兆" are kept.

    >>> normalize_numbers("两块五一度电"), normalize_numbers("两块一度电")
    ('2.5块1度电', '2块1度电')
    >>> normalize_numbers("8块二手卡"), normalize_numbers("电费0.5一度")
    ('8块2手卡', '电费0.5 1度')
    >>> normalize_numbers("八毛五一度"), normalize_numbers("6毛一度"), normalize_numbers("1块2毛")
    ('0.85元1度', '0.6元1度', '1.2元')
    >>> normalize_numbers("一张1万5"), normalize_numbers("两千五一张"), normalize_numbers("2千5")
    ('1张15000', '2500 1张', '2500')
    """
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # "1,024 A100s" is 1024, not 24
    text = re.sub(r"(?<![\w/])w/(?=\s)", "with", text)  # "w/ 500M tokens" ("w/o" is kept)
    # "能支持多少路32k并发", "how many 32k concurrent": the count is asked, so the 32k before
    # 并发 is each one's context, never 32,000 users
    text = _ASKED_THEN_LENGTH.sub(_asked_then_length, text)
    text = re.sub(
        r"(\d)-(quadrillion|trillion|billion|million|thousand)\b", r"\1 \2", text
    )  # "7-billion"
    text = _POWER.sub(_rewrite_power, text)
    text = _TIMES_RE.sub(_rewrite_times, text)  # "two hundred H100s" is 200, not 2 and 100
    text = _MAO.sub(_rewrite_mao, text)
    text = _KUAI_TENTHS.sub(_rewrite_kuai, text)
    text = _ARABIC_PLACES.sub(_rewrite_places, text)
    text = _ENGLISH_RE.sub(lambda m: str(_ENGLISH_WORDS[m.group(1)]), text)
    pieces: list[str] = []
    pos = 0
    for idiom_match in re.finditer("|".join(_CN_IDIOMS), text):
        pieces.append(_CN_RUN.sub(_rewrite_cn, text[pos : idiom_match.start()]))
        pieces.append(idiom_match.group(0))
        pos = idiom_match.end()
    pieces.append(_CN_RUN.sub(_rewrite_cn, text[pos:]))
    return _CN_MINUS.sub("-", "".join(pieces))


#: A slot word, then a verb of change, then the new value: "每卡时降到5元", "电价涨到1元",
#: "并发提到64", "concurrency is raised to 64", "price goes up to $3": the verb goes, so the
#: value is read as if typed right after its word ("每卡时5元"), as a follow-up's new value.
_SLOT_WORD = (
    r"(每?卡时|电价|电费|单价|价格|租金|并发(?:数|量)?|上下文(?:长度)?|序列长度|预算|批大小|"
    r"\bprice|\brate|\bconcurrency|\bcontext(?: length)?|\bbudget|\bbatch(?: size)?|"
    r"\belectricity(?: price)?|\bsequence length)"
)
_CHANGE_VERB = re.compile(
    _SLOT_WORD + r"\s*(?:(?:也|再|就)?\s*(?:降到|降至|降低到|降为|涨至|涨为|提至|升到|升至|减到|"
    r"减少到|减至|改到|变为|调为|" + SET_TO + ")"
    r"|(?:(?:is|was|gets|got|goes|went|were|be)\s+)?(?:raised|bumped|increased|reduced|lowered|"
    r"dropped|drops|cut|changed|set|moved|pushed|rises|rose|falls|fell|climbs|grows|jumps|goes|"
    r"went)(?:\s+(?:up|down))?\s+to\b)\s*(?=[-−$¥￥€£]?\s*\d)"
)


def drop_change_verbs(text: str) -> str:
    """`text` without the verb of a stated change between a slot word and its new value.

    >>> drop_change_verbs("那每卡时降到5元呢"), drop_change_verbs("concurrency is raised to 64?")
    ('那每卡时 5元呢', 'concurrency 64?')
    >>> drop_change_verbs("loss降到2以下")  # no slot word: left alone
    'loss降到2以下'
    """
    return _CHANGE_VERB.sub(lambda m: m.group(1) + " ", text)


def _rewrite_power(match: re.Match[str]) -> str:
    if match.group(3) is not None:
        return _format(10.0 ** min(int(match.group(3)), 300))
    return _format(float(match.group(1)) * 10.0 ** min(int(match.group(2)), 300))


def to_float(text: str) -> float:
    """Parse a number captured by :data:`NUMBER` (accepts the Unicode minus sign)."""
    return float(text.replace("−", "-"))


def magnitude(number: str, suffix: str) -> float:
    """`number` times the English magnitude `suffix` ("70", "b" → 7e10)."""
    return to_float(number) * MAGNITUDES[suffix.lower()]


def plain_digits(text: str) -> str:
    """Thousands separators out ("$50,000" → "$50000")."""
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)


def first_match(patterns: tuple[re.Pattern[str], ...], text: str) -> re.Match[str] | None:
    """The first of `patterns` (in order) that matches `text` with its thousands separators out
    ("$50,000" is read as "$50000"); None when none does."""
    plain = plain_digits(text)
    for pattern in patterns:
        match = pattern.search(plain)
        if match is not None:
            return match
    return None
