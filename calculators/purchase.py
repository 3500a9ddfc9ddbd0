"""Buying hardware at a stated price: how many whole servers or cards a budget buys, and what
a number of them costs. Prices are the user's (vendors' quotes); the catalog has none.

Examples:
    >>> units_bought(budget=5_000_000, unit_price=1_200_000)  # 4 servers, 200,000 left
    (4, 200000.0)
    >>> purchase_cost(units=8, unit_price=250_000)
    2000000.0
"""

from __future__ import annotations

import math

from calculators.validate import check_count, check_positive

__all__ = ["purchase_cost", "units_bought"]

#: Sums of money past this are no budget or price (a typo or a refusal test).
_MAX_MONEY = 1e15


def units_bought(*, budget: float, unit_price: float) -> tuple[int, float]:
    """Whole units (servers or cards) ``budget`` buys at ``unit_price`` each, rounded down (half
    a server cannot be bought), and the money left; (0, budget) when it buys not one.

    Examples:
        >>> units_bought(budget=100_000_000, unit_price=2_000_000)  # exactly 50
        (50, 0.0)
        >>> units_bought(budget=300_000, unit_price=400_000)  # 100,000 short of one
        (0, 300000.0)
    """
    check_positive("budget", budget, maximum=_MAX_MONEY)
    check_positive("purchase_price", unit_price, maximum=_MAX_MONEY)
    units = math.floor(budget / unit_price + 1e-9)
    return units, max(float(budget) - units * float(unit_price), 0.0)


def purchase_cost(*, units: int, unit_price: float) -> float:
    """What ``units`` servers or cards cost at ``unit_price`` each.

    Examples:
        >>> purchase_cost(units=4, unit_price=300_000)
        1200000.0
    """
    check_count("units", units, maximum=10**7)
    return float(units) * check_positive("purchase_price", unit_price, maximum=_MAX_MONEY)
