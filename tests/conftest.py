"""Shared fixtures: tests never touch the network or the user's real home."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

# Refusals (CalculatorInputError) read as English words only through the catalog, which the
# language layer registers as the calculators' renderer when it is imported, as every entry
# point does; a test of calculators/ alone would otherwise see the message's key.
import assistant.i18n  # noqa: F401

# Property tests check laws, not speed: on a loaded 2-core CI machine hypothesis's default
# 200 ms per-example deadline would fail them for the wrong reason (speed lives in bench/).
settings.register_profile("gpu-advisor", deadline=None)
settings.load_profile("gpu-advisor")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point GPU_ADVISOR_HOME at a temporary folder and keep model hubs offline."""
    home = tmp_path / "home"
    monkeypatch.setenv("GPU_ADVISOR_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.delenv("GPU_ADVISOR_DEBUG", raising=False)
    return home


# -- the real index of the shipped knowledge, built once per session ---------------------


def _copy_live_index(source_home: Path, target_home: Path) -> None:
    """Copy the live index generation (and its pointer) from one home to another."""
    import shutil

    from assistant.retrieval.storage import POINTER, current_generation

    live = current_generation(source_home / "index")
    assert live is not None, f"no index in {source_home}"
    (target_home / "index").mkdir(parents=True, exist_ok=True)
    shutil.copytree(live, target_home / "index" / live.name)
    shutil.copy2(source_home / "index" / POINTER, target_home / "index" / POINTER)


@pytest.fixture(scope="session")
def shared_index_home(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A home whose index covers the shipped `knowledge/` (real USE-m, faiss, jieba).

    Built once per test session. The index is kept in pytest's cache folder between
    sessions and updated incrementally (only changed passages are re-embedded), then
    snapshotted for this session. Use `kb_home` to get a private copy in a test.
    """
    from assistant.config import Settings
    from assistant.retrieval.encoder import make_encoder
    from assistant.retrieval.engine import ensure_index

    cache = getattr(request.config, "cache", None)
    build_home = (
        cache.mkdir("gpu-advisor-shared-index")
        if cache is not None
        else tmp_path_factory.mktemp("shared-index-build")
    )
    settings = Settings(home=build_home, encoder_threads=1)  # 1 BLAS thread: faster on a busy box
    from assistant.retrieval.engine import KnowledgePaths
    from assistant.retrieval.index import writer_lock

    # Other pytest sessions may share the cache folder: build and copy under the lock.
    with writer_lock(KnowledgePaths.from_settings(settings).lock_path):
        ensure_index(settings, make_encoder(settings))
        snapshot = tmp_path_factory.mktemp("shared-index-home")
        _copy_live_index(build_home, snapshot)
    return snapshot


@pytest.fixture
def kb_home(_isolated_home: Path, shared_index_home: Path) -> Path:
    """This test's GPU_ADVISOR_HOME, seeded with the prebuilt index of the shipped knowledge.

    `open_test_retriever()` (or `open_retriever(Settings())`) then loads it; if the shipped
    knowledge changed during the session, it is brought up to date incrementally.
    """
    _isolated_home.mkdir(parents=True, exist_ok=True)
    _copy_live_index(shared_index_home, _isolated_home)
    return _isolated_home


if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.retrieval.engine import HybridRetriever


def open_test_retriever(settings: Settings | None = None) -> HybridRetriever:
    """The real retriever for the current GPU_ADVISOR_HOME (use with the `kb_home` fixture).

    Import it as `from tests.conftest import open_test_retriever`.
    """
    from assistant.config import Settings
    from assistant.retrieval.engine import open_retriever

    return open_retriever(settings if settings is not None else Settings())


def _front(doc_id: str, lang: str, title: str, kind: str = "guide", extra: str = "") -> str:
    fields = f'id = "{doc_id}"\nlang = "{lang}"\ntitle = "{title}"\nkind = "{kind}"\n'
    return f"+++\n{fields}{extra}+++\n"


_SITE_TABLE = (
    '[site]\naliases = ["演示集群", "Demo cluster"]\nnodes = 2\ngpus_per_node = 8\n'
    'gpu = "A100-80G"\n'
)

_CORPUS: dict[str, tuple[str, str]] = {
    # name -> (encoding, text): a small bilingual knowledge folder in several encodings
    "guides/net.zh.md": (
        "utf-8",
        _front("net", "zh", "网络")
        + (
            "## InfiniBand {#ib}\n\n多机训练依赖 InfiniBand 网络，单端口带宽可达 400 Gbps。\n\n"
            "## 供电 {#power}\n\n每台八卡服务器满载功耗约 10 千瓦。\n"
        ),
    ),
    "guides/net.en.md": (
        "utf-8-sig",
        _front("net", "en", "Network")
        + (
            "## InfiniBand {#ib}\n\nMulti-node training relies on InfiniBand; one port carries "
            "up to 400 Gbps.\n\n## Power {#power}\n\nAn eight-GPU server draws about 10 kW at "
            "full load.\n"
        ),
    ),
    "guides/memory.zh.md": (
        "gbk",
        _front("memory", "zh", "显存")
        + ("## 优化器状态 {#optimizer}\n\n混合精度训练中 Adam 优化器每个参数占用 12 字节显存。\n"),
    ),
    "guides/pipeline.en.md": (
        "utf-16",
        _front("pipeline", "en", "Pipeline")
        + (
            "## Bubbles {#bubble}\n\nPipeline parallelism idles GPUs in a bubble while "
            "micro-batches fill the stages.\n"
        ),
    ),
    "sites/demo.zh.md": (
        "utf-8",
        _front("demo-site", "zh", "演示集群", "site", _SITE_TABLE) + "演示集群有两台八卡服务器。\n",
    ),
}


@pytest.fixture
def make_corpus(tmp_path: Path):  # noqa: ANN201 - returns a factory
    """A factory writing the small bilingual corpus (UTF-8, BOM, GBK, UTF-16 files and one
    binary file) into a folder; returns that folder."""

    def make(root: Path | None = None, *, binary: bool = True) -> Path:
        root = root or tmp_path / "knowledge"
        for name, (encoding, text) in _CORPUS.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(text.encode(encoding))
        if binary:
            (root / "guides" / "broken.md").write_bytes(bytes(range(256)) * 4)
        return root

    return make
