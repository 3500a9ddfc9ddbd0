"""Each cited passage must support its sentence: the right section, about the right GPU.

The e2e tests run the real retriever over the shipped knowledge; each names a citation that
would be wrong (the TDP table's intro instead of its rows, an NVLink table for a 25GbE
question, a training passage for an inference memory claim) and checks it is not chosen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.compose import cite_check, claim_kind, compose, lead_in, mention_terms
from assistant.config import Settings
from assistant.pipeline import answer
from assistant.records import Check, Passage, Scenario
from tests.conftest import open_test_retriever


def _check(kind: str) -> Check:
    return Check(kind=kind, verdict="ok", summary=f"{kind} sentence")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "scenario", "expected"),
    [
        ("memory", Scenario(task="pretrain"), "memory-train"),
        ("memory", Scenario(task="finetune", method="lora"), "memory-lora"),
        ("memory", Scenario(task="inference", precision="fp16"), "memory-inference"),
        ("memory", Scenario(task="inference", precision="int4"), "memory-quantized"),
        ("compute", Scenario(task="inference"), "compute-inference"),
        ("network", Scenario(nodes=2, inter_link="InfiniBand NDR"), "network-infiniband"),
        ("network", Scenario(nodes=2, inter_link="25GbE"), "network-ethernet"),
        ("network", Scenario(nodes=1, gpu="H100 SXM 80GB"), "network-nvlink"),
        # a PCIe card has no NVLink fabric: its single-node traffic is a PCIe claim
        ("network", Scenario(nodes=1, gpu="A100 PCIe 80GB"), "network-pcie"),
        ("power", Scenario(), "power"),
    ],
)
def test_claim_kind(kind: str, scenario: Scenario, expected: str) -> None:
    assert claim_kind(kind, scenario) == expected


def test_mention_terms_name_chip_and_form_factor() -> None:
    assert mention_terms(Scenario(gpu="H100 SXM 80GB")) == (("H100", "SXM"), ())
    assert mention_terms(Scenario(gpu="RTX 4090 24GB", model="Llama-2-70B", params=6.9e10)) == (
        ("4090",),
        ("Llama-2-70B", "69B"),
    )


def test_lead_in_passages_are_recognised() -> None:
    intro = Passage("a", "d", "s", "t", "h", "Values from the datasheets:", "en")
    table = Passage("b", "d", "s", "t", "h", "| GPU | TDP |\n|---|---|\n| T4 | 70 W |", "en")
    assert lead_in(intro)
    assert not lead_in(table)


def _cited(kind: str, scenario: Scenario, language: str = "en") -> list[Passage]:
    retriever = open_test_retriever()
    citations = cite_check(_check(kind), scenario, language, retriever)  # type: ignore[arg-type]
    assert citations, f"nothing cited for {kind}"
    for citation in citations:
        assert not lead_in(citation.passage), citation.passage.text
    return [c.passage for c in citations]


def _row_names(passage: Passage, chip: str) -> bool:
    pattern = rf"^\|[^|\n]*(?<![A-Za-z0-9]){re.escape(chip)}(?![0-9])"
    return re.search(pattern, passage.text, re.MULTILINE) is not None


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("gpu", "chip", "language"),
    [("H100 SXM 80GB", "H100", "en"), ("A100 PCIe 80GB", "A100", "zh"), ("T4", "T4", "en")],
)
def test_power_cites_the_tdp_row_of_this_gpu(
    kb_home: Path, gpu: str, chip: str, language: str
) -> None:
    passages = _cited("power", Scenario(task="pretrain", gpu=gpu, nodes=1), language)
    assert passages[0].doc_id == "power-cooling-reliability"
    assert _row_names(passages[0], chip), passages[0].text


@pytest.mark.e2e
def test_network_over_ethernet_cites_ethernet_not_nvlink(kb_home: Path) -> None:
    scenario = Scenario(task="pretrain", gpu="A100 PCIe 80GB", nodes=4, inter_link="25GbE")
    passages = _cited("network", scenario)
    anchors = {p.anchor for p in passages}
    assert "ethernet-roce" in anchors
    assert "nvlink" not in anchors


@pytest.mark.e2e
def test_inference_memory_cites_inference_sections(kb_home: Path) -> None:
    scenario = Scenario(task="inference", gpu="T4", model="Llama-2-7B", precision="fp16")
    passages = _cited("memory", scenario, "zh")
    assert {p.anchor for p in passages} <= {"inference-weights", "kv-cache"}
    assert all(p.lang == "zh" for p in passages)


@pytest.mark.e2e
def test_qlora_memory_cites_the_finetuning_section(kb_home: Path) -> None:
    scenario = Scenario(task="finetune", method="qlora", gpu="RTX 4090 24GB", params=7e10)
    assert {p.anchor for p in _cited("memory", scenario)} == {"finetuning"}


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("question", "doc", "text"),
    [
        ("What is the KV cache?", "inference-serving", "KV"),
        ("如何检查NCCL是否走了IB", "networking", "NCCL_DEBUG"),
        ("ZeRO-3 是什么?", "zero-fsdp", "ZeRO-3"),
    ],
)
def test_conceptual_questions_quote_cited_passages(
    kb_home: Path, question: str, doc: str, text: str
) -> None:
    result = answer(question, settings=Settings(), retriever=open_test_retriever())
    assert result.verdict == "unknown"
    assert doc in {c.passage.doc_id for c in result.citations}
    assert all(c.passage.lang == result.language for c in result.citations)
    body = result.text.split("###")[1]  # the first section quotes the passages themselves
    assert text in body
    assert "> " in body
    assert "[1]" in body


@pytest.mark.e2e
@pytest.mark.parametrize("question", ["今天天气怎么样", "How do I make a lasagna?"])
def test_off_topic_questions_cite_nothing(kb_home: Path, question: str) -> None:
    result = answer(question, settings=Settings(), retriever=open_test_retriever())
    assert result.verdict == "unknown"
    assert result.citations == ()


@pytest.mark.e2e
def test_named_gpus_get_datasheet_facts_and_the_spec_table(kb_home: Path) -> None:
    result = answer("H100 和 A100 有什么区别", settings=Settings(), retriever=open_test_retriever())
    assert "989.4 TFLOP/s" in result.text
    assert "312.0 TFLOP/s" in result.text
    assert "gpu-generations" in {c.passage.doc_id for c in result.citations}


def test_compose_without_retriever_still_renders_concept_answers() -> None:
    from assistant.calculate import calculate
    from assistant.parse import parse

    query = parse("What is the KV cache?")
    result = compose(query, calculate(query), None)
    assert result.verdict == "unknown"
    assert "No passage of the knowledge base" in result.text
    assert "add the model" in result.text  # what to add for a verdict
