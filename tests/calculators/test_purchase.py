"""Buying at a stated price: whole units a budget buys, the money left, and a count's cost."""

from __future__ import annotations

import pytest

from calculators.errors import CalculatorInputError
from calculators.purchase import purchase_cost, units_bought


@pytest.mark.parametrize(
    ("budget", "price", "units", "left"),
    [
        (5_000_000, 1_200_000, 4, 200_000),  # 4.17 servers: rounded down
        (100_000_000, 2_000_000, 50, 0),  # exactly 50: nothing left
        (300_000, 400_000, 0, 300_000),  # boundary: not one
        (400_000, 400_000, 1, 0),  # boundary: exactly one
    ],
)
def test_units_bought(budget: float, price: float, units: int, left: float) -> None:
    assert units_bought(budget=budget, unit_price=price) == (units, pytest.approx(left))


def test_units_and_cost_agree() -> None:
    """What the units cost plus what is left is the budget (invariant)."""
    units, left = units_bought(budget=2_000_000, unit_price=300_000)
    assert purchase_cost(units=units, unit_price=300_000) + left == pytest.approx(2_000_000)


@pytest.mark.parametrize(("budget", "price"), [(0, 1_000), (1_000, 0), (-5, 10), (1e20, 10)])
def test_refuses_what_is_not_money(budget: float, price: float) -> None:
    with pytest.raises(CalculatorInputError):
        units_bought(budget=budget, unit_price=price)
