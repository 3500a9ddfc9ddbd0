"""What a quoted sentence opens with, read for choosing a concept headline (pure).

A headline sentence is read on its own, without the text before it, so how it opens decides
whether it can stand first:

- an *anaphor* ("这些 all-reduce …", "It needs …") points back at a sentence the reader never
  saw: it may be quoted only after that sentence;
- a *definition* of X opens with X as its subject ("张量（层内）并行把…", "MFU (model FLOPs
  utilisation) is …"), what "X是什么" / "what is X" asks for;
- a *side* of a comparison is what a sentence opens with ("InfiniBand is …"), so "A vs B"
  answered by a sentence about A alone also needs one about B;
- a *stated figure* ("16 bytes", "16 字节") that a "why" question asks about is answered by
  the section whose heading or sentence states it as its result.

Examples:
    >>> opens_with_anaphor("这些 all-reduce 处在关键路径上。"), opens_with_anaphor("Its cost …")
    (True, True)
    >>> opens_with_anaphor("其他框架保存得更多。"), opens_with_anaphor("Iteration time …")
    (False, False)
    >>> defined_term("张量并行是啥"), defined_term("What is pipeline parallelism?")
    ('张量并行', 'pipeline parallelism')
    >>> defines("张量（层内）并行把每个权重矩阵切分到 t 张 GPU 上。", "张量并行")
    True
    >>> asked_figures("why does adam take 16 bytes per parameter?")
    ('16 bytes',)
    >>> states_figure("drops from 16 to 10 bytes", ("16 bytes",))
    False
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "CONTRAST",
    "about_side",
    "about_side_alone",
    "asked_figures",
    "clause_subjects",
    "defined_term",
    "defines",
    "defines_in_clause",
    "describes_each",
    "names_exactly",
    "on_a_side",
    "opens_with_anaphor",
    "opens_with_side",
    "says_what_it_is",
    "states_difference",
    "states_figure",
    "without_parentheticals",
]

#: Openings that refer back to an earlier sentence; "其他" / "其次" name nothing earlier.
_ANAPHOR_OPENING = re.compile(
    r"^(?:这些|这种|这样|这|那些|上述|其(?![他次])|它们|它|(?:These|This|Those|It|Its|Such|They|Their)\b)"
)
#: What "what is X" wraps around X.
_DEFINITION_WORDS = re.compile(
    r"^\s*(?:请问|请)?(?:什么是|啥是|what\s+is|what's|what\s+are|define)\s*"
    r"|\s*(?:到底)?(?:是什么|是啥|指什么|是指什么|的定义是什么|的定义)\s*[?？。.!！]*\s*$"
    r"|\s*[?？。.!！]+\s*$",
    re.IGNORECASE,
)
#: What follows a subject in a remark about it, not a definition ("张量并行也叠加了带宽",
#: "张量并行的通信", "Tensor parallelism also …", a comparison "ZeRO-2 与 ZeRO-3 的区别…").
_REMARK = re.compile(
    r"[也还都的则就与和跟]|(?:also|too|still)\b|"
    # when it is needed, not what it is: "ZeRO-3 (or TP) is required when …"
    r"(?:is|are)\s+(?:only\s+|rarely\s+|usually\s+)?(?:required|needed|necessary|worth)\b",
    re.IGNORECASE,
)
#: What a definition says after "Power usage effectiveness (PUE)" / "电能使用效率（PUE）": a
#: copula or an equals sign ("… is conventionally reported on 6ND" is a remark).
_COPULA = re.compile(r"(?:is|are|means)\s+(?![a-z]+ly\b)|=|是|指|即", re.IGNORECASE)
#: Where a clause of a list of definitions begins: "…, and ZeRO-3 shards …", "，ZeRO-2 再切分…".
_LIST_CLAUSE = re.compile(r"[，,；;]\s*(?:and\s+|or\s+|以及|并且)?", re.IGNORECASE)
_PARENTHETICAL = re.compile(r"（[^）]*）|\([^)]*\)")
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
#: A figure with its unit as a question states it: "16 bytes", "16 字节", "2 倍", "40%".
_FIGURE = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(bytes?\b|B\b|字节|GB\b|GiB\b|倍|×|%)", re.IGNORECASE
)
#: The unit spellings that mean the same figure.
_UNIT_FORMS = {
    "byte": r"(?:bytes?\b|B\b|字节)",
    "bytes": r"(?:bytes?\b|B\b|字节)",
    "b": r"(?:bytes?\b|B\b|字节)",
    "字节": r"(?:bytes?\b|B\b|字节)",
}


def opens_with_anaphor(sentence: str) -> bool:
    """Whether `sentence` opens by pointing back ("这些…", "其…", "It …", "Such …")."""
    return bool(_ANAPHOR_OPENING.match(sentence.lstrip()))


def defined_term(question: str) -> str | None:
    """X of "X是什么" / "什么是X" / "what is X" (None: the question asks no definition).

    Examples:
        >>> defined_term("MFU 是什么？"), defined_term("跟流水线并行有什么区别")
        ('MFU', None)
    """
    stripped = _DEFINITION_WORDS.sub("", question.strip())
    if stripped == question.strip().rstrip("?？。.!！ ") or not stripped:
        return None
    return _LEADING_ARTICLE.sub("", stripped).strip() or None


def without_parentheticals(text: str) -> str:
    """`text` with its parentheticals taken out: "张量（层内）并行" reads "张量并行"."""
    return _PARENTHETICAL.sub("", text)


def _bare(text: str) -> str:
    """`text` without parentheticals, articles and case, spaces collapsed."""
    bare = " ".join(_PARENTHETICAL.sub(" ", text).split())
    return _LEADING_ARTICLE.sub("", bare).lower()


def defines(sentence: str, term: str) -> bool:
    """Whether `sentence` has `term` as its subject and says what it is: it opens with it,
    parentheticals aside ("Tensor (intra-layer) parallelism splits …" defines "tensor
    parallelism"), or with its long name and the term in brackets ("Power usage effectiveness
    (PUE) is …"), and goes on to more than a remark ("张量并行也叠加了带宽", "ZeRO-3 is
    required when …" do not).

    Examples:
        >>> defines("Power usage effectiveness (PUE) is total facility power over IT power.", "PUE")
        True
        >>> defines("Model FLOPs utilisation (MFU) is conventionally reported on 6ND.", "MFU")
        False
    """
    rest = _after_opening(sentence, term)
    if rest is None:
        rest = _after_long_name(sentence, term)
    return rest is not None and not _REMARK.match(rest.lstrip())


#: "Power usage effectiveness is …", "电能使用效率 = …": a name, then a copula, before any comma.
_UNNAMED_DEFINITION = re.compile(
    r"^[^,，:：;；]{2,60}?(?:\s(?:is|are|means)\s+(?![a-z]+ly\b)|是|指|=)", re.IGNORECASE
)


def says_what_it_is(sentence: str) -> bool:
    """Whether `sentence` opens by saying what something is, whatever it calls it: read under
    a section titled with a term ("PUE and energy"), its first such sentence defines that term
    ("Power usage effectiveness is total facility power divided by IT power")."""
    return bool(_UNNAMED_DEFINITION.match(sentence)) and not opens_with_anaphor(sentence)


def defines_in_clause(sentence: str, term: str) -> bool:
    """Whether `sentence` defines `term` (:func:`defines`), or lists its siblings' definitions
    with its own: "ZeRO-1 shards only the optimizer states, ZeRO-2 also shards the gradients,
    and ZeRO-3 shards the 16-bit parameters as well" opens with a sibling of ZeRO-3 (the same
    name but for its number), and a later clause opens with ZeRO-3 ("also" there compares it
    with its siblings, it is no remark).

    Examples:
        >>> defines_in_clause("ZeRO-1 shards the states, and ZeRO-3 shards the weights.", "ZeRO-3")
        True
        >>> defines_in_clause("Llama-2-7B, ZeRO-3 over 8 GPUs: 13.5e9 bytes per GPU.", "ZeRO-3")
        False
    """
    if defines(sentence, term):
        return True
    first, *clauses = _LIST_CLAUSE.split(sentence)
    opening = _LATIN_NAME.match(first.lstrip())
    if opening is None or opening.group().lower() == term.lower():
        return False
    if _without_numbers(opening.group()) != _without_numbers(term):
        return False
    return any(_after_opening(clause, term) for clause in clauses)


def _without_numbers(name: str) -> str:
    return re.sub(r"\d+", "", name).lower()


#: A name with a number that opens a sentence ("ZeRO-1", "H100").
_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z-]*\d+[A-Za-z0-9]*")


def _after_long_name(sentence: str, term: str) -> str | None:
    """What follows "Long name (TERM)" opening `sentence`, when a copula does (None: not so)."""
    found = re.match(
        rf"\s*[^()（）,，.。;；]{{2,60}}?[(（]\s*{re.escape(term)}\s*[)）]\s*",
        sentence,
        re.IGNORECASE,
    )
    if found is None or not _COPULA.match(sentence[found.end() :]):
        return None
    return sentence[found.end() :]


def _after_opening(sentence: str, term: str) -> str | None:
    """What follows `term` when `sentence` opens with it (None: it does not)."""
    bare, wanted = _bare(sentence), _bare(term)
    if not wanted:
        return None
    if wanted.isascii():  # a whole word: "tp" does not open "tpu …"
        found = re.match(rf"{re.escape(wanted)}(?![a-z0-9])", bare)
        return bare[found.end() :] if found else None
    flat, flat_wanted = bare.replace(" ", ""), wanted.replace(" ", "")
    return flat[len(flat_wanted) :] if flat.startswith(flat_wanted) else None


def opens_with_side(sentence: str, side: frozenset[str]) -> bool:
    """Whether `sentence` opens with one of `side`'s terms ("InfiniBand is …" for
    {"infiniband", "ib"}; "流水线（层间）并行…" for {"流水线并行"})."""
    return any(_after_opening(sentence, term) is not None for term in side)


def asked_figures(question: str) -> tuple[str, ...]:
    """The figures with a unit that `question` states ("16 bytes", "16 字节")."""
    return tuple(f"{m.group(1)} {m.group(2)}" for m in _FIGURE.finditer(question))


def states_figure(text: str, figures: tuple[str, ...]) -> bool:
    """Whether `text` states one of `figures` as a figure with its unit, in either language
    ("每参数 16 字节" states "16 bytes"; "from 16 to 10 bytes" does not)."""
    for figure in figures:
        number, unit = figure.split(" ", 1)
        forms = _UNIT_FORMS.get(unit.lower(), re.escape(unit))
        words = r"(?:\s*(?:个)?(?:每参数|per parameter)?\s*)"
        if re.search(rf"(?<![\d.]){re.escape(number)}{words}{forms}", text, re.IGNORECASE):
            return True
    return False


#: Where a clause that may have its own subject begins ("…，流水线并行则…", "…, whereas PP …").
_CLAUSE_BREAK = re.compile(
    r"[，,；;：:]\s*(?:(?:whereas|while|but)\s+)?|\s+(?:whereas|while|but)\s+", re.IGNORECASE
)


def clause_subjects(sentence: str, sides: tuple[frozenset[str], ...]) -> list[frozenset[str]]:
    """The `sides` that open a clause of `sentence`: what it says something about, not what
    it only names ("RoCE v2 carries InfiniBand transport packets …" is about RoCE alone).

    Examples:
        >>> sides = (frozenset({"张量并行"}), frozenset({"流水线并行"}))
        >>> len(clause_subjects("张量并行（TP）把每层切开，流水线并行（PP）则按层分段。", sides))
        2
    """
    clauses = _CLAUSE_BREAK.split(_PARENTHETICAL.sub(" ", sentence))
    return [s for s in sides if any(opens_with_side(c.strip(), s) for c in clauses)]


def describes_each(sentence: str, sides: tuple[frozenset[str], ...]) -> bool:
    """Whether `sentence` gives each compared side a clause of its own and opens with one of
    them alone ("张量并行（TP）把每一层…，流水线并行（PP）则…"), not with a summary naming both
    ("ZeRO-2 与 ZeRO-3 的区别只在参数：…").

    Examples:
        >>> sides = (frozenset({"tp"}), frozenset({"pp"}))
        >>> describes_each("TP splits each layer, while PP gives each GPU whole layers.", sides)
        True
        >>> describes_each("TP and PP differ: TP splits layers, PP stages them.", sides)
        False
        >>> describes_each("TP, PP and DP differ in what they split: TP layers, PP stages.", sides)
        False
    """
    from assistant.compose.parts import mentions_side

    bare = _PARENTHETICAL.sub(" ", sentence)
    # a summary before a colon ("Full fine-tuning, LoRA and QLoRA differ in …: …"), else the
    # first clause
    colon = re.search(r"[：:]", bare)
    first = bare[: colon.start()] if colon else _CLAUSE_BREAK.split(bare)[0]
    both = all(mentions_side(first, side) for side in sides)
    return len(clause_subjects(sentence, sides)) == len(sides) and not both


#: A sentence that states a difference, asked for by a comparison.
CONTRAST = re.compile(r"区别|差别|不同|而|difference|differ|whereas|while|unlike", re.IGNORECASE)


def about_side(sentence: str, heading: str, side: frozenset[str]) -> bool:
    """Whether `sentence` is about `side`: it opens with it, or its section's `heading` does
    ("数据并行" above "每张 GPU 保存一份完整的模型副本…")."""
    return opens_with_side(sentence, side) or opens_with_side(heading, side)


def on_a_side(sentence: str, heading: str, sides: Sequence[frozenset[str]]) -> bool:
    """Whether `sentence` says something about a compared side (opens a clause with it, or
    stands under its title) or states their difference; not one that only lists both
    ("DeepSeek-V3 … ZeRO-1 数据并行，没有使用张量并行")."""
    if clause_subjects(sentence, tuple(sides)) or any(
        about_side(sentence, heading, s) for s in sides
    ):
        return True
    return states_difference(sentence, sides)


def states_difference(sentence: str, sides: Sequence[frozenset[str]]) -> bool:
    """Whether `sentence` names every compared side and says how they differ ("ZeRO-2 与
    ZeRO-3 的区别只在参数…", "Full fine-tuning, LoRA and QLoRA differ in …").

    Examples:
        >>> sides = (frozenset({"lora"}), frozenset({"qlora"}))
        >>> states_difference("LoRA and QLoRA differ in how the base is stored.", sides)
        True
        >>> states_difference("QLoRA trains LoRA adapters in bf16.", sides)
        False
    """
    from assistant.compose.parts import mentions_side

    return bool(CONTRAST.search(sentence)) and all(mentions_side(sentence, s) for s in sides)


#: "LoRA/QLoRA fine-tuning: …" opens with two names: it is about neither alone.
_LISTED = re.compile(r"^\S*\w/\w")


def about_side_alone(
    sentence: str,
    side: frozenset[str] | None,
    other: frozenset[str],
    sides: Sequence[frozenset[str]],
) -> bool:
    """Whether `sentence` says what `side` is or does ("LoRA freezes the base weights …"),
    and nothing of the `other` side (no clause opens with it, it is not among the first
    words) nor of their difference: not a list of names ("LoRA/QLoRA fine-tuning: …"), not
    a remark ("张量并行也叠加了带宽")."""
    from assistant.compose.parts import mentions_side
    from assistant.retrieval.tokenize import tokenize

    subject = [t for t in tokenize(sentence) if len(t) >= 2][:3]
    return not (
        _LISTED.match(sentence)
        or clause_subjects(sentence, (other,))
        or any(mentions_side(t, other) for t in subject)
        or states_difference(sentence, sides)
    ) and any(defines(sentence, term) for term in side or ())


def names_exactly(heading: str, term: str) -> bool:
    """Whether `heading` is `term` itself ("Tensor parallelism" for "tensor parallelism")."""
    return opens_with_side(heading, frozenset({term})) and opens_with_side(
        term, frozenset({heading})
    )
