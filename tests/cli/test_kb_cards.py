"""Users extend the catalogs with `kb add`: GPU and model cards from the templates, a Hugging
Face config.json, and site profiles checked when added (real index, encoder and CLI)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli
from calculators.catalog.extend import forget_user_cards
from tests.calculators.test_user_cards import HF_CONFIGS

SITE_TEMPLATE = Path(__file__).parents[2] / "knowledge" / "sites" / "template.en.md"
# mistralai/Mixtral-8x7B-v0.1 config.json (the keys that set the shape, as the catalog test
# has them) plus keys the card reader must ignore.
MIXTRAL_CONFIG = {
    **HF_CONFIGS["Mixtral-8x7B"],
    "architectures": ["MixtralForCausalLM"],
    "rope_theta": 1e6,
}


@pytest.fixture(autouse=True)
def _shipped_catalogs() -> Iterator[None]:
    yield
    forget_user_cards()  # later tests in this process see the shipped catalogs only


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _card(tmp_path: Path, kind: str, *edits: tuple[str, str]) -> Path:
    text = run("kb", "template", kind).output
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"my-{kind}.md"
    path.write_text(text, encoding="utf-8")
    return path


def _site(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    text = SITE_TEMPLATE.read_text(encoding="utf-8")
    text = text.replace('kind = "template"', 'kind = "site"').replace(
        'id = "site-template"', 'id = "lab-cluster"'
    )
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "lab-cluster.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_gpu_card_from_the_template_is_used_by_calc_and_ask(
    kb_home: Path, tmp_path: Path
) -> None:
    added = run("kb", "add", str(_card(tmp_path, "gpu")))
    assert added.exit_code == 0, added.output
    shown = run("calc", "gpus", "Lab X1")
    assert shown.exit_code == 0
    assert "48.0 GB" in shown.output
    serve = json.loads(
        run("calc", "infer", "--model", "llama-2-7b", "--gpu", "Lab X1", "--json").output
    )
    assert serve["plan"]["gpu"] == "Lab X1 48GB"
    answer = json.loads(run("ask", "--json", "Can 4 Lab X1 serve Llama-2-7B?").output)
    assert answer["scenario"]["gpu"] == "Lab X1 48GB"


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (("tdp_W = 300", "tdp_W = 300\nclock_MHz = 2000"), "gpu.clock_MHz"),
        (("memory_GB = 48", "memory_GB = -4"), "gpu.memory_GB=-4"),
        (("memory_GB = 48", "memory_GB = nan"), "finite"),
        (('intra_link = "PCIe Gen4"', 'intra_link = "Warp drive"'), "unknown link"),
        (('name = "Lab X1 48GB"', 'name = "H100"'), "already names H100 SXM 80GB"),
    ],
)
def test_a_bad_gpu_card_is_refused_with_the_reason(
    kb_home: Path, tmp_path: Path, edit: tuple[str, str], reason: str
) -> None:
    result = run("kb", "add", str(_card(tmp_path, "gpu", edit)))
    assert result.exit_code == 2
    assert "refused" in result.output
    assert reason in result.output
    assert "gpu-my-card" not in run("kb", "list").output


def test_a_config_json_is_added_as_a_model_card_with_its_exact_shape(
    kb_home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "Lab-MoE-47B"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(MIXTRAL_CONFIG), encoding="utf-8")
    added = run("kb", "add", str(folder / "config.json"))
    assert added.exit_code == 0, added.output
    assert "Lab-MoE-47B.md" in added.output  # kept as the Markdown card it describes
    shown = json.loads(run("calc", "models", "Lab-MoE-47B", "--json").output)
    assert (shown["params"], shown["active_params"]) == (46_702_792_704, 12_879_925_248)
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    assert run("kb", "add", str(tmp_path / "package.json")).exit_code == 2


def test_the_model_template_adds_a_model(kb_home: Path, tmp_path: Path) -> None:
    assert run("kb", "add", str(_card(tmp_path, "model"))).exit_code == 0
    shown = json.loads(run("calc", "models", "Lab-Chat-8B", "--json").output)
    assert shown["params"] == 8_030_261_248  # the Llama-3.1-8B shape of the template
    wrong = _card(tmp_path, "model", ("params_published = 8.03e9", "params_published = 70e9"))
    result = run("kb", "add", str(wrong))
    assert result.exit_code == 2
    assert "8,030,261,248" in result.output


@pytest.mark.parametrize(
    ("edit", "reason", "reason_zh"),
    [
        (("nodes = 2", "nodes = -4"), "'nodes' must be a positive integer", "正整数"),
        (('gpu = "H100 SXM 80GB"', 'gpu = "Foo 9000"'), "'gpu'", "不在目录中"),
        (('inter_link = "InfiniBand NDR"', 'inter_link = "pigeon"'), "'inter_link'", "不在目录"),
        (("pue = 1.3", "pue = 1.3\nnodez = 3"), "unknown field 'nodez'", "未知字段"),
        (("pue = 1.3", "pue = 0.5"), "at least 1.0", "至少为 1.0"),
        (("pue = 1.3", 'pue = 1.3\nhost_ram_GB = "1T"'), "'host_ram_GB'", "正数"),
    ],
)
def test_a_bad_site_profile_is_refused_when_added(
    kb_home: Path, tmp_path: Path, edit: tuple[str, str], reason: str, reason_zh: str
) -> None:
    path = _site(tmp_path, edit)
    result = run("kb", "add", str(path))
    assert result.exit_code == 2
    assert reason in result.output, result.output
    chinese = run("kb", "--lang", "zh", "add", str(path))
    assert chinese.exit_code == 2
    assert reason_zh in chinese.output, chinese.output


def test_a_site_names_a_gpu_card_and_states_its_host_ram(kb_home: Path, tmp_path: Path) -> None:
    assert run("kb", "add", str(_card(tmp_path, "gpu"))).exit_code == 0
    forget_user_cards()  # a later `kb add` (a new process) finds the card among the documents
    site = _site(
        tmp_path,
        ('gpu = "H100 SXM 80GB"', 'gpu = "Lab X1"'),
        (
            'aliases = ["our cluster", "my cluster", "我们的集群", "我们的服务器"]',
            'aliases = ["lab cluster"]',
        ),
        ("pue = 1.3", "pue = 1.3\nhost_ram_GB = 256"),
    )
    added = run("kb", "add", str(site))
    assert added.exit_code == 0, added.output
    answer = json.loads(run("ask", "--json", "Can the lab cluster serve Llama-2-7B?").output)
    assert answer["scenario"]["gpu"] == "Lab X1 48GB"
    # host_ram_GB counts as `free -g` prints it and as server memory is sold: 256 GiB
    assert answer["scenario"]["host_ram_bytes"] == 256 * 2**30


def test_a_card_name_with_markup_is_shown_as_written(kb_home: Path, tmp_path: Path) -> None:
    # A card's name is untrusted text: Rich markup in it stays literal in every calc table.
    evil = "[bold red]Evil[/bold red] X9"
    card = _card(
        tmp_path,
        "gpu",
        ('name = "Lab X1 48GB"', f'name = "{evil}"'),
        ('aliases = ["X1", "Lab X1"]', 'aliases = ["Evil X9"]'),
    )
    assert run("kb", "add", str(card)).exit_code == 0
    shown = run("calc", "gpus", "Evil X9").output
    assert shown.splitlines()[0].strip() == evil  # the title, not a styled "Evil X9"
    listing = run("calc", "infer", "--model", "llama-2-7b", "--gpu", "Evil X9").output
    assert evil in listing


@pytest.mark.parametrize("kind", ["gpu", "model", "site"])
@pytest.mark.parametrize(("lang", "needle"), [("en", "template"), ("zh", "模板")])
def test_every_template_prints_in_both_languages(kind: str, lang: str, needle: str) -> None:
    shown = run("kb", "template", kind, "--lang", lang)
    assert shown.exit_code == 0
    assert shown.output.startswith("+++")
    assert needle in shown.output
    assert f'lang = "{lang}"' in shown.output
