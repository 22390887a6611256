"""The naive full ILP: exact against brute force, and a cross-check of the package's exact solver."""

from __future__ import annotations

import ast
import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
import solvers.ordering_naive as naive
from solvers import SolveStatus, available_backends
from solvers.brute_force import brute_force_linear_ordering
from solvers.linear_ordering import solve_linear_ordering
from solvers.ordering_costs import ordering_cost
from solvers.ordering_naive import MAX_NAIVE, NaiveOutcome, solve_naive_ilp
from tests.strategies import (
    raw_cost_matrices,
    seeds,
    tournament_costs,
    voted_cost_matrices,
)


@pytest.fixture(scope="module", params=available_backends())
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


raw_costs = raw_cost_matrices(8)
voted_costs = voted_cost_matrices(8)

# real weights with no common lattice: the relative gap applies
real_costs = st.integers(3, 7).flatmap(
    lambda n: st.lists(st.floats(0, 3, allow_nan=False, allow_subnormal=False), min_size=n * n, max_size=n * n).map(
        lambda v: np.array(v).reshape(n, n) * (1 - np.eye(n))
    )
)


def _check_against_brute_force(costs: np.ndarray, backend: str) -> None:
    ref = brute_force_linear_ordering(costs)
    res = solve_naive_ilp(costs, backend=backend)
    assert res.status is SolveStatus.OPTIMAL and res.optimal
    assert res.order in ref.optima
    assert res.objective == ref.objective == ordering_cost(costs, res.order)
    assert res.lower_bound == res.objective  # costs on a lattice: the bound is exact
    n = len(costs)
    assert res.n_rows == n * (n - 1) // 2 + n * (n - 1) * (n - 2) // 3


# ---------------------------------------------------------------- exactness, n <= 8
@given(costs=raw_costs)
def test_naive_ilp_matches_brute_force_on_raw_matrices(costs, backend):
    _check_against_brute_force(costs, backend)


@given(costs=voted_costs)
def test_naive_ilp_matches_brute_force_on_tournaments_with_majority_ties(costs, backend):
    _check_against_brute_force(costs, backend)


@given(costs=real_costs)
def test_naive_ilp_matches_brute_force_with_incommensurable_weights(costs):
    ref = brute_force_linear_ordering(costs)
    res = solve_naive_ilp(costs)
    assert res.status is SolveStatus.OPTIMAL
    iu, ju = np.triu_indices(len(costs), 1)
    tol = 1e-9 * np.maximum(costs[iu, ju], costs[ju, iu]).sum() + 1e-12  # the documented gap, and float sums
    assert ref.objective - tol <= res.lower_bound <= res.objective <= ref.objective + tol


def test_a_tiny_real_margin_is_not_lost_to_the_solver_tolerance():
    # optimum 0 (item 3 above item 2 costs 2**-23 otherwise): below HiGHS's 1e-6 without scaling
    costs = np.zeros((4, 4))
    costs[1, 3], costs[3, 2] = 1.0, 2.0**-23
    res = solve_naive_ilp(costs)
    assert res.objective == 0.0 == brute_force_linear_ordering(costs).objective


# ---------------------------------------------------------------- conventions and edges
def test_costs_are_paid_when_the_column_item_is_placed_above():
    # placing 1 above 0 pays costs[0, 1] = 1, the reverse pays costs[1, 0] = 3
    res = solve_naive_ilp(np.array([[0.0, 1.0], [3.0, 0.0]]))
    assert (res.order, res.objective, res.lower_bound, res.n_rows) == ((1, 0), 1.0, 1.0, 1)


def test_a_three_cycle_costs_its_cheapest_break():
    cycle = np.array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], dtype=float)
    res = solve_naive_ilp(cycle)
    assert res.objective == 4.0 and res.order in brute_force_linear_ordering(cycle).optima


def test_the_diagonal_is_ignored():
    costs = np.array([[9, 2, 3], [1, 9, 2], [0, 1, 9]], dtype=float)
    assert solve_naive_ilp(costs).objective == 2.0


