"""Tokenization for keyword (BM25) scoring: pure functions over text, no index state.

Pipeline: NFKC (full-width → half-width) and lowercase → protected tokens (GPU and model
names, numbers with units: `h800`, `a100-80g`, `zero-3`, `bf16`, `70b`, `400gbps`) taken out
whole by a regular expression before jieba sees the text (a compound also yields its parts:
`a100-80g` → `a100`, `80g`) → jieba *precise* mode (`lcut`, not search mode, whose
overlapping sub-words match noise) over the CJK runs, with a domain user dictionary and
without the HMM word guesser (unknown runs fall back to single characters instead of
invented words; on the golden set BM25 MRR went 0.890 → 0.907) → a light English plural
fold → stopwords (both languages, including question words) dropped.

Queries are further expanded with a zh↔en synonym map (`expand_query`): the hand-written
`synonyms.tsv` and `synonyms_derived.tsv`, derived from the knowledge base's translation
pairs (:mod:`assistant.retrieval.pairs`); synonyms carry a lower weight than typed words.

jieba is imported lazily, once per process, under a lock; its dictionary is read from our
cache in :func:`assistant.locations.cache_dir` a first character at a time, as text needs it
(:mod:`assistant.retrieval.dictionary`).
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
import warnings
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jieba import Tokenizer

    from assistant.retrieval.dictionary import Dictionary

__all__ = [
    "DERIVED_WEIGHT",
    "SYNONYM_WEIGHT",
    "TOKENIZER_VERSION",
    "data_lines",
    "expand_query",
    "index_tokens",
    "jieba_tokenizer",
    "normalize",
    "stopwords",
    "tokenize",
]

_DATA_FILES = (
    "userdict.txt",
    "stopwords_zh.txt",
    "stopwords_en.txt",
    "synonyms.tsv",
    "aliases.tsv",
    "typos.tsv",
    "synonyms_derived.tsv",
    "traditional.tsv",
)

#: Weight of a synonym added by :func:`expand_query` (an exact query token weighs 1.0).
#: Lower, so a passage that uses the user's own word outranks one that only uses its translation.
SYNONYM_WEIGHT = 0.6
#: Weight of a synonym derived from the translation pairs (`synonyms_derived.tsv`): lower
#: than a hand-written one, as about one in four derived pairs is only topically related.
DERIVED_WEIGHT = 0.4

# A number with a unit, possibly written with a space ("400 Gbps", "80 GB"): joined into one token.
_UNITS = (
    "gbps|gb/s|tb/s|mb/s|gbit/s|tbps|gib|gb|tib|tb|mib|mb|kb|tflops|pflops|gflops|flops|"
    "kwh|mwh|kw|mw|w|ghz|mhz|ms|us|ns|tokens|token|k|m|b|t|x"
)
_NUMBER_UNIT = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)\s({_UNITS})(?![a-z0-9])")
# Latin/digit words, kept whole with inner hyphens, dots, slashes and pluses:
# h800, a100-80g, zero-3, llama-2-70b, 400gbps, 1.5, 8x, gb/s, c++.
_LATIN = re.compile(r"[a-z0-9]+(?:[-_./+][a-z0-9]+)*\+*")
_SEGMENTS = re.compile(
    r"(?P<latin>[a-z0-9]+(?:[-_./+][a-z0-9]+)*\+*)|(?P<cjk>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)"
)
_PARTS = re.compile(r"[-_./+]")

_lock = threading.Lock()
_dictionary: Dictionary | None = None


_DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def _data_text(name: str) -> str:
    return (_DATA_DIR / name).read_text(encoding="utf-8")


def data_lines(name: str) -> list[str]:
    """The non-empty, non-comment lines of a file in `assistant/data/`."""
    return _data_lines(name)


def _data_lines(name: str) -> list[str]:
    lines = (line.strip() for line in _data_text(name).splitlines())
    return [line for line in lines if line and not line.startswith("#")]


#: Bump when a rule in this module changes how text is tokenized (the data files are hashed).
_RULES_REVISION = "3"


def _version() -> str:
    digest = hashlib.sha256(_RULES_REVISION.encode())
    for name in _DATA_FILES:
        digest.update(name.encode())
        digest.update(_data_text(name).encode("utf-8"))
    return "tok1-" + digest.hexdigest()[:12]


#: A hash of the dictionary, stopwords and synonyms files and `_RULES_REVISION`: stored in
#: the index manifest, so a changed tokenizer triggers a rebuild.
TOKENIZER_VERSION: str = _version()


def import_jieba() -> Any:
    """The `jieba` module, imported without its warnings.

    jieba 0.42 has invalid escape sequences: compiling it without cached bytecode (a source
    install, Python 3.12+) would print SyntaxWarnings over the user's screen. Changing the
    warning filters is not thread-safe, so a caller about to load the dictionary in a
    thread imports the module first, on its own thread (36 ms).
    """
    import sys

    if "jieba" in sys.modules:
        return sys.modules["jieba"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        import jieba
    return jieba


def jieba_tokenizer() -> Tokenizer:
    """The process-wide jieba tokenizer with our user dictionary, set up once (thread-safe).

    Its dictionary comes from our cache in :func:`assistant.locations.cache_dir`, read shard
    by shard as text is segmented (:mod:`assistant.retrieval.dictionary`); jieba's own cache
    and log are not used.
    """
    return _segmenter().tokenizer


def _segmenter() -> Dictionary:
    global _dictionary
    if _dictionary is not None:
        return _dictionary
    with _lock:
        if _dictionary is None:
            from assistant.locations import cache_dir
            from assistant.retrieval.dictionary import cache_key, open_dictionary

            tokenizer = import_jieba().dt
            key = cache_key(_data_text("userdict.txt"))
            cache = cache_dir() / "jieba.cache"
            _dictionary = open_dictionary(tokenizer, cache, key, _add_user_words)
    return _dictionary


def load_whole_dictionary() -> None:
    """Read all of jieba's dictionary into memory, so its cache file may be deleted."""
    _segmenter().load_everything()


