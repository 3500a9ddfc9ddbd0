"""Every shipped knowledge document is well formed, bilingual, linked by anchors and unique."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import unicodedata
from pathlib import Path

import pytest

from tests.knowledge._docs import GOLDEN, KNOWLEDGE, all_files, by_id, parse_file

REQUIRED_KEYS = ("id", "lang", "title", "kind", "sources")
KINDS = {"founding", "guide", "site", "template"}
AREA_KINDS = {"founding": {"founding"}, "guides": {"guide"}, "sites": {"site", "template"}}
SITE_REQUIRED = ("aliases", "nodes", "gpus_per_node", "gpu")
SEED = Path(__file__).parent / "data" / "seed_article.txt"
SEED_SHA256 = "9582cc64310bc68e0dc095f4cb708687c990fcef9dc21d5094dc1f276032d4c7"
SHARED_SEED = Path("/work/shared/seed/000_f4e34df397bff213.txt")
FILES = all_files()
IDS = sorted(by_id())


def _ids(files: object) -> list[str]:
    return [f.rel for f in files]  # type: ignore[attr-defined]


def test_knowledge_folder_has_the_documents_this_issue_ships() -> None:
    ids = set(IDS)
    expected = {
        "jilin-gpu-server",
        "regional-single-node",
        "site-template",
        "gpu-memory",
        "mixed-precision-optimizer",
        "zero-fsdp",
        "parallelism-3d",
        "activation-recompute",
        "networking",
    }
    assert expected <= ids, f"missing documents: {sorted(expected - ids)}"


@pytest.mark.parametrize("doc", FILES, ids=_ids(FILES))
def test_front_matter_has_required_keys_and_valid_values(doc) -> None:  # noqa: ANN001
    missing = [k for k in REQUIRED_KEYS if k not in doc.meta]
    assert not missing, f"{doc.rel}: front matter lacks {missing}"
    assert doc.meta["lang"] == doc.lang, f"{doc.rel}: lang differs from the file name"
    assert doc.meta["kind"] in KINDS, f"{doc.rel}: kind {doc.meta['kind']!r}"
    assert doc.meta["kind"] in AREA_KINDS[doc.area], f"{doc.rel}: kind does not fit its folder"
    assert isinstance(doc.meta["sources"], list), f"{doc.rel}: sources must be a list"
    assert all(isinstance(s, str) and s.strip() for s in doc.meta["sources"])
    assert str(doc.meta["title"]).strip(), f"{doc.rel}: empty title"
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", doc.meta["id"]), f"{doc.rel}: bad id"


@pytest.mark.parametrize("doc", FILES, ids=_ids(FILES))
def test_guides_cite_at_least_two_sources(doc) -> None:  # noqa: ANN001
    if doc.meta.get("kind") == "guide":
        assert len(doc.meta["sources"]) >= 2, f"{doc.rel}: a guide needs ≥2 sources"


@pytest.mark.parametrize("doc", FILES, ids=_ids(FILES))
def test_anchors_are_unique_and_sections_have_text(doc) -> None:  # noqa: ANN001
    anchors = doc.anchors
    assert anchors, f"{doc.rel}: no `## Heading {{#anchor}}` sections"
    assert len(anchors) == len(set(anchors)), f"{doc.rel}: duplicate anchors"
    assert "intro" not in anchors, f"{doc.rel}: `intro` is reserved for the text before headings"
    parts = re.split(r"^#{2,3} .*$", doc.body, flags=re.M)[1:]
    assert all(p.strip() for p in parts), f"{doc.rel}: a section is empty"


@pytest.mark.parametrize("doc_id", IDS)
def test_both_languages_exist_with_identical_anchor_sets(doc_id: str) -> None:
    versions = by_id()[doc_id]
    assert set(versions) == {"zh", "en"}, f"{doc_id}: languages present {sorted(versions)}"
    zh, en = versions["zh"], versions["en"]
    assert (zh.area, zh.key) == (en.area, en.key), f"{doc_id}: versions live under different names"
    assert zh.anchors == en.anchors, f"{doc_id}: anchors differ between zh and en"
    assert zh.meta.get("kind") == en.meta.get("kind"), f"{doc_id}: kind differs between languages"
    lost = len(zh.meta["sources"]) != len(en.meta["sources"])
    assert not lost, f"{doc_id}: a translation lost a source"
    assert zh.meta.get("site") is None or zh.meta["site"].keys() == en.meta["site"].keys()


def test_each_language_version_is_in_its_language() -> None:
    for doc in FILES:
        body = doc.body
        cjk = sum(1 for c in body if "\u4e00" <= c <= "\u9fff")
        share = cjk / max(1, len(body))
        if doc.lang == "zh":
            assert share > 0.15, f"{doc.rel}: too little Chinese for a zh document ({share:.2f})"
        else:
            assert share < 0.02, f"{doc.rel}: too much Chinese for an en document ({share:.2f})"


@pytest.mark.parametrize(
    "doc",
    [f for f in FILES if f.meta.get("kind") in {"site", "template"}],
    ids=_ids([f for f in FILES if f.meta.get("kind") in {"site", "template"}]),
)
def test_site_documents_have_a_complete_site_table(doc) -> None:  # noqa: ANN001
    site = doc.meta.get("site")
    assert isinstance(site, dict), f"{doc.rel}: needs a [site] table"
    missing = [k for k in SITE_REQUIRED if k not in site]
    assert not missing, f"{doc.rel}: [site] lacks {missing}"
    for count in ("nodes", "gpus_per_node"):
        assert isinstance(site[count], int), f"{doc.rel}: {count} must be an integer"
        assert site[count] >= 1, f"{doc.rel}: {count} must be at least 1"
    aliases = site["aliases"]
    assert any(re.search(r"[\u4e00-\u9fff]", a) for a in aliases), f"{doc.rel}: no Chinese alias"
    assert any(re.fullmatch(r"[ -~]+", a) for a in aliases), f"{doc.rel}: no English alias"
    if "pue" in site:
        assert site["pue"] >= 1.0


def test_regional_profile_answers_to_the_founding_documents_names() -> None:
    site = by_id()["regional-single-node"]["zh"].meta["site"]
    for name in (
        "吉林",
        "吉林GPU服务器",
        "吉林吉林gpu服务器",
        "吉林地区GPU服务器",
        "Jilin",
        "Jilin GPU server",
        "regional GPU server",
        "地方GPU服务器",
    ):
        assert name in site["aliases"], name
    assert (site["nodes"], site["gpus_per_node"]) == (1, 8)


def _shingles(text: str, n: int = 8) -> set[str]:
    flat = re.sub(r"\s+", " ", re.sub(r"\A\+\+\+.*?\+\+\+", "", text, flags=re.S)).lower()
    return {flat[i : i + n] for i in range(max(0, len(flat) - n + 1))}


def test_no_document_duplicates_another() -> None:
    bodies = {f.rel: (f.lang, _shingles(f.body)) for f in FILES}
    for (a, (la, sa)), (b, (lb, sb)) in itertools.combinations(bodies.items(), 2):
        if la != lb:
            continue
        jaccard = len(sa & sb) / max(1, len(sa | sb))
        assert jaccard < 0.5, f"{a} and {b} are near-duplicates (Jaccard {jaccard:.2f})"
    hashes = [hashlib.sha256(f.body.encode()).hexdigest() for f in FILES]
    assert len(hashes) == len(set(hashes))


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"^#{1,6}[ \t]+", "", text, flags=re.M)
    text = re.sub(r"[ \t]*\{#[^}]+\}[ \t]*$", "", text, flags=re.M)
    return re.sub(r"\s+", "", text)


def _seed_article() -> str:
    seed = SEED.read_text(encoding="utf-8")
    first_line = seed.splitlines()[0]
    second = seed.index(first_line, len(first_line))
    return seed[:second]


def test_seed_fixture_is_the_shared_seed() -> None:
    data = SEED.read_bytes()
    assert hashlib.sha256(data).hexdigest() == SEED_SHA256
    if SHARED_SEED.exists():
        assert SHARED_SEED.read_bytes() == data
    article = _normalise(_seed_article())
    assert _normalise(data.decode("utf-8")) == article * 2, "the seed holds the article twice"


def test_founding_document_contains_the_seed_article_exactly_once() -> None:
    article = _normalise(_seed_article())
    zh = parse_file(KNOWLEDGE / "founding" / "jilin-gpu-server.zh.md")
    body = _normalise(zh.body)
    assert body == article, "the Chinese founding document must be the seed article, unchanged"
    assert body.count(article[:60]) == 1, "the article must appear once"
    assert zh.meta["id"] == "jilin-gpu-server"
    assert zh.meta["kind"] == "founding"


def test_founding_headings_are_the_seed_section_titles() -> None:
    zh = parse_file(KNOWLEDGE / "founding" / "jilin-gpu-server.zh.md")
    seed_lines = set(_seed_article().splitlines())
    titles = re.findall(r"^## (.*?) \{#", zh.body, flags=re.M)
    assert len(titles) == 5
    assert all(t in seed_lines for t in titles)


@pytest.mark.parametrize("doc_id", IDS)
def test_golden_queries_cover_each_document(doc_id: str) -> None:
    path = GOLDEN / f"{doc_id}.jsonl"
    assert path.exists(), f"no golden queries for {doc_id}"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert len(rows) >= 3
    kinds = {r["kind"] for r in rows}
    assert {"zh", "en", "cross"} <= kinds, f"{doc_id}: golden kinds {sorted(kinds)}"
    anchors = set(by_id()[doc_id]["en"].anchors) | {"intro"}
    for row in rows:
        assert row["expected_doc"] == doc_id
        assert row["lang"] in {"zh", "en"}
        assert row["query"].strip()
        assert row.get("expected_anchor", "intro") in anchors, row


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_filled_in_template_is_a_site_the_parser_resolves(tmp_path: Path, lang: str) -> None:
    from assistant.parse import parse
    from assistant.retrieval.documents import read_document, site_profile

    text = (KNOWLEDGE / "sites" / f"template.{lang}.md").read_text(encoding="utf-8")
    assert 'kind = "template"' in text
    text = text.replace('kind = "template"', 'kind = "site"')
    text = text.replace('id = "site-template"', 'id = "our-cluster"')
    path = tmp_path / f"our-cluster.{lang}.md"
    path.write_text(text, encoding="utf-8")
    profile = site_profile(read_document(path, source=str(path), key="documents/our-cluster"))
    assert profile is not None
    assert (profile.id, profile.nodes, profile.gpus_per_node) == ("our-cluster", 2, 8)
    for question in ("我们的集群能训练70B吗", "Can our cluster fine-tune a 70B model?"):
        assert parse(question, sites=(profile,)).scenario.site_profile == "our-cluster"


def test_the_template_itself_is_not_a_site() -> None:
    from assistant.retrieval.documents import read_document, site_profile

    path = KNOWLEDGE / "sites" / "template.en.md"
    assert site_profile(read_document(path, source="sites/template.en.md", key="t")) is None


@pytest.mark.parametrize(
    "question",
    [
        "吉林GPU服务器能训练千亿模型吗",
        "吉林吉林gpu服务器适合训练大模型吗",
        "Can a Jilin GPU server fine-tune Llama-2-70B?",
        "地方GPU服务器能跑70B推理吗",
    ],
)
def test_founding_names_resolve_to_the_regional_profile(question: str) -> None:
    from assistant.parse import parse
    from assistant.retrieval.documents import read_document, site_profile

    profiles = []
    for lang in ("zh", "en"):
        path = KNOWLEDGE / "sites" / f"regional-single-node.{lang}.md"
        profiles.append(site_profile(read_document(path, source=path.name, key=path.name)))
    assert parse(question, sites=tuple(profiles)).scenario.site_profile == "regional-single-node"
