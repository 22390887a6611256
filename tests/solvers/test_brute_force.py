"""The exhaustive reference: every order scored, every optimum listed."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.brute_force import (
    MAX_BRUTE_FORCE,
    all_order_costs,
    brute_force_linear_ordering,
)


def _naive_cost(costs: np.ndarray, order: tuple[int, ...]) -> float:
    """Placing order[a] above order[b] pays costs[order[b], order[a]]: a double loop."""
    return float(sum(costs[order[b], order[a]] for a in range(len(order)) for b in range(a + 1, len(order))))


matrices = st.integers(1, 6).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, 4), min_size=n, max_size=n), min_size=n, max_size=n)
).map(lambda rows: np.array(rows, dtype=float) * (1 - np.eye(len(rows))))


@given(matrices)
def test_every_order_is_scored_like_the_double_loop(costs):
    orders, values = all_order_costs(costs)
    assert len(orders) == len(list(itertools.permutations(range(len(costs)))))
    for order, value in zip(orders, values):
        assert value == pytest.approx(_naive_cost(costs, tuple(order)))


@given(matrices)
def test_optima_are_exactly_the_cheapest_orders(costs):
    res = brute_force_linear_ordering(costs)
    every = {order: _naive_cost(costs, order) for order in itertools.permutations(range(len(costs)))}
    best = min(every.values())
    assert res.objective == best
    assert set(res.optima) == {o for o, v in every.items() if v == best}
    assert list(res.optima) == sorted(res.optima) and res.order == res.optima[0]
    assert res.unique == (len(res.optima) == 1)
    assert res.n_orders == len(every)


def test_three_cycle_has_three_optima():
    res = brute_force_linear_ordering([[0, 2, 1], [1, 0, 2], [2, 1, 0]])
    assert (res.objective, res.optima, res.unique) == (4.0, ((0, 1, 2), (1, 2, 0), (2, 0, 1)), False)


def test_two_items_and_the_direction_of_costs():
    # costs[0, 1] = 3: three units prefer 0 to 1, so 0 goes first and pays costs[1, 0] = 1
    res = brute_force_linear_ordering([[0, 3], [1, 0]])
    assert (res.order, res.objective, res.unique) == ((0, 1), 1.0, True)


def test_costs_within_tol_are_equal():
    costs = np.array([[0, 1 + 1e-12], [1, 0]])
    assert brute_force_linear_ordering(costs, tol=1e-9).optima == ((0, 1), (1, 0))
    assert brute_force_linear_ordering(costs, tol=0.0).optima == ((0, 1),)
    # by default only float rounding of the pair's own sums is a tie: 1e-12 is a true margin
    assert brute_force_linear_ordering(costs).optima == ((0, 1),)
    assert brute_force_linear_ordering([[0, 0.1 + 0.2], [0.3, 0]]).optima == ((0, 1), (1, 0))


def test_single_item():
    res = brute_force_linear_ordering([[0.0]])
    assert (res.order, res.objective, res.optima) == ((0,), 0.0, ((0,),))


@pytest.mark.parametrize(
    ("costs", "message"),
    [
        (np.zeros((2, 3)), "square"),
        (np.array([[0, np.nan], [1, 0]]), "finite"),
        (np.zeros((MAX_BRUTE_FORCE + 1,) * 2), "at most 8"),
    ],
)
def test_bad_input_is_refused(costs, message):
    with pytest.raises(ValueError, match=message):
        brute_force_linear_ordering(costs)
