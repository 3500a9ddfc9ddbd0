"""`gpu-advisor ask`: JSON keys, stdin JSON Lines, exit codes and bad input (never a traceback)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.__main__ import cli
from assistant.locations import conversations_db
from tests.json_contract import KEYS, SCENARIO_KEYS

pytestmark = pytest.mark.e2e


def run(args: list[str], stdin: bytes | str | None = None):  # noqa: ANN201
    return CliRunner().invoke(cli, ["ask", *args], input=stdin)


def test_json_object_has_the_documented_keys(kb_home: Path) -> None:
    result = run(["--json", "吉林GPU服务器能训练千亿模型吗?"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == KEYS
    assert set(data["scenario"]) == SCENARIO_KEYS
    assert data["verdict"] == "infeasible"
    assert data["language"] == "zh"
    memory = next(c for c in data["checks"] if c["kind"] == "memory")
    assert {
        "required_bytes_per_gpu",
        "available_bytes_per_gpu",
        "min_gpus",
        "weights_bytes",
        "model_state_bytes_per_gpu",
    } <= set(memory["figures"])
    compute = next(c for c in data["checks"] if c["kind"] == "compute")
    assert {"total_flops", "tokens", "mfu", "seconds", "gpus_for_deadline"} <= set(
        compute["figures"]
    )
    network = next(c for c in data["checks"] if c["kind"] == "network")
    assert {
        "allreduce_seconds_per_step",
        "compute_seconds_per_step",
        "inter_node_bytes_per_second",
    } <= set(network["figures"])
    assert all(set(c) == {"id", "source", "title", "text", "score"} for c in data["citations"])


def test_stdin_gives_json_lines(kb_home: Path) -> None:
    stdin = "吉林GPU服务器能训练千亿模型吗?\n\nCan 8x RTX 4090 fine-tune a 70B model with QLoRA?\n"
    result = run(["--json"], stdin)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [d["language"] for d in lines] == ["zh", "en"]


def test_stdin_lines_are_one_conversation(kb_home: Path) -> None:
    stdin = "64张H100训练70B模型需要多久\n那用A100呢?\nWhat is the KV cache?\n"
    result = run(["--json"], stdin)
    assert result.exit_code == 0, result.output
    first, follow_up, concept = (json.loads(line) for line in result.output.splitlines())
    # the follow-up changes only the GPU of the line before it
    assert follow_up["scenario"]["gpu"] == "A100 SXM 80GB"
    for slot in ("task", "params", "gpu_count"):
        assert follow_up["scenario"][slot] == first["scenario"][slot]
    # a self-contained question does not inherit the scenario
    assert concept["scenario"]["gpu"] is None


def test_continue_follows_up_on_the_last_conversation(kb_home: Path) -> None:
    assert run(["吉林GPU服务器能训练千亿模型吗?"]).exit_code == 0
    result = run(["--continue", "--json", "那用H100呢?"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["scenario"]["gpu"] == "H100 PCIe 80GB"  # the regional server is a PCIe box
    assert data["scenario"]["site_profile"] == "regional-single-node"


def test_full_answer_sources_show_no_table_pipes(kb_home: Path) -> None:
    """The worked-example passages are Markdown tables; their excerpts used to show
    "| GPUs | time | |---|---| | 8 × V100 …" in the Sources list."""
    result = run(["--full", "吉林GPU服务器能训练千亿模型吗?"])
    assert result.exit_code == 0, result.output
    sources = result.stdout.split("### 依据", 1)[1]
    assert sources.strip()
    assert "|" not in sources


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("那用H100呢?", "--continue 没有找到之前的会话，已把这个问题当作新问题回答"),
        ("Can 8x H100 train a 70B model?", "--continue found no earlier conversation"),
    ],
)
def test_continue_without_an_earlier_conversation_says_so(
    kb_home: Path, question: str, said: str
) -> None:
    """Before: a silent "无法判断" for a follow-up that had nothing to follow. Now stderr says
    there is no earlier conversation, in the question's language, and the question is
    answered as a new one (exit 0; stdout stays the answer alone)."""
    result = run(["--continue", "--json", question])
    assert result.exit_code == 0, result.output
    assert said in result.stderr
    assert json.loads(result.stdout)["question"] == question
    again = run(["--continue", "--json", "what about 4-bit?"])
    assert "no earlier conversation" not in again.stderr  # the first answer was saved


@pytest.mark.parametrize("question", ["", "   ", "\t\n", "\x1b[31m\x1b[0m", "\x00\x01"])
def test_empty_question_is_a_usage_error(kb_home: Path, question: str) -> None:
    result = run([question])
    assert result.exit_code == 2
    assert "empty question" in result.output
    assert "Traceback" not in result.output


def test_unknown_flag_is_a_usage_error() -> None:
    result = run(["--frobnicate", "hi"])
    assert result.exit_code == 2


def test_internal_failure_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the home directory should be")
    monkeypatch.setenv("GPU_ADVISOR_HOME", str(blocker / "home"))
    result = run(["吉林GPU服务器能训练千亿模型吗?"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    # at most a notice that the index is being built, then the error on one line
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("错误：")  # the question is Chinese: so is the prefix
    assert "not-a-dir" in lines[-1]
    assert [line for line in lines if line.startswith(("Error", "错误"))] == lines[-1:]


BAD_INPUTS = [
    ("训练70B " + "啊" * 100_000, "zh"),
    ("\x1b[2J\x1b[31m8 H100 train 7B?\x07\x00", "en"),
    ("😀🚀🔥", "en"),
    ("8卡训练70B模型，我们有64张GPU", "zh"),
]
#: Values no job can have: refused as bad input (README: exit 2), on stderr in the question's
#: language after its "Error:" prefix, naming the slot, never an answer on stdout.
REFUSED = [
    ("0 GPUs train a 7B model", "Error: GPU count 0"),
    ("用-8张卡训练7B模型", "错误：GPU 数量 -8"),
    ("train a 10^30 parameter model on 8 H100", "Error: model size"),
    ("Serve Llama-3-8B on 4 H100 at -$2 per GPU-hour: monthly cost?", "Error: price per GPU-hour"),
]


@pytest.mark.parametrize(("question", "language"), BAD_INPUTS)
def test_bad_input_gets_an_answer_never_a_traceback(
    kb_home: Path, question: str, language: str
) -> None:
    result = run(["--json", question])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    data = json.loads(result.output)
    assert data["language"] == language
    assert data["answer"].strip()


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize(("question", "told"), REFUSED)
def test_a_refused_value_exits_2_naming_the_field(
    kb_home: Path, question: str, told: str, as_json: bool
) -> None:
    result = run(["--json", question] if as_json else [question])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.startswith(told), result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("8 H100 train 7B in 0.0000000000000000001 days", "deadline_seconds"),
        ("fine-tune 7B on 1e30 nodes of H100", "nodes"),
        ("用8张H100训练70B，上下文 99999999999999999999999", "context_length"),
        ("99999999999999999999999999张H100训练70B模型", "gpu_count"),
    ],
)
def test_absurd_values_name_the_scenario_field(kb_home: Path, question: str, field: str) -> None:
    from assistant.i18n import t

    result = run(["--json", question])
    assert result.exit_code == 2, result.output  # refused as bad input
    language = "zh" if "张" in question or "用" in question else "en"
    assert t(f"parse.slot.{field}", language) in result.stderr
    assert f"{field}=" not in result.stderr  # never the internal field name


def test_contradiction_is_stated(kb_home: Path) -> None:
    data = json.loads(run(["--json", "8卡训练70B模型，我们有64张GPU"]).output)
    assert "8" in data["answer"]
    assert "64" in data["answer"]
    assert "GPU 数量" in data["answer"]


def test_binary_junk_on_stdin(kb_home: Path) -> None:
    junk = bytes(range(256)) * 40 + b"\n\xff\xfe8 H100 train 7B?\n"
    result = run(["--json"], junk)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    for line in result.output.splitlines():
        assert set(json.loads(line)) == KEYS


def test_store_survives_a_batch_of_bad_input(kb_home: Path) -> None:
    stdin = "\n".join(q.replace("\n", " ") for q, _ in BAD_INPUTS) + "\n"
    assert run(["--json"], stdin).exit_code == 0
    with sqlite3.connect(conversations_db()) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == len(BAD_INPUTS)


def test_real_subprocess(kb_home: Path) -> None:
    env = {**os.environ, "GPU_ADVISOR_HOME": str(kb_home)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "assistant",
            "ask",
            "--json",
            "Can 8x RTX 4090 fine-tune a 70B model with QLoRA?",
        ],
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    data = json.loads(done.stdout)
    assert data["scenario"]["gpu"] == "RTX 4090 24GB"
    assert data["scenario"]["method"] == "qlora"


def test_an_answer_without_a_search_exits_cleanly(kb_home: Path) -> None:
    """Bad input is refused without searching, so the process ends while the encoder may
    still be loading in its warm-up thread: it must wait for it, not abort (exit 134,
    "terminate called without an active exception")."""
    env = {**os.environ, "GPU_ADVISOR_HOME": str(kb_home)}
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "ask", "用-3张A100训练7B"],
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )
    # refused as bad input (README: exit 2), told on stderr in Chinese, naming the slot
    assert done.returncode == 2, done.stderr.decode()
    assert b"terminate" not in done.stderr
    assert "GPU 数量 -3".encode() in done.stderr
    assert done.stdout == b""


# -- robustness sweep: random unicode (GPU_ADVISOR_FUZZ_EXAMPLES raises the count) ----------

_FRAGMENTS = st.one_of(
    # any character except surrogates (they cannot be encoded), controls included
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),
    st.sampled_from(
        [
            "\u200f",  # right-to-left mark
            "\u202e",  # right-to-left override
            "\u200d",  # zero-width joiner
            "\ufe0f",
            "\x1b[31m",
            "\x00",
            "\r\n",
            "\t",
            "👩‍👩‍👧‍👦",
            "🇨🇳",
            "مرحبا",
            "שלום",
            "Привет",
            "训练",
            "千亿模型",
            "8张H100",
            "70B",
            "fine-tune",
            "QLoRA",
            "那用H100呢?",
            "吉林GPU服务器",
            "ｆｕｌｌｗｉｄｔｈ８",
            "-8",
            "10^30",
            "1e309",
            "NaN",
            "inf",
        ]
    ),
    st.integers(min_value=-(10**80), max_value=10**80).map(str),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
)
QUESTIONS = st.lists(_FRAGMENTS, min_size=1, max_size=8).map(" ".join)


@settings(
    max_examples=int(os.environ.get("GPU_ADVISOR_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(question=QUESTIONS)
def test_random_unicode_never_breaks_ask(kb_home: Path, question: str) -> None:
    result = CliRunner().invoke(cli, ["ask", "--json", question])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 0:
        lines = result.output.splitlines()
        assert len(lines) == 1
        data = json.loads(lines[0])
        assert set(data) == KEYS
        assert data["answer"].strip()
        assert data["language"] in ("zh", "en")


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(lines=st.lists(QUESTIONS, min_size=1, max_size=3))
def test_random_unicode_on_stdin_gives_json_lines(kb_home: Path, lines: list[str]) -> None:
    stdin = "\n".join(lines).encode("utf-8", errors="replace")
    result = CliRunner().invoke(cli, ["ask", "--json", "--continue"], input=stdin)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 0:
        # stdout is JSON Lines; notes ("no earlier conversation") go to stderr
        for line in result.stdout.splitlines():
            assert set(json.loads(line)) == KEYS
