"""Fuzzing the parser and `kb add` (hypothesis): bad input is refused, never an internal error.

Bounded for CI on a loaded 2-core machine: the parser runs without the encoder (a retriever
with no passages), and `kb add` gets a handful of examples (each one may embed a document).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.__main__ import cli
from assistant.config import Settings
from assistant.errors import UsageError
from assistant.pipeline import answer
from assistant.records import Passage, SiteProfile
from assistant.render.serialize import answer_to_json
from calculators.errors import CalculatorInputError

NUMBERS = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1e999", "-0", "0.0", "1e-999", "9" * 400, "1,024", "3.5e+308", "NaN"]),
    st.sampled_from(["一亿亿亿", "两千亿", "七百亿", "零", "十万", "一亿亿", "半"]),
)
WORDS = st.sampled_from(
    [
        "H100",
        "A100-80G",
        "910B",
        "RTX 4090",
        "x",
        "×",
        "张",
        "卡",
        "台",
        "节点",
        "nodes",
        "GPUs",
        "B",
        "b",
        "亿",
        "参数",
        "tokens",
        "GB",
        "TB/s",
        "Gbps",
        "天",
        "days",
        "hours",
        "小时",
        "train",
        "训练",
        "微调",
        "fine-tune",
        "inference",
        "推理",
        "QLoRA",
        "4-bit",
        "fp8",
        "batch",
        "seq",
        "上下文",
        "吉林GPU服务器",
        "$",
        "元",
        "per GPU-hour",
        "PUE",
        "kW",
        "vs",
        "能",
        "吗",
        "?",
        "？",
        "70B",
        "Llama-2-70B",
        "users",
        "并发",
        "TP",
        "ZeRO-3",
        "MFU",
    ]
)
NOISE = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
CONTROLS = st.sampled_from(["\x1b[31m", "\x1b]0;t\x07", "\x00", "\u202e", "\r", "\t", "\x9b"])
QUESTIONS = st.lists(st.one_of(NUMBERS, WORDS, NOISE, CONTROLS), min_size=1, max_size=14).map(
    " ".join
)


class _NoPassages:
    """A retriever with nothing in it: the fuzz exercises parse → calculate → compose."""

    def search(self, query: str, k: int = 5, *, lang: object = None) -> list[Passage]:
        return []

    def get(self, passage_id: str) -> Passage | None:
        return None

    def document_passages(self, doc_id: str, lang: object = None) -> list[Passage]:
        return []

    def site_profiles(self) -> list[SiteProfile]:
        return []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question=QUESTIONS)
def test_the_parser_never_fails_inside(question: str) -> None:
    try:
        result = answer(question, settings=Settings(), retriever=_NoPassages())
    except (UsageError, CalculatorInputError) as exc:  # bad input, told in the user's words
        refusal = str(exc)
        result = None
    if result is None:
        assert refusal
        return
    dumped = json.dumps(answer_to_json(result), ensure_ascii=False, allow_nan=False)
    assert dumped
    for check in result.checks:
        for value in check.figures.values():
            assert not isinstance(value, float) or math.isfinite(value), (check.kind, value)


SCALARS = st.one_of(
    NUMBERS,
    st.sampled_from(["inf", "nan", "-inf", "true", "[]", '""', "{}", '"\\u001b]0;x\\u0007"']),
    st.text(max_size=10).map(json.dumps),
)
KEYS = st.sampled_from(["id", "kind", "lang", "title", "aliases", "translation_of", "tags"])
SITE_KEYS = st.sampled_from(["aliases", "nodes", "gpus_per_node", "gpu", "pue", "interconnect"])
KINDS = st.sampled_from(['"site"', '"gpu"', '"model"', '"note"', '"guide"', '"???"', "3"])


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = [f'id = "fz-{draw(st.integers(0, 5))}"', f"kind = {draw(KINDS)}"]
    lines += [f"{draw(KEYS)} = {draw(SCALARS)}" for _ in range(draw(st.integers(0, 3)))]
    if draw(st.booleans()):
        lines.append("[site]")
        lines += [f"{draw(SITE_KEYS)} = {draw(SCALARS)}" for _ in range(draw(st.integers(0, 5)))]
    front = "\n".join(lines)
    if draw(st.booleans()):
        front = draw(st.text(max_size=40))  # not TOML at all
    body = draw(st.text(max_size=200))
    return f"+++\n{front}\n+++\n{body}\n"


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=documents())
def test_kb_add_refuses_or_adds_never_fails_inside(
    kb_home: Path, tmp_path: Path, text: str
) -> None:
    path = tmp_path / "fuzz.md"
    path.write_text(text, "utf-8", errors="surrogatepass")
    result = CliRunner().invoke(cli, ["kb", "add", str(path)])
    assert result.exit_code in (0, 2), result.output
    assert "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    leftovers = [p.name for p in (kb_home / "documents").rglob("*") if ".tmp" in p.name]
    assert leftovers == []
    if result.output.startswith(("added", "updated")):  # then it is indexed, not skipped later
        name = result.output.split("(", 1)[1].split(")", 1)[0]
        listed = CliRunner().invoke(cli, ["kb", "list"]).output
        assert f"documents/{name}" in listed, (text, result.output, listed[-600:])
