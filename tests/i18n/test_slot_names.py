"""Every scenario slot has its name in the message catalog, in both languages.

A follow-up's "Changed from the previous question: …" line and a refused value's message name the
slot through `parse.slot.<name>`; a slot added to `Scenario` without its name made the follow-up
"what about with an FP8 KV cache?" fail with an internal error (KeyError 'parse.slot.kv_dtype').
"""

from __future__ import annotations

import dataclasses

import pytest

from assistant.config import Settings
from assistant.i18n import Msg, text
from assistant.records import Scenario

SLOTS = [f.name for f in dataclasses.fields(Scenario)]


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("slot", SLOTS)
def test_every_scenario_slot_is_named(slot: str, language: str) -> None:
    assert text(Msg(f"parse.slot.{slot}"), language).strip()


def test_a_kv_format_follow_up_names_the_slot_it_changed(kb_home: object) -> None:
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings, retriever = Settings(), open_test_retriever()
    first = answer(
        "Serve Llama-3-70B on 4x H100 at 32k context with 16 users",
        settings=settings,
        retriever=retriever,
    )
    then = answer(
        "what about with an FP8 KV cache?",
        settings=settings,
        retriever=retriever,
        previous=first.query,
    )
    assert then.query.scenario.kv_dtype == "fp8"
    assert "KV-cache format" in then.text
