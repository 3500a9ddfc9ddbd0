"""Tokenization for the keyword lane: protected tokens, dictionary words, stopwords, synonyms."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from assistant.retrieval import tokenize as tok
from assistant.retrieval.tokenize import SYNONYM_WEIGHT, expand_query, tokenize


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("H800 能训练千亿模型吗?", "h800"),
        ("A100-80G 的显存", "a100-80g"),
        ("用 ZeRO-3 切分优化器状态", "zero-3"),
        ("bf16 训练", "bf16"),
        ("FP8 training on H100", "fp8"),
        ("70B 模型", "70b"),
        ("8 张 4090", "4090"),
        ("400Gbps InfiniBand", "400gbps"),
        ("400 Gbps InfiniBand", "400gbps"),  # a space between number and unit joins
        ("8x A100", "8x"),
        ("Llama-2-70B 的 KV cache", "llama-2-70b"),
        ("昇腾910B", "910b"),
        ("Ａ１００ 全角", "a100"),  # full-width letters and digits normalised (NFKC)
    ],
)
def test_protected_tokens_survive_whole(text: str, token: str) -> None:
    assert token in tokenize(text)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("A100-80G", ["a100", "80g"]),
        ("Llama-2-70B", ["llama", "70b"]),
        ("ZeRO-3", ["zero"]),
    ],
)
def test_compound_tokens_also_yield_their_parts(text: str, parts: list[str]) -> None:
    tokens = tokenize(text)
    assert all(part in tokens for part in parts)
    assert "3" not in tokens  # bare one-digit parts would match every number


@pytest.mark.parametrize(
    ("text", "word", "pieces"),
    [
        ("需要多少显存", "显存", ["显", "存"]),
        ("张量并行和流水线并行", "张量并行", ["张量", "并行"]),
        ("张量并行和流水线并行", "流水线并行", ["流水线"]),
        ("数据并行的通信量", "数据并行", ["数据"]),
        ("千亿参数模型", "千亿", ["千", "亿"]),
        ("混合精度训练", "混合精度", ["混合", "精度"]),
        ("梯度检查点节省显存", "梯度检查点", ["梯度", "检查", "检查点"]),
        ("激活重计算的代价", "激活重计算", ["激活", "计算"]),
        ("单机多卡与机间通信", "单机多卡", ["单机"]),
        ("单机多卡与机间通信", "机间", ["机"]),
        ("昇腾芯片", "昇腾", ["昇"]),
    ],
)
def test_domain_words_stay_whole(text: str, word: str, pieces: list[str]) -> None:
    tokens = tokenize(text)
    assert word in tokens
    assert not set(pieces) & set(tokens)


@pytest.mark.parametrize(
    ("text", "noise"),
    [
        # jieba's search mode would add 中华, 华人, 人民, 共和, 共和国 here.
        ("中华人民共和国", {"中华", "华人", "人民", "共和", "共和国"}),
        ("流水线并行", {"流水", "流水线", "并行"}),
    ],
)
def test_precise_mode_adds_no_overlapping_subwords(text: str, noise: set[str]) -> None:
    assert not noise & set(tokenize(text))


@pytest.mark.parametrize(
    ("text", "stopword"),
    [
        ("H800 能训练千亿模型吗", "吗"),
        ("H800 能训练千亿模型吗", "能"),
        ("可以用 4090 微调吗", "可以"),
        ("什么是张量并行", "什么"),
        ("What is tensor parallelism", "what"),
        ("Can the H100 train it", "can"),
        ("Can the H100 train it", "the"),
    ],
)
def test_stopwords_are_dropped(text: str, stopword: str) -> None:
    assert stopword not in tokenize(text)


def test_lowercase_and_plural_fold() -> None:
    assert tokenize("GPUs NVLink Nodes") == ["gpu", "nvlink", "node"]
    assert "400gbps" in tokenize("400Gbps")  # a unit ending in s is not a plural


def test_nothing_left_of_question_words() -> None:
    assert tokenize("这个可以吗？ What can it do?") == []
    assert tokenize("") == []


@pytest.mark.parametrize(
    ("query", "synonym"),
    [
        ("显存够吗", "vram"),
        ("需要多少显存", "memory"),
        ("How much VRAM", "显存"),
        ("gpu memory for a 70B model", "显存"),  # a two-token member matches as a phrase
        ("带宽多大", "bandwidth"),
        ("训练千亿模型", "training"),
        ("训练千亿模型", "100b"),
        ("推理延迟", "inference"),
        ("pipeline parallelism bubble", "流水线并行"),
        ("tensor parallelism", "张量并行"),
        ("fine-tuning a 7B model", "微调"),
        ("机房功耗", "power"),
        ("散热方案", "cooling"),
    ],
)
def test_synonyms_expand_at_lower_weight(query: str, synonym: str) -> None:
    weights = dict(expand_query(tokenize(query)))
    assert weights.get(synonym) == SYNONYM_WEIGHT
    assert all(weights[t] == 1.0 for t in tokenize(query))
    assert SYNONYM_WEIGHT < 1.0


def test_typed_words_keep_full_weight_when_they_are_also_synonyms() -> None:
    weights = dict(expand_query(["显存", "vram"]))
    assert weights["显存"] == weights["vram"] == 1.0


def test_no_expansion_for_words_without_synonyms() -> None:
    assert expand_query(["红烧肉"]) == [("红烧肉", 1.0)]
    assert expand_query([]) == []


def test_version_is_a_hash_of_the_data_files(monkeypatch: pytest.MonkeyPatch) -> None:
    assert tok._version() == tok.TOKENIZER_VERSION
    original = tok._data_text

    def edited(name: str) -> str:
        return original(name) + ("\n新词" if name == "userdict.txt" else "")

    monkeypatch.setattr(tok, "_data_text", edited)
    assert tok._version() != tok.TOKENIZER_VERSION


def test_same_tokens_from_many_threads() -> None:
    text = "吉林GPU服务器能训练千亿模型吗? 8x H800 with 400Gbps InfiniBand"
    expected = tokenize(text)
    results: list[list[str]] = []
    threads = [threading.Thread(target=lambda: results.append(tokenize(text))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


def test_jieba_loads_lazily_quietly_and_caches_in_our_dir(tmp_path: Path) -> None:
    # A fresh interpreter: importing the module must not load jieba; the first tokenize does,
    # writes its cache under GPU_ADVISOR_HOME/cache (not /tmp) and prints nothing.
    code = (
        "import sys\n"
        "from assistant.retrieval.tokenize import tokenize\n"
        "assert 'jieba' not in sys.modules\n"
        "print(tokenize('张量并行'))\n"
    )
    env = {**os.environ, "GPU_ADVISOR_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "['张量并行']"
    assert done.stderr == ""
    assert (tmp_path / "cache" / "jieba.cache").is_file()
