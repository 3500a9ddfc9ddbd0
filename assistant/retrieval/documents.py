"""Read knowledge documents: bytes → text (encoding detected) → front matter → sections.

A document is Markdown (or plain text) with optional TOML front matter between `+++` lines.
Sections start at headings; `## Heading {#anchor}` carries an anchor that both language
versions share, which is how a passage finds its translation. Cutting sections into
passages lives in :mod:`assistant.retrieval.chunking`.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.errors import DocumentError
from assistant.records import Language, SiteProfile
from calculators.messages import Msg

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

SUPPORTED_SUFFIXES = (".md", ".markdown", ".txt")
MAX_FILE_BYTES = 5_000_000
KINDS = ("founding", "guide", "site", "template", "note", "gpu", "model")

# Full-width CJK punctuation stays as written (it reads better in a cited passage);
# everything else in NFKC's compatibility range, full-width letters and digits included,
# is folded ("Ａ１００" → "A100").
_KEEP_PUNCT = "，。！？；：（）、“”‘’《》【】「」"
_KEEP_RE = re.compile(f"([{_KEEP_PUNCT}])")
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*(?:\{#([^}\s]+)\})?[ \t]*#*[ \t]*$")
_FENCE_RE = re.compile(r"^[ \t]*(```|~~~)")
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LANG_SUFFIX_RE = re.compile(r"\.(zh|en)$")
#: Multi-byte East Asian codecs charset-normalizer may pick for what is really GBK.
_CJK_CODECS = frozenset(
    {
        "gb2312",
        "gbk",
        "gb18030",
        "hz",
        "big5",
        "big5hkscs",
        "cp950",
        "cp949",
        "euc_kr",
        "johab",
        "iso2022_kr",
        "shift_jis",
        "cp932",
        "euc_jp",
        "euc_jis_2004",
        "shift_jis_2004",
        "iso2022_jp",
    }
)
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


@dataclass(frozen=True)
class Section:
    """One heading's body inside a document."""

    anchor: str
    heading: str
    """Heading path below the title ("ZeRO > Stage 3"); empty for the intro."""
    start: int
    """Offset of the body in the document text."""
    end: int


@dataclass(frozen=True)
class Document:
    """A parsed document, ready to be cut into passages."""

    doc_id: str
    lang: Language
    title: str
    kind: str
    source: str
    """As in `Passage.source`: relative to `knowledge/` when shipped, absolute otherwise."""
    key: str
    """Location-independent name used in passage ids ("knowledge/…" or "documents/…")."""
    text: str
    """The whole normalised text; sections and passages are offsets into it."""
    content_hash: str
    sections: tuple[Section, ...]
    topics: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    site: Mapping[str, Any] | None = None
    card: Mapping[str, Any] | None = None
    """The `[gpu]` or `[model]` table of a user card (`kind = "gpu"` / `"model"`)."""


def content_hash(text: str) -> str:
    """Hash of normalised text: the same content in another encoding hashes the same."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def normalize_text(text: str) -> str:
    """NFKC-fold full-width forms, keep CJK punctuation, unify newlines."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    parts = _KEEP_RE.split(text)
    return "".join(p if p in _KEEP_PUNCT and p else unicodedata.normalize("NFKC", p) for p in parts)


def _cjk_share(text: str) -> float:
    letters = [c for c in text if not c.isspace() and not c.isascii()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if _CJK_RE.match(c) or c in _KEEP_PUNCT) / len(letters)


