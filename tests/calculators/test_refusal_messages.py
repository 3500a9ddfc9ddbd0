"""A refused calculator input names its reason as a catalog message, not a sentence pair."""

from __future__ import annotations

import pytest

from assistant.i18n import catalog, input_error
from calculators.catalog.hardware import lookup_gpu
from calculators.errors import CalculatorInputError, UnknownNameError
from calculators.messages import Msg
from calculators.validate import check_choice, check_count, check_positive


@pytest.mark.parametrize(
    "refuse",
    [
        lambda: check_count("gpus", 0),
        lambda: check_positive("mfu", -1.0),
        lambda: check_choice("optimizer", "sgdx", {"adamw", "sgd"}),
        lambda: lookup_gpu("V100").dense_flops_per_s("fp8"),
    ],
)
def test_reason_is_a_catalog_message(refuse: object) -> None:
    with pytest.raises(CalculatorInputError) as info:
        refuse()  # type: ignore[operator]
    reason = info.value.reason
    assert isinstance(reason, Msg)
    assert reason.key in catalog()
    assert str(info.value).isascii()  # str() stays English
    assert info.value.reason_text("zh") != info.value.reason_text("en")


def test_refusal_words_come_from_the_catalog_in_each_language() -> None:
    with pytest.raises(CalculatorInputError) as info:
        check_count("gpus", 0)
    assert str(info.value) == "gpus=0: must be at least 1"
    assert input_error(info.value, "zh") == "gpus=0：必须至少为 1"
    choices = CalculatorInputError("optimizer", "x", Msg("invalid.one_of", options=("a", "b")))
    assert choices.localized("zh") == "optimizer='x'：必须是以下之一：a、b"
    assert choices.localized("en") == "optimizer='x': must be one of: a, b"


def test_unknown_name_without_a_close_entry_is_all_chinese() -> None:
    # The old Chinese text left "none close" in English.
    error = UnknownNameError("gpu", "zz", [])
    assert error.localized("zh") == "gpu='zz'：不在目录中（没有相近的）"
    assert str(error) == "gpu='zz': not in the catalog (closest: none close)"