def _add_user_words(tokenizer: Any) -> None:
    for line in _data_lines("userdict.txt"):
        _add_word(tokenizer, line.split())


def _add_word(tokenizer: Any, fields: list[str]) -> None:
    word = fields[0].lower()
    freq = int(fields[1]) if len(fields) > 1 else None
    tag = fields[2] if len(fields) > 2 else None
    tokenizer.add_word(word, freq, tag)


def stopwords() -> frozenset[str]:
    """Both languages' stopwords, normalised."""
    return _stopwords()


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    words = _data_lines("stopwords_zh.txt") + _data_lines("stopwords_en.txt")
    return frozenset(_normalize(word) for word in words)


def normalize(text: str) -> str:
    """NFKC (full-width → half-width), traditional → simplified Chinese, and lowercase."""
    from assistant.hanzi import to_simplified

    return to_simplified(unicodedata.normalize("NFKC", text)).lower()


_normalize = normalize


_NOT_PLURAL = frozenset(
    "gbps tbps mbps bps flops gflops tflops pflops petaflops teraflops iops ops "
    "bus status corpus focus nexus consensus virus bonus campus versus minus plus "
    "this has was does its series".split()
)


def _singular(word: str) -> str:
    """A light plural fold for English words ("gpus" → "gpu", "nodes" → "node")."""
    if word in _NOT_PLURAL or word[:1].isdigit():
        return word
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "is")):
        return word[:-1]
    return word


def _latin_tokens(word: str) -> list[str]:
    """A protected Latin token, plus its parts when it is a compound ("a100-80g" → a100, 80g)."""
    word = _singular(word)
    tokens = [word]
    if _PARTS.search(word):
        parts = [part for part in _PARTS.split(word) if part]
        # Bare one-digit parts ("zero-3" → "3") match every number in the corpus: drop them.
        tokens.extend(_singular(p) for p in parts if not (p.isdigit() and len(p) == 1))
    return tokens


