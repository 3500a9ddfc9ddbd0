"""A skipped file's reason is stored in the manifest as a message (key and parameters)."""

from __future__ import annotations

import json

from assistant.i18n import text
from assistant.retrieval.loading import Skipped
from calculators.messages import Msg


def test_a_reason_with_nested_messages_and_lists_survives_the_manifest() -> None:
    reason = Msg(
        "errors.doc.site_field",
        field="gpu",
        reason=Msg("errors.text_pair", en="not in the catalog", zh="不在目录中"),
    )
    skipped = Skipped("sites/x.md", reason)
    row = json.loads(json.dumps(skipped.to_record()))
    assert Skipped.from_record(row) == skipped
    listed = Skipped("a.md", Msg("index.reason.added", files=("a.md", "b.md")))
    assert Skipped.from_record(json.loads(json.dumps(listed.to_record()))) == listed


def test_a_manifest_written_before_reasons_were_messages_still_reads_in_both_languages() -> None:
    old = {"source": "guides/broken.md", "reason": "the document is empty", "reason_zh": "文档为空"}
    skipped = Skipped.from_record(old)
    assert text(skipped.reason, "en") == "the document is empty"
    assert text(skipped.reason, "zh") == "文档为空"