def decode_bytes(data: bytes, path: str = "<bytes>") -> str:
    """Decode a file's bytes: BOM, then strict UTF-8, then charset-normalizer.

    GB18030 wins over another multi-byte guess when it reads as more Chinese: short GBK
    files are otherwise often taken for Korean (cp949).
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise _unreadable(path, encoding) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _detect(data, path)
    if "\x00" in text or _control_share(text) > 0.05:
        raise _binary(path)
    return text


def _detect(data: bytes, path: str) -> str:
    import charset_normalizer

    best = charset_normalizer.from_bytes(data).best()
    if best is None:
        raise _binary(path)
    text = str(best)
    if best.encoding.replace("-", "_").lower() not in _CJK_CODECS:
        return text  # a European code page stays what it is
    try:
        gb_text = data.decode("gb18030")
    except UnicodeDecodeError:
        return text
    return gb_text if _cjk_share(gb_text) > _cjk_share(text) else text


def _control_share(text: str) -> float:
    if not text:
        return 0.0
    controls = sum(1 for c in text if unicodedata.category(c) == "Cc" and c not in "\n\r\t\f")
    return controls / len(text)


def _binary(path: str) -> DocumentError:
    return DocumentError(path, Msg("errors.doc.binary"))


def _unreadable(path: str, encoding: str) -> DocumentError:
    return DocumentError(path, Msg("errors.doc.undecodable", encoding=encoding))


def split_front_matter(text: str, path: str) -> tuple[dict[str, Any], int]:
    """The TOML front matter (empty when absent) and the offset where the body starts."""
    if not text.startswith("+++"):
        return {}, 0
    first_newline = text.find("\n")
    closing = re.search(r"^\+\+\+[ \t]*$", text[first_newline + 1 :], flags=re.MULTILINE)
    if first_newline < 0 or closing is None:
        raise DocumentError(path, Msg("errors.doc.front_matter_open"))
    toml_text = text[first_newline + 1 : first_newline + 1 + closing.start()]
    try:
        meta = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError as exc:
        raise DocumentError(path, Msg("errors.doc.front_matter_toml", detail=str(exc))) from exc
    _refuse_controls(meta, path)
    return meta, first_newline + 1 + closing.end()


def _refuse_controls(value: Any, path: str, field: str = "") -> None:
    """TOML escapes (`\\u001b`) can put an escape sequence in a title or alias: refuse it."""
    from assistant.sanitize import has_controls, one_line

    if isinstance(value, dict):
        for name, item in value.items():
            _refuse_controls(item, path, f"{field}.{name}" if field else str(name))
        return
    if isinstance(value, list):
        for item in value:
            _refuse_controls(item, path, field)
        return
    if isinstance(value, str) and has_controls(value) or has_controls(field):
        shown = one_line(field)
        raise DocumentError(path, Msg("kb.controls_in_front_matter", field=shown))


def slugify(text: str) -> str:
    """An anchor for a heading without one (ASCII words, or a short hash for CJK text)."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "s-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def parse_sections(text: str, start: int) -> tuple[list[Section], str | None]:
    """Sections of the body `text[start:]` and the first level-1 heading (a title)."""
    sections: list[Section] = []
    stack: list[tuple[int, str, str]] = []  # (level, heading, anchor)
    current_anchor, current_heading, body_start = "intro", "", start
    title: str | None = None
    in_fence = False
    offset = start
    for line in text[start:].splitlines(keepends=True):
        line_start, offset = offset, offset + len(line)
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING_RE.match(line.rstrip("\n"))
        if match is None:
            continue
        level, heading, anchor = len(match.group(1)), match.group(2).strip(), match.group(3)
        sections.append(Section(current_anchor, current_heading, body_start, line_start))
        body_start = offset
        if level == 1 and anchor is None and title is None and not stack:
            title = heading  # "# Title" names the document; its body stays the intro
            continue
        stack = [entry for entry in stack if entry[0] < level]
        stack.append((level, heading, anchor or slugify(heading)))
        current_anchor = stack[-1][2]
        current_heading = " > ".join(entry[1] for entry in stack)
    sections.append(Section(current_anchor, current_heading, body_start, len(text)))
    return [s for s in sections if text[s.start : s.end].strip()], title


def guess_language(text: str, path: Path) -> Language:
    """Language from a `.zh`/`.en` name suffix, else from the share of Chinese characters."""
    suffix = _LANG_SUFFIX_RE.search(path.stem)
    if suffix:
        return "zh" if suffix.group(1) == "zh" else "en"
    sample = text[:4000]
    han = len(_CJK_RE.findall(sample))
    return "zh" if han >= 0.15 * max(1, len(sample.strip())) or han > 200 else "en"


def _meta_str(meta: Mapping[str, Any], name: str, path: str, default: str) -> str:
    value = meta.get(name, default)
    if not isinstance(value, str) or not value.strip():
        raise DocumentError(path, Msg("errors.doc.field_string", name=name))
    return value.strip()


def _meta_list(meta: Mapping[str, Any], name: str, path: str) -> tuple[str, ...]:
    value = meta.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DocumentError(path, Msg("errors.doc.field_list", name=name))
    return tuple(value)


def _lang_and_kind(meta: Mapping[str, Any], shown: str, guessed: Language) -> tuple[str, str]:
    lang = _meta_str(meta, "lang", shown, guessed)
    if lang not in ("zh", "en"):
        raise DocumentError(shown, Msg("errors.doc.field_lang", value=repr(lang)))
    kind = _meta_str(meta, "kind", shown, "note")
    if kind not in KINDS:
        raise DocumentError(shown, Msg("errors.doc.field_kind", kinds=", ".join(KINDS)))
    return lang, kind


def parse_document(raw: bytes, *, path: Path, source: str, key: str) -> Document:
    """Parse one document's bytes. Raises DocumentError with the reason when unusable."""
    shown = str(path)
    text = normalize_text(decode_bytes(raw, shown))
    if not text.strip():
        raise DocumentError(shown, Msg("errors.doc.empty"))
    meta, body_start = split_front_matter(text, shown) if path.suffix != ".txt" else ({}, 0)
    lang, kind = _lang_and_kind(meta, shown, guess_language(text[body_start:], path))
    if path.suffix == ".txt":
        sections = [Section("intro", "", 0, len(text))]
        heading_title = None
    else:
        sections, heading_title = parse_sections(text, body_start)
    if not sections:
        raise DocumentError(shown, Msg("errors.doc.no_text"))
    default_id = slugify(_LANG_SUFFIX_RE.sub("", path.stem))
    site = meta.get("site")
    card = meta.get(kind) if kind in ("gpu", "model") else None
    return Document(
        doc_id=_meta_str(meta, "id", shown, default_id),
        lang=lang,  # type: ignore[arg-type]  # checked above
        title=_meta_str(meta, "title", shown, heading_title or _LANG_SUFFIX_RE.sub("", path.stem)),
        kind=kind,
        source=source,
        key=key,
        text=text,
        content_hash=content_hash(text),
        sections=tuple(sections),
        topics=_meta_list(meta, "topics", shown),
        references=_meta_list(meta, "sources", shown),
        site=site if isinstance(site, dict) else None,
        card=card if isinstance(card, dict) else None,
    )