def _cjk_tokens(run: str) -> list[str]:
    segmenter = _segmenter()
    segmenter.cover(run)
    return [word for word in segmenter.tokenizer.lcut(run, HMM=False) if word.strip()]


def tokenize(text: str) -> list[str]:
    """Keyword-scoring tokens of `text`, in order, stopwords removed.

    Examples:
        >>> tokenize("H800 能训练千亿模型吗?")
        ['h800', '训练', '千亿', '模型']
    """
    text = _NUMBER_UNIT.sub(r"\1\2", _normalize(text))
    stop = _stopwords()
    tokens: list[str] = []
    for match in _SEGMENTS.finditer(text):
        latin = match.group("latin")
        pieces = _latin_tokens(latin) if latin else _cjk_tokens(match.group("cjk"))
        tokens.extend(piece for piece in pieces if piece not in stop)
    return tokens


def index_tokens(text: str) -> list[str]:
    """What the keyword index stores for a passage: its words, then its CJK character
    bigrams (a second field, see :mod:`assistant.retrieval.aliases`)."""
    from assistant.retrieval.aliases import cjk_bigrams

    return tokenize(text) + cjk_bigrams(text)


@lru_cache(maxsize=1)
def _synonym_groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each hand-written group as a tuple of members, each member as its token sequence."""
    return _groups_of("synonyms.tsv")


@lru_cache(maxsize=1)
def _derived_groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The groups derived from translation pairs (:mod:`assistant.retrieval.pairs`)."""
    return _groups_of("synonyms_derived.tsv")


def _groups_of(name: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    groups = []
    for line in _data_lines(name):
        members = []
        for member in line.split("\t"):
            tokens = tuple(t for t in _member_tokens(member) if t)
            if tokens and tokens not in members:
                members.append(tokens)
        if len(members) > 1:
            groups.append(tuple(members))
    return tuple(groups)


def synonym_groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The zh↔en synonym groups: each a tuple of members, each member its token sequence."""
    return _synonym_groups()


def _member_tokens(member: str) -> list[str]:
    # A member is one dictionary word or a short phrase; tokenize it like a query, but keep
    # compounds whole (no parts), so "fine-tuning" expands to itself and not to "fine".
    tokens = tokenize(member.strip())
    whole = _singular(_normalize(member.strip()))
    if _LATIN.fullmatch(whole):
        return [whole]
    return tokens


Groups = tuple[tuple[tuple[str, ...], ...], ...]


@lru_cache(maxsize=2)
def _by_first_token(groups: Groups) -> dict[str, list[tuple[int, tuple[str, ...]]]]:
    """member's first token -> (group index, member), so a query is matched against the
    members that can start at one of its tokens instead of every member of every group."""
    index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for number, group in enumerate(groups):
        for member in group:
            index.setdefault(member[0], []).append((number, member))
    return index


def _matching_groups(tokens: Sequence[str], groups: Groups) -> list[int]:
    """Indices, in order, of the groups with a member that occurs in `tokens`."""
    index = _by_first_token(groups)
    found = set()
    for start, token in enumerate(tokens):
        for number, member in index.get(token, ()):
            if tuple(tokens[start : start + len(member)]) == member:
                found.add(number)
    return sorted(found)


def expand_query(tokens: Sequence[str]) -> list[tuple[str, float]]:
    """Weighted query terms: each distinct token at 1.0, plus synonyms at `SYNONYM_WEIGHT`.

    A synonym group matches when one of its members (a token or a token sequence such as
    `gpu memory`) occurs in `tokens`; its other members' tokens are added. A term keeps the
    highest weight it gets.

    Examples:
        >>> dict(expand_query(["显存", "带宽"]))["bandwidth"]
        0.6
    """
    weights: dict[str, float] = {}
    for token in tokens:
        weights[token] = 1.0
    tables = ((_synonym_groups(), SYNONYM_WEIGHT), (_derived_groups(), DERIVED_WEIGHT))
    for groups, weight in tables:
        for number in _matching_groups(tokens, groups):
            for member in groups[number]:
                for token in member:
                    weights.setdefault(token, weight)
    return list(weights.items())
