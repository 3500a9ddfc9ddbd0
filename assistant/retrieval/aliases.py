"""Query-side Chinese handling beside the words: typo fixes, aliases and character bigrams.

- **Typos** (`typos.tsv`): common misspellings, mostly pinyin-input homophones ("功号" for
  "功耗", "现存" for "显存"), replaced in the query text before it is tokenized. A list, not
  a rule: a one-character substitution of a two-character word has too many candidates
  ("功号" could be 功耗, 功能 or 功率) for an edit distance to choose.
- **Aliases** (`aliases.tsv`): abbreviations and other names ("IB" → InfiniBand, "万兆" →
  10GbE, "首字" → TTFT) that add their expansion at full weight, as if typed.
- **Character bigrams**: every pair of neighbouring CJK characters (skipping one-character
  stopwords), indexed as a second field beside jieba's words, so a query segmented
  differently from the document ("算力 中心" against "算力中心", or an out-of-dictionary
  word) still matches. They are prefixed with `BIGRAM_MARK` so they never collide with words.

Pure functions over text; the data files are hashed into the tokenizer version.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["BIGRAM_MARK", "alias_terms", "cjk_bigrams", "fix_typos", "has_alias"]

#: Prefix of a character-bigram token in the keyword index.
BIGRAM_MARK = "~"
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _lines(name: str) -> list[list[str]]:
    from assistant.retrieval.tokenize import data_lines, normalize

    rows = (line.split("\t") for line in data_lines(name))
    return [[normalize(f.strip()) for f in row if f.strip()] for row in rows]


@lru_cache(maxsize=1)
def _typos() -> tuple[tuple[str, str], ...]:
    return tuple((row[0], row[1]) for row in _lines("typos.tsv") if len(row) == 2)


@lru_cache(maxsize=1)
def _aliases() -> dict[str, tuple[str, ...]]:
    return {row[0]: tuple(row[1:]) for row in _lines("aliases.tsv") if len(row) > 1}


def fix_typos(text: str) -> str:
    """`text` (normalised) with the listed misspellings corrected.

    Examples:
        >>> fix_typos("H100功号多少瓦")
        'h100功耗多少瓦'
    """
    from assistant.retrieval.tokenize import normalize

    text = normalize(text)
    for wrong, right in _typos():
        text = text.replace(wrong, right)
    return text


def has_alias(token: str) -> bool:
    """Whether `token` (normalised) has an entry in `aliases.tsv`."""
    return token in _aliases()


def alias_terms(tokens: Sequence[str]) -> list[str]:
    """Tokens the aliases of `tokens` expand to (the tokens themselves not included).

    Examples:
        >>> alias_terms(["ib", "网络"])
        ['infiniband']
    """
    from assistant.retrieval.tokenize import tokenize

    table = _aliases()
    added: list[str] = []
    for token in dict.fromkeys(tokens):
        for expansion in table.get(token, ()):
            added.extend(t for t in tokenize(expansion) if t not in tokens and t not in added)
    return added


@lru_cache(maxsize=1)
def _stop_chars() -> frozenset[str]:
    from assistant.retrieval.tokenize import stopwords

    return frozenset(word for word in stopwords() if len(word) == 1)


def cjk_bigrams(text: str) -> list[str]:
    """Character bigrams of the CJK runs of `text` (normalised), marked with `BIGRAM_MARK`;
    a bigram with a one-character stopword ("的", "吗") is skipped.

    Examples:
        >>> cjk_bigrams("算力中心的电价")
        ['~算力', '~力中', '~中心', '~电价']
    """
    from assistant.retrieval.tokenize import normalize

    stop = _stop_chars()
    grams: list[str] = []
    for run in _CJK_RUN.findall(normalize(text)):
        for first, second in zip(run, run[1:]):
            if first not in stop and second not in stop:
                grams.append(BIGRAM_MARK + first + second)
    return grams
