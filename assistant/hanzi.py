"""Traditional Chinese folded to simplified, so a question written in 繁体 is read as in 简体.

The parser's patterns, the name aliases, the jieba dictionary and the knowledge base are all
simplified Chinese: "用8張A100訓練70B模型" matched none of 张, 训练 and was answered as inference
on one card. Both the parser (`assistant.parse.numbers.clean_text`) and the retriever
(`assistant.retrieval.tokenize.normalize`) fold the text through :func:`to_simplified` first. The
table is data (`assistant/data/traditional.tsv`): Taiwan words first (伺服器 → 服务器), longest
first, then characters simplified text never uses.

Examples:
    >>> to_simplified("兩臺8卡H100訓練70B模型，顯存夠嗎")
    '两台8卡H100训练70B模型，显存够吗'
    >>> to_simplified("伺服器的記憶體")
    '服务器的内存'
    >>> to_simplified("昇腾910B")  # simplified text is left as it is
    '昇腾910B'
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = ["to_simplified"]


@lru_cache(maxsize=1)
def _table() -> tuple[re.Pattern[str] | None, dict[str, str], dict[int, str]]:
    text = resources.files("assistant").joinpath("data/traditional.tsv").read_text("utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    words = {old: new for old, new in rows if len(old) > 1}
    chars = str.maketrans({old: new for old, new in rows if len(old) == 1})
    ordered = sorted(words, key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None
    return pattern, words, chars


def to_simplified(text: str) -> str:
    """`text` with its traditional words and characters replaced by the simplified ones."""
    pattern, words, chars = _table()
    if pattern is not None:
        text = pattern.sub(lambda match: words[match.group(0)], text)
    return text.translate(chars)