@pytest.mark.parametrize("n", [0, 1])
def test_nothing_to_order(n):
    res = solve_naive_ilp(np.zeros((n, n)))
    assert (res.order, res.objective, res.lower_bound, res.status, res.n_rows) == (
        tuple(range(n)), 0.0, 0.0, SolveStatus.OPTIMAL, 0
    )


def test_the_outcome_is_frozen():
    res = solve_naive_ilp([[0, 1], [2, 0]])
    assert isinstance(res, NaiveOutcome)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.objective = 0.0  # type: ignore[misc]


def test_no_time_left_gives_no_order_and_the_trivial_bound():
    costs = tournament_costs(8, 3, 0)
    res = solve_naive_ilp(costs, time_limit=0.0)
    assert res.status is SolveStatus.TIME_LIMIT and not res.optimal
    assert res.order is None and res.objective == math.inf
    iu, ju = np.triu_indices(8, 1)
    assert res.lower_bound == np.minimum(costs[iu, ju], costs[ju, iu]).sum()


def test_a_generous_time_limit_still_proves_optimality():
    costs = tournament_costs(8, 5, 1)
    res = solve_naive_ilp(costs, time_limit=60.0)
    assert res.optimal and res.objective == brute_force_linear_ordering(costs).objective


@pytest.mark.parametrize(
    ("costs", "match"),
    [
        (np.zeros((2, 3)), r"must be square, got shape \(2, 3\)"),
        (np.zeros(4), r"must be square, got shape \(4,\)"),
        (np.array([[0.0, np.nan], [1.0, 0.0]]), "must be finite"),
        (np.array([[0.0, np.inf], [1.0, 0.0]]), "must be finite"),
        (np.zeros((MAX_NAIVE + 1, MAX_NAIVE + 1)), rf"accepts at most {MAX_NAIVE}; use solvers\.linear_ordering"),
    ],
    ids=["rectangular", "vector", "nan", "inf", "too-large"],
)
def test_bad_input_is_refused(costs, match):
    with pytest.raises(ValueError, match=match):
        solve_naive_ilp(costs)


def test_a_nan_time_limit_is_refused():
    with pytest.raises(ValueError, match="time_limit"):
        solve_naive_ilp(np.zeros((3, 3)), time_limit=float("nan"))


def test_the_naive_model_shares_no_code_path_with_the_package_solver():
    tree = ast.parse(Path(naive.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not imported & {"linear_ordering", "ordering_model", "ordering_search", "ordering_heuristics"}
    assert not any(m and m.startswith(("solvers.linear_ordering", "solvers.ordering_model")) for m in imported)


# ---------------------------------------------------------------- cross-check beyond brute force
#: (n_systems, phi, seeds). Pure noise (phi = 0) is the hard case: at 60 systems one seed
#: takes 2-5 s for the naive ILP and 0.4-5 s for the package (phi = 0.05: about 1.5 s and
#: 0.03 s). Three seeds per cell in the ci profile (about 35 s on 2 cores), 5-6 in thorough.
_CELLS = [
    (20, 0.0, seeds(5)),
    (20, 0.05, seeds(5)),
    (40, 0.0, seeds(5)),
    (40, 0.05, seeds(5)),
    (60, 0.0, seeds(6)),
    (60, 0.05, seeds(5)),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n_systems", "phi", "seed"),
    [(n, phi, seed) for n, phi, seeds in _CELLS for seed in seeds],
    ids=lambda v: str(v),
)
def test_the_package_solver_agrees_with_the_naive_ilp_on_gumbel_leaderboards(n_systems, phi, seed):
    costs = cs.pairwise(cs.datasets.gumbel_leaderboard(n_systems, 20, phi=phi, seed=seed)).preferences
    res = solve_linear_ordering(costs)
    ref = solve_naive_ilp(costs)
    assert res.status is SolveStatus.OPTIMAL and ref.status is SolveStatus.OPTIMAL
    assert res.objective == ref.objective
    assert res.lower_bound == res.objective
    assert ordering_cost(costs, res.order) == res.objective