def read_document(path: Path, *, source: str, key: str) -> Document:
    """Read and parse one file."""
    if path.suffix.lower() not in (*SUPPORTED_SUFFIXES, ".json"):
        suffix = path.suffix or Msg("errors.doc.no_suffix")
        raise DocumentError(str(path), Msg("errors.doc.unsupported", suffix=suffix))
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            too_large = Msg("errors.doc.too_large", size=size, limit=MAX_FILE_BYTES)
            raise DocumentError(str(path), too_large)
        raw = path.read_bytes()
    except OSError as exc:
        detail = str(exc.strerror or exc)
        raise DocumentError(str(path), Msg("errors.doc.unreadable", detail=detail)) from exc
    if path.suffix.lower() == ".json":  # a Hugging Face config.json: stored as a model card
        from assistant.retrieval.cards import card_from_hf_config

        raw = card_from_hf_config(raw, path)
        path = path.with_suffix(".md")
    return parse_document(raw, path=path, source=source, key=key)


def discover(root: Path, *, recursive: bool = True, links: list[Path] | None = None) -> list[Path]:
    """Document files under `root`, sorted, hidden files and folders skipped.

    A symbolic link (to a file or a folder) is never followed: it could lead out of `root`
    (`notes.md -> /etc/shadow`). Links that look like documents are appended to `links`.
    One `os.scandir` walk: the kind of each entry comes with the listing, so no file is
    stat-ed here (a warm start lists thousands of documents on every start).
    """
    found: list[Path] = []
    linked: list[Path] = []
    folders = [root]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            if entry.name.startswith("."):
                continue
            path = folder / entry.name
            if entry.is_symlink():
                if path.suffix.lower() in SUPPORTED_SUFFIXES:
                    linked.append(path)
            elif entry.is_dir(follow_symlinks=False):
                if recursive:
                    folders.append(path)
            elif path.suffix.lower() in SUPPORTED_SUFFIXES and entry.is_file(follow_symlinks=False):
                found.append(path)
    if links is not None:
        links.extend(sorted(linked))
    return sorted(found)


def site_profile(doc: Document) -> SiteProfile | None:
    """The site profile of a `kind = "site"` document (None for other kinds)."""
    if doc.kind != "site":
        return None
    site = doc.site
    if site is None:
        raise DocumentError(doc.source, Msg("errors.doc.site_table"))
    aliases = _meta_list(site, "aliases", doc.source)
    return SiteProfile(
        id=doc.doc_id,
        title=doc.title,
        aliases=aliases,
        nodes=_site_number(site, "nodes", doc.source, int),
        gpus_per_node=_site_number(site, "gpus_per_node", doc.source, int),
        gpu=_meta_str(site, "gpu", doc.source, ""),
        intra_link=_optional_str(site, "intra_link"),
        inter_link=_optional_str(site, "inter_link"),
        source=doc.source,
        lang=doc.lang,
        pue=_site_number(site, "pue", doc.source, float) if "pue" in site else None,
        notes=str(site.get("notes", "")),
        host_ram_bytes=(
            # GB as `free -g` prints it (GiB), and as server memory is sold: binary sizes
            _site_number(site, "host_ram_GB", doc.source, float) * 2**30
            if "host_ram_GB" in site
            else None
        ),
    )


def _optional_str(site: Mapping[str, Any], name: str) -> str | None:
    value = site.get(name)
    return str(value) if value not in (None, "") else None


def _site_number(site: Mapping[str, Any], name: str, path: str, kind: type) -> Any:
    value = site.get(name)
    ok = (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and value > 0
        and math.isfinite(value)
    )
    if not ok or (kind is int and not isinstance(value, int)):
        key = "errors.doc.site_integer" if kind is int else "errors.doc.site_number"
        raise DocumentError(path, Msg(key, name=name))
    return kind(value)


def unique_documents(docs: Iterable[Document]) -> tuple[list[Document], list[DocumentError]]:
    """Drop a second document claiming an (id, language) already taken, with a reason."""
    kept: list[Document] = []
    errors: list[DocumentError] = []
    seen: dict[tuple[str, str], str] = {}
    for doc in docs:
        owner = seen.get((doc.doc_id, doc.lang))
        if owner is not None:
            taken = Msg("errors.doc.duplicate_id", doc_id=doc.doc_id, lang=doc.lang, owner=owner)
            errors.append(DocumentError(doc.source, taken))
            continue
        seen[(doc.doc_id, doc.lang)] = doc.source
        kept.append(doc)
    return kept, errors
